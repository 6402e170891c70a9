/** The kubelet's record files and credential merge, for the conformance runner, the fuzzer and the store tests. */
export {
  currentRecordApiVersion,
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
} from "../pull-credentials/codec.js";
export { mergeCredentials } from "../pull-credentials/merge.js";
export {
  parseImagePullCredentials,
  pulledRecordFromJson,
  pulledRecordToJson,
} from "../pull-credentials/schema.js";

export { storageFileName } from "../hashing.js";
export {
  FileSystemPullRecordStore,
  type FileSystemPullRecordStoreOptions,
  maxRecordFileBytes,
  staleTemporaryMs,
} from "./fs-store.js";

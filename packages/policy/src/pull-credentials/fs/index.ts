export { storageFileName } from "../hashing.js";
export {
  type FileSystemOpenReport,
  FileSystemPullRecordStore,
  type FileSystemPullRecordStoreOptions,
  maxRecordFileBytes,
  staleTemporaryMs,
} from "./fs-store.js";

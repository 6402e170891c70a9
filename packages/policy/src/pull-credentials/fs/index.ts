export {
  type FileSystemOpenReport,
  FileSystemPullRecordStore,
  type FileSystemPullRecordStoreOptions,
  maxRecordFileBytes,
  staleTemporaryMs,
  storageFileName,
} from "./fs-store.js";

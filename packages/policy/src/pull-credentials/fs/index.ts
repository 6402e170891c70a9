export {
  type FileSystemOpenReport,
  FileSystemPullRecordStore,
  type FileSystemPullRecordStoreOptions,
  storageFileName,
} from "./fs-store.js";

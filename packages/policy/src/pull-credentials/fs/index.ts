export { storageFileName } from "../hashing.js";
export {
  type FileSystemOpenReport,
  FileSystemPullRecordStore,
  type FileSystemPullRecordStoreOptions,
} from "./fs-store.js";

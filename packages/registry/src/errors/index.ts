export {
  checkArgument,
  DISTRIBUTION_ERROR_CODES,
  isRegistryError,
  RegistryError,
  type RegistryErrorCode,
  type RegistryErrorDetails,
} from "./registry-error.js";

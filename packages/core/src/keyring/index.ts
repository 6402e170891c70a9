export {
  type DockerConfig,
  type DockerConfigAuth,
  type DockerConfigEntry,
  type DockerConfigInput,
  parseDockerConfigJson,
  parseDockercfg,
} from "./docker-config.js";
export { DockerConfigError, type DockerConfigErrorCode } from "./errors.js";
export {
  type CredentialSource,
  createDockerKeyring,
  type DockerKeyring,
  type KeyringConfig,
  type TrackedCredential,
  unionDockerKeyrings,
} from "./keyring.js";
export {
  dockerConfigsFromSecrets,
  makeDockerKeyring,
  type PullSecret,
  parsePullSecret,
  pullSecretSchema,
} from "./secrets.js";

export {
  type DockerConfig,
  type DockerConfigAuth,
  type DockerConfigEntry,
  type DockerConfigInput,
  parseDockerConfigJson,
  parseDockercfg,
} from "./docker-config.js";
export { DockerConfigError, type DockerConfigErrorCode, isDockerConfigError } from "./errors.js";
export {
  type CredentialSource,
  createDockerKeyring,
  type DockerKeyring,
  isDefaultRegistryMatch,
  type KeyringConfig,
  normalizeKeyringKey,
  type TrackedCredential,
  unionDockerKeyrings,
} from "./keyring.js";
export {
  dockerConfigsFromSecrets,
  makeDockerKeyring,
  type PullSecret,
  parsePullSecret,
  pullSecretSchema,
  SECRET_TYPE_DOCKER_CONFIG_JSON,
  SECRET_TYPE_DOCKERCFG,
} from "./secrets.js";

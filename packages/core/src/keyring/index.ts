export {
  type DockerConfig,
  type DockerConfigInput,
  parseDockerConfigJson,
  parseDockercfg,
} from "./docker-config.js";
export { DockerConfigError } from "./errors.js";
export {
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

import type { OptionSpec } from "../commands/command.js";

/** The options of every command that talks to a registry. */
export const REGISTRY_OPTIONS: Readonly<Record<string, OptionSpec>> = Object.freeze({
  "docker-config": {
    type: "string",
    value: "FILE",
    help: "a docker config.json whose credentials apply to every registry (the node's keyring)",
  },
  "secret-file": {
    type: "string",
    multiple: true,
    value: "FILE",
    help: "YAML with kubernetes.io/dockerconfigjson Secrets, found by namespace/name",
  },
  "insecure-registry": {
    type: "string",
    multiple: true,
    value: "HOST",
    help: "talk plain HTTP to HOST[:PORT] and allow its private address (a local registry)",
  },
  "allow-private-hosts": {
    type: "boolean",
    help: "allow registries on loopback, private and link-local addresses (refused by default)",
  },
  timeout: {
    type: "string",
    value: "DURATION",
    help: "budget of one registry call as a Go duration (e.g. 1s, 500ms)",
  },
});

/**
 * `@kubeimg/core/internal`: the one home of the Go and Kubernetes behaviours
 * that more than one kubeimg package mirrors (Go's `strconv`, `strings`,
 * `time`, `encoding/json`, `net/url`, `path`, `crypto/sha256`, the kubelet's
 * credential hash). One file per Go package, functions under their Go names,
 * so a reader can hold a file beside the Go source it follows, and a fix is
 * made once.
 *
 * Internal: for `@kubeimg/policy`, `@kubeimg/registry` and `@kubeimg/cli`.
 * It follows the packages' versions but makes no stability promise of its
 * own; anything here may change or go in any release. Applications use the
 * public subpaths.
 *
 * @internal
 * @packageDocumentation
 */
export * as base64 from "./base64.js";
export * as credentialprovider from "./credentialprovider.js";
export * as hex from "./hex.js";
export * as json from "./json.js";
export * as net from "./net.js";
export * as sha256 from "./sha256.js";
export * as strconv from "./strconv.js";
export * as strings from "./strings.js";
export * as time from "./time.js";
export * as unicode from "./unicode.js";
export * as url from "./url.js";
export * as utf8 from "./utf8.js";

import { Clean, Join, Match } from "./path.js";

/**
 * Go's `path`. Spelled as an object rather than `export * as path`: a
 * namespace re-export makes the build emit the namespace object beside
 * `path.ts`'s code in the chunk `@kubeimg/core/reference` shares, and that
 * object keeps `Clean` and `Join` in every browser bundle of the reference
 * subpath, which only needs `Match`.
 */
export const path = { Clean, Join, Match };

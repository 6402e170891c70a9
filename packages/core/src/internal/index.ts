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
export * as lazy from "./lazy.js";
export * as net from "./net.js";
export { path } from "./path-object.js";
export * as sha256 from "./sha256.js";
export * as strconv from "./strconv.js";
export * as strings from "./strings.js";
export * as time from "./time.js";
export * as unicode from "./unicode.js";
export * as url from "./url.js";
export * as utf8 from "./utf8.js";

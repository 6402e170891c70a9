export { canonicalHost, isRestrictedHost } from "./address.js";
export { type AuthChallenge, parseWwwAuthenticate, pickChallenge } from "./challenge.js";
export { nextLink } from "./link.js";
export { redactUrl } from "./redact.js";
export { parseRetryAfter } from "./retry-after.js";

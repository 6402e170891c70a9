/**
 * `#redis-client` in a bundle (the `module` and `default` conditions):
 * `@redis/client` imported statically, so a single-file deployment carries
 * it and never looks for `node_modules` at run time.
 */
export { createClient } from "@redis/client";

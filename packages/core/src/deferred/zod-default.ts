/**
 * `#zod` outside Node (browsers, bundlers): zod's own functions, imported
 * statically, so a bundler keeps only the ones the keyring's schemas call.
 * Node gets `./zod-node.ts`, the same names loading zod on first call.
 */

export { en } from "zod/locales";
export { nullable, object, optional, record, safeParse, string } from "zod/mini";

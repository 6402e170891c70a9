/**
 * What the playground computes, as plain functions from pasted text to plain
 * JSON-safe results. They run inside the Web Worker (so a hostile paste costs
 * the worker, never the tab) and directly in unit tests. Every answer comes
 * from the packages' public entries; these files only parse the pasted text,
 * map a library error to the input line it is about, and shape rows. One
 * module per view, so a page or worker loads only the view it answers.
 */

export * from "./compute/input.js";
export * from "./compute/issue-text.js";
export * from "./compute/references.js";
export * from "./compute/routing.js";
export * from "./compute/tags.js";

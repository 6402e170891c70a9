/**
 * `@kubeimg/testkit`: what more than one package's tests (and the examples'
 * tests) need to stand up the outside world on loopback — a real
 * distribution registry, a token server, images to push, scripted HTTP
 * servers, `fetch` that trusts a test CA, a seeded random generator, a
 * redis-server, a hostile registry and an independent model of kuik's ordering. Private to the workspace: tests
 * import it by name, never another package's `src` by relative path.
 *
 * @packageDocumentation
 */
export * from "./admission.js";
export * from "./availability-contract.js";
export * from "./fake-timers.js";
export * from "./hostile-registry.js";
export * from "./image-fixtures.js";
export * from "./platform-image.js";
export * from "./real-registry.js";
export * from "./redis-server.js";
export * from "./routing-oracle.js";
export * from "./scripted-checker.js";
export * from "./scripted-server.js";
export * from "./seeded-random.js";
export * from "./timer-order.js";
export * from "./tls-fetch.js";
export * from "./token-server.js";

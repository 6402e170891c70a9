import { describe, expect, it } from "vitest";
import * as clientDefault from "./redis-client-default.js";
import * as clientNode from "./redis-client-node.js";

/**
 * The code type-checks against the Node variant only; a name missing from
 * the default variant would break bundles, not `tsc`.
 */
describe("#redis-client variants", () => {
  it("export the same names", () => {
    expect(Object.keys(clientNode).sort()).toEqual(Object.keys(clientDefault).sort());
  });

  it("the Node variant loads the client on the first call and creates the same client", () => {
    const url = "redis://127.0.0.1:1";
    const lazy = clientNode.createClient({ url });
    const eager = clientDefault.createClient({ url });
    expect(Object.getPrototypeOf(lazy).constructor.name).toBe(
      Object.getPrototypeOf(eager).constructor.name,
    );
    expect(lazy.isOpen).toBe(false);
  });
});

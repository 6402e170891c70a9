import { beforeAll, describe, expect, it } from "vitest";
import { requireScript, runKubeimgInTerminal } from "../../run-in-terminal.test-support.js";

beforeAll(() => requireScript());

describe("kubeimg parse on a real terminal (pseudo-terminal)", () => {
  it("prints the input in bold, with the CLI's own escape sequences intact", async () => {
    const run = await runKubeimgInTerminal(["parse", "nginx"]);
    expect(run.code).toBe(0);
    expect(run.output).toContain("\u001b[1mnginx\u001b[22m");
    expect(run.output).not.toContain("?[1m");
    expect(run.output).toMatch(/normalized:.*docker\.io\/library\/nginx/);
  });

  it("is plain with NO_COLOR, and still a table", async () => {
    const run = await runKubeimgInTerminal(["parse", "nginx"], { env: { NO_COLOR: "1" } });
    expect(run.code).toBe(0);
    expect(run.output).not.toContain("\u001b[");
    expect(run.output).toMatch(/^input: +nginx$/m);
  });

  it("never lets an argument's escape sequence reach the terminal", async () => {
    const run = await runKubeimgInTerminal(["parse", "bad\u001b]0;pwned\u0007:x:y"]);
    expect(run.code).toBe(2);
    expect(run.output).not.toContain("\u001b]0;");
    expect(run.output).not.toContain("\u0007");
  });
});

import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runDemo, shellWord } from "./demo.js";
import { SECTIONS } from "./sections.js";

describe("pnpm demo", () => {
  it("runs every step with the exit code it expects, offline", async () => {
    let transcript = "";
    const failures = await runDemo(SECTIONS, {
      write: (t) => {
        transcript += t;
      },
      color: false,
    });
    expect(failures, transcript).toBe(0);
    expect(transcript).not.toContain("\u001b[");
    // References.
    expect(transcript).toMatch(/normalized: +docker\.io\/library\/nginx\n/);
    expect(transcript).toContain("[REMOTE_NAME_CONTAINS_UPPERCASE]");
    // Tag policies: the spec's three worked examples.
    const selected = [...transcript.matchAll(/selected: +(.+)/g)].map((m) => m[1]);
    expect(selected).toEqual(["5.1.10", "1.2.0-rc.1", "RELEASE.2024-10-02T17-50-41Z"]);
    // Three updaters, one repository, three picks.
    expect(transcript).toMatch(/flux +1\.1\.0\n/);
    expect(transcript).toMatch(/argocd-image-updater +1\.2\n/);
    expect(transcript).toMatch(/kargo +1\.3\.0-rc\.1\n/);
    expect(transcript).toContain('flux does not pick "1.2" (not-a-version');
    // Routing: the seed examples' orders.
    expect(transcript).toMatch(
      /1 +docker\.io\/nginxinc\/nginx-unprivileged:1\.29 .*\n.*2 +quay\.io\/nginx\/nginx-unprivileged:1\.29 .*\n.*3 +public\.ecr\.aws\/nginx\/nginx-unprivileged:1\.29 /,
    );
    expect(transcript).toMatch(
      /1 +fast-registry\.internal\/my-app-cache\/my-app\/api:v2 .*\n.*2 +harbor\.example\.com\/my-app-mirror\/my-app\/api:v2 .*\n.*3 +harbor\.example\.com\/global-mirror\/my-app\/api:v2 .*\n.*4 +docker-registry\.example\.com\/my-app\/api:v2 /,
    );
    // The whole path on the node: the team cache over HTTPS-then-HTTP, Harbor's
    // pull-only cache for content, the _default mirror before the original.
    expect(transcript).toContain(
      "a. https://fast-registry.internal:5000/v2 -> fast-registry.internal:5000/my-app-cache/my-app/api:v2",
    );
    expect(transcript).toContain(
      "a. https://harbor-cache.internal/v2 -> harbor-cache.internal/my-app-mirror/my-app/api:v2",
    );
    expect(transcript).toMatch(
      /a\. https:\/\/node-mirror\.internal\/v2 .*\n.*\n.*\n +b\. https:\/\/docker-registry\.example\.com\/v2 /,
    );
    // Pull decisions, one per policy at least.
    const decisions = [...transcript.matchAll(/decision: +(.+)/g)].map((m) => m[1]);
    expect(decisions).toEqual([
      "use the image on the node (credentialPolicyAllowed)",
      "use the image on the node (credentialPolicyAllowed)",
      "must pull (mustAuthenticate)",
      "use the image on the node (credentialPolicyAllowed)",
      "use the image on the node (credentialRecordFound)",
      "use the image on the node (credentialRecordFound)",
      "must pull (mustAuthenticate)",
    ]);
    expect(transcript).toContain(
      "record:       examples/demo/fixtures/kubelet/image_manager/pulled/sha256-",
    );
    // Policy tests: the example passes, the failing case shows both tags and why.
    expect(transcript).toContain("13 passed, 0 failed (13 cases in 4 files)");
    expect(transcript).toContain("  ✗ podinfo takes 7.0.0 (it does not)");
    expect(transcript).toMatch(/ tag +7\.0\.0 +6\.1\.0\n/);
  });
});

describe("the demo's printed commands", () => {
  it("can be pasted at the repository root: pnpm -s kubeimg, with paths from the root", async () => {
    let transcript = "";
    await runDemo(SECTIONS, {
      write: (t) => {
        transcript += t;
      },
      color: false,
    });
    const commands = transcript.split("\n").filter((l) => l.startsWith("$ "));
    expect(commands.length).toBeGreaterThan(10);
    const root = fileURLToPath(new URL("../../", import.meta.url));
    const paths: string[] = [];
    for (const command of commands) {
      expect(command).toMatch(/^\$ pnpm -s kubeimg /);
      for (const word of command.split(" ")) {
        if (word.startsWith("examples/")) paths.push(word);
      }
    }
    expect(paths.length).toBeGreaterThan(10);
    expect(paths.filter((p) => !existsSync(join(root, p)))).toEqual([]);
  });

  it("quotes a word the shell would split or expand", () => {
    expect(shellWord("tags/a.yaml")).toBe("tags/a.yaml");
    expect(shellWord(">=1.0 <2")).toBe("'>=1.0 <2'");
    expect(shellWord("it's")).toBe("'it'\\''s'");
  });
});

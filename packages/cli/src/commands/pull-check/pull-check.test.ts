import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  createVerificationPolicy,
  hashCredential,
  PullManager,
  verificationPolicyNames,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore, storageFileName } from "@kubeimg/policy/pull-credentials/fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import { runKubeimg, stderrLines } from "../../run-program.test-support.js";

const ref = (name: string) => `sha256:${createHash("sha256").update(name).digest("hex")}`;
const PRIVATE = { image: "registry.example.com/team-a/app:1.0", ref: ref("app") };
const PUBLIC = { image: "nginx:1.27", ref: ref("nginx") };
const PRELOADED = { image: "registry.k8s.io/pause:3.10", ref: ref("pause") };
const BROKEN = { image: "registry.example.com/team-a/broken:1", ref: ref("broken") };
let teamA: string;
let teamB: string;
let teamAOtherUid: string;

/** Every file under `dir` with its content, to prove nothing was written. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else out[p] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

function pullSecretYaml(
  namespace: string,
  name: string,
  uid: string,
  user: string,
  password: string,
) {
  const config = JSON.stringify({
    auths: { "registry.example.com": { username: user, password } },
  });
  return `apiVersion: v1
kind: Secret
metadata: { name: ${name}, namespace: ${namespace}, uid: ${uid} }
type: kubernetes.io/dockerconfigjson
data:
  .dockerconfigjson: ${Buffer.from(config).toString("base64")}
`;
}

let node: TempFiles;
let secretFiles: TempFiles;
let before: Record<string, string>;
beforeAll(async () => {
  node = tempFiles({ "not-a-kubelet.txt": "" });
  const store = await FileSystemPullRecordStore.open(node.dir);
  const manager = await PullManager.open({
    store,
    policy: createVerificationPolicy({ policy: "AlwaysVerify" }),
    clock: { now: () => Date.parse("2026-01-15T10:00:00Z") },
  });
  const hashA = await hashCredential({ username: "a", password: "pa" });
  const hashB = await hashCredential({ username: "b", password: "pb" });
  teamA = `team-a/regcred/uid-a/${hashA}`;
  teamB = `team-b/regcred/uid-b/${hashB}`;
  teamAOtherUid = `team-a/regcred-copy/uid-a2/${hashA}`;
  await manager.recordImagePulled(PRIVATE.image, PRIVATE.ref, {
    kubernetesSecrets: [
      { namespace: "team-a", name: "regcred", uid: "uid-a", credentialHash: hashA },
    ],
  });
  await manager.recordImagePulled(PUBLIC.image, PUBLIC.ref, { nodePodsAccessible: true });
  writeFileSync(
    join(node.dir, "image_manager", "pulled", storageFileName(BROKEN.ref)),
    '{"kind":"ImagePulledRecord","apiVersion":"kubelet.config.k8s.io/v1beta1","imageRef":',
  );
  before = snapshot(join(node.dir, "image_manager"));
  secretFiles = tempFiles({
    "team-a.yaml": pullSecretYaml("team-a", "regcred", "uid-a", "a", "pa"),
    "team-b.yaml": pullSecretYaml("team-b", "regcred", "uid-b", "b", "pb"),
    "broken.yaml": "metadata: { name: [regcred\n",
    "not-a-secret.yaml":
      "apiVersion: v1\nkind: Secret\ntype: kubernetes.io/dockerconfigjson\ndata: { .dockerconfigjson: '%%%' }\n",
  });
});
afterAll(() => {
  node.remove();
  secretFiles.remove();
});

async function check(args: string[]) {
  const run = await runKubeimg(["pull-check", "-o", "json", "--kubelet-dir", node.dir, ...args]);
  return { run, json: run.stdout === "" ? undefined : JSON.parse(run.stdout) };
}

describe("kubeimg pull-check (built program)", () => {
  it.each([
    {
      name: "AlwaysVerify, the puller's secret",
      img: PRIVATE,
      policy: "AlwaysVerify",
      secret: () => teamA,
      mustPull: false,
      reason: "credentialRecordFound",
    },
    {
      name: "AlwaysVerify, another tenant's secret",
      img: PRIVATE,
      policy: "AlwaysVerify",
      secret: () => teamB,
      mustPull: true,
      reason: "mustAuthenticate",
    },
    {
      name: "AlwaysVerify, no secret",
      img: PRIVATE,
      policy: "AlwaysVerify",
      secret: () => undefined,
      mustPull: true,
      reason: "mustAuthenticate",
    },
    {
      name: "AlwaysVerify, same credentials in another secret (hash match)",
      img: PRIVATE,
      policy: "AlwaysVerify",
      secret: () => teamAOtherUid,
      mustPull: false,
      reason: "credentialRecordFound",
    },
    {
      name: "AlwaysVerify, pulled without credentials",
      img: PUBLIC,
      policy: "AlwaysVerify",
      secret: () => teamB,
      mustPull: false,
      reason: "credentialRecordFound",
    },
    {
      name: "AlwaysVerify, preloaded image",
      img: PRELOADED,
      policy: "AlwaysVerify",
      secret: () => undefined,
      mustPull: true,
      reason: "mustAuthenticate",
    },
    {
      name: "NeverVerify",
      img: PRIVATE,
      policy: "NeverVerify",
      secret: () => teamB,
      mustPull: false,
      reason: "credentialPolicyAllowed",
    },
    {
      name: "default policy, kubelet-pulled image",
      img: PRIVATE,
      policy: undefined,
      secret: () => teamB,
      mustPull: true,
      reason: "mustAuthenticate",
    },
    {
      name: "default policy, preloaded image",
      img: PRELOADED,
      policy: undefined,
      secret: () => undefined,
      mustPull: false,
      reason: "credentialPolicyAllowed",
    },
    {
      name: "unreadable record: fail safe",
      img: BROKEN,
      policy: "NeverVerify",
      secret: () => teamA,
      mustPull: true,
      reason: "error",
    },
  ])("$name", async ({ img, policy, secret, mustPull, reason }) => {
    const s = secret();
    const { run, json } = await check([
      "--image",
      img.image,
      "--image-ref",
      img.ref,
      ...(policy ? ["--policy", policy] : []),
      ...(s ? ["--secret", s] : []),
    ]);
    expect(run.code).toBe(0);
    expect(json).toMatchObject({ mustPull, reason });
  });

  it.each([
    { allowlist: ["registry.k8s.io/*"], mustPull: false, reason: "credentialPolicyAllowed" },
    { allowlist: ["registry.k8s.io/coredns/*"], mustPull: true, reason: "mustAuthenticate" },
    // v1.35 compares the raw image string: an absolute entry never matches a tagged image.
    {
      allowlist: ["registry.k8s.io/pause"],
      matching: ["--upstream", "kubelet=1.35"],
      mustPull: true,
      reason: "mustAuthenticate",
    },
    {
      allowlist: ["registry.k8s.io/pause"],
      matching: ["--allowlist-matching", "v1.35"],
      mustPull: true,
      reason: "mustAuthenticate",
    },
    // The default kubelet (1.37) normalizes first (kubernetes/kubernetes#137629, 1.36 on).
    { allowlist: ["registry.k8s.io/pause"], mustPull: false, reason: "credentialPolicyAllowed" },
    {
      allowlist: ["registry.k8s.io/pause"],
      matching: ["--allowlist-matching", "v1.36"],
      mustPull: false,
      reason: "credentialPolicyAllowed",
    },
  ])(
    "NeverVerifyAllowlistedImages $allowlist $matching",
    async ({ allowlist, matching, mustPull, reason }) => {
      const { json } = await check([
        "--image",
        PRELOADED.image,
        "--image-ref",
        PRELOADED.ref,
        "--policy",
        "NeverVerifyAllowlistedImages",
        ...allowlist.flatMap((a) => ["--allowlist", a]),
        ...(matching ?? []),
      ]);
      expect(json).toMatchObject({ mustPull, reason });
    },
  );

  it.each([
    {
      upstream: "kubelet=1.34",
      message:
        "--upstream kubelet=1.34: not a release kubeimg reproduces; use one of 1.35, 1.36, 1.37",
    },
    { upstream: "kubelet", message: '--upstream "kubelet": expected NAME=VERSION' },
    {
      upstream: "platforms=rc.5",
      message: "--upstream platforms: kubeimg pull-check does not depend on it (it reads kubelet)",
    },
    {
      upstream: "nope=1",
      message: '--upstream "nope": unknown upstream; kubeimg pull-check reads kubelet',
    },
  ])("--upstream $upstream is a usage error", async ({ upstream, message }) => {
    const { run } = await check([
      "--image",
      PRELOADED.image,
      "--image-ref",
      PRELOADED.ref,
      "--upstream",
      upstream,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(message);
  });

  it("names the kubelet release it reproduced", async () => {
    const args = ["--image", PRELOADED.image, "--image-ref", PRELOADED.ref];
    expect((await check(args)).json).toMatchObject({ kubelet: "1.37" });
    expect((await check([...args, "--upstream", "kubelet=1.36"])).json).toMatchObject({
      kubelet: "1.36",
    });
  });

  it.each([
    { file: "team-a.yaml", mustPull: false, reason: "credentialRecordFound" },
    { file: "team-b.yaml", mustPull: true, reason: "mustAuthenticate" },
  ])(
    "--secret-file $file: the pod's Secret through the kubelet keyring",
    async ({ file, mustPull, reason }) => {
      const { run, json } = await check([
        "--image",
        PRIVATE.image,
        "--image-ref",
        PRIVATE.ref,
        "--policy",
        "AlwaysVerify",
        "--secret-file",
        secretFiles.path(file),
      ]);
      expect(run.code).toBe(0);
      expect(json).toMatchObject({ mustPull, reason });
    },
  );

  it.each([
    { file: "broken.yaml", code: "INVALID_YAML" },
    { file: "missing.yaml", code: "FILE_NOT_FOUND" },
  ])("--secret-file $file: one line, exit 2, [$code]", async ({ file, code }) => {
    const { run } = await check([
      "--image",
      PRIVATE.image,
      "--image-ref",
      PRIVATE.ref,
      "--secret-file",
      secretFiles.path(file),
    ]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toContain(`[${code}]`);
  });

  it("an invalid --secret-file is one line, exit 2", async () => {
    const { run } = await check([
      "--image",
      PRIVATE.image,
      "--image-ref",
      PRIVATE.ref,
      "--secret-file",
      secretFiles.path("not-a-secret.yaml"),
    ]);
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toHaveLength(1);
    expect(run.stderr).toMatch(/\[INVALID_SECRET\]/);
  });

  it("an empty --image-ref means the image is not on the node", async () => {
    const { json } = await check(["--image", PRIVATE.image, "--image-ref", ""]);
    expect(json).toMatchObject({ mustPull: true, reason: null });
  });

  it("prints the record and the reason in the table", async () => {
    const run = await runKubeimg([
      "pull-check",
      "-o",
      "table",
      "--kubelet-dir",
      node.dir,
      "--image",
      PRIVATE.image,
      "--image-ref",
      PRIVATE.ref,
      "--policy",
      "AlwaysVerify",
      "--secret",
      teamB,
    ]);
    expect(run.stdout).toMatch(/^granted to: +secret team-a\/regcred \(uid uid-a\)$/m);
    expect(run.stdout).toMatch(/^decision: +must pull \(mustAuthenticate\)$/m);
    expect(run.stdout).toMatch(
      /^record: +.*pulled\/sha256-[0-9a-f]{64} \(kubelet\.config\.k8s\.io\/v1beta1/m,
    );
  });

  it("never writes to the kubelet directory", () => {
    expect(snapshot(join(node.dir, "image_manager"))).toEqual(before);
  });

  it.each([
    {
      name: "missing directory",
      args: ["--kubelet-dir", "/nonexistent/kubelet"],
      line: /--kubelet-dir \/nonexistent\/kubelet: no such directory \[FILE_NOT_FOUND\]$/,
    },
    {
      name: "not a kubelet directory",
      args: ["--kubelet-dir", "SELF/not-a-kubelet.txt"],
      line: /no such directory \[FILE_NOT_FOUND\]$/,
    },
    {
      name: "bad --secret",
      args: ["--secret", "team-a/regcred"],
      line: /--secret must be NAMESPACE\/NAME\/UID\/HASH, not "team-a\/regcred"$/,
    },
    {
      name: "bad hash",
      args: ["--secret", "a/b/c/XYZ"],
      line: /HASH must be 64 lower-case hex digits/,
    },
    {
      name: "unknown policy",
      args: ["--policy", "Sometimes"],
      line: /imagePullCredentialsVerificationPolicy.* \[UNKNOWN_POLICY\]$/,
    },
    {
      name: "bad allowlist",
      args: ["--policy", "NeverVerifyAllowlistedImages", "--allowlist", "nginx:1"],
      line: /\[INVALID_ALLOWLIST\]$/,
    },
    {
      name: "invalid image",
      args: ["--image", "Team/App"],
      line: /--image "Team\/App": .+ \[(REMOTE_)?NAME_CONTAINS_UPPERCASE\]$/,
    },
    { name: "no --image-ref", args: ["--image-ref", null], line: /--image-ref is required/ },
  ])("bad input, $name: one line, exit 2", async ({ args }) => {
    const given = new Map<string, string | null>([
      ["--kubelet-dir", node.dir],
      ["--image", PRIVATE.image],
      ["--image-ref", PRIVATE.ref],
    ]);
    const extra: string[] = [];
    for (let i = 0; i < args.length; i += 2) {
      const flag = args[i] as string;
      const value = args[i + 1] as string | null;
      if (given.has(flag)) given.set(flag, value === null ? null : value.replace("SELF", node.dir));
      else extra.push(flag, value ?? "");
    }
    const argv = [...given].flatMap(([f, v]) => (v === null ? [] : [f, v]));
    const run = await runKubeimg(["pull-check", ...argv, ...extra]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(stderrLines(run)).toHaveLength(1);
  });
});

describe("kubeimg pull-check on a hostile kubelet directory (built program)", () => {
  let hostile: TempFiles;
  beforeAll(async () => {
    hostile = tempFiles({});
    await FileSystemPullRecordStore.open(hostile.dir);
    const pulled = join(hostile.dir, "image_manager", "pulled");
    const pulling = join(hostile.dir, "image_manager", "pulling");
    // A FIFO under the record's name used to block the read forever; /dev/zero to fill memory.
    execFileSync("mkfifo", [join(pulled, storageFileName(PRIVATE.ref))]);
    execFileSync("mkfifo", [join(pulling, storageFileName(PRIVATE.image))]);
    symlinkSync("/dev/zero", join(pulled, storageFileName(PUBLIC.ref)));
  });
  afterAll(() => hostile.remove());

  it.each(
    verificationPolicyNames.flatMap((policy) => [
      { policy, img: PRIVATE },
      { policy, img: PUBLIC },
    ]),
  )("$policy, $img.image: must pull, promptly", async ({ policy, img }) => {
    const run = await runKubeimg(
      [
        "pull-check",
        "-o",
        "json",
        "--kubelet-dir",
        hostile.dir,
        "--image",
        img.image,
        "--image-ref",
        img.ref,
        "--policy",
        policy,
        ...(policy === "NeverVerifyAllowlistedImages" ? ["--allowlist", "registry.k8s.io/*"] : []),
        "--secret",
        teamA,
      ],
      { timeoutMs: 10_000 },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ mustPull: true, reason: "error" });
  });
});

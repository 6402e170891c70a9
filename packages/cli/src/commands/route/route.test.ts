import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TempFiles, tempFiles } from "../../files/temp-files.test-support.js";
import {
  closedLoopbackHost,
  type ScriptedRegistry,
  startScriptedRegistry,
} from "../../registry/scripted-registry.test-support.js";
import { runKubeimg, stderrLines } from "../../run-program.test-support.js";

// The two seed examples of kuik's "Image routing" page (vectors
// doc-seed-nginx-unprivileged and doc-seed-team-mirror of the routing suite).
const NGINX_UNPRIVILEGED = `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterReplicatedImageSet
metadata: { name: nginx-unprivileged }
spec:
  upstreams:
    - registry: docker.io
      path: /nginxinc/nginx-unprivileged
      priority: 30
      imageFilter: { include: ["/nginxinc/nginx-unprivileged:.+"] }
    - registry: quay.io
      path: /nginx/nginx-unprivileged
      priority: 10
      imageFilter: { include: ["/nginx/nginx-unprivileged:.+"] }
    - registry: public.ecr.aws
      path: /nginx/nginx-unprivileged
      priority: 20
      imageFilter: { include: ["/nginx/nginx-unprivileged:.+"] }
`;
const GLOBAL_MIRROR = `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: global-mirror }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: harbor.example.com
      path: /global-mirror
      credentialSecret: { name: harbor-secret, namespace: kuik-system }
`;
const TEAM_MIRROR = `
apiVersion: kuik.enix.io/v1alpha1
kind: ImageSetMirror
metadata: { name: team-mirror, namespace: my-app }
spec:
  priority: -10
  filter: { include: [{ image: "docker-registry.example.com/my-app/.+" }] }
  mirrors:
    - registry: fast-registry.internal
      path: /my-app-cache
      priority: 1
      credentialSecret: { name: fast-registry-secret }
    - registry: harbor.example.com
      path: /my-app-mirror
      priority: 5
      credentialSecret: { name: harbor-secret }
`;

interface RouteJson {
  status: string;
  skipReason?: string;
  probed?: boolean;
  alternatives?: {
    image: string;
    credentialSecret: { namespace: string; name: string } | null;
    why: string;
    key: (number | null)[];
    check?: { state: string; reason?: string };
  }[];
  winner?: string | null;
  finalImage?: string;
}

let files: TempFiles;
beforeAll(() => {
  files = tempFiles({
    "nginx.yaml": NGINX_UNPRIVILEGED,
    "mirrors.yaml": `${GLOBAL_MIRROR}\n---\n${TEAM_MIRROR}`,
    "global.yaml": GLOBAL_MIRROR,
    "team.yaml": TEAM_MIRROR,
    "bad-yaml.yaml": "apiVersion: kuik.enix.io/v1alpha1\nkind: [ClusterImageSetMirror\n",
    "bad-cr.yaml": GLOBAL_MIRROR.replace("priority: -1", "priority: high"),
    "not-kuik.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: { name: x }\n",
    "honor.yaml": "routing:\n  honorPrioritiesOnAlwaysImagePullPolicy: true\n",
    "bad-config.yaml": "routing:\n  activeCheck:\n    timeout: soon\n",
  });
});
afterAll(() => files.remove());

async function routeJson(args: string[]) {
  const run = await runKubeimg(["route", "-o", "json", ...args], { cwd: files.dir });
  return { run, json: run.stdout === "" ? undefined : (JSON.parse(run.stdout) as RouteJson) };
}

describe("kubeimg route (built program)", () => {
  it("orders the nginx-unprivileged seed example as kuik does", async () => {
    const { run, json } = await routeJson([
      "-f",
      "nginx.yaml",
      "--namespace",
      "default",
      "--image",
      "docker.io/nginxinc/nginx-unprivileged:1.29",
    ]);
    expect(run.code).toBe(0);
    expect(json?.alternatives?.map((a) => a.image)).toEqual([
      "docker.io/nginxinc/nginx-unprivileged:1.29",
      "quay.io/nginx/nginx-unprivileged:1.29",
      "public.ecr.aws/nginx/nginx-unprivileged:1.29",
    ]);
    expect(json?.alternatives?.map((a) => a.key)).toEqual([
      [0, 0, 0, 0],
      [0, 3, 10, 1],
      [0, 3, 20, 2],
    ]);
    expect(json?.probed).toBe(true);
  });

  it("orders the my-app seed example across two files, with secrets and reasons", async () => {
    const { run, json } = await routeJson([
      "-f",
      "global.yaml",
      "-f",
      "team.yaml",
      "-n",
      "my-app",
      "--image",
      "docker-registry.example.com/my-app/api:v2",
    ]);
    expect(run.code).toBe(0);
    expect(
      json?.alternatives?.map((a) => [
        a.image,
        a.credentialSecret && `${a.credentialSecret.namespace}/${a.credentialSecret.name}`,
      ]),
    ).toEqual([
      ["fast-registry.internal/my-app-cache/my-app/api:v2", "my-app/fast-registry-secret"],
      ["harbor.example.com/my-app-mirror/my-app/api:v2", "my-app/harbor-secret"],
      ["harbor.example.com/global-mirror/my-app/api:v2", "kuik-system/harbor-secret"],
      ["docker-registry.example.com/my-app/api:v2", null],
    ]);
    expect(json?.alternatives?.[0]?.why).toBe(
      "ImageSetMirror my-app/team-mirror mirrors[0], a mirror of docker-registry.example.com/my-app/api:v2",
    );
    expect(json?.alternatives?.[3]?.why).toBe("the original image");
  });

  it("the team mirror does not apply in another namespace", async () => {
    const { json } = await routeJson([
      "-f",
      "mirrors.yaml",
      "-n",
      "other",
      "--image",
      "docker-registry.example.com/my-app/api:v2",
    ]);
    expect(json?.alternatives?.map((a) => a.image)).toEqual([
      "harbor.example.com/global-mirror/my-app/api:v2",
      "docker-registry.example.com/my-app/api:v2",
    ]);
  });

  it.each([
    {
      policy: [] as string[],
      first: "docker.io/library/nginx",
      why: /first because imagePullPolicy is Always/,
    },
    {
      policy: ["--config", "honor.yaml"],
      first: "harbor.example.com/global-mirror/library/nginx",
      why: /mirror/,
    },
  ])(
    "Always (untagged image) pins the original first unless honoured: $policy",
    async ({ policy, first, why }) => {
      const { json } = await routeJson([
        "-f",
        "global.yaml",
        "-n",
        "default",
        "--image",
        "nginx",
        ...policy,
      ]);
      expect(json?.alternatives?.[0]?.image).toBe(first);
      expect(json?.alternatives?.[0]?.why).toMatch(why);
    },
  );

  it("a digest-pinned image is skipped, as kuik does", async () => {
    const image = `nginx@sha256:${"a".repeat(64)}`;
    const { run, json } = await routeJson(["-f", "global.yaml", "-n", "default", "--image", image]);
    expect(run.code).toBe(0);
    expect(json).toMatchObject({ status: "skipped", skipReason: "DIGEST", finalImage: image });
  });

  it.each([
    {
      name: "missing file",
      args: ["-f", "nope.yaml"],
      line: /^kubeimg route: nope\.yaml: no such file \[FILE_NOT_FOUND\]$/,
    },
    {
      name: "invalid YAML",
      args: ["-f", "bad-yaml.yaml"],
      line: /^kubeimg route: bad-yaml\.yaml:3:1: invalid YAML: .+ \[INVALID_YAML\]$/,
    },
    {
      name: "invalid CR",
      args: ["-f", "bad-cr.yaml"],
      line: /^kubeimg route: bad-cr\.yaml: document 0: ClusterImageSetMirror "global-mirror": spec\.priority: .*"high".* \[INVALID_RESOURCE\]$/,
    },
    {
      name: "no kuik object",
      args: ["-f", "not-kuik.yaml"],
      // Other kinds are skipped, as kubectl apply -f users expect; none left is an error.
      line: /^kubeimg route: not-kuik\.yaml: no kuik\.enix\.io\/v1alpha1 routing object found \(1 object\(s\) of other kinds skipped\) \[MISSING_OBJECT\]$/,
    },
    {
      name: "invalid config",
      args: ["-f", "global.yaml", "--config", "bad-config.yaml"],
      line: /^kubeimg route: bad-config\.yaml: config: routing\.activeCheck\.timeout: .+ \[INVALID_CONFIG\]$/,
    },
    {
      name: "invalid reference",
      args: ["-f", "global.yaml", "--image", "Nginx:1.27"],
      line: /^kubeimg route: --image "Nginx:1\.27": .+ must be lowercase \[REMOTE_NAME_CONTAINS_UPPERCASE\]$/,
    },
    {
      name: "bad pull policy",
      args: ["-f", "global.yaml", "--pull-policy", "Sometimes"],
      line: /^kubeimg route: --pull-policy must be one of Always, IfNotPresent, Never, not "Sometimes"$/,
    },
    { name: "no file", args: [], line: /^kubeimg route: -f\/--file is required/ },
    {
      name: "bad --timeout",
      args: ["-f", "global.yaml", "--check", "--timeout", "soon"],
      line: /^kubeimg route: --timeout must be a positive duration such as 1s, 500ms or 1m30s, not "soon"$/,
    },
    {
      name: "bad --label",
      args: ["-f", "global.yaml", "--label", "app"],
      line: /^kubeimg route: --label must be KEY=VALUE, not "app"$/,
    },
  ])("bad input, $name: one line, exit 2", async ({ args, line }) => {
    const withDefaults = [...args];
    if (!withDefaults.includes("--image")) withDefaults.push("--image", "nginx:1.27");
    const run = await runKubeimg(["route", "-n", "default", ...withDefaults], { cwd: files.dir });
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    const lines = stderrLines(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
  });

  it("requires --namespace", async () => {
    const run = await runKubeimg(["route", "-f", "global.yaml", "--image", "nginx:1.27"], {
      cwd: files.dir,
    });
    expect(run.code).toBe(2);
    expect(stderrLines(run)).toEqual([
      "kubeimg route: --namespace is required (see 'kubeimg route --help')",
    ]);
  });

  describe("--check against registries", () => {
    let registry: ScriptedRegistry;
    let dead: string;
    let checkFiles: TempFiles;
    beforeAll(async () => {
      registry = await startScriptedRegistry({
        repositories: { "mirror/library/nginx": ["1.27"] },
      });
      dead = await closedLoopbackHost();
      checkFiles = tempFiles({
        "local.yaml": `
apiVersion: kuik.enix.io/v1alpha1
kind: ClusterImageSetMirror
metadata: { name: local }
spec:
  priority: -1
  filter: { include: [{ image: ".*" }] }
  mirrors:
    - registry: ${dead}
      path: /dead
    - registry: ${registry.host}
      path: /mirror
    - registry: ${registry.host}
      path: /missing
`,
      });
    });
    afterAll(async () => {
      await registry.close();
      checkFiles.remove();
    });

    const insecure = () => ["--insecure-registry", dead, "--insecure-registry", registry.host];

    it("picks the first available alternative; the dead one is unavailable", async () => {
      const run = await runKubeimg(
        [
          "route",
          "-o",
          "json",
          "-f",
          "local.yaml",
          "-n",
          "default",
          "--image",
          "registry.invalid/library/nginx:1.27",
          "--check",
          // kuik's 1 s per probe can pass on a busy machine before this
          // process and the scripted registry (another process) get the CPU.
          "--timeout",
          "30s",
          ...insecure(),
        ],
        { cwd: checkFiles.dir },
      );
      expect(run.stderr).toBe("");
      expect(run.code).toBe(0);
      const json = JSON.parse(run.stdout) as RouteJson;
      expect(json.alternatives?.map((a) => [a.image, a.check?.state])).toEqual([
        [`${dead}/dead/library/nginx:1.27`, "unavailable"],
        [`${registry.host}/mirror/library/nginx:1.27`, "available"],
        [
          `${registry.host}/missing/library/nginx:1.27`,
          expect.stringMatching(/unavailable|aborted/),
        ],
        // The original: a host under .invalid never resolves, so no network is ever needed.
        ["registry.invalid/library/nginx:1.27", expect.stringMatching(/^(unavailable|aborted)$/)],
      ]);
      expect(json.alternatives?.[0]?.check?.reason).toMatch(/NETWORK_ERROR|ECONNREFUSED/);
      expect(json.winner).toBe(`${registry.host}/mirror/library/nginx:1.27`);
      expect(json.finalImage).toBe(`${registry.host}/mirror/library/nginx:1.27`);
    });

    it("exit 1 when no alternative is available (unreachable registries)", async () => {
      const run = await runKubeimg(
        [
          "route",
          "-o",
          "table",
          "-f",
          "local.yaml",
          "-n",
          "default",
          "--image",
          "registry.invalid/library/busybox:1.36",
          "--check",
          "--timeout",
          "2s",
          ...insecure(),
        ],
        { cwd: checkFiles.dir },
      );
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/winner: +none available/);
      expect(run.stdout).toMatch(
        /final image: +registry\.invalid\/library\/busybox:1\.36 \(unchanged\)/,
      );
    });
  });
});

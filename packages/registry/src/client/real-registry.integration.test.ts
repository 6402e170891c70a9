/**
 * The client against a real registry: Debian's docker-registry (CNCF
 * distribution 2.8.2) on 127.0.0.1, anonymous, htpasswd Basic, Bearer via
 * our token server, and TLS with a self-signed certificate. Fails (never
 * skips) when the registry is not installed.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createDockerKeyring, parseDockerConfigJson } from "@kubeimg/core/keyring";
import {
  type BuiltImage,
  buildImage,
  buildIndex,
  DOCKER_MANIFEST,
  fetchTrusting,
  OCI_INDEX,
  OCI_MANIFEST,
  pushImage,
  putManifest,
  type RunningRegistry,
  type RunningTokenServer,
  requireRegistryBinary,
  startRegistry,
  startTokenServer,
} from "@kubeimg/testkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createAvailabilityChecker,
  createDigestResolver,
  createTagLister,
} from "../adapters/index.js";
import { createRegistryClient, keyringCredentials, type RegistryClientOptions } from "./index.js";

const APP_TAGS = ["1.0.0", "1.1.0", "2.0.0", "v2.1.0", "latest", "sha256-0123456789abcdef.sig"];

let dir: string;
let anon: RunningRegistry;
let basic: RunningRegistry;
let tls: RunningRegistry;
let bearer: RunningRegistry;
let tokenServer: RunningTokenServer;
let tlsCa: string;
let app: BuiltImage;
let dockerImage: BuiltImage;
let indexDigest: string;
let childDigests: string[];
let deletedDigest: string;
const started = Date.now();

function openssl(args: string[]) {
  execFileSync("openssl", args, { stdio: "ignore" });
}

function selfSigned(name: string, subject: string, san?: string) {
  const key = join(dir, `${name}-key.pem`);
  const cert = join(dir, `${name}-cert.pem`);
  openssl([
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "2",
    "-subj",
    subject,
    ...(san ? ["-addext", san, "-addext", "basicConstraints=critical,CA:TRUE"] : []),
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  return { key, cert };
}

beforeAll(async () => {
  requireRegistryBinary();
  dir = mkdtempSync(join(tmpdir(), "kubeimg-registry-it-"));
  const storageRoot = join(dir, "data");
  anon = await startRegistry({ dir, storageRoot, name: "anon" });

  app = buildImage({ os: "linux", architecture: "amd64" }, "oci");
  await pushImage(anon.url, "team/app", app, APP_TAGS);
  dockerImage = buildImage({ os: "linux", architecture: "amd64" }, "docker");
  await pushImage(anon.url, "team/docker", dockerImage, ["1.0"]);
  const amd64 = buildImage({ os: "linux", architecture: "amd64" }, "oci");
  const arm64 = buildImage({ os: "linux", architecture: "arm64" }, "oci");
  const { index, children } = buildIndex([
    { image: amd64, os: "linux", architecture: "amd64" },
    { image: arm64, os: "linux", architecture: "arm64" },
  ]);
  for (const child of children) await pushImage(anon.url, "team/multi", child, []);
  for (const tag of ["latest", "1.0.0"])
    await putManifest(anon.url, "team/multi", tag, index, OCI_INDEX);
  indexDigest = index.digest;
  childDigests = children.map((c) => c.manifest.digest);
  await pushImage(anon.url, "public/hello", app, ["latest"]);
  const doomed = buildImage({ os: "linux", architecture: "s390x" }, "oci");
  await pushImage(anon.url, "tmp/del", doomed, ["gone", "also-gone"]);
  deletedDigest = doomed.manifest.digest;
  const deleted = await fetch(`${anon.url}/v2/tmp/del/manifests/${deletedDigest}`, {
    method: "DELETE",
  });
  expect(deleted.status).toBe(202);

  // htpasswd Basic, bcrypt made by htpasswd itself.
  const htpasswd = join(dir, "htpasswd");
  writeFileSync(htpasswd, execFileSync("htpasswd", ["-Bbn", "alice", "s3cret"]));
  basic = await startRegistry({ dir, storageRoot, name: "basic", htpasswdFile: htpasswd });

  // TLS with a self-signed certificate.
  const serving = selfSigned("tls", "/CN=127.0.0.1", "subjectAltName=IP:127.0.0.1,DNS:localhost");
  tlsCa = readFileSync(serving.cert, "utf8");
  tls = await startRegistry({
    dir,
    storageRoot,
    name: "tls",
    tls: { certFile: serving.cert, keyFile: serving.key },
  });

  // Bearer tokens from our token server.
  const signing = selfSigned("token", "/CN=kubeimg-test-token-issuer");
  tokenServer = await startTokenServer({
    keyFile: signing.key,
    certFile: signing.cert,
    issuer: "test-issuer",
    users: { alice: "s3cret" },
  });
  bearer = await startRegistry({
    dir,
    storageRoot,
    name: "bearer",
    token: {
      realm: tokenServer.realm,
      service: "test-registry",
      issuer: "test-issuer",
      rootCertBundle: signing.cert,
    },
  });
  console.info(
    `real registry suite: 4 registries started and seeded in ${Date.now() - started} ms`,
  );
});

afterAll(async () => {
  await Promise.all([anon, basic, tls, bearer].filter(Boolean).map((r) => r.stop()));
  await tokenServer?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
  console.info(`real registry suite: finished in ${Date.now() - started} ms`);
});

function clientFor(registry: RunningRegistry, extra: RegistryClientOptions = {}) {
  return createRegistryClient({
    registries: {
      [registry.host]: { insecure: !registry.url.startsWith("https"), allowPrivateAddress: true },
    },
    retries: 0,
    ...extra,
  });
}

const keyringWith = (host: string, username: string, password: string) =>
  createDockerKeyring([
    { config: parseDockerConfigJson({ auths: { [host]: { username, password } } }) },
  ]);

describe("anonymous registry", () => {
  it("HEADs an OCI manifest with its own digest and media type", async () => {
    const client = clientFor(anon);
    const head = await client.headManifest({ domain: anon.host, path: "team/app", tag: "1.0.0" });
    expect(head).toEqual({
      digest: app.manifest.digest,
      mediaType: OCI_MANIFEST,
      size: app.manifest.bytes.length,
    });
  });

  it("HEADs a Docker v2 manifest without down-conversion", async () => {
    const head = await clientFor(anon).headManifest({
      domain: anon.host,
      path: "team/docker",
      tag: "1.0",
    });
    expect(head.digest).toBe(dockerImage.manifest.digest);
    expect(head.mediaType).toBe(DOCKER_MANIFEST);
  });

  it("resolves a multi-arch index to the index digest, not a platform child", async () => {
    const client = clientFor(anon);
    const digest = await client.resolveDigest({
      domain: anon.host,
      path: "team/multi",
      tag: "latest",
    });
    expect(digest).toBe(indexDigest);
    expect(childDigests).not.toContain(digest);
    const manifest = await client.getManifest({
      domain: anon.host,
      path: "team/multi",
      digest: indexDigest,
    });
    expect(manifest.digest).toBe(indexDigest);
    expect(manifest.mediaType).toBe(OCI_INDEX);
    expect((manifest.manifest as { manifests: unknown[] }).manifests).toHaveLength(2);
  });

  it("GETs a manifest and hashes the bytes", async () => {
    const manifest = await clientFor(anon).getManifest({
      domain: anon.host,
      path: "team/app",
      tag: "2.0.0",
    });
    expect(manifest.digest).toBe(app.manifest.digest);
    expect(Buffer.from(manifest.bytes).equals(app.manifest.bytes)).toBe(true);
  });

  it("lists tags: raw in server order, cleaned and sorted by default", async () => {
    const client = clientFor(anon);
    const raw = await client.listTagsRaw({ domain: anon.host, path: "team/app" });
    expect([...raw].sort()).toEqual([...APP_TAGS].sort());
    const clean = await client.listTags({ domain: anon.host, path: "team/app" });
    expect(clean).toEqual(["1.0.0", "1.1.0", "2.0.0", "latest", "v2.1.0"]);
  });

  it("reads tags: null after every manifest was deleted", async () => {
    const client = clientFor(anon);
    expect(await client.listTagsRaw({ domain: anon.host, path: "tmp/del" })).toEqual([]);
    await expect(
      client.headManifest({ domain: anon.host, path: "tmp/del", tag: "gone" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
      status: 404,
    });
  });

  it("reports missing tags and repositories with the registry's codes", async () => {
    const client = clientFor(anon);
    await expect(
      client.getManifest({ domain: anon.host, path: "team/app", tag: "9.9.9" }),
    ).rejects.toMatchObject({
      code: "MANIFEST_UNKNOWN",
      status: 404,
    });
    await expect(
      client.listTags({ domain: anon.host, path: "nope/nothing" }),
    ).rejects.toMatchObject({
      code: "NAME_UNKNOWN",
      status: 404,
    });
    await expect(
      client.headManifest({ domain: anon.host, path: "nope/nothing", tag: "1" }),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("refuses a loopback registry unless it is allowed", async () => {
    const client = createRegistryClient({ registries: { [anon.host]: { insecure: true } } });
    await expect(
      client.headManifest({ domain: anon.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "BLOCKED_HOST",
    });
  });
});

describe("ping", () => {
  it("reads the /v2/ answer and the challenges of each auth mode", async () => {
    expect(await clientFor(anon).ping(anon.host)).toEqual({ anonymous: true, challenges: [] });
    expect(await clientFor(basic).ping(basic.host)).toEqual({
      anonymous: false,
      challenges: [{ scheme: "basic", params: { realm: "test-realm" } }],
    });
    expect(await clientFor(bearer).ping(bearer.host)).toEqual({
      anonymous: false,
      challenges: [
        { scheme: "bearer", params: { realm: tokenServer.realm, service: "test-registry" } },
      ],
    });
  });
});

describe("htpasswd Basic auth", () => {
  it("is refused anonymously", async () => {
    await expect(
      clientFor(basic).headManifest({ domain: basic.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED", status: 401 });
  });

  it("works with keyring credentials, trying them in kubelet order", async () => {
    const keyring = createDockerKeyring([
      {
        config: parseDockerConfigJson({
          auths: {
            [`${basic.host}/team`]: { username: "alice", password: "wrong" },
            [basic.host]: { username: "alice", password: "s3cret" },
          },
        }),
      },
    ]);
    const client = clientFor(basic, { credentials: keyringCredentials(keyring) });
    const head = await client.headManifest({ domain: basic.host, path: "team/app", tag: "1.0.0" });
    expect(head.digest).toBe(app.manifest.digest);
    expect(await client.listTags({ domain: basic.host, path: "team/multi" })).toEqual([
      "1.0.0",
      "latest",
    ]);
  });

  it("reports wrong credentials as UNAUTHORIZED", async () => {
    const client = clientFor(basic, {
      credentials: keyringCredentials(keyringWith(basic.host, "alice", "nope")),
    });
    await expect(
      client.headManifest({ domain: basic.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
    });
  });
});

describe("Bearer token auth", () => {
  it("exchanges an anonymous token for a public repository", async () => {
    const client = clientFor(bearer);
    const head = await client.headManifest({
      domain: bearer.host,
      path: "public/hello",
      tag: "latest",
    });
    expect(head.digest).toBe(app.manifest.digest);
    const last = tokenServer.requests.at(-1);
    expect(last?.auth).toBeNull();
    expect(last?.query).toContain("scope=repository%3Apublic%2Fhello%3Apull");
    expect(last?.query).toContain("service=test-registry");
  });

  it("is refused anonymously on a private repository after one re-auth", async () => {
    const before = tokenServer.requests.length;
    await expect(
      clientFor(bearer).headManifest({ domain: bearer.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    expect(tokenServer.requests.length - before).toBe(2);
  });

  it("sends the credentials to the token server and caches the token", async () => {
    const client = clientFor(bearer, {
      credentials: keyringCredentials(keyringWith(bearer.host, "alice", "s3cret")),
    });
    const before = tokenServer.requests.length;
    const image = { domain: bearer.host, path: "team/app", tag: "1.0.0" };
    expect((await client.headManifest(image)).digest).toBe(app.manifest.digest);
    expect((await client.headManifest({ ...image, tag: "2.0.0" })).digest).toBe(
      app.manifest.digest,
    );
    expect(await client.listTags({ domain: bearer.host, path: "team/app" })).toContain("v2.1.0");
    const made = tokenServer.requests.slice(before);
    expect(made).toHaveLength(1);
    expect(made[0]).toMatchObject({ auth: "Basic", user: "alice" });
    expect(made[0]?.query).toContain("account=alice");
  });

  it("reports credentials the token server refuses", async () => {
    const client = clientFor(bearer, {
      credentials: keyringCredentials(keyringWith(bearer.host, "alice", "bad")),
    });
    await expect(
      client.headManifest({ domain: bearer.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "UNAUTHORIZED",
      status: 401,
    });
  });
});

describe("TLS with a self-signed certificate", () => {
  it("fails verification with the default trust store", async () => {
    await expect(
      clientFor(tls).headManifest({ domain: tls.host, path: "team/app", tag: "1.0.0" }),
    ).rejects.toMatchObject({ code: "NETWORK_ERROR" });
  });

  it("works through an injected fetch that trusts the certificate", async () => {
    const client = clientFor(tls, { fetch: fetchTrusting(tlsCa) });
    const head = await client.headManifest({ domain: tls.host, path: "team/multi", tag: "1.0.0" });
    expect(head.digest).toBe(indexDigest);
    expect(await client.listTags({ domain: tls.host, path: "team/docker" })).toEqual(["1.0"]);
  });
});

describe("adapters against the real registry", () => {
  it("check availability: present, missing tag, missing repo, unauthorized", async () => {
    const client = clientFor(basic);
    const getSecret = async () => ({
      apiVersion: "v1",
      kind: "Secret",
      metadata: { namespace: "team", name: "regcred", uid: "u1" },
      type: "kubernetes.io/dockerconfigjson",
      data: {
        ".dockerconfigjson": Buffer.from(
          JSON.stringify({
            auths: { [basic.host]: { auth: Buffer.from("alice:s3cret").toString("base64") } },
          }),
        ).toString("base64"),
      },
    });
    const checker = createAvailabilityChecker({ client, getSecret });
    const secret = { namespace: "team", name: "regcred" };
    expect(await checker.check(`${basic.host}/team/app:1.0.0`, secret, {})).toEqual({
      available: true,
    });
    expect(await checker.check(`${basic.host}/team/multi@${indexDigest}`, secret, {})).toEqual({
      available: true,
    });
    const missingTag = await checker.check(`${basic.host}/team/app:9.9.9`, secret, {});
    expect(missingTag).toMatchObject({ available: false, retryable: false });
    expect(missingTag.available === false && missingTag.reason).toMatch(/NOT_FOUND \(HTTP 404\)/);
    const missingRepo = await checker.check(`${basic.host}/nope/nothing:1`, secret, {});
    expect(missingRepo).toMatchObject({ available: false, retryable: false });
    const anonymous = await checker.check(`${basic.host}/team/app:1.0.0`, undefined, {});
    expect(anonymous.available === false && anonymous.reason).toMatch(/^UNAUTHORIZED/);
    const invalid = await checker.check("Team/App:1", undefined, {});
    expect(invalid.available === false && invalid.reason).toMatch(/^INVALID_REFERENCE/);
  });

  it("list tags and resolve digests", async () => {
    const client = clientFor(anon);
    const lister = createTagLister({ client });
    const tags = await lister.listTags({ domain: anon.host, path: "team/multi" }, {});
    expect([...tags].sort()).toEqual(["1.0.0", "latest"]);
    const appTags = await lister.listTags({ domain: anon.host, path: "team/app" }, {});
    expect(appTags).not.toContain("sha256-0123456789abcdef.sig");
    // Registry order is kept: the same order the raw listing has.
    const raw = await client.listTagsRaw({ domain: anon.host, path: "team/app" });
    expect(appTags).toEqual(raw.filter((t) => !t.endsWith(".sig")));
    const resolver = createDigestResolver({ client });
    expect(
      await resolver.resolveDigest({ domain: anon.host, path: "team/multi", tag: "1.0.0" }, {}),
    ).toBe(indexDigest);
  });
});

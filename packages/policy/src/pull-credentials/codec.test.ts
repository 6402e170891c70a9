import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
} from "./codec.js";
import { pulledRecordFromJson, pulledRecordToJson } from "./schema.js";

const beta = "kubelet.config.k8s.io/v1beta1";
const intent = (body: string) => `{"kind":"ImagePullIntent","apiVersion":"${beta}"${body}}`;
const record = (body: string) => `{"kind":"ImagePulledRecord","apiVersion":"${beta}"${body}}`;

describe("decodeIntentFile", () => {
  it.each([
    {
      name: "pretty-printed",
      content: `{\n  "kind": "ImagePullIntent",\n  "apiVersion": "${beta}",\n  "image": "a"\n}\n`,
      image: "a",
    },
    {
      name: "fields in any order",
      content: `{"image":"a","apiVersion":"${beta}","kind":"ImagePullIntent"}`,
      image: "a",
    },
    { name: "no image", content: intent(""), image: "" },
    { name: "null image (Go zero value)", content: intent(',"image":null'), image: "" },
    { name: "escapes", content: intent(',"image":"a\\u003cb\\/c\\u00e9"'), image: "a<b/cé" },
    {
      name: "lone surrogate escape becomes U+FFFD",
      content: intent(',"image":"\\ud800x"'),
      image: "\ufffdx",
    },
    { name: "surrogate pair escape", content: intent(',"image":"\\ud83d\\ude00"'), image: "😀" },
    // apimachinery's universal decoder gives non-JSON content to its YAML serializer.
    {
      name: "JSON behind a byte order mark (YAML path)",
      content: `\ufeff${intent(',"image":"a"')}`,
      image: "a",
    },
    {
      name: "YAML",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\nimage: nginx:1.25\n`,
      image: "nginx:1.25",
    },
    {
      name: "YAML with a comment",
      content: `# written by hand\nkind: ImagePullIntent\napiVersion: ${beta}\nimage: 'a'\n`,
      image: "a",
    },
  ])("accepts $name", ({ content, image }) => {
    expect(decodeIntentFile(content).object).toEqual({ image });
  });

  it.each([
    { name: "empty file", content: "" },
    { name: "whitespace", content: " \n" },
    { name: "array", content: "[]" },
    { name: "null", content: "null" },
    { name: "trailing data", content: `${intent(',"image":"a"')}x` },
    { name: "two objects", content: `${intent("")}${intent("")}` },
    { name: "missing kind", content: `{"apiVersion":"${beta}","image":"a"}` },
    { name: "empty kind", content: `{"kind":"","apiVersion":"${beta}"}` },
    { name: "missing apiVersion", content: `{"kind":"ImagePullIntent","image":"a"}` },
    {
      name: "unknown version",
      content: `{"kind":"ImagePullIntent","apiVersion":"kubelet.config.k8s.io/v1"}`,
    },
    {
      name: "other group",
      content: `{"kind":"ImagePullIntent","apiVersion":"kubeproxy.config.k8s.io/v1alpha1"}`,
    },
    { name: "a record in the intents directory", content: record("") },
    {
      name: "another kubelet kind",
      content: `{"kind":"KubeletConfiguration","apiVersion":"${beta}"}`,
    },
    { name: "unknown field", content: intent(',"image":"a","extra":1') },
    { name: "field name case", content: intent(',"Image":"a"') },
    { name: "kind case", content: `{"Kind":"ImagePullIntent","apiVersion":"${beta}"}` },
    { name: "duplicate field", content: intent(',"image":"a","image":"a"') },
    { name: "number for a string", content: intent(',"image":5') },
    { name: "raw control character", content: intent(',"image":"a\tb"') },
    { name: "bad escape", content: intent(',"image":"a\\x"') },
    { name: "single quotes", content: "{'kind':'ImagePullIntent'}" },
    { name: "trailing comma", content: intent(',"image":"a",') },
    { name: "JSON after a non-JSON space", content: `\u00a0${intent("")}` },
    {
      name: "YAML with a repeated key",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\nimage: a\nimage: b\n`,
    },
    {
      name: "YAML 1.1 boolean for a string",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\nimage: yes\n`,
    },
    {
      name: "YAML number for a string",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\nimage: 1.0\n`,
    },
    {
      name: "YAML with an unknown field",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\nimages: a\n`,
    },
    {
      name: "two YAML documents",
      content: `kind: ImagePullIntent\napiVersion: ${beta}\n---\nimage: a\n`,
    },
    { name: "a YAML list", content: "- a\n- b\n" },
    { name: "a YAML alias without its anchor", content: "*\u0000" },
    { name: "a YAML alias to an unknown anchor", content: `kind: *k\napiVersion: ${beta}\n` },
    { name: "plain text", content: "not a record" },
  ])("rejects $name with DECODE_ERROR", ({ content }) => {
    expect(() => decodeIntentFile(content)).toThrowError(
      expect.objectContaining({ code: "DECODE_ERROR" }),
    );
  });

  it("decodes invalid UTF-8 bytes one U+FFFD per byte, as Go does", () => {
    const bytes = new TextEncoder().encode(intent(',"image":"aXb"'));
    const at = bytes.indexOf(0x58);
    const withBad = new Uint8Array([...bytes.slice(0, at), 0xe2, 0x82, ...bytes.slice(at + 1)]);
    expect(decodeIntentFile(withBad).object.image).toBe("a\ufffd\ufffdb");
  });
});

describe("decodePulledRecordFile", () => {
  it.each([
    { time: '"2024-10-21T12:26:40Z"', want: "2024-10-21T12:26:40Z" },
    { time: '"2024-10-21T12:26:40.999999999Z"', want: "2024-10-21T12:26:40Z" },
    { time: '"2024-10-21T14:26:40+02:00"', want: "2024-10-21T12:26:40Z" },
    { time: '"2024-10-21T12:26:40,5-01:30"', want: "2024-10-21T13:56:40Z" },
    { time: '"2024-02-29T00:00:00Z"', want: "2024-02-29T00:00:00Z" },
    { time: '"2024-10-21T2:26:40Z"', want: "2024-10-21T02:26:40Z" },
    { time: '"2024-10-21T12:26:40+24:00"', want: "2024-10-20T12:26:40Z" },
    { time: "null", want: null },
    { time: '"0001-01-01T00:00:00Z"', want: null },
  ])("lastUpdatedTime $time", ({ time, want }) => {
    const decoded = decodePulledRecordFile(record(`,"lastUpdatedTime":${time},"imageRef":"r"`));
    expect(pulledRecordToJson(decoded.object).lastUpdatedTime).toBe(want);
  });

  it.each([
    '"2024-10-21 12:26:40Z"',
    '"2024-10-21T12:26:40"',
    '"2024-10-21t12:26:40z"',
    '"2023-02-29T00:00:00Z"',
    '"2024-10-21T24:00:00Z"',
    '"2024-10-21T12:26:60Z"',
    '"2024-13-01T00:00:00Z"',
    '""',
    "1729513600",
  ])("rejects lastUpdatedTime %s", (time) => {
    expect(() =>
      decodePulledRecordFile(record(`,"lastUpdatedTime":${time},"imageRef":"r"`)),
    ).toThrowError(expect.objectContaining({ code: "DECODE_ERROR" }));
  });

  it.each([
    {
      name: "unknown field in a secret",
      body: ',"credentialMapping":{"a":{"kubernetesSecrets":[{"uid":"u","x":1}]}}',
    },
    {
      name: "the old field name",
      body: ',"credentialMapping":{"a":{"kubernetesSecretCoordinates":[]}}',
    },
    { name: "duplicate mapping key", body: ',"credentialMapping":{"a":{},"a":{}}' },
    { name: "secrets not a list", body: ',"credentialMapping":{"a":{"kubernetesSecrets":{}}}' },
    {
      name: "string for a boolean",
      body: ',"credentialMapping":{"a":{"nodePodsAccessible":"true"}}',
    },
    { name: "mapping not an object", body: ',"credentialMapping":[]' },
  ])("rejects $name", ({ body }) => {
    expect(() =>
      decodePulledRecordFile(record(`,"lastUpdatedTime":null,"imageRef":"r"${body}`)),
    ).toThrowError(expect.objectContaining({ code: "DECODE_ERROR" }));
  });

  it("reads nulls as Go zero values", () => {
    const decoded = decodePulledRecordFile(
      record(
        ',"lastUpdatedTime":"2025-01-01T00:00:00Z","imageRef":null,"credentialMapping":{"a":null,"b":{"kubernetesSecrets":[null],"nodePodsAccessible":null}}',
      ),
    );
    expect(pulledRecordToJson(decoded.object)).toEqual({
      lastUpdatedTime: "2025-01-01T00:00:00Z",
      imageRef: "",
      credentialMapping: {
        a: {},
        b: { kubernetesSecrets: [{ uid: "", namespace: "", name: "", credentialHash: "" }] },
      },
    });
  });

  it("keeps __proto__ as an ordinary mapping key", () => {
    const decoded = decodePulledRecordFile(
      record(
        ',"lastUpdatedTime":null,"imageRef":"r","credentialMapping":{"__proto__":{"nodePodsAccessible":true}}',
      ),
    );
    expect([...decoded.object.credentialMapping.keys()]).toEqual(["__proto__"]);
    expect(encodePulledRecordFile(decoded.object)).toContain(
      '"credentialMapping":{"__proto__":{"nodePodsAccessible":true}}',
    );
  });
});

describe("the internal version the decoding scheme also registers", () => {
  const internal = "kubelet.config.k8s.io/__internal";

  it.each([
    {
      name: "an intent with the Go field name",
      decode: () =>
        decodeIntentFile(`{"kind":"ImagePullIntent","apiVersion":"${internal}","Image":"nginx"}`),
      object: { image: "nginx" },
    },
    {
      name: "a record with Go field names all the way down",
      decode: () =>
        decodePulledRecordFile(
          `{"kind":"ImagePulledRecord","apiVersion":"${internal}","LastUpdatedTime":"2025-01-01T00:00:00Z","ImageRef":"r","CredentialMapping":{"docker.io/library/a":{"KubernetesSecrets":[{"UID":"u","Namespace":"n","Name":"s","CredentialHash":"h"}],"KubernetesServiceAccounts":[{"UID":"su","Namespace":"n","Name":"sa"}]},"b":{"NodePodsAccessible":true}}}`,
        ),
      object: {
        lastUpdatedTime: new Date("2025-01-01T00:00:00Z"),
        imageRef: "r",
        credentialMapping: new Map([
          [
            "docker.io/library/a",
            {
              kubernetesSecrets: [{ uid: "u", namespace: "n", name: "s", credentialHash: "h" }],
              kubernetesServiceAccounts: [{ uid: "su", namespace: "n", name: "sa" }],
              nodePodsAccessible: false,
            },
          ],
          ["b", { kubernetesSecrets: [], kubernetesServiceAccounts: [], nodePodsAccessible: true }],
        ]),
      },
    },
  ])("reads $name, as not current", ({ decode, object }) => {
    const decoded = decode();
    expect(decoded.apiVersion).toBe(internal);
    expect(decoded.isCurrentVersion).toBe(false);
    expect(decoded.object).toEqual(object);
  });

  it.each([
    {
      name: "tagged intent field",
      decode: () =>
        decodeIntentFile(`{"kind":"ImagePullIntent","apiVersion":"${internal}","image":"a"}`),
    },
    {
      name: "tagged record field",
      decode: () =>
        decodePulledRecordFile(
          `{"kind":"ImagePulledRecord","apiVersion":"${internal}","imageRef":"r"}`,
        ),
    },
    {
      name: "tagged secret field",
      decode: () =>
        decodePulledRecordFile(
          `{"kind":"ImagePulledRecord","apiVersion":"${internal}","CredentialMapping":{"a":{"KubernetesSecrets":[{"uid":"u"}]}}}`,
        ),
    },
    {
      name: "Go field name in v1beta1",
      decode: () =>
        decodeIntentFile(`{"kind":"ImagePullIntent","apiVersion":"${beta}","Image":"a"}`),
    },
    {
      name: "internal version without the group",
      decode: () =>
        decodeIntentFile(`{"kind":"ImagePullIntent","apiVersion":"__internal","Image":"a"}`),
    },
  ])("rejects $name", ({ decode }) => {
    expect(decode).toThrowError(expect.objectContaining({ code: "DECODE_ERROR" }));
  });
});

describe("encoding", () => {
  it("escapes as Go's encoder does", () => {
    expect(encodeIntentFile({ image: '<a&b>\u2028\u2029\b\f\n\r\t\u0001"\\é😀\ud800' })).toBe(
      `{"kind":"ImagePullIntent","apiVersion":"${beta}","image":"\\u003ca\\u0026b\\u003e\\u2028\\u2029\\u0008\\u000c\\n\\r\\t\\u0001\\"\\\\é😀\\ufffd"}\n`,
    );
  });

  it("sorts mapping keys by UTF-8 bytes, not UTF-16 units", () => {
    const r = pulledRecordFromJson({
      lastUpdatedTime: "2025-01-01T00:00:00Z",
      imageRef: "r",
      credentialMapping: { "\uff21": {}, "😀": {}, b: {}, a: {} },
    });
    const text = encodePulledRecordFile(r);
    expect(text).toBe(
      `{"kind":"ImagePulledRecord","apiVersion":"${beta}","lastUpdatedTime":"2025-01-01T00:00:00Z","imageRef":"r","credentialMapping":{"a":{},"b":{},"\uff21":{},"😀":{}}}\n`,
    );
  });

  it("truncates fractions and writes UTC", () => {
    const r = {
      lastUpdatedTime: new Date("2025-01-01T10:00:00.999+05:00"),
      imageRef: "r",
      credentialMapping: new Map(),
    };
    expect(encodePulledRecordFile(r)).toContain('"lastUpdatedTime":"2025-01-01T05:00:00Z"');
  });

  it("round-trips decode(encode(x))", () => {
    const r = pulledRecordFromJson({
      lastUpdatedTime: "2025-01-01T00:00:00Z",
      imageRef: "sha256:1",
      credentialMapping: {
        "docker.io/library/nginx": {
          kubernetesSecrets: [{ uid: "u", namespace: "n", name: "s", credentialHash: "" }],
          kubernetesServiceAccounts: [{ uid: "a", namespace: "n", name: "default" }],
        },
        "quay.io/x": { nodePodsAccessible: true },
      },
    });
    const text = encodePulledRecordFile(r);
    expect(encodePulledRecordFile(decodePulledRecordFile(text).object)).toBe(text);
    expect(decodePulledRecordFile(text).isCurrentVersion).toBe(true);
  });
});

describe("codec properties", () => {
  const text = fc.string({ unit: "grapheme", maxLength: 12 });
  const secret = fc.record({ uid: text, namespace: text, name: text, credentialHash: text });
  const account = fc.record({ uid: text, namespace: text, name: text });
  const credentials = fc.record({
    kubernetesSecrets: fc.array(secret, { maxLength: 3 }),
    kubernetesServiceAccounts: fc.array(account, { maxLength: 2 }),
    nodePodsAccessible: fc.boolean(),
  });
  const recordArb = fc.record({
    lastUpdatedTime: fc
      .integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(9999, 11, 31) })
      .map((ms) => new Date(Math.floor(ms / 1000) * 1000)),
    imageRef: text,
    credentialMapping: fc
      .array(fc.tuple(text, credentials), { maxLength: 4 })
      .map((e) => new Map(e)),
  });

  it("decode(encode(record)) gives the record back, and re-encodes to the same bytes", () => {
    fc.assert(
      fc.property(recordArb, (r) => {
        const bytes = encodePulledRecordFile(r);
        const back = decodePulledRecordFile(new TextEncoder().encode(bytes)).object;
        expect(back.lastUpdatedTime.getTime()).toBe(r.lastUpdatedTime.getTime());
        expect(back.imageRef).toBe(r.imageRef);
        const byKey = (m: ReadonlyMap<string, unknown>) =>
          [...m]
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
            .map(([k, v]) => [k, { ...(v as object) }]);
        expect(byKey(back.credentialMapping)).toEqual(byKey(r.credentialMapping));
        expect(encodePulledRecordFile(back)).toBe(bytes);
      }),
      { numRuns: 200 },
    );
  });

  it("intents round-trip any image string", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme" }), (image) => {
        expect(decodeIntentFile(encodeIntentFile({ image })).object.image).toBe(image);
      }),
    );
  });
});

describe("YAML records (the universal decoder's YAML path)", () => {
  it("reads a hand-written YAML record with an unquoted timestamp", () => {
    const yaml = [
      "kind: ImagePulledRecord",
      `apiVersion: kubelet.config.k8s.io/v1alpha1`,
      "lastUpdatedTime: 2024-10-21T12:26:40Z",
      "imageRef: sha256:abc",
      "credentialMapping:",
      "  docker.io/library/nginx:",
      "    kubernetesSecrets:",
      "    - {uid: u, namespace: ns, name: s, credentialHash: h}",
      "    nodePodsAccessible: false",
    ].join("\n");
    const decoded = decodePulledRecordFile(yaml);
    expect(decoded.isCurrentVersion).toBe(false);
    // YAML 1.1: an unquoted `n` is the boolean false, which a string field refuses.
    expect(() =>
      decodePulledRecordFile(yaml.replace("namespace: ns", "namespace: n")),
    ).toThrowError(expect.objectContaining({ code: "DECODE_ERROR" }));
    expect(pulledRecordToJson(decoded.object)).toEqual({
      lastUpdatedTime: "2024-10-21T12:26:40Z",
      imageRef: "sha256:abc",
      credentialMapping: {
        "docker.io/library/nginx": {
          kubernetesSecrets: [{ uid: "u", namespace: "ns", name: "s", credentialHash: "h" }],
        },
      },
    });
  });
});

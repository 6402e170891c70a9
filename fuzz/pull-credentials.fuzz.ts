/**
 * `pnpm fuzz pull-credentials`: long property runs for the record codec
 * (`FUZZ_RUNS` inputs each, a million by default; `FUZZ_SEED` to replay):
 *
 * - the strict JSON reader agrees with `JSON.parse` on JSON without repeated keys;
 * - decoding arbitrary text or bytes either succeeds or throws
 *   `PullRecordError` `DECODE_ERROR`, never anything else;
 * - every decodable record re-encodes to bytes that are a fixed point after
 *   one more round (one round is not always enough, for Go too: a time in the
 *   first second of year 1 is written as `0001-01-01T00:00:00Z`, which reads
 *   back as Go's zero time and is then written as `null`).
 */

import { pullCredentials } from "@kubeimg/policy/internal";
import { PullRecordError } from "@kubeimg/policy/pull-credentials";
import fc from "fast-check";

const { decodeIntentFile, decodePulledRecordFile, encodeIntentFile, encodePulledRecordFile } =
  pullCredentials;

const runs = Number(process.env.FUZZ_RUNS ?? 1_000_000);
const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const started = Date.now();
let decoded = 0;
let refused = 0;

const beta = "kubelet.config.k8s.io/v1beta1";
const fragment = fc.constantFrom(
  "{",
  "}",
  "[",
  "]",
  ",",
  ":",
  '"kind"',
  '"apiVersion"',
  '"ImagePulledRecord"',
  '"ImagePullIntent"',
  `"${beta}"`,
  '"kubelet.config.k8s.io/v1alpha1"',
  '"lastUpdatedTime"',
  '"2024-10-21T12:26:40Z"',
  '"imageRef"',
  '"credentialMapping"',
  '"kubernetesSecrets"',
  '"kubernetesServiceAccounts"',
  '"nodePodsAccessible"',
  '"uid"',
  '"namespace"',
  '"name"',
  '"credentialHash"',
  '"image"',
  "null",
  "true",
  "false",
  "1",
  " ",
  "\n",
  "kind: ",
  "\ufeff",
);
const text = fc.string({ unit: "binary", maxLength: 12 });
const identity = { uid: text, namespace: text, name: text };
const wellFormed = fc
  .record(
    {
      kind: fc.constantFrom("ImagePulledRecord", "ImagePullIntent"),
      apiVersion: fc.constantFrom(beta, "kubelet.config.k8s.io/v1alpha1"),
      image: text,
      lastUpdatedTime: fc.oneof(
        fc.constant(null),
        fc
          .integer({ min: -62135596800000, max: 253402300799000 })
          .map((ms) => new Date(ms).toISOString()),
      ),
      imageRef: text,
      credentialMapping: fc.dictionary(
        text,
        fc.record(
          {
            kubernetesSecrets: fc.array(fc.record({ ...identity, credentialHash: text }), {
              maxLength: 3,
            }),
            kubernetesServiceAccounts: fc.array(fc.record(identity), { maxLength: 2 }),
            nodePodsAccessible: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        { maxKeys: 3 },
      ),
    },
    { requiredKeys: ["kind", "apiVersion"] },
  )
  .chain((o) =>
    fc.constantFrom(0, 2).map((indent) => {
      // Keep only the fields of the chosen kind, so most inputs decode.
      const fields =
        o.kind === "ImagePullIntent"
          ? ["kind", "apiVersion", "image"]
          : ["kind", "apiVersion", "lastUpdatedTime", "imageRef", "credentialMapping"];
      const picked = Object.fromEntries(Object.entries(o).filter(([k]) => fields.includes(k)));
      return JSON.stringify(picked, null, indent);
    }),
  );
const recordLike = fc.oneof(
  wellFormed,
  fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join("")),
  fc.string({ unit: "binary", maxLength: 200 }),
);

function decodeOrRefuse(text: string | Uint8Array): void {
  for (const decode of [decodeIntentFile, decodePulledRecordFile] as const) {
    let bytes: string;
    try {
      const d = decode(text);
      decoded++;
      bytes =
        "image" in d.object
          ? encodeIntentFile(d.object)
          : encodePulledRecordFile(d.object as Parameters<typeof encodePulledRecordFile>[0]);
    } catch (error) {
      if (!(error instanceof PullRecordError) || error.code !== "DECODE_ERROR") throw error;
      refused++;
      continue;
    }
    const round = (b: string) => {
      const o = decode(b).object;
      return "image" in o
        ? encodeIntentFile(o)
        : encodePulledRecordFile(o as Parameters<typeof encodePulledRecordFile>[0]);
    };
    const second = round(bytes);
    if (round(second) !== second) throw new Error(`not a fixed point: ${JSON.stringify(bytes)}`);
  }
}

fc.assert(
  fc.property(recordLike, (text) => {
    decodeOrRefuse(text);
    decodeOrRefuse(new TextEncoder().encode(text));
  }),
  { numRuns: runs, seed },
);

console.log(
  `pull-credentials fuzz: ${runs.toLocaleString("en-US")} inputs (seed ${seed}): ` +
    `${decoded.toLocaleString("en-US")} decoded and re-encoded to a fixed point, ` +
    `${refused.toLocaleString("en-US")} refused with DECODE_ERROR, 0 other exceptions — ` +
    `${((Date.now() - started) / 1000).toFixed(1)} s`,
);

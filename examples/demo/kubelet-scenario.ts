/**
 * The node the demo's pull decisions are about: which images are on it, with
 * which image IDs, and which credentials pulled them. `scripts/
 * make-kubelet-fixture.ts` writes these records with kubeimg's filesystem
 * store (byte-compatible with the kubelet's) into `fixtures/kubelet/`.
 */
import { createHash } from "node:crypto";

/** A fake but well-formed image ID (`sha256:` + 64 hex) derived from a name. */
export function imageId(name: string): string {
  return `sha256:${createHash("sha256").update(name).digest("hex")}`;
}

/** The pull secret team A's pods use, and the kubelet's hash of its credentials. */
export const TEAM_A_SECRET = {
  namespace: "team-a",
  name: "regcred",
  uid: "6b1f0c2e-2d4a-4c59-9a53-3b0d0f1c8a11",
  /** The credentials in the secret; the hash is the kubelet's SHA-256 of their JSON. */
  credential: { username: "team-a", password: "team-a-token" },
} as const;

/** Team B's pull secret: other credentials for the same registry. */
export const TEAM_B_SECRET = {
  namespace: "team-b",
  name: "regcred",
  uid: "0e8d7c1f-5a2b-4f7e-8c90-1d2e3f4a5b6c",
  credential: { username: "team-b", password: "team-b-token" },
} as const;

/** Images on the node. */
export const IMAGES = {
  /** Private, pulled by team A with its secret. */
  privateApp: { image: "registry.example.com/team-a/app:1.0", ref: imageId("team-a/app:1.0") },
  /** Public, pulled without credentials: every pod may use it. */
  publicNginx: { image: "docker.io/library/nginx:1.27", ref: imageId("library/nginx:1.27") },
  /** Preloaded on the node image (never pulled by the kubelet: no record). */
  preloadedPause: { image: "registry.k8s.io/pause:3.10", ref: imageId("pause:3.10") },
  /** A pull in flight when the kubelet stopped: only an intent. */
  inFlight: { image: "registry.example.com/team-a/app:2.0", ref: imageId("team-a/app:2.0") },
} as const;

/** When the records were written. */
export const RECORDED_AT = new Date("2026-01-15T10:00:00Z");

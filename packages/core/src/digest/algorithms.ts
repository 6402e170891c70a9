/**
 * The digest algorithms kubeimg accepts, as data.
 *
 * go-digest v1.0.0 knows `sha256`, `sha384` and `sha512`; a Go binary only
 * accepts the ones whose hash it links in, and every real consumer
 * (containerd, the kubelet, docker) links all three. Every algorithm is
 * hex-encoded, lower case only, so the encoded part is exactly `2 × size`
 * characters.
 */

/** The name of a supported digest algorithm. */
export type DigestAlgorithm = "sha256" | "sha384" | "sha512";

/** What kubeimg knows about one digest algorithm. */
export interface DigestAlgorithmInfo {
  /** Bytes the hash produces; the hex encoding is twice as long. */
  readonly size: number;
  /** The name WebCrypto's `crypto.subtle.digest` knows it by. */
  readonly webCryptoName: "SHA-256" | "SHA-384" | "SHA-512";
}

/**
 * The supported digest algorithms: size in bytes and WebCrypto name.
 * Mirrors the `algorithms` table of go-digest `algorithm.go`.
 */
export const digestAlgorithms: Readonly<Record<DigestAlgorithm, DigestAlgorithmInfo>> = {
  sha256: { size: 32, webCryptoName: "SHA-256" },
  sha384: { size: 48, webCryptoName: "SHA-384" },
  sha512: { size: 64, webCryptoName: "SHA-512" },
};

/**
 * Returns true when `name` is a supported digest algorithm (`sha256`,
 * `sha384` or `sha512`, exactly: `SHA256` is not).
 */
export function isDigestAlgorithm(name: string): name is DigestAlgorithm {
  return name === "sha256" || name === "sha384" || name === "sha512";
}

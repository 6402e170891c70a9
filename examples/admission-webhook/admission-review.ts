/**
 * The slice of `admission.k8s.io/v1` `AdmissionReview` a mutating webhook
 * reads and writes.
 */

/** The request half of an AdmissionReview. */
export interface AdmissionRequest {
  readonly uid: string;
  readonly kind: { readonly group: string; readonly version: string; readonly kind: string };
  readonly operation: string;
  readonly namespace: string | undefined;
  readonly name: string | undefined;
  readonly object: unknown;
  readonly dryRun: boolean;
}

/** The response half; `patch` is base64 of a JSON Patch (RFC 6902). */
export interface AdmissionResponse {
  readonly uid: string;
  readonly allowed: boolean;
  readonly patchType?: "JSONPatch";
  readonly patch?: string;
  readonly warnings?: readonly string[];
}

/** A request body that is not an AdmissionReview v1 (answered with HTTP 400). */
export class BadAdmissionReview extends Error {
  override readonly name = "BadAdmissionReview";
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** Returns the request of an AdmissionReview v1; throws {@link BadAdmissionReview} otherwise. */
export function readAdmissionRequest(body: unknown): AdmissionRequest {
  const review = record(body);
  if (review?.apiVersion !== "admission.k8s.io/v1" || review.kind !== "AdmissionReview") {
    throw new BadAdmissionReview("expected an admission.k8s.io/v1 AdmissionReview");
  }
  const request = record(review.request);
  if (typeof request?.uid !== "string" || request.uid === "") {
    throw new BadAdmissionReview("request.uid is missing");
  }
  const kind = record(request.kind);
  const text = (v: unknown) => (typeof v === "string" ? v : "");
  const optional = (v: unknown) => (typeof v === "string" && v !== "" ? v : undefined);
  return {
    uid: request.uid,
    kind: { group: text(kind?.group), version: text(kind?.version), kind: text(kind?.kind) },
    operation: text(request.operation),
    namespace: optional(request.namespace),
    name: optional(request.name),
    object: request.object,
    dryRun: request.dryRun === true,
  };
}

/** Wraps a response in an AdmissionReview. */
export function reviewReply(response: AdmissionResponse) {
  return { apiVersion: "admission.k8s.io/v1", kind: "AdmissionReview", response } as const;
}

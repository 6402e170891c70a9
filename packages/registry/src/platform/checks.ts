/**
 * Guards for the platform functions' arguments: a caller writing plain
 * JavaScript (or reading options from a file) gets an `INVALID_OPTION`
 * error naming the argument, never a `TypeError` from deep inside.
 */
import type { PlatformInput } from "@kubeimg/core/platform";
import { RegistryError } from "../errors/index.js";

function invalid(where: string, rule: string): never {
  throw new RegistryError("INVALID_OPTION", `${where} ${rule}`);
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** Refuses anything but a registry client (an object with `getManifest` and `getBlob`). */
export function checkClient(where: string, client: unknown): void {
  if (
    !isRecord(client) ||
    typeof client.getManifest !== "function" ||
    typeof client.getBlob !== "function"
  ) {
    invalid(`${where}: client`, "must be a registry client (createRegistryClient)");
  }
}

/** Refuses options that are not an object (undefined is fine). */
export function checkOptionsObject(where: string, options: unknown): void {
  if (options !== undefined && !isRecord(options))
    invalid(`${where}: options`, "must be an object");
}

/** Refuses a value that is not a platform object with string parts. */
export function checkPlatformInput(where: string, value: unknown): asserts value is PlatformInput {
  if (!isRecord(value)) invalid(where, "must be a platform ({ os, architecture, … })");
  for (const key of ["os", "architecture"] as const) {
    if (typeof value[key] !== "string") invalid(`${where}.${key}`, "must be a string");
  }
  for (const key of ["variant", "osVersion"] as const) {
    if (value[key] !== undefined && typeof value[key] !== "string")
      invalid(`${where}.${key}`, "must be a string");
  }
  const features = value.osFeatures;
  if (
    features !== undefined &&
    (!Array.isArray(features) || features.some((f) => typeof f !== "string"))
  ) {
    invalid(`${where}.osFeatures`, "must be a list of strings");
  }
}

/** Refuses a list that is not a list of platform objects. */
export function checkPlatformList(
  where: string,
  value: unknown,
): asserts value is readonly PlatformInput[] {
  if (!Array.isArray(value)) invalid(where, "must be a list of platforms");
  value.forEach((p, i) => {
    checkPlatformInput(`${where}[${i}]`, p);
  });
}

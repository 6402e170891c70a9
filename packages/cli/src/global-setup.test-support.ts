/**
 * Vitest global setup: builds the `kubeimg` program once, with the same
 * options as the published build, into a temporary directory, and hands its
 * path to the tests (`inject("kubeimgProgram")`). The tests then run it as a
 * subprocess, as a user would.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { build } from "tsup";
import type { TestProject } from "vitest/node";
import { programBuild } from "../tsup.config.js";

declare module "vitest" {
  export interface ProvidedContext {
    kubeimgProgram: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const outDir = mkdtempSync(join(tmpdir(), "kubeimg-cli-"));
  await build({ ...programBuild(outDir), config: false, silent: true });
  project.provide("kubeimgProgram", join(outDir, "cli.js"));
  return () => rmSync(outDir, { recursive: true, force: true });
}

/**
 * Reads every kubelet-written file in the shared `ondisk/` folder (upstream
 * test data, never copied into this repository) and checks that it decodes
 * and re-encodes exactly as the v1.35 kubelet would write it, and that the
 * filesystem store migrates a copy of the folder to those bytes.
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { cp, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  currentRecordApiVersion,
  decodeIntentFile,
  decodePulledRecordFile,
  encodeIntentFile,
  encodePulledRecordFile,
} from "../codec.js";
import { FileSystemPullRecordStore, storageFileName } from "./index.js";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../../../../../../");
const ondisk = join(repoRoot, "..", "shared", "conformance", "pullmanager", "ondisk");
const present = existsSync(ondisk);

/** What v1.35 writes for a file it reads: the current apiVersion and exactly one trailing newline. */
function expectedRewrite(content: string): string {
  return `${content.replace(/\n$/, "").replace('"kubelet.config.k8s.io/v1alpha1"', `"${currentRecordApiVersion}"`)}\n`;
}

function files(dir: "pulled" | "pulling"): string[] {
  return present ? readdirSync(join(ondisk, dir)).sort() : [];
}

describe.skipIf(!present)(
  "kubelet on-disk files (../shared/conformance/pullmanager/ondisk)",
  () => {
    it.each(files("pulling"))("pulling/%s decodes and re-encodes as v1.35 writes it", (name) => {
      const content = readFileSync(join(ondisk, "pulling", name), "utf8");
      const decoded = decodeIntentFile(content);
      expect(storageFileName(decoded.object.image)).toBe(name);
      expect(decoded.isCurrentVersion).toBe(decoded.apiVersion === currentRecordApiVersion);
      expect(encodeIntentFile(decoded.object)).toBe(expectedRewrite(content));
    });

    it.each(files("pulled"))("pulled/%s decodes and re-encodes as v1.35 writes it", (name) => {
      const content = readFileSync(join(ondisk, "pulled", name));
      if (name.startsWith("sha256-e766e462")) {
        // Deliberately malformed upstream test data.
        expect(() => decodePulledRecordFile(content)).toThrowError(
          expect.objectContaining({ code: "DECODE_ERROR" }),
        );
        return;
      }
      const decoded = decodePulledRecordFile(content);
      expect(storageFileName(decoded.object.imageRef)).toBe(name);
      expect(encodePulledRecordFile(decoded.object)).toBe(
        expectedRewrite(content.toString("utf8")),
      );
    });

    it("the filesystem store migrates a copy of the folder to exactly those bytes", async () => {
      const root = await mkdtemp(join(tmpdir(), "kubeimg-ondisk-"));
      try {
        await cp(ondisk, join(root, "image_manager"), { recursive: true });
        const store = await FileSystemPullRecordStore.open(root);
        expect(store.openReport.errors.map((e) => e.path?.split("/").pop())).toEqual([
          files("pulled").find((n) => n.startsWith("sha256-e766e462")),
        ]);
        for (const dir of ["pulled", "pulling"] as const) {
          for (const name of await readdir(join(ondisk, dir))) {
            if (name.startsWith("sha256-e766e462")) continue;
            const original = await readFile(join(ondisk, dir, name), "utf8");
            const now = await readFile(join(root, "image_manager", dir, name), "utf8");
            // Current-version files are left byte for byte; older ones are rewritten.
            expect(now).toBe(original.includes("/v1alpha1") ? expectedRewrite(original) : original);
          }
        }
        const records = await store.listPulledRecords();
        expect(records.items).toHaveLength(files("pulled").length - 1);
        expect(records.errors).toHaveLength(1);
        expect(records.errors[0]?.code).toBe("DECODE_ERROR");
        const intents = await store.listIntents();
        expect(intents.items).toHaveLength(files("pulling").length);
      } finally {
        await rm(root, { recursive: true, force: true });
      }
    });
  },
);

import { defineConfig } from "vitest/config";

// Workspace packages import each other from source through the
// `@kubeimg/source` export condition, so tests need no build step.
const conditions = ["@kubeimg/source", "import", "module", "node", "default"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@kubeimg/source"] } },
  test: {
    include: ["packages/*/src/**/*.test.ts", "tests/**/*.test.ts", "examples/**/*.test.ts"],
    // Builds the `kubeimg` program once; its tests run it as a subprocess.
    globalSetup: ["packages/cli/src/testing/global-setup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

import { defineConfig } from "vitest/config";

// Workspace packages import each other from source through the
// `@kubeimg/source` export condition, so tests need no build step.
const conditions = ["@kubeimg/source", "import", "module", "node", "default"];

const everywhere = ["packages/*/src/**/", "tests/**/", "examples/**/"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@kubeimg/source"] } },
  test: {
    // Guards against a hang only, never a measure of speed: a CPU-bound
    // property run takes several times longer on a busy machine (the
    // 1,000-run round trip of node-mirrors/emit.test.ts took 55 s under
    // load beside two CPU hogs).
    testTimeout: 300_000,
    hookTimeout: 300_000,
    projects: [
      {
        extends: true,
        test: {
          // `pnpm test`: everything that runs on a bare machine. The CLI's
          // subprocess tests run the program from source (see
          // packages/cli/src/run-program.test-support.ts), so nothing is built.
          name: "unit",
          include: everywhere.map((dir) => `${dir}*.test.ts`),
          exclude: ["**/node_modules/**", "**/*.integration.test.ts"],
        },
      },
      {
        extends: true,
        test: {
          // `pnpm test:integration`: real servers (the registry, redis,
          // a terminal) and the built `kubeimg` program as a subprocess.
          name: "integration",
          include: everywhere.map((dir) => `${dir}*.integration.test.ts`),
          globalSetup: ["packages/cli/src/global-setup.test-support.ts"],
        },
      },
    ],
  },
});

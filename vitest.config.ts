import { defineConfig } from "vitest/config";

// Workspace packages import each other from source through the
// `@kubeimg/source` export condition, so tests need no build step.
const conditions = ["@kubeimg/source", "import", "module", "node", "default"];

const everywhere = ["packages/*/src/**/", "tests/**/", "examples/**/"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@kubeimg/source"] } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
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

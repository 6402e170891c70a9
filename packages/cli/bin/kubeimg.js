#!/usr/bin/env node
// The installed `kubeimg` command. It lives outside `dist/` so package
// managers can link it before the first build; the program is `dist/cli.js`.
// Run before a build (a fresh checkout), it says so in one line.
const program = new URL("../dist/cli.js", import.meta.url);
try {
  await import(program.href);
} catch (error) {
  const missing =
    error !== null &&
    typeof error === "object" &&
    error.code === "ERR_MODULE_NOT_FOUND" &&
    String(error.message).includes(program.pathname);
  if (!missing) throw error;
  process.stderr.write(
    "kubeimg: the program is not built yet: run `pnpm build` first (or `pnpm -s kubeimg …` from the checkout, which runs the sources)\n",
  );
  process.exitCode = 2;
}

// The `prepack` of every private workspace package: `pnpm -r pack` packs
// private packages too (pnpm has no switch to skip them), so packing one is
// refused here with the command that packs what is published.
const name = process.env.npm_package_name ?? "this package";
process.stderr.write(
  `${name} is private (tests and examples only) and is never published; ` +
    "pack the published packages with `pnpm pack:published`.\n",
);
process.exit(1);

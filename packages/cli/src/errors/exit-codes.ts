/**
 * The exit codes of `kubeimg`, one per outcome a script branches on.
 *
 * - `OK` (0): the command answered.
 * - `NOTHING_FOUND` (1): the input was fine but the policy found nothing
 *   (no tag selected, no alternative available).
 * - `BAD_INPUT` (2): a bad argument, file, object, reference, or a registry
 *   that could not be asked; one line on stderr says which.
 *
 * @example
 * ```ts
 * import { EXIT_CODES, nodeIo, runCli } from "@kubeimg/cli";
 *
 * const code = await runCli(["parse", "nginx"], nodeIo());
 * code === EXIT_CODES.OK; // → true
 * ```
 */
export const EXIT_CODES = Object.freeze({ OK: 0, NOTHING_FOUND: 1, BAD_INPUT: 2 } as const);

/** One of the values of {@link EXIT_CODES}. */
export type ExitCode = (typeof EXIT_CODES)[keyof typeof EXIT_CODES];

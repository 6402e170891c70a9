import type { CliIo } from "../io/io.js";

/** Wraps text in one terminal style, or returns it unchanged when colour is off. */
export type Style = (text: string) => string;

/** The styles tables use. */
export interface Colors {
  readonly enabled: boolean;
  readonly bold: Style;
  readonly dim: Style;
  readonly red: Style;
  readonly green: Style;
  readonly yellow: Style;
  readonly cyan: Style;
}

const sgr =
  (open: number, close: number): Style =>
  (text) =>
    `\u001b[${open}m${text}\u001b[${close}m`;

const plain: Style = (text) => text;

/**
 * Returns the colour styles for `io`: real ANSI styles only when stdout is a
 * terminal and `NO_COLOR` is unset or empty (https://no-color.org), plain
 * text otherwise, and always plain when `--no-color` was given.
 */
export function colorsFor(io: CliIo, options: { noColor: boolean }): Colors {
  const noColorEnv = io.env.NO_COLOR;
  const enabled =
    !options.noColor && io.stdout.isTTY === true && (noColorEnv === undefined || noColorEnv === "");
  if (!enabled) {
    return {
      enabled,
      bold: plain,
      dim: plain,
      red: plain,
      green: plain,
      yellow: plain,
      cyan: plain,
    };
  }
  return {
    enabled,
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
    cyan: sgr(36, 39),
  };
}

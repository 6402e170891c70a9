/**
 * A scripted registry for availability tests: each image answers after a
 * set delay on the test's clock, or hangs until its probe is aborted (or
 * for ever); every probe and every abort is recorded.
 */
import { familiarString, type NamedReference } from "@kubeimg/core/reference";
import type {
  Availability,
  AvailabilityChecker,
  RoutingTimers,
  SecretRef,
} from "@kubeimg/policy/availability";

/** How one image behaves: answer after `after` units, or never answer. */
export type Script =
  | { readonly after: number; readonly available: boolean; readonly retryable?: boolean }
  | "hang"
  | "hang-ignoring-abort";

/** How a {@link ScriptedChecker} names images and counts time. */
export interface ScriptedCheckerOptions {
  /** Milliseconds per unit of `after` (default 1). */
  readonly unit?: number;
  /** `after` of an image the script does not name: it is not found (default 1 unit). */
  readonly unscriptedAfter?: number;
  /** How scripts and records name an image (default: as the tests write it, `familiarString`). */
  readonly nameOf?: (reference: NamedReference) => string;
}

/** Records every probe and every abort it receives. */
export class ScriptedChecker<Handle = unknown> implements AvailabilityChecker {
  readonly calls: {
    readonly image: string;
    readonly secret: SecretRef | undefined;
    readonly signal: AbortSignal | undefined;
  }[] = [];
  readonly aborted: string[] = [];
  private readonly unit: number;
  private readonly unscriptedAfter: number;
  private readonly nameOf: (reference: NamedReference) => string;

  constructor(
    private readonly timers: RoutingTimers<Handle>,
    private readonly script: Readonly<Record<string, Script | (() => Script)>>,
    options: ScriptedCheckerOptions = {},
  ) {
    this.unit = options.unit ?? 1;
    this.unscriptedAfter = options.unscriptedAfter ?? 1;
    this.nameOf = options.nameOf ?? familiarString;
  }

  callsFor(image: string): number {
    return this.calls.filter((c) => c.image === image).length;
  }

  check(
    reference: NamedReference,
    secret: SecretRef | undefined,
    { signal }: { signal?: AbortSignal },
  ): Promise<Availability> {
    const image = this.nameOf(reference);
    this.calls.push({ image, secret, signal });
    const entry = this.script[image];
    const behaviour = (typeof entry === "function" ? entry() : entry) ?? {
      after: this.unscriptedAfter,
      available: false,
      retryable: false,
    };
    return new Promise((resolve) => {
      if (behaviour === "hang-ignoring-abort") return;
      let handle: Handle | undefined;
      if (behaviour !== "hang") {
        handle = this.timers.setTimeout(
          () =>
            resolve(
              behaviour.available
                ? { available: true }
                : {
                    available: false,
                    reason: "not found",
                    retryable: behaviour.retryable ?? false,
                  },
            ),
          behaviour.after * this.unit,
        );
      }
      signal?.addEventListener(
        "abort",
        () => {
          if (handle !== undefined) this.timers.clearTimeout(handle);
          this.aborted.push(image);
          resolve({ available: false, reason: "aborted", retryable: true });
        },
        { once: true },
      );
    });
  }
}

/**
 * A fake registry for resolution tests: each image answers after a set
 * delay on the fake clock, or hangs until its probe is aborted.
 */
import { familiarString, type NamedReference } from "@kubeimg/core/reference";
import type { FakeTimers } from "@kubeimg/testkit";
import type { Availability, AvailabilityChecker, SecretRef } from "./checker.js";

/** How one image behaves: answer after `after` ms, or never answer. */
export type Script =
  | { readonly after: number; readonly available: boolean; readonly retryable?: boolean }
  | "hang"
  | "hang-ignoring-abort";

/** Records every probe and every abort it receives. */
export class ScriptedChecker implements AvailabilityChecker {
  readonly calls: {
    image: string;
    secret: SecretRef | undefined;
    signal: AbortSignal | undefined;
  }[] = [];
  readonly aborted: string[] = [];

  constructor(
    private readonly timers: FakeTimers,
    private readonly script: Readonly<Record<string, Script>>,
  ) {}

  callsFor(image: string): number {
    return this.calls.filter((c) => c.image === image).length;
  }

  check(
    reference: NamedReference,
    secret: SecretRef | undefined,
    { signal }: { signal?: AbortSignal },
  ): Promise<Availability> {
    // Scripts and records name images as the tests write them.
    const image = familiarString(reference);
    this.calls.push({ image, secret, signal });
    const behaviour = this.script[image] ?? { after: 1, available: false, retryable: false };
    return new Promise((resolve) => {
      if (behaviour === "hang-ignoring-abort") return;
      let handle: number | undefined;
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
          behaviour.after,
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

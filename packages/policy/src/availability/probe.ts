/**
 * The availability gate's smallest pieces: the key a check is known by, and
 * one call of the wrapped checker under the probe timeout. The timeout
 * holds even for a checker that ignores its signal: the probe answers
 * "unavailable" at the timeout (one turn of the event loop later, so an
 * answer already received is read first) and whatever the checker does
 * later is observed and dropped.
 */
import { formatAllPlatform, type PlatformInput } from "@kubeimg/core/platform";
import type { NamedReference } from "@kubeimg/core/reference";
import type { Availability, AvailabilityChecker, RoutingTimers } from "./checker.js";
import type { VerdictKey } from "./state.js";

/** A verdict key that also carries the parsed image and the platforms to pass to the wrapped checker. */
export interface GateKey extends VerdictKey {
  readonly reference: NamedReference;
  readonly platformList?: readonly PlatformInput[];
}

/** The platforms of a platform-aware check, as one key part (formatted with OS version and features). */
export function platformsKey(platforms: readonly PlatformInput[]): string {
  return platforms.map((p) => formatAllPlatform(p)).join(",");
}

/** Token of a probe that goes ahead without a marker (the state could not be asked). */
export const LOCAL_TOKEN = "\u0000local";

/** The registry of an image when the caller names no other rule: its domain, as the registry client reads it. */
export function defaultRegistryOf(image: NamedReference): string {
  return image.domain;
}

export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Calls `work` and turns a synchronous throw into a rejection. */
export function attempt<T>(work: () => Promise<T>): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (e) {
    return Promise.reject(e);
  }
}

/** What {@link probeOnce} needs besides the checker. */
export interface ProbeOnceOptions<Handle> {
  readonly timers: RoutingTimers<Handle>;
  readonly probeTimeoutMs: number;
  /** Called when the probe is sent. */
  readonly onProbe: () => void;
  /** Called when the probe timeout fires first. */
  readonly onTimeout: () => void;
  /**
   * Runs the start of the probe, now or in a later turn of the event loop
   * (the turn budget's `defer`): starting a request costs real CPU, and a
   * dead registry's circuit opening can start hundreds at once. The probe
   * timeout counts from the start.
   */
  readonly start: (work: () => void) => void;
}

/**
 * One call of `checker` under the probe timeout: its answer, "unavailable"
 * (retryable) at the timeout, or undefined when `signal` aborted it first
 * (an aborted probe says nothing about the image). Never rejects.
 */
export function probeOnce<Handle>(
  checker: AvailabilityChecker,
  key: GateKey,
  signal: AbortSignal,
  options: ProbeOnceOptions<Handle>,
): Promise<Availability | undefined> {
  if (signal.aborted) return Promise.resolve(undefined);
  const { timers, probeTimeoutMs } = options;
  return new Promise<Availability | undefined>((resolve) => {
    let settled = false;
    let timer: { readonly handle: Handle } | undefined;
    const controller = new AbortController();
    const done = (answer: Availability | undefined): void => {
      if (settled) return;
      settled = true;
      if (timer) timers.clearTimeout(timer.handle);
      signal.removeEventListener("abort", onAbort);
      resolve(answer);
    };
    const onAbort = (): void => {
      done(undefined);
      controller.abort(signal.reason);
    };
    signal.addEventListener("abort", onAbort, { once: true });
    options.start(() => {
      // Aborted while waiting for its turn: never sent.
      if (settled) return;
      options.onProbe();
      const timeOut = (): void => {
        if (settled) return;
        options.onTimeout();
        done({
          available: false,
          reason: `timed out after ${probeTimeoutMs} ms`,
          retryable: true,
        });
        controller.abort(new Error("probe timeout"));
      };
      // When the timeout falls due, the answer may already be waiting in its
      // socket: a busy event loop runs due timers before it reads sockets, so
      // a registry that answered in time would be blamed for this process's
      // own lateness (and its circuit opened). One more turn of the loop reads
      // what has arrived; only then does the probe time out.
      timer = {
        handle: timers.setTimeout(() => {
          if (settled) return;
          timer = { handle: timers.setTimeout(timeOut, 0) };
        }, probeTimeoutMs),
      };
      attempt(() =>
        checker.check(key.reference, key.credentialSecret, {
          signal: controller.signal,
          ...(key.platformList ? { platforms: key.platformList } : {}),
        }),
      )
        .then(
          (answer) => done(controller.signal.aborted ? undefined : answer),
          (e: unknown) =>
            done(
              controller.signal.aborted
                ? undefined
                : { available: false, reason: messageOf(e), retryable: true },
            ),
        )
        // `done` never throws; this only keeps the chain observed.
        .then(undefined, () => {});
    });
  });
}

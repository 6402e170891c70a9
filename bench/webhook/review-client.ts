/**
 * One process of the load test's client (forked by `client-pool.ts`): a
 * slice of the API server stand-in, with its own event loop and its own
 * keep-alive agent, so that a thousand HTTPS reviews are not all written and
 * read by one busy process. It builds its reviews, opens one connection per
 * review, says `ready`, sends every review when told `go`, and answers with
 * each review's outcome and its own event-loop delay.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import { podReview, sendReviews } from "./cluster.js";

/** What the pool asks of one client process. */
export interface ClientJob {
  readonly port: number;
  readonly ca: string;
  /** Reviews `first` .. `first + count - 1` of the run. */
  readonly first: number;
  readonly count: number;
  readonly containers: number;
  /** Distinct images the Pods draw from, all on `origin`. */
  readonly images: number;
  readonly origin: string;
  readonly timeoutMs: number;
}

/** The images of review `i`: `containers` of the run's `images`, a different mix per review. */
export function reviewImages(
  i: number,
  containers: number,
  images: number,
  origin: string,
): string[] {
  return Array.from(
    { length: containers },
    (_, k) => `${origin}/team/app-${(i * 7 + k) % images}:1`,
  );
}

/** Messages from the pool. */
export type ToClient = { readonly type: "job"; readonly job: ClientJob } | { readonly type: "go" };

if (process.send) {
  const send = (message: unknown) => process.send?.(message);
  let go: () => void = () => {};
  const started = new Promise<void>((resolve) => {
    go = resolve;
  });
  process.on("message", (message: ToClient) => {
    if (message.type === "go") return go();
    const { job } = message;
    const reviews = Array.from({ length: job.count }, (_, j) => {
      const uid = `review-${job.first + j}`;
      return {
        uid,
        body: podReview(uid, reviewImages(job.first + j, job.containers, job.images, job.origin)),
      };
    });
    const loop = monitorEventLoopDelay({ resolution: 10 });
    void sendReviews({
      ports: [job.port],
      ca: job.ca,
      reviews,
      timeoutMs: job.timeoutMs,
      beforeSending: () => {
        send({ type: "ready" });
        return started.then(() => {
          loop.enable();
        });
      },
    }).then(
      (outcomes) => {
        loop.disable();
        send({
          type: "done",
          outcomes,
          loopDelayMs: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
        });
      },
      (error: unknown) => send({ type: "failed", error: String(error) }),
    );
  });
  process.on("disconnect", () => process.exit(0));
}

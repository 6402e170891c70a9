/**
 * The page thread: reads the inputs, sends each computation to the worker,
 * renders the answer. It never computes: a worker that runs past its budget
 * is terminated and replaced, so no paste can freeze the tab. The whole
 * state lives in the URL fragment (deflate-raw, base64url), so a link
 * reproduces a case; nothing is ever sent anywhere.
 */

import type { ReferencesResult, RoutingResult, TagsDialect, TagsResult } from "./compute.js";
import { inlineable } from "./inline.js";
import type { Job } from "./jobs.js";
import { decodeLink } from "./link-state.js";
import { $, area, boxText, held, holdLargePaste, select, setStatus } from "./page/dom.js";
import {
  applyState,
  type State,
  saveState,
  showLinkNotice,
  shownView,
  showView,
  type View,
  writingHash,
} from "./page/state.js";
import { renderReferences } from "./page/views/references.js";
import { readRouting, renderRouting, showRoutingMode, writeRouting } from "./page/views/routing.js";
import { renderTags, showDialect } from "./page/views/tags.js";
import { run, runInline, warmWorker } from "./page/worker-client.js";
import { routingSeeds, seedRefs, seeds } from "./seeds.js";

const DEBOUNCE_MS = 120;
let nextId = 0;

async function update(): Promise<void> {
  const id = ++nextId;
  const started = performance.now();
  setStatus("working", true);
  const job: Job =
    shownView() === "tags"
      ? {
          id,
          view: "tags",
          input: {
            policy: boxText("tags-policy"),
            tags: boxText("tags-list"),
            dialect: select("tags-dialect").value as TagsDialect,
            objects: boxText("tags-objects"),
          },
        }
      : shownView() === "routing"
        ? { id, view: "routing", input: readRouting() }
        : { id, view: "references", input: boxText("refs-input") };
  const inline = nextId === 1 && (await inlineable(job));
  const result = (await (inline ? runInline(job) : run(job))) as
    | TagsResult
    | ReferencesResult
    | RoutingResult
    | { timeout: number }
    | { failure: string }
    | undefined;
  if (result === undefined || id !== nextId) return;
  if ("timeout" in result) {
    setStatus(
      `Gave up after ${result.timeout} ms: the input is too large or too costly. The worker was restarted.`,
    );
    document.body.dataset.answered = String(id);
    return;
  }
  if ("failure" in result) {
    setStatus(`Internal error: ${result.failure}`);
    return;
  }
  if (result.kind === "tags") renderTags(result);
  else if (result.kind === "routing") renderRouting(result);
  else renderReferences(result);
  setStatus(`Answered in ${Math.round(performance.now() - started)} ms.`);
  document.body.dataset.answered = String(id);
  if (id === 1) {
    performance.mark("kubeimg:first-answer", { detail: { inline } });
    // The next edit goes to the worker: start it once the first answer is painted. The
    // address needs no fragment yet: it is the seed, or the link the page was opened with.
    setTimeout(warmWorker, 0);
    return;
  }
  void saveState();
}

let debounce: number | undefined;
function schedule(): void {
  clearTimeout(debounce);
  debounce = window.setTimeout(() => void update(), DEBOUNCE_MS);
}

const themes = ["auto", "light", "dark"] as const;
function setTheme(theme: (typeof themes)[number]): void {
  if (theme === "auto") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
  $("theme").textContent = `Theme: ${theme}`;
  try {
    localStorage.setItem("kubeimg-playground-theme", theme);
  } catch {
    // Storage can be disabled; the toggle still works for this page.
  }
}

async function init(): Promise<void> {
  for (const tab of document.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
    tab.addEventListener("click", () => {
      showView(tab.dataset.view as View);
      schedule();
    });
    tab.addEventListener("keydown", (e) => {
      if (e.key !== "ArrowRight" && e.key !== "ArrowLeft") return;
      const tabs = [...document.querySelectorAll<HTMLButtonElement>("[role=tab]")];
      const i = tabs.indexOf(tab) + (e.key === "ArrowRight" ? 1 : -1);
      const next = tabs[(i + tabs.length) % tabs.length] as HTMLButtonElement;
      next.focus();
      next.click();
    });
  }
  for (const id of ["routing-image", "routing-namespace"])
    $(id).addEventListener("input", schedule);
  for (const id of ["routing-pull", "routing-mode"]) {
    $(id).addEventListener("change", () => {
      showRoutingMode();
      schedule();
    });
  }
  select("routing-seed").addEventListener("change", () => {
    const seed = routingSeeds[select("routing-seed").value];
    if (seed === undefined) return;
    held.delete("routing-crs");
    held.delete("routing-pod");
    writeRouting(seed);
    schedule();
  });
  for (const id of [
    "tags-policy",
    "tags-list",
    "tags-objects",
    "refs-input",
    "routing-crs",
    "routing-pod",
  ]) {
    $(id).addEventListener("input", () => {
      holdLargePaste(id);
      schedule();
    });
  }
  select("tags-dialect").addEventListener("change", () => {
    showDialect();
    schedule();
  });
  select("tags-seed").addEventListener("change", () => {
    const seed = seeds[select("tags-seed").value];
    if (seed === undefined) return;
    area("tags-policy").value = seed.policy;
    area("tags-list").value = seed.tags;
    area("tags-objects").value = seed.objects ?? "";
    if (seed.objects !== undefined) select("tags-dialect").value = "compare";
    showDialect();
    for (const id of ["tags-policy", "tags-list", "tags-objects"]) held.delete(id);
    schedule();
  });
  $("refs-seed").addEventListener("click", () => {
    area("refs-input").value = seedRefs;
    held.delete("refs-input");
    schedule();
  });
  $("share").addEventListener("click", async () => {
    await saveState();
    try {
      await navigator.clipboard.writeText(location.href);
      setStatus("Link copied: it reproduces this case.");
    } catch {
      setStatus("The address bar holds the link to this case.");
    }
  });
  let stored: string | null = null;
  try {
    stored = localStorage.getItem("kubeimg-playground-theme");
  } catch {
    stored = null;
  }
  let theme = themes.find((t) => t === stored) ?? "auto";
  setTheme(theme);
  $("theme").addEventListener("click", () => {
    theme = themes[(themes.indexOf(theme) + 1) % themes.length] as (typeof themes)[number];
    setTheme(theme);
  });
  window.addEventListener("hashchange", async () => {
    if (writingHash) return;
    const link = await decodeLink(location.hash);
    if (link === undefined) return;
    if ("refused" in link) return showLinkNotice(link.refused);
    showLinkNotice(undefined);
    applyState(link.value as Partial<State>);
    schedule();
  });

  const restored = await decodeLink(location.hash);
  if (restored !== undefined && "refused" in restored) showLinkNotice(restored.refused);
  if (restored !== undefined && "value" in restored) {
    applyState(restored.value as Partial<State>);
  } else {
    applyState({
      view: "tags",
      ...seeds.podinfo,
      dialect: "flux",
      objects: "",
      refs: seedRefs,
      routing: routingSeeds.team,
    });
    select("routing-seed").value = "team";
    select("tags-seed").value = "podinfo";
  }
  document.body.dataset.ready = "true";
  await update();
}

void init();

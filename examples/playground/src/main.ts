/**
 * The page thread: reads the inputs, sends each computation to the worker,
 * renders the answer. It never computes: a worker that runs past its budget
 * is terminated and replaced, so no paste can freeze the tab. The whole
 * state lives in the URL fragment (deflate-raw, base64url), so a link
 * reproduces a case; nothing is ever sent anywhere.
 */

import nginxRouting from "../../demo/fixtures/routing/nginx-unprivileged.yaml";
import teamRouting from "../../demo/fixtures/routing/team-mirror.yaml";
import rcTags from "../../demo/fixtures/tags/app.tags";
import rcPolicy from "../../demo/fixtures/tags/app-release-candidates.yaml";
import dialectTags from "../../demo/fixtures/tags/dialects/app.tags";
import argoUpdater from "../../demo/fixtures/tags/dialects/argocd-image-updater.yaml";
import dialectPolicy from "../../demo/fixtures/tags/dialects/flux-policy.yaml";
import kargoWarehouse from "../../demo/fixtures/tags/dialects/kargo-warehouse.yaml";
import minioTags from "../../demo/fixtures/tags/minio.tags";
import minioPolicy from "../../demo/fixtures/tags/minio-release.yaml";
import podinfoTags from "../../demo/fixtures/tags/podinfo.tags";
import podinfoPolicy from "../../demo/fixtures/tags/podinfo-semver.yaml";
import type {
  InputIssue,
  ReferencesResult,
  RoutingInput,
  RoutingResult,
  TagsDialect,
  TagsResult,
} from "./compute.js";
import { inlineable } from "./inline.js";
import { compute, type Job } from "./jobs.js";
import { decodeLink, encodeLink, MAX_LINK_STATE } from "./link-state.js";
import argoApplication from "./seeds/argocd-application.yaml";

/** How long one answer may take before the worker is terminated and restarted. */
const BUDGET_MS = 1500;
const DEBOUNCE_MS = 120;

type View = "tags" | "routing" | "references";
const views: readonly View[] = ["tags", "routing", "references"];

interface State {
  view: View;
  policy: string;
  tags: string;
  dialect: TagsDialect;
  /** The compare view's Argo CD / Kargo objects. */
  objects: string;
  refs: string;
  routing: RoutingInput;
}

const routingSeeds: Record<string, RoutingInput> = {
  nginx: {
    crs: nginxRouting,
    mode: "image",
    image: "nginxinc/nginx-unprivileged:1.25",
    namespace: "default",
    pullPolicy: "",
    pod: "",
  },
  team: {
    crs: teamRouting,
    mode: "image",
    image: "docker-registry.example.com/my-app/api:1.4",
    namespace: "my-app",
    pullPolicy: "",
    pod: [
      "apiVersion: v1",
      "kind: Pod",
      "metadata:",
      "  name: api",
      "  namespace: my-app",
      "spec:",
      "  containers:",
      "    - name: api",
      "      image: docker-registry.example.com/my-app/api:1.4",
      "    - name: sidecar",
      "      image: busybox:latest",
      "",
    ].join("\n"),
  },
};

interface TagsSeed {
  readonly policy: string;
  readonly tags: string;
  /** Set for the compare examples: the native Argo CD / Kargo objects. */
  readonly objects?: string;
}

const seeds: Record<string, TagsSeed> = {
  podinfo: { policy: podinfoPolicy, tags: podinfoTags },
  rc: { policy: rcPolicy, tags: rcTags },
  minio: { policy: minioPolicy, tags: minioTags },
  "argocd-updater": { policy: dialectPolicy, tags: dialectTags, objects: argoUpdater },
  "argocd-application": { policy: dialectPolicy, tags: dialectTags, objects: argoApplication },
  "kargo-warehouse": { policy: dialectPolicy, tags: dialectTags, objects: kargoWarehouse },
};

const seedRefs = [
  "nginx",
  "nginx:1.25",
  "library/nginx:latest",
  "ghcr.io/stefanprodan/podinfo:6.5.0",
  `quay.io/minio/minio@sha256:${"0123456789abcdef".repeat(4)}`,
  "localhost:5000/team/app:v1",
  "Ubuntu",
  "nginx:",
  "",
].join("\n");

function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`missing #${id}`);
  return el;
}
const area = (id: string) => $(id) as HTMLTextAreaElement;

/**
 * A paste larger than this is kept out of its text box: a browser lays out a
 * multi-megabyte textarea on the page thread, which is the freeze the worker
 * exists to avoid. The box shows a summary; the worker gets the whole text.
 */
const HELD_PASTE_CHARS = 256 * 1024;
const held = new Map<string, string>();

/** The text of an input box, or the large paste held for it. */
function boxText(id: string): string {
  return held.get(id) ?? area(id).value;
}

function onInput(id: string): void {
  const box = area(id);
  held.delete(id);
  if (box.value.length > HELD_PASTE_CHARS) {
    const text = box.value;
    held.set(id, text);
    const mb = (text.length / (1024 * 1024)).toFixed(1);
    // Replaced in the same task as the input, before the browser lays the big text out.
    box.value = `# ${mb} MB pasted: kept outside this box, edit here to replace it. It begins:\n${text.slice(0, 400)}`;
  }
  schedule();
}
const select = (id: string) => $(id) as HTMLSelectElement;
const field = (id: string) => $(id) as HTMLInputElement;

function readRouting(): RoutingInput {
  return {
    crs: boxText("routing-crs"),
    mode: select("routing-mode").value === "pod" ? "pod" : "image",
    image: field("routing-image").value,
    namespace: field("routing-namespace").value,
    pullPolicy: select("routing-pull").value,
    pod: boxText("routing-pod"),
  };
}

function writeRouting(r: Partial<RoutingInput>): void {
  if (typeof r.crs === "string") area("routing-crs").value = r.crs;
  if (r.mode === "image" || r.mode === "pod") select("routing-mode").value = r.mode;
  if (typeof r.image === "string") field("routing-image").value = r.image;
  if (typeof r.namespace === "string") field("routing-namespace").value = r.namespace;
  if (typeof r.pullPolicy === "string") select("routing-pull").value = r.pullPolicy;
  if (typeof r.pod === "string") area("routing-pod").value = r.pod;
  showRoutingMode();
}

function showRoutingMode(): void {
  const pod = select("routing-mode").value === "pod";
  $("routing-pod-inputs").hidden = !pod;
  $("routing-image-inputs").hidden = pod;
}

function h(
  tag: string,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

// ---------------------------------------------------------------------------
// The worker and its budget

let worker: Worker | undefined;
let nextId = 0;
let pending: { id: number; timer: number; resolve: (r: unknown) => void } | undefined;
/** Workers terminated for running past the budget (shown to tests as `data-worker-restarts`). */
let restarts = 0;

function startWorker(): Worker {
  const w = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
  w.onmessage = (e: MessageEvent<{ id: number; result?: unknown; failure?: string }>) => {
    if (pending === undefined || e.data.id !== pending.id) return;
    clearTimeout(pending.timer);
    const p = pending;
    pending = undefined;
    p.resolve(e.data.failure === undefined ? e.data.result : { failure: e.data.failure });
  };
  return w;
}

/** Runs one job in the worker; a newer job supersedes it, and one past the budget kills the worker. */
function run(job: Job): Promise<unknown> {
  if (pending !== undefined) {
    // The previous answer is no longer wanted: if it is still computing, drop that worker.
    clearTimeout(pending.timer);
    pending.resolve(undefined);
    pending = undefined;
    worker?.terminate();
    worker = undefined;
  }
  worker ??= startWorker();
  const w = worker;
  return new Promise((resolve) => {
    const timer = window.setTimeout(() => {
      if (pending?.id !== job.id) return;
      pending = undefined;
      w.terminate();
      // A fresh worker at once, so the next edit is answered without waiting for one to start.
      restarts += 1;
      document.body.dataset.workerRestarts = String(restarts);
      if (worker === w) worker = startWorker();
      resolve({ timeout: BUDGET_MS });
    }, BUDGET_MS);
    pending = { id: job.id, timer, resolve };
    w.postMessage(job);
  });
}

async function runInline(job: Job): Promise<unknown> {
  try {
    return await compute(job);
  } catch (error) {
    return { failure: error instanceof Error ? error.message : String(error) };
  }
}

// ---------------------------------------------------------------------------
// State in the URL fragment

async function encodeState(state: State): Promise<string | undefined> {
  // Measured before stringifying: serialising a 10 MB paste would itself stall the page.
  const texts = [state.policy, state.tags, state.objects, state.refs, state.routing.crs];
  if (texts.reduce((n, t) => n + t.length, state.routing.pod.length) > MAX_LINK_STATE) {
    return undefined;
  }
  return encodeLink(JSON.stringify(state));
}

/** Shows why a link was not loaded (or hides the notice, given `undefined`). */
function showLinkNotice(message: string | undefined): void {
  const notice = $("link-notice");
  notice.textContent = message ?? "";
  notice.hidden = message === undefined;
}

function readState(): State {
  return {
    view: currentView,
    policy: boxText("tags-policy"),
    tags: boxText("tags-list"),
    dialect: select("tags-dialect").value as TagsDialect,
    objects: boxText("tags-objects"),
    refs: boxText("refs-input"),
    routing: readRouting(),
  };
}

function applyState(s: Partial<State>): void {
  held.clear();
  if (typeof s.policy === "string") area("tags-policy").value = s.policy;
  if (typeof s.tags === "string") area("tags-list").value = s.tags;
  if (s.dialect === "flux" || s.dialect === "compare") select("tags-dialect").value = s.dialect;
  if (typeof s.objects === "string") area("tags-objects").value = s.objects;
  showDialect();
  if (typeof s.refs === "string") area("refs-input").value = s.refs;
  if (typeof s.routing === "object" && s.routing !== null) writeRouting(s.routing);
  showView(views.find((v) => v === s.view) ?? "tags");
}

let writingHash = false;
async function saveState(): Promise<void> {
  const encoded = await encodeState(readState());
  if (encoded === undefined) return;
  writingHash = true;
  history.replaceState(null, "", `#${encoded}`);
  writingHash = false;
}

// ---------------------------------------------------------------------------
// Rendering

function setStatus(text: string, busy = false): void {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("busy", busy);
}

/** Lists the problems under an input; each one selects its line in the box. */
function renderIssues(listId: string, boxId: string, issues: readonly InputIssue[]): void {
  const list = $(listId);
  list.replaceChildren();
  for (const issue of issues) {
    const where = issue.line === undefined ? "" : `line ${issue.line}: `;
    const field = issue.path === "" ? "" : `${issue.path} = ${issue.value}: `;
    const value = issue.path === "" && issue.value !== "" ? `${issue.value}: ` : "";
    const button = h("button", { type: "button", "data-line": String(issue.line ?? "") });
    button.textContent = `${where}${field}${value}${issue.message}`;
    button.addEventListener("click", () => selectLine(area(boxId), issue.line));
    list.append(h("li", {}, button));
  }
}

function selectLine(box: HTMLTextAreaElement, line: number | undefined): void {
  box.focus();
  if (line === undefined) return;
  const lines = box.value.split("\n");
  let start = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) start += (lines[i] as string).length + 1;
  box.setSelectionRange(start, start + (lines[line - 1] ?? "").length);
}

function markedTag(row: TagsResult["rows"][number]): HTMLElement {
  const code = h("code");
  const whole = row.match.find((m) => m.name === "$0");
  if (whole === undefined) {
    code.textContent = row.tag;
  } else {
    code.append(
      row.tag.slice(0, whole.start),
      h("mark", {}, row.tag.slice(whole.start, whole.end)),
      row.tag.slice(whole.end),
    );
  }
  const td = h("td", {}, code);
  const groups = row.match.filter((m) => m.name !== "$0");
  if (groups.length > 0) {
    td.append(
      h("br"),
      h(
        "span",
        { class: "group" },
        groups.map((g) => `${g.name} = "${row.tag.slice(g.start, g.end)}"`).join(", "),
      ),
    );
  }
  return td;
}

/** The objects box is the compare view's only. */
function showDialect(): void {
  $("tags-objects-input").hidden = select("tags-dialect").value !== "compare";
}

function renderTags(r: TagsResult): void {
  const policyIssues = r.issues.filter((i) => i.input === "policy");
  renderIssues("tags-policy-issues", "tags-policy", policyIssues);
  renderIssues(
    "tags-objects-issues",
    "tags-objects",
    r.issues.filter((i) => i.input === "objects"),
  );
  renderIssues(
    "tags-list-issues",
    "tags-list",
    r.issues.filter((i) => i.input === "tags"),
  );
  const answer = $("tags-answer");
  const table = $("tags-table") as HTMLTableElement;
  const body = table.tBodies[0] as HTMLTableSectionElement;
  if (r.rows.length === 0 && r.error === undefined) {
    answer.hidden = true;
    table.hidden = true;
  } else {
    answer.hidden = false;
    answer.classList.toggle("none", r.selected === undefined);
    answer.textContent =
      r.selected === undefined
        ? `No tag selected: ${r.error?.message ?? "nothing matched"}`
        : `Flux selects ${r.selected}`;
    if (r.hiddenRows > 0)
      answer.append(
        h(
          "span",
          { class: "group" },
          ` (the table shows the first ${r.rows.length} tags; ${r.hiddenRows} more were ranked but are not shown)`,
        ),
      );
    answer.dataset.selected = r.selected ?? "";
    body.replaceChildren(
      ...r.rows.map((row) =>
        h(
          "tr",
          { "data-verdict": row.verdict },
          markedTag(row),
          h("td", { class: "mono" }, row.key ?? ""),
          h("td", { class: `v-${row.verdict}` }, row.verdict),
          h("td", {}, row.reason),
        ),
      ),
    );
    table.hidden = r.rows.length === 0;
  }
  const compare = $("tags-compare");
  if (r.compare === undefined) {
    compare.hidden = true;
    compare.replaceChildren();
    return;
  }
  compare.hidden = false;
  const picks = h(
    "table",
    { id: "compare-picks" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", {}, "Dialect"),
        h("th", {}, "Configuration"),
        h("th", {}, "Picks"),
        h("th", {}, "Not carried over from the Flux policy"),
      ),
    ),
    h(
      "tbody",
      {},
      ...r.compare.picks.map((p) =>
        h(
          "tr",
          { "data-dialect": p.dialect },
          h("td", {}, p.dialect),
          h("td", { class: "mono" }, p.source),
          h(
            "td",
            { class: p.tag === undefined ? "v-error" : "v-selected" },
            p.tag ?? `${p.outcome}: ${p.message}`,
          ),
          h("td", { class: "lost" }, p.lost.join("; ")),
        ),
      ),
    ),
  );
  const diffs = h(
    "ul",
    { id: "compare-differences" },
    ...(r.compare.differences.length === 0
      ? [h("li", {}, "They all pick the same tag.")]
      : r.compare.differences.map((d) =>
          h(
            "li",
            { "data-pair": `${d.a} ${d.b}` },
            h("strong", {}, `${d.a} / ${d.b}: `),
            d.summary,
          ),
        )),
  );
  const verdicts = h(
    "table",
    { id: "compare-verdicts" },
    h(
      "thead",
      {},
      h("tr", {}, h("th", {}, "Tag"), ...r.compare.picks.map((p) => h("th", {}, p.dialect))),
    ),
    h(
      "tbody",
      {},
      ...r.compare.verdicts.map((v) =>
        h("tr", {}, h("td", { class: "mono" }, v.tag), ...v.byDialect.map((x) => h("td", {}, x))),
      ),
    ),
  );
  compare.replaceChildren(
    h("div", { class: "tablewrap" }, picks),
    diffs,
    h("div", { class: "tablewrap" }, verdicts),
  );
}

function renderRouting(r: RoutingResult): void {
  for (const input of ["crs", "image", "pod"]) {
    renderIssues(
      `routing-${input}-issues`,
      `routing-${input === "image" ? "crs" : input}`,
      r.issues.filter((i) => i.input === input),
    );
  }
  const answer = $("routing-answer");
  const first = r.containers[0];
  answer.hidden = r.containers.length === 0 && r.error === undefined;
  answer.classList.toggle("none", r.error !== undefined || first?.status !== "routed");
  answer.textContent =
    r.error ??
    r.containers
      .map((c) =>
        c.status === "skipped"
          ? `${c.container}: left alone (${c.skipReason})`
          : `${c.container}: ${c.alternatives.length} alternatives, first ${c.alternatives[0]?.image ?? "(none)"}${c.probed ? "" : " (not probed)"}`,
      )
      .join("; ");
  $("routing-containers").replaceChildren(
    ...r.containers.map((c) =>
      h(
        "div",
        { class: "tablewrap" },
        h("h2", { style: "font-size:1rem" }, `Container ${c.container}: ${c.image}`),
        c.status === "skipped"
          ? h("p", { class: "v-error" }, `kuik leaves it alone: ${c.skipReason}`)
          : h(
              "table",
              { class: "routing-alternatives", "data-container": c.container },
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  h("th", {}, "#"),
                  h("th", {}, "Image"),
                  h("th", {}, "Sort key (CR priority, kind rank, entry priority, index)"),
                  h("th", {}, "From"),
                  h("th", {}, "Why"),
                  h("th", {}, "Secret"),
                ),
              ),
              h(
                "tbody",
                {},
                ...c.alternatives.map((a, i) =>
                  h(
                    "tr",
                    { "data-source": a.source },
                    h("td", {}, String(i + 1)),
                    h("td", { class: "mono" }, a.image),
                    h("td", { class: "mono" }, a.key),
                    h("td", {}, a.resource === "" ? a.source : `${a.source}: ${a.resource}`),
                    h("td", {}, a.why),
                    h("td", { class: "mono" }, a.secret),
                  ),
                ),
              ),
            ),
      ),
    ),
  );
  const table = $("routing-resources") as HTMLTableElement;
  (table.tBodies[0] as HTMLTableSectionElement).replaceChildren(
    ...r.resources.map((x) =>
      h(
        "tr",
        {},
        h("td", { class: "mono" }, x.resource),
        h("td", { class: x.applied ? "v-selected" : "v-skipped" }, x.applied ? "yes" : "no"),
        h("td", {}, x.why),
      ),
    ),
  );
}

function renderReferences(r: ReferencesResult): void {
  renderIssues(
    "refs-input-issues",
    "refs-input",
    r.issues.filter((i) => i.line === undefined),
  );
  const table = $("refs-table") as HTMLTableElement;
  const body = table.tBodies[0] as HTMLTableSectionElement;
  body.replaceChildren(
    ...r.rows.map((row) =>
      row.error === undefined
        ? h(
            "tr",
            { "data-line": String(row.line) },
            h("td", {}, String(row.line)),
            h("td", { class: "mono" }, row.input),
            h("td", { class: "mono" }, row.normalized ?? ""),
            h("td", { class: "mono" }, row.familiar ?? ""),
            h("td", { class: "mono" }, row.tag ?? ""),
            h("td", { class: "mono" }, row.digest ?? ""),
            h("td", {}, row.pullPolicy ?? ""),
          )
        : h(
            "tr",
            { "data-line": String(row.line), "data-error": row.error.code },
            h("td", {}, String(row.line)),
            h("td", { class: "mono" }, row.input),
            h("td", { class: "v-error", colspan: "5" }, `${row.error.message} (${row.error.code})`),
          ),
    ),
  );
  table.hidden = r.rows.length === 0;
}

// ---------------------------------------------------------------------------
// Wiring

let currentView: View = "tags";

function showView(view: View): void {
  currentView = view;
  for (const tab of document.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(`view-${tab.dataset.view}`);
    if (panel !== null) panel.hidden = !on;
  }
}

async function update(): Promise<void> {
  const id = ++nextId;
  const started = performance.now();
  setStatus("working", true);
  const job: Job =
    currentView === "tags"
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
      : currentView === "routing"
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
    setTimeout(() => {
      worker ??= startWorker();
    }, 0);
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
    $(id).addEventListener("input", () => onInput(id));
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

/** The page's whole state, kept in the URL fragment (deflate-raw, base64url) so that a link reproduces a case. */
import type { RoutingInput, TagsDialect } from "../compute.js";
import { encodeLink, MAX_LINK_STATE } from "../link-state.js";
import { $, area, boxText, held, select } from "./dom.js";
import { readRouting, writeRouting } from "./views/routing.js";
import { showDialect } from "./views/tags.js";

export type View = "tags" | "routing" | "references";
const views: readonly View[] = ["tags", "routing", "references"];

export interface State {
  view: View;
  policy: string;
  tags: string;
  dialect: TagsDialect;
  /** The compare view's Argo CD / Kargo objects. */
  objects: string;
  refs: string;
  routing: RoutingInput;
}

let currentView: View = "tags";

/** The view on show. */
export function shownView(): View {
  return currentView;
}

export function showView(view: View): void {
  currentView = view;
  for (const tab of document.querySelectorAll<HTMLButtonElement>("[role=tab]")) {
    const on = tab.dataset.view === view;
    tab.setAttribute("aria-selected", String(on));
    tab.tabIndex = on ? 0 : -1;
    const panel = document.getElementById(`view-${tab.dataset.view}`);
    if (panel !== null) panel.hidden = !on;
  }
}

async function encodeState(state: State): Promise<string | undefined> {
  // Measured before stringifying: serialising a 10 MB paste would itself stall the page.
  const texts = [state.policy, state.tags, state.objects, state.refs, state.routing.crs];
  if (texts.reduce((n, t) => n + t.length, state.routing.pod.length) > MAX_LINK_STATE) {
    return undefined;
  }
  return encodeLink(JSON.stringify(state));
}

/** Shows why a link was not loaded (or hides the notice, given `undefined`). */
export function showLinkNotice(message: string | undefined): void {
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

export function applyState(s: Partial<State>): void {
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

/** True while the page itself writes the fragment (its `hashchange` is not a new link). */
export let writingHash = false;
export async function saveState(): Promise<void> {
  const encoded = await encodeState(readState());
  if (encoded === undefined) return;
  writingHash = true;
  history.replaceState(null, "", `#${encoded}`);
  writingHash = false;
}

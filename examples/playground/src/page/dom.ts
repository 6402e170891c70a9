/** The page's DOM helpers: elements by id, element building, text boxes that hold large pastes, the status line and the lists of input problems. */

import { issueText } from "../compute/issue-text.js";
import type { InputIssue } from "../compute.js";

export function $(id: string): HTMLElement {
  const el = document.getElementById(id);
  if (el === null) throw new Error(`missing #${id}`);
  return el;
}
export const area = (id: string) => $(id) as HTMLTextAreaElement;

/**
 * A paste larger than this is kept out of its text box: a browser lays out a
 * multi-megabyte textarea on the page thread, which is the freeze the worker
 * exists to avoid. The box shows a summary; the worker gets the whole text.
 */
const HELD_PASTE_CHARS = 256 * 1024;
export const held = new Map<string, string>();

/** The text of an input box, or the large paste held for it. */
export function boxText(id: string): string {
  return held.get(id) ?? area(id).value;
}

/** Keeps a paste larger than {@link HELD_PASTE_CHARS} out of its box (see there). */
export function holdLargePaste(id: string): void {
  const box = area(id);
  held.delete(id);
  if (box.value.length > HELD_PASTE_CHARS) {
    const text = box.value;
    held.set(id, text);
    const mb = (text.length / (1024 * 1024)).toFixed(1);
    // Replaced in the same task as the input, before the browser lays the big text out.
    box.value = `# ${mb} MB pasted: kept outside this box, edit here to replace it. It begins:\n${text.slice(0, 400)}`;
  }
}
export const select = (id: string) => $(id) as HTMLSelectElement;
export const field = (id: string) => $(id) as HTMLInputElement;

export function h(
  tag: string,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElement {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  for (const c of children) el.append(c);
  return el;
}

export function setStatus(text: string, busy = false): void {
  const el = $("status");
  el.textContent = text;
  el.classList.toggle("busy", busy);
}

/** Lists the problems under an input; each one selects its line in the box. */
export function renderIssues(listId: string, boxId: string, issues: readonly InputIssue[]): void {
  const list = $(listId);
  list.replaceChildren();
  for (const issue of issues) {
    const button = h("button", { type: "button", "data-line": String(issue.line ?? "") });
    button.textContent = issueText(issue);
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

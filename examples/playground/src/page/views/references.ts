/** The references view: each line parsed and normalised as the kubelet reads it. */
import type { ReferencesResult } from "../../compute.js";
import { $, h, renderIssues } from "../dom.js";

export function renderReferences(r: ReferencesResult): void {
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

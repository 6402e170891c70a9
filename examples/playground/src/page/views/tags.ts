/** The tags view: the Flux selection table and the cross-dialect comparison. */
import type { TagsResult } from "../../compute.js";
import { $, h, renderIssues, select } from "../dom.js";

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
export function showDialect(): void {
  $("tags-objects-input").hidden = select("tags-dialect").value !== "compare";
}

export function renderTags(r: TagsResult): void {
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

/** The routing view: the kuik CRs' inputs and each container's ordered alternatives. */
import type { RoutingInput, RoutingResult } from "../../compute.js";
import { $, area, boxText, field, h, renderIssues, select } from "../dom.js";

export function readRouting(): RoutingInput {
  return {
    crs: boxText("routing-crs"),
    mode: select("routing-mode").value === "pod" ? "pod" : "image",
    image: field("routing-image").value,
    namespace: field("routing-namespace").value,
    pullPolicy: select("routing-pull").value,
    pod: boxText("routing-pod"),
  };
}

export function writeRouting(r: Partial<RoutingInput>): void {
  if (typeof r.crs === "string") area("routing-crs").value = r.crs;
  if (r.mode === "image" || r.mode === "pod") select("routing-mode").value = r.mode;
  if (typeof r.image === "string") field("routing-image").value = r.image;
  if (typeof r.namespace === "string") field("routing-namespace").value = r.namespace;
  if (typeof r.pullPolicy === "string") select("routing-pull").value = r.pullPolicy;
  if (typeof r.pod === "string") area("routing-pod").value = r.pod;
  showRoutingMode();
}

export function showRoutingMode(): void {
  const pod = select("routing-mode").value === "pod";
  $("routing-pod-inputs").hidden = !pod;
  $("routing-image-inputs").hidden = pod;
}

export function renderRouting(r: RoutingResult): void {
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
          ? `${c.container}: left alone (${skipText(c)})`
          : `${c.container}: ${c.alternatives.length} alternatives, first ${c.alternatives[0]?.image ?? "(none)"}${c.probed ? "" : " (not probed)"}`,
      )
      .join("; ");
  $("routing-containers").replaceChildren(
    ...r.containers.map((c) =>
      h(
        "div",
        { class: "tablewrap" },
        h("h2", { style: "font-size:1rem" }, c.heading),
        c.status === "skipped"
          ? h("p", { class: "v-error" }, `kuik leaves it alone: ${skipText(c)}`)
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

/** The skip reason, with the parser's words for an image it cannot read. */
function skipText(c: RoutingResult["containers"][number]): string {
  return c.skipDetail === undefined ? `${c.skipReason}` : `${c.skipReason}: ${c.skipDetail}`;
}

/** `select` cases: the tag a Flux, Argo CD or Kargo policy picks, as `kubeimg tags` answers. */

import { semverReleases } from "@kubeimg/policy/semver";
import { excludeTags, explainTagSelection, safeSelectLatestTag } from "@kubeimg/policy/tags";
import { selectArgoTag } from "@kubeimg/policy/tags/argocd";
import { needsTagMetadata, type TagInfo } from "@kubeimg/policy/tags/dialects";
import { selectKargoTag } from "@kubeimg/policy/tags/kargo";
import { readTagInfoFile } from "../../commands/tags/dialect-load.js";
import { argoMayNeedMetadata, DIALECT_NOTHING_FOUND } from "../../commands/tags/dialect-run.js";
import { readTagsFile } from "../../commands/tags/load.js";
import { NOTHING_FOUND } from "../../commands/tags/tags.js";
import {
  at,
  type CaseAnswer,
  type CaseContext,
  type Json,
  type Mismatch,
  requireExpectKeys,
} from "../case-support.js";
import type { LoadedPolicy } from "../environment.js";
import { failAt, type TestCase } from "../test-file.js";

async function selectTags(c: CaseContext, tc: TestCase, loaded: LoadedPolicy): Promise<TagInfo[]> {
  const input = tc.input;
  const sources = ["tags", "tagsFile", "registry"].filter(
    (k) => input[k] !== undefined && input[k] !== false,
  );
  if (sources.length !== 1) {
    failAt(
      c.test,
      ["cases", tc.index, "select"],
      "give exactly one of tags, tagsFile or registry: true",
    );
  }
  const metadata = (input.metadata ?? {}) as Record<string, Partial<TagInfo>>;
  let tags: TagInfo[];
  if (input.registry === true) {
    if (c.offline) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "lists tags live, which --offline refuses",
      );
    }
    if (c.listTags === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "lists tags live: pass listTags to runPolicyTests",
      );
    }
    const request =
      loaded.dialect === "flux"
        ? {
            image: loaded.repository?.image,
            exclusionList: loaded.repository?.exclusionList,
            insecure: loaded.repository?.insecure === true,
            needsMetadata: false,
          }
        : loaded.dialect === "argocd"
          ? {
              image: loaded.loaded.image,
              exclusionList: undefined,
              insecure: false,
              needsMetadata: argoMayNeedMetadata(loaded.loaded),
            }
          : {
              image: loaded.loaded.subscription.repoURL,
              exclusionList: undefined,
              insecure: false,
              needsMetadata: needsTagMetadata({
                dialect: "kargo",
                subscription: loaded.loaded.subscription,
              }),
            };
    const image = request.image;
    if (image === undefined) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "registry"],
        "the policy names no repository to list (for Flux, add its ImageRepository to the resources)",
      );
    }
    tags = [...(await c.listTags({ ...request, image, dialect: loaded.dialect }))];
  } else if (input.tagsFile !== undefined) {
    const name = c.env.path(input.tagsFile as string);
    tags =
      loaded.dialect === "flux"
        ? (await readTagsFile(name, c.env.io)).map((t) => ({ name: t }))
        : await readTagInfoFile(name, c.env.io);
  } else {
    tags = (input.tags as string[]).map((name) => ({ name }));
  }
  const names = new Set(tags.map((t) => t.name));
  for (const tag of Object.keys(metadata)) {
    if (!names.has(tag)) {
      failAt(
        c.test,
        ["cases", tc.index, "select", "metadata", tag],
        "is not one of the case's tags",
      );
    }
  }
  return Object.keys(metadata).length === 0
    ? tags
    : tags.map((t) => (metadata[t.name] === undefined ? t : { ...t, ...metadata[t.name] }));
}

export async function evaluateSelect(c: CaseContext, tc: TestCase): Promise<CaseAnswer> {
  requireExpectKeys(c, tc, true, ["tag", "none", "error"]);
  const input = tc.input;
  const loaded = await at(c, tc, ["policy"], () =>
    c.env.policy(
      input.policy as string,
      input.image as string | undefined,
      input.subscription as number | undefined,
    ),
  );
  if (input.image !== undefined && loaded.dialect !== "argocd") {
    failAt(
      c.test,
      ["cases", tc.index, "select", "image"],
      "is an Argo CD ImageUpdater alias; this policy is not one",
    );
  }
  if (input.subscription !== undefined && loaded.dialect !== "kargo") {
    failAt(
      c.test,
      ["cases", tc.index, "select", "subscription"],
      "is a Kargo Warehouse index; this policy is not one",
    );
  }
  const tags = await selectTags(c, tc, loaded);
  let tag: string | undefined;
  let code: string | undefined;
  let nothing = false;
  let explain: () => readonly string[];
  let upstream: Record<string, string> = {};
  if (loaded.dialect === "flux") {
    // As `kubeimg tags`: the semver release is the only upstream choice, Flux's only.
    const spec = { ...loaded.policy.spec, semver: c.upstream.semver };
    upstream = { semver: c.upstream.semver };
    // As `kubeimg tags`: the ImageRepository's scan drops excluded tags first.
    const names = excludeTags(
      tags.map((t) => t.name),
      loaded.repository?.exclusionList,
    );
    const r = safeSelectLatestTag(names, spec);
    if (r.success) tag = r.tag;
    else {
      code = r.error.code;
      nothing = NOTHING_FOUND.has(code);
    }
    explain = () => {
      const e = explainTagSelection(names, spec);
      return [
        `Masterminds/semver ${c.upstream.semver}: read as that release does (--upstream semver=${semverReleases.join("|")})`,
        ...(e.error ? [`${e.error.code}: ${e.error.message}`] : []),
        ...e.tags.map((t) => `${t.tag} (${t.verdict}): ${t.reason}`),
      ];
    };
  } else {
    const select = (explainIt: boolean) =>
      loaded.dialect === "argocd"
        ? selectArgoTag(loaded.loaded.config, tags, { explain: explainIt })
        : selectKargoTag(loaded.loaded.subscription, tags, { explain: explainIt });
    const s = select(false);
    tag = s.tag;
    code = s.outcome?.code;
    nothing = code !== undefined && DIALECT_NOTHING_FOUND.has(code);
    explain = () => {
      const e = select(true);
      return [
        `${loaded.loaded.source}`,
        ...(e.outcome ? [`${e.outcome.code}: ${e.outcome.message}`] : []),
        ...e.notes.map((n) => `note: ${n}`),
        ...e.tags.map((t) => `${t.tag} (${t.verdict}): ${t.reason}`),
      ];
    };
  }
  const recorded: Json = tag !== undefined ? { tag } : nothing ? { none: true } : { error: code };
  const actual: Json = {
    tag: tag ?? null,
    outcome: code ?? null,
    none: tag === undefined && nothing,
  };
  const shown = tag ?? `none (${code})`;
  const mismatches: Mismatch[] = [];
  const expect = tc.expect;
  if (expect?.tag !== undefined && expect.tag !== tag) {
    mismatches.push({ field: "tag", expected: expect.tag, actual: shown });
  }
  if (expect?.none === true && !(tag === undefined && nothing)) {
    mismatches.push({
      field: "none",
      expected: true,
      actual: tag !== undefined ? `tag ${tag}` : `error ${code}`,
    });
  }
  if (expect?.error !== undefined && expect.error !== code) {
    mismatches.push({
      field: "error",
      expected: expect.error,
      actual: tag !== undefined ? `tag ${tag}` : code,
    });
  }
  return { actual, recorded, mismatches, upstream, explain };
}

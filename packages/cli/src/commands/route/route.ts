import { formatAllPlatform, type Platform } from "@kubeimg/core/platform";
import { defaultPullPolicy, safeParseNormalizedNamed } from "@kubeimg/core/reference";
import { type ProbeOutcome, resolveFirstAvailable } from "@kubeimg/policy/availability";
import {
  activeCheckTimeoutMs,
  compileRouting,
  finalContainerImage,
  type RoutedAlternative,
  routeContainer,
} from "@kubeimg/policy/routing";
import { createAvailabilityChecker } from "@kubeimg/registry/adapters";
import { requireOption } from "../../args/parse-command-args.js";
import { upstreamChoice, upstreamOption } from "../../args/upstream.js";
import { unknownFieldPolicy, VALIDATE_OPTION } from "../../args/validate-option.js";
import { CliError } from "../../errors/cli-error.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import type { Colors } from "../../output/color.js";
import { type Cell, renderFields, renderTable } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import { registryAccess, secretFileSecrets } from "../../registry/registry-access.js";
import { REGISTRY_OPTIONS } from "../../registry/registry-options.js";
import { type Command, requireFileOptions, stringOption, stringOptions } from "../command.js";
import { nodePlatformOption } from "../inspect/node-platform.js";
import { alternativeRow, checkCell, refuseInvalidAlternatives } from "./alternatives.js";
import { keyText, resourceLabel, whyText } from "./describe.js";
import { explainRoute } from "./explain.js";
import { loadConfigFile, loadRoutingFiles } from "./load.js";
import { loadNode, nodePlan, renderNodePlan } from "./node-config.js";

const PULL_POLICIES = ["Always", "IfNotPresent", "Never"] as const;

/** `--label`/`--annotation` values as a map without prototype (a key `__proto__` is just a key). */
function keyValues(flags: readonly string[], flag: string): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  for (const item of flags) {
    const eq = item.indexOf("=");
    if (eq <= 0) throw new CliError("USAGE", `${flag} must be KEY=VALUE, not "${item}"`, item);
    Object.defineProperty(out, item.slice(0, eq), {
      value: item.slice(eq + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** `kubeimg route` */
export const routeCommand: Command = {
  name: "route",
  summary: "order a container's alternative images as kube-image-keeper does",
  usage:
    "kubeimg route -f CRS.yaml [-f more.yaml] --namespace NS --image IMG [--pull-policy P] [--config kuik-config.yaml] [--check [--platform P]] [--node-config DIR|FILE | --node-root DIR [--node-uid N] [--node-env NAME=PATH]]",
  description: [
    "Reads kube-image-keeper routing objects (ClusterImageSetMirror, ImageSetMirror,",
    "ClusterReplicatedImageSet, ReplicatedImageSet; kuik.enix.io/v1alpha1) and lists, in",
    "order, the images kuik's webhook would try for one Pod container, each with its",
    "credential secret, the CR and entry that put it there, and its sort key",
    "(CR priority, kind rank, entry priority, index).",
    "",
    "With --check every alternative is probed against its live registry (manifest HEAD,",
    "credentials from --docker-config and --secret-file) and the winner is shown, with",
    "the image the container would end up with; exit 1 when none is available (every",
    "registry unreachable included). Without --check nothing is contacted: the list is what",
    "kuik would probe. Without --pull-policy the policy Kubernetes defaults to for the image",
    "is used. With --explain every entry of every CR is listed with why it applied or",
    "was skipped (filter, namespace, skip label, pull policy).",
    "",
    "-f - reads standard input; -f DIR reads the directory's .yaml, .yml and .json files;",
    "objects of other kinds are skipped (counted with --verbose). Fields the CRDs do not",
    "know are errors unless --validate=warn or --validate=ignore.",
    "",
    "With --node-config the whole path is shown: for every alternative, the registry",
    "endpoints the node's runtime tries, in order, with scheme, TLS and credential. A",
    "directory is a containerd hosts root (hosts.toml per host); a file is a",
    "registries.conf (CRI-O, podman), its drop-ins read from FILE.d. Credentials are the",
    "alternative's kuik credential secret, found in --secret-file.",
    "",
    "--node-root DIR reads a whole node's registries.conf set instead: DIR is the node's",
    "file-system root (a copy or a mount), and every main file, drop-in directory",
    "(/etc and /usr/share, rootful or rootless, the user's) and override file that",
    "containers/image reads is read there, in its order, under the release chosen with",
    "--upstream containers-image. --node-uid is the pulling process's uid (0, as CRI-O,",
    "by default; a rootless podman user needs --node-env HOME=PATH); --node-env gives",
    "its HOME, XDG_CONFIG_HOME, CONTAINERS_REGISTRIES_CONF or",
    "CONTAINERS_REGISTRIES_CONF_OVERRIDE as paths on the node (the CLI's own environment",
    "is not read). The node explain lists the files read, in order.",
    "",
    "With --check --platform P (a containerd specifier such as linux/arm64) an alternative",
    "is available only if it can serve a node of platform P: an index with an entry that",
    "node runs, or a single image whose config matches; otherwise its check says",
    '"available, but no P manifest". kube-image-keeper itself does not look at platforms.',
  ].join("\n"),
  options: {
    file: {
      type: "string",
      short: "f",
      multiple: true,
      value: "FILE",
      help: "YAML with routing objects",
    },
    namespace: { type: "string", short: "n", value: "NS", help: "the Pod's namespace" },
    image: { type: "string", value: "IMAGE", help: "the container's image, as written" },
    "pull-policy": {
      type: "string",
      value: "POLICY",
      help: "Always | IfNotPresent | Never (default: what Kubernetes defaults to)",
    },
    container: { type: "string", value: "NAME", help: "the container's name (default: app)" },
    label: { type: "string", multiple: true, value: "KEY=VALUE", help: "a Pod label" },
    annotation: {
      type: "string",
      multiple: true,
      value: "KEY=VALUE",
      help: "a Pod annotation",
    },
    config: { type: "string", value: "FILE", help: "kuik's operator configuration YAML" },
    lenient: {
      type: "boolean",
      help: "accept objects the CRD's validation rules refuse, as kuik's webhook does",
    },
    "discard-alternative-mode": {
      type: "string",
      value: "MODE",
      help: "kuik (default: as kuik's code) | docs (as kuik's bitnami example)",
    },
    check: { type: "boolean", help: "probe the alternatives against their registries" },
    explain: {
      type: "boolean",
      help: "list every CR entry considered, and why it applied or was skipped",
    },
    ...VALIDATE_OPTION,
    platform: {
      type: "string",
      value: "P",
      help: "with --check: the node's platform; an alternative then counts only if it has a manifest for P (off by default, as kuik)",
    },
    "node-config": {
      type: "string",
      value: "DIR|FILE",
      help: "a node's containerd hosts root or registries.conf: show the endpoints each alternative uses",
    },
    "node-root": {
      type: "string",
      value: "DIR",
      help: "a node's file-system root: read every registries.conf and drop-in there as containers/image does",
    },
    "node-uid": {
      type: "string",
      value: "N",
      help: "with --node-root: the uid of the pulling process (default 0, as CRI-O)",
    },
    "node-env": {
      type: "string",
      multiple: true,
      value: "NAME=PATH",
      help: "with --node-root: the pulling process's HOME, XDG_CONFIG_HOME, CONTAINERS_REGISTRIES_CONF or CONTAINERS_REGISTRIES_CONF_OVERRIDE (a path on the node)",
    },
    upstream: upstreamOption(["containerd", "containers-image", "platforms"]),
    ...REGISTRY_OPTIONS,
  },
  positionals: false,
  examples: [
    [
      "where does this pod's image go, with these mirrors?",
      "kubeimg route -f mirrors.yaml --namespace my-app --image docker-registry.example.com/my-app/api:v2",
    ],
    [
      "which endpoints does the node then contact?",
      "kubeimg route -f mirrors.yaml -n my-app --image docker-registry.example.com/my-app/api:v2 --node-config certs.d",
    ],
    [
      "the same, for a CRI-O node whose root is copied to node-root/",
      "kubeimg route -f mirrors.yaml -n my-app --image docker-registry.example.com/my-app/api:v2 --node-root node-root",
    ],
    [
      "probe the alternatives and show the winner",
      "kubeimg route -f mirrors.yaml -n default --image nginx:1.27 --check --secret-file harbor-secret.yaml",
    ],
    [
      "the winner for an arm64 node: mirrors without an arm64 manifest are skipped",
      "kubeimg route -f mirrors.yaml -n default --image nginx:1.27 --check --platform linux/arm64",
    ],
  ],
  async run(context) {
    const { io, values, format, colors } = context;
    const upstream = upstreamChoice(values, "route", [
      "containerd",
      "containers-image",
      "platforms",
    ]);
    const files = requireFileOptions(values, "route");
    const namespace = requireOption(stringOption(values, "namespace"), "--namespace", "route");
    const image = requireOption(stringOption(values, "image"), "--image", "route");
    const parsed = safeParseNormalizedNamed(image);
    if (!parsed.success) {
      const { error } = parsed;
      throw Object.assign(error, { message: `--image ${JSON.stringify(image)}: ${error.message}` });
    }
    const pullPolicyFlag = stringOption(values, "pull-policy");
    if (
      pullPolicyFlag !== undefined &&
      !(PULL_POLICIES as readonly string[]).includes(pullPolicyFlag)
    ) {
      throw new CliError(
        "USAGE",
        `--pull-policy must be one of ${PULL_POLICIES.join(", ")}, not "${pullPolicyFlag}"`,
        pullPolicyFlag,
      );
    }
    // The image is read once, here; routing, the checks and the registry use the reading.
    const reference = parsed.data;
    const imagePullPolicy = pullPolicyFlag ?? defaultPullPolicy(reference);
    const mode = stringOption(values, "discard-alternative-mode") ?? "kuik";
    if (mode !== "kuik" && mode !== "docs") {
      throw new CliError(
        "USAGE",
        `--discard-alternative-mode must be kuik or docs, not "${mode}"`,
        mode,
      );
    }
    const pod = {
      namespace,
      labels: keyValues(stringOptions(values, "label"), "--label"),
      annotations: keyValues(stringOptions(values, "annotation"), "--annotation"),
    };
    const unknownFields = unknownFieldPolicy(values);
    const config = await loadConfigFile(stringOption(values, "config"), io, {
      unknownFields,
      note: context.note,
    });
    const resources = await loadRoutingFiles(files, io, {
      lenient: values.lenient === true,
      unknownFields,
      note: context.note,
      verbose: values.verbose === true,
    });
    // The command shows what kuik does: it skips a broken object and says so.
    const routing = compileRouting(resources, {
      config,
      discardAlternativeMode: mode,
      invalidResources: "skip",
    });
    for (const problem of routing.problems) {
      context.note(`warning: kuik ignores ${resourceLabel(problem.resource)}: ${problem.message}`);
    }
    const container = { name: stringOption(values, "container") ?? "app", image, imagePullPolicy };
    const route = routeContainer(routing, { pod, container, reference });
    const considered =
      values.explain === true
        ? explainRoute(resources, routing, { pod, container }, route, {
            config,
            discardAlternativeMode: mode,
          })
        : undefined;
    const consideredTable = (c: Colors) =>
      considered === undefined
        ? ""
        : `\n${renderTable(
            ["CR", "ENTRY", "RESULT", "WHY"],
            considered.map((e) => [
              e.resource,
              e.entry,
              e.result === "applied"
                ? { text: e.result, style: c.green }
                : { text: e.result, style: c.dim },
              e.why,
            ]),
            c,
          )}`;
    // Read even when nothing below needs them, so that a wrong file is
    // reported rather than ignored (once, for the plan and the probes).
    const secrets = await secretFileSecrets(context);
    const node = await loadNode(values, io, upstream);
    const plan =
      node === undefined
        ? undefined
        : nodePlan(routing, { pod, container }, node, secrets, upstream);
    const planData =
      plan === undefined
        ? {}
        : { node: { explain: plan.explain, alternatives: plan.alternatives } };

    const base = { namespace, container: container.name, image, imagePullPolicy };
    if (route.status === "skipped") {
      const data = {
        ...base,
        status: "skipped",
        skipReason: route.skipReason,
        finalImage: image,
        ...(considered ? { considered } : {}),
        ...planData,
      };
      writeResult(
        io,
        format,
        data,
        (c) =>
          renderFields(
            [
              ["image", image],
              ["status", { text: `skipped: ${route.skipReason}`, style: c.yellow }],
              ["final image", image],
            ],
            c,
          ) +
          consideredTable(c) +
          (plan === undefined ? "" : renderNodePlan(plan, c)),
        colors,
      );
      return EXIT_CODES.OK;
    }

    refuseInvalidAlternatives(route.alternatives);
    let outcomes: readonly ProbeOutcome[] | undefined;
    let winner: RoutedAlternative | undefined;
    const check = values.check === true;
    const platformFlag = stringOption(values, "platform");
    if (platformFlag !== undefined && !check) {
      throw new CliError(
        "USAGE",
        "--platform needs --check (it decides which alternatives are available)",
        "--platform",
      );
    }
    const platforms = platformFlag === undefined ? undefined : [nodePlatformOption(platformFlag)];
    if (check && route.alternatives.length > 0) {
      const access = await registryAccess(context, {
        defaultTimeoutMs: activeCheckTimeoutMs(config),
        secrets,
      });
      for (const a of route.alternatives) {
        const s = a.credentialSecret;
        if (s !== undefined && s !== null && !access.hasSecret(s.namespace, s.name)) {
          context.note(
            `warning: ${a.image} uses the credential secret ${s.namespace}/${s.name}, which no --secret-file supplies; it is probed without it`,
          );
        }
      }
      const checker = createAvailabilityChecker({
        ...access,
        timeoutMs: access.timeoutMs,
        platformsRelease: upstream.platforms,
      });
      const result = await resolveFirstAvailable(route.alternatives, checker, {
        ...(io.signal ? { signal: io.signal } : {}),
        ...(platforms ? { platforms } : {}),
      });
      outcomes = result.outcomes;
      winner = result.winner;
    }
    const finalImage = check ? finalContainerImage(route, winner) : undefined;
    const rows = route.alternatives.map((a, i) => alternativeRow(a, outcomes?.[i]));
    const data = {
      ...base,
      status: "routed",
      normalized: route.normalized,
      probed: route.probed,
      checked: check,
      originalDiscarded: route.originalDiscarded,
      alternatives: rows,
      ...(check ? { winner: winner?.image ?? null, finalImage } : {}),
      ...(considered ? { considered } : {}),
      ...(platforms ? { platform: formatAllPlatform(platforms[0] as Platform) } : {}),
      ...planData,
    };
    writeResult(
      io,
      format,
      data,
      (c) => {
        const header = renderFields(
          [
            ["image", image],
            ["normalized", route.normalized],
            ["namespace", namespace],
            ["pull policy", imagePullPolicy],
            ...(platforms
              ? [["node platform", formatAllPlatform(platforms[0] as Platform)] as const]
              : []),
            [
              "probed",
              !route.probed
                ? `no (kuik probes lists of two or more; this one has ${route.alternatives.length})`
                : check
                  ? `yes (${route.alternatives.length} alternatives)`
                  : `would probe ${route.alternatives.length} alternatives (run with --check to probe them)`,
            ],
          ],
          c,
        );
        const headers = ["#", "ALTERNATIVE", "SECRET", "KEY", "WHY"];
        if (check) headers.push("CHECK");
        const table = renderTable(
          headers,
          route.alternatives.map((a, i) => {
            const secret = a.credentialSecret
              ? `${a.credentialSecret.namespace}/${a.credentialSecret.name}`
              : "-";
            const cells: Cell[] = [
              String(i + 1),
              a === winner ? { text: a.image, style: c.green } : a.image,
              secret,
              keyText(a.reason),
              whyText(a.reason),
            ];
            if (check) cells.push(checkCell(outcomes?.[i], c));
            return cells;
          }),
          c,
        );
        const footer =
          finalImage === undefined
            ? ""
            : `\n${renderFields(
                [
                  [
                    "winner",
                    winner
                      ? { text: winner.image, style: c.green }
                      : { text: "none available", style: c.red },
                  ],
                  ["final image", finalImage === image ? `${finalImage} (unchanged)` : finalImage],
                ],
                c,
              )}`;
        return `${header}\n${table}${footer}${consideredTable(c)}${plan === undefined ? "" : renderNodePlan(plan, c)}`;
      },
      colors,
    );
    const nothingAvailable = check && route.alternatives.length > 0 && winner === undefined;
    return nothingAvailable ? EXIT_CODES.NOTHING_FOUND : EXIT_CODES.OK;
  },
};

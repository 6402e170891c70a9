import { stat } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { makeDockerKeyring, type PullSecret, parsePullSecret } from "@kubeimg/core/keyring";
import { safeParseNormalizedNamed } from "@kubeimg/core/reference";
import {
  createVerificationPolicy,
  type ImagePullSecret,
  type ImagePullServiceAccount,
  type MustPullReason,
  PullManager,
  verificationPolicyNames,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import { requireOption } from "../../args/parse-command-args.js";
import { upstreamChoice, upstreamOption } from "../../args/upstream.js";
import { CliError } from "../../errors/cli-error.js";
import { describeError } from "../../errors/describe.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import { readInputFile } from "../../files/read-file.js";
import { yamlDocuments } from "../../files/yaml-documents.js";
import type { CliIo } from "../../io/io.js";
import { renderFields } from "../../output/table.js";
import { writeResult } from "../../output/write.js";
import { type Command, stringOption, stringOptions } from "../command.js";

const HASH = /^[0-9a-f]{64}$/;

/** Parses `NAMESPACE/NAME/UID/HASH` (`--secret`), refusing anything else. */
export function parseSecretFlag(value: string): ImagePullSecret {
  const parts = value.split("/");
  const [namespace = "", name = "", uid = "", credentialHash = ""] = parts;
  if (parts.length !== 4 || namespace === "" || name === "" || uid === "") {
    throw new CliError("USAGE", `--secret must be NAMESPACE/NAME/UID/HASH, not "${value}"`, value);
  }
  if (credentialHash !== "" && !HASH.test(credentialHash)) {
    throw new CliError(
      "USAGE",
      `--secret "${value}": HASH must be 64 lower-case hex digits (the kubelet's credential hash) or empty`,
      value,
    );
  }
  return { namespace, name, uid, credentialHash };
}

/** Parses `NAMESPACE/NAME/UID` (`--service-account`), refusing anything else. */
export function parseServiceAccountFlag(value: string): ImagePullServiceAccount {
  const parts = value.split("/");
  const [namespace = "", name = "", uid = ""] = parts;
  if (parts.length !== 3 || namespace === "" || name === "" || uid === "") {
    throw new CliError(
      "USAGE",
      `--service-account must be NAMESPACE/NAME/UID, not "${value}"`,
      value,
    );
  }
  return { namespace, name, uid };
}

/**
 * Returns the pod's secret-sourced credentials for `repository` as the
 * kubelet finds them: its pull Secrets (YAML files, in order) through the
 * keyring, one entry per matching credential, with the kubelet's hash.
 */
async function secretsFromFiles(
  files: readonly string[],
  repository: string,
  io: CliIo,
): Promise<ImagePullSecret[]> {
  const secrets: PullSecret[] = [];
  for (const name of files) {
    for (const document of yamlDocuments(await readInputFile(name, io), { secret: true })) {
      secrets.push(parsePullSecret(document, secrets.length));
    }
  }
  if (secrets.length === 0) return [];
  return makeDockerKeyring(secrets)
    .lookup(repository)
    .flatMap((c) =>
      c.source.kind === "secret"
        ? [
            {
              namespace: c.source.namespace,
              name: c.source.name,
              uid: c.source.uid,
              credentialHash: c.credentialHash,
            },
          ]
        : [],
    );
}

/**
 * Returns the kubelet root directory `dir` names: `dir` itself when it holds
 * `image_manager/`, its parent when it is the `image_manager` directory.
 */
export async function kubeletRoot(dir: string, io: CliIo): Promise<string> {
  const root = isAbsolute(dir) ? dir : join(io.cwd, dir);
  const isDir = async (p: string) => (await stat(p).catch(() => undefined))?.isDirectory() === true;
  if (!(await isDir(root))) {
    throw new CliError("FILE_NOT_FOUND", `--kubelet-dir ${dir}: no such directory`, dir);
  }
  if (await isDir(join(root, "image_manager"))) return root;
  if (
    basename(root) === "image_manager" &&
    ((await isDir(join(root, "pulled"))) || (await isDir(join(root, "pulling"))))
  ) {
    return dirname(root);
  }
  throw new CliError(
    "FILE_NOT_FOUND",
    `--kubelet-dir ${dir}: no image_manager directory (give the kubelet's root directory, e.g. /var/lib/kubelet)`,
    dir,
  );
}

/** What each answer of the verification policy means, in a sentence. */
export const REASON_TEXT: Record<MustPullReason, string> = {
  credentialPolicyAllowed: "the verification policy does not require checking this image",
  credentialRecordFound: "the pod's credentials, or node-wide access, are on record for this image",
  mustAuthenticate:
    "no record grants this pod the image: the kubelet pulls to check its credentials",
  error:
    "a record could not be read or the credentials could not be fetched: the kubelet pulls (fail safe)",
};

/** `kubeimg pull-check` */
export const pullCheckCommand: Command = {
  name: "pull-check",
  summary: "answer whether the kubelet makes a pod pull an image already on the node (KEP-2535)",
  usage:
    "kubeimg pull-check --kubelet-dir DIR --image IMG --image-ref REF [--secret NS/NAME/UID/HASH]... [--policy P] [--allowlist PATTERN]...",
  description: [
    "Reads a kubelet's pull records (<DIR>/image_manager/pulled and pulling, v1alpha1 or",
    "v1beta1, as Kubernetes 1.35 writes them) without writing anything, and answers what",
    "the kubelet's imagePullCredentialsVerificationPolicy decides for a pod that wants",
    "IMG while the runtime already has it as REF: use the image, or pull to verify the",
    "pod's credentials, with the reason (the result label of",
    "kubelet_imagemanager_image_mustpull_checks_total). The pod's pull secrets are given",
    "as namespace/name/uid/credential-hash; an empty --image-ref means the image is not",
    "on the node.",
  ].join("\n"),
  options: {
    "kubelet-dir": {
      type: "string",
      value: "DIR",
      help: "the kubelet's root directory (the one holding image_manager/)",
    },
    image: { type: "string", value: "IMAGE", help: "the container's image, as written in the pod" },
    "image-ref": {
      type: "string",
      value: "REF",
      help: "the runtime's image ID for it (e.g. sha256:…); empty: not on the node",
    },
    secret: {
      type: "string",
      multiple: true,
      value: "NS/NAME/UID/HASH",
      help: "a pull secret of the pod (HASH: the kubelet's credential hash)",
    },
    "secret-file": {
      type: "string",
      multiple: true,
      value: "FILE",
      help: "YAML with the pod's pull Secrets (dockerconfigjson, with metadata.uid); hashed as the kubelet does",
    },
    "service-account": {
      type: "string",
      value: "NS/NAME/UID",
      help: "the pod's service account, when a credential provider used its token",
    },
    policy: {
      type: "string",
      value: "POLICY",
      help: `${verificationPolicyNames.join(" | ")} (default: NeverVerifyPreloadedImages)`,
    },
    allowlist: {
      type: "string",
      multiple: true,
      value: "PATTERN",
      help: "an entry of preloadedImagesVerificationAllowlist",
    },
    "allowlist-matching": {
      type: "string",
      value: "VERSION",
      help: "v1.35 (the raw image string) | v1.36 (the normalized name); default: as --upstream kubelet matches",
    },
    upstream: upstreamOption(["kubelet"]),
  },
  positionals: false,
  examples: [
    [
      "may team-b's pod use the image team-a pulled?",
      "kubeimg pull-check --kubelet-dir /var/lib/kubelet --image registry.example.com/team/app:1.0 --image-ref sha256:3f5c… --secret team-b/regcred/9d3c…/a55436fc… --policy AlwaysVerify",
    ],
    [
      "the same, with team-b's pull Secret as YAML (kubectl get secret regcred -n team-b -o yaml)",
      "kubeimg pull-check --kubelet-dir /var/lib/kubelet --image registry.example.com/team/app:1.0 --image-ref sha256:3f5c… --secret-file regcred.yaml",
    ],
  ],
  async run({ io, values, format, colors }) {
    const dir = requireOption(stringOption(values, "kubelet-dir"), "--kubelet-dir", "pull-check");
    const image = requireOption(stringOption(values, "image"), "--image", "pull-check");
    const imageRef = stringOption(values, "image-ref");
    if (imageRef === undefined) {
      throw new CliError(
        "USAGE",
        "--image-ref is required (see 'kubeimg pull-check --help')",
        "--image-ref",
      );
    }
    const parsed = safeParseNormalizedNamed(image);
    if (!parsed.success) {
      const { error } = parsed;
      throw Object.assign(error, { message: `--image ${JSON.stringify(image)}: ${error.message}` });
    }
    const secrets = [
      ...stringOptions(values, "secret").map(parseSecretFlag),
      ...(await secretsFromFiles(stringOptions(values, "secret-file"), parsed.data.name, io)),
    ];
    const saFlag = stringOption(values, "service-account");
    const serviceAccount = saFlag === undefined ? undefined : parseServiceAccountFlag(saFlag);
    const policyName = stringOption(values, "policy");
    const upstream = upstreamChoice(values, "pull-check", ["kubelet"]);
    const matching = stringOption(values, "allowlist-matching");
    if (matching !== undefined && matching !== "v1.35" && matching !== "v1.36") {
      throw new CliError(
        "USAGE",
        `--allowlist-matching must be v1.35 or v1.36, not "${matching}"`,
        matching,
      );
    }
    const policy = createVerificationPolicy({
      policy: policyName,
      allowlist: stringOptions(values, "allowlist"),
      kubelet: upstream.kubelet,
      ...(matching === undefined ? {} : { allowlistMatching: matching }),
    });
    // Read-only: no directory is created, no file migrated or written; what the
    // manager would write while deciding is refused and does not change the answer.
    const store = await FileSystemPullRecordStore.open(await kubeletRoot(dir, io), {
      readOnly: true,
    });
    const manager = await PullManager.open({ store, policy, clock: { now: Date.now } });

    const readProblems: string[] = [];
    let found: Awaited<ReturnType<typeof store.getPulledRecordFile>>;
    let intent = false;
    if (imageRef !== "") {
      found = await store.getPulledRecordFile(imageRef).catch((e: unknown) => {
        readProblems.push(describeError(e));
        return undefined;
      });
      intent = await store.intentExists(image).catch((e: unknown) => {
        readProblems.push(describeError(e));
        return false;
      });
    }
    const decision = await manager.mustAttemptImagePull(image, imageRef, () => ({
      secrets,
      serviceAccount: serviceAccount ?? null,
    }));
    const record = found?.record;
    const name = parsed.data.name;
    const entry = record?.credentialMapping.get(name);
    const source = found && { path: found.path, apiVersion: found.apiVersion };
    const shownPath = source && relative(io.cwd, source.path);
    const recordFile =
      shownPath === undefined || shownPath.startsWith("..") ? source?.path : shownPath;
    const recordText =
      imageRef === ""
        ? "none (the image is not on the node)"
        : readProblems.length > 0
          ? `unreadable: ${readProblems.join("; ")}`
          : record === undefined
            ? "none for this image ref"
            : `${recordFile ?? "found"} (${source?.apiVersion ?? "?"}, updated ${record.lastUpdatedTime.toISOString()})`;
    const entryText =
      entry === undefined
        ? record === undefined
          ? "-"
          : `none for ${name}`
        : entry.nodePodsAccessible
          ? "every pod on the node (pulled without pod credentials)"
          : [
              ...entry.kubernetesSecrets.map(
                (s) => `secret ${s.namespace}/${s.name} (uid ${s.uid})`,
              ),
              ...entry.kubernetesServiceAccounts.map(
                (s) => `service account ${s.namespace}/${s.name} (uid ${s.uid})`,
              ),
            ].join(", ") || "nobody (an empty entry)";
    const reasonText =
      decision.reason === undefined ? "the image is not on the node" : REASON_TEXT[decision.reason];
    const data = {
      image,
      imageRef,
      policy: policy.name,
      kubelet: upstream.kubelet,
      mustPull: decision.mustPull,
      reason: decision.reason ?? null,
      explanation: reasonText,
      record:
        record === undefined
          ? null
          : {
              file: recordFile ?? null,
              apiVersion: source?.apiVersion ?? null,
              lastUpdatedTime: record.lastUpdatedTime.toISOString(),
              credentials: entry ?? null,
            },
      pullIntent: intent,
      readErrors: readProblems,
    };
    writeResult(
      io,
      format,
      data,
      (c) =>
        renderFields(
          [
            ["image", image],
            ["image ref", imageRef === "" ? "(none)" : imageRef],
            ["policy", policy.name],
            ["kubelet", upstream.kubelet],
            ["record", recordText],
            ["pull intent", intent ? "yes (a pull was in flight)" : "no"],
            [`granted to`, entryText],
            [
              "decision",
              decision.mustPull
                ? { text: `must pull (${decision.reason ?? "not present"})`, style: c.yellow }
                : { text: `use the image on the node (${decision.reason})`, style: c.green },
            ],
            ["why", reasonText],
          ],
          c,
        ),
      colors,
    );
    return EXIT_CODES.OK;
  },
};

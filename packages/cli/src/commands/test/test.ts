import { upstreamChoice, upstreamOption } from "../../args/upstream.js";
import { EXIT_CODES } from "../../errors/exit-codes.js";
import { writeResult } from "../../output/write.js";
import { renderGithubAnnotations, renderHuman, renderJunit } from "../../policy-tests/report.js";
import { runPolicyTests } from "../../policy-tests/run.js";
import { POLICY_TEST_UPSTREAMS } from "../../policy-tests/spec.js";
import { REGISTRY_OPTIONS } from "../../registry/registry-options.js";
import { type Command, stringOption } from "../command.js";
import { tagsFromRegistry } from "../tags/dialect-run.js";
import { listFromRegistry } from "../tags/tags.js";

/** `kubeimg test` */
export const testCommand: Command = {
  name: "test",
  summary: "run policy test files: which tag a policy picks, where a pod pulls from, offline",
  usage:
    "kubeimg test [PATH...] [--run REGEX] [--update] [--offline] [--upstream NAME=VERSION]... [-o junit|json|yaml]",
  description: [
    "Finds policy test files (*.kubeimg-test.yaml and kubeimg-test.yaml, searched",
    "recursively in each PATH; default .) and runs every case offline with the same",
    "library calls as the other commands: a select case as 'kubeimg tags' (Flux",
    "ImagePolicy, Argo CD ImageUpdater or Application, Kargo Warehouse), a route case as",
    "'kubeimg route --check' with the listed alternatives unavailable, a pull case as",
    "'kubeimg route --node-config', a pullCheck case as 'kubeimg pull-check'. Paths in a",
    "test file are relative to it. The format is described by the JSON Schema",
    "@kubeimg/cli/policy-test.schema.json.",
    "",
    "Prints a line per case (✓ or ✗) and, for a failure, the expected and actual values",
    "side by side and the trace of the decision. -o junit writes JUnit XML, -o json the",
    "whole report. With GITHUB_ACTIONS=true each failing case is also an error annotation",
    "at its line. --update writes the answer into the expect of each case that has none;",
    "it never changes a case that fails. A case with registry: true lists tags live",
    "(the registry options below apply); --offline refuses it.",
    "",
    "--upstream NAME=VERSION (repeatable) names the release each case reproduces, as the",
    "matching command takes it: containerd and containers-image for a pull case's",
    "nodeConfig, kubelet for a pullCheck case, semver for a Flux select case. A test",
    "file's upstream: map wins over the flag for that file (it models one cluster); the",
    "flag sets the release of files that name none. A failing case's trace, and its",
    "upstream field in -o json, name the release it reproduced.",
    "",
    "Exit 0 when every case passes, 1 when one fails (or has no expect), 2 when a test",
    "file, or a file it names, is invalid (one line names the file, line, field and value).",
  ].join("\n"),
  options: {
    run: { type: "string", value: "REGEX", help: "run only the cases whose name matches (RE2)" },
    update: { type: "boolean", help: "write the answers of cases without expect into their files" },
    offline: { type: "boolean", help: "refuse cases that list tags from a registry" },
    upstream: upstreamOption(POLICY_TEST_UPSTREAMS),
    ...REGISTRY_OPTIONS,
  },
  positionals: true,
  extraOutputFormats: ["junit"],
  examples: [
    ["run every test file of the repository", "kubeimg test"],
    [
      "the Flux cases only, as JUnit XML for CI",
      "kubeimg test policy-tests/ --run podinfo -o junit",
    ],
    ["record the answers of new cases", "kubeimg test policy-tests/ --update"],
    [
      "the cases as a CRI-O node with containers/image 5.36 answers them",
      "kubeimg test policy-tests/ --upstream containers-image=5.36",
    ],
  ],
  async run(context) {
    const { io, values, format, colors, extraFormat } = context;
    const run = stringOption(values, "run");
    const chosen = upstreamChoice(values, "test", POLICY_TEST_UPSTREAMS);
    const report = await runPolicyTests(context.positionals, {
      cwd: io.cwd,
      update: values.update === true,
      offline: values.offline === true,
      ...(run === undefined ? {} : { run }),
      upstream: Object.fromEntries(POLICY_TEST_UPSTREAMS.map((n) => [n, chosen[n]])),
      onWarning: context.note,
      listTags: async (request) =>
        request.dialect === "flux"
          ? (await listFromRegistry(context, request.image, request.insecure)).map((name) => ({
              name,
            }))
          : tagsFromRegistry(context, request.image, request.needsMetadata),
    });
    // Human output unless asked otherwise: CI logs are read by people.
    const human = values.output === undefined || (format === "table" && extraFormat === undefined);
    const annotations = io.env.GITHUB_ACTIONS === "true" ? renderGithubAnnotations(report) : "";
    if (extraFormat === "junit") io.stdout.write(renderJunit(report));
    else if (human) io.stdout.write(renderHuman(report, colors));
    else writeResult(io, format, report, () => "", colors);
    // Workflow commands are read from both streams; stdout only when it is not machine output.
    if (annotations !== "") (human ? io.stdout : io.stderr).write(annotations);
    const failing = report.cases.filter((c) => c.status === "failed").length;
    if (values.update === true && failing > 0) {
      context.note(
        `${failing} failing case(s) left as they are: --update writes only cases without expect`,
      );
    }
    if (report.cases.length === 0) {
      context.note(`--run ${JSON.stringify(run ?? "")} matches no case`);
      return EXIT_CODES.NOTHING_FOUND;
    }
    return report.failed + report.new > 0 ? EXIT_CODES.NOTHING_FOUND : EXIT_CODES.OK;
  },
};

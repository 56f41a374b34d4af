/**
 * The files `awp-conformance init` writes, as text: the configuration (with comments, so it is
 * written here rather than serialized), an invalid-configs file and a policy-tests.yaml skeleton
 * for a provider, and a GitHub workflow. Pure: values in, text out.
 */
import { CONFIG_SCHEMA } from "./types.js";

export interface ConfigTemplateInput {
  /** Where the schema is, relative to the configuration file's folder. */
  schemaPath: string;
  name: string;
  protocol: "provider" | "agent-cli";
  command: string[];
  /** provider: the valid configuration written in the file, or a file holding it. */
  config?: Record<string, unknown>;
  configFile?: string;
  invalidConfigFile?: string;
  /** agent-cli. */
  mode?: string;
  model?: string;
  env?: Record<string, string>;
}

/** A YAML scalar or flow collection: JSON is valid YAML flow. */
const y = (value: unknown): string => JSON.stringify(value);

const HEADER = (schemaPath: string): string[] => [
  `# yaml-language-server: $schema=${schemaPath}`,
  "# awp-conformance configuration, written by `awp-conformance init`.",
  "# `npx awp-conformance run` in this folder (or one below it) checks the candidates below;",
  "# `npx awp-conformance run NAME` checks one. Flags given on the command line override keys",
  "# here (each key is the camelCase of its flag: invalidConfigFile is --invalid-config-file).",
  "# Paths are relative to this file's folder.",
  `# Every key: node_modules/awp-conformance/schemas/${CONFIG_SCHEMA}`,
];

function providerLines(input: ConfigTemplateInput): string[] {
  const config = input.configFile !== undefined
    ? [`    configFile: ${y(input.configFile)}`]
    : ["    # The provider's valid configuration (or configFile: ./config.json).", `    config: ${y(input.config ?? {})}`];
  return [
    ...config,
    "    # Configurations the provider must reject: provider/validate-config/rejects-invalid-config.",
    `    invalidConfigFile: ${y(input.invalidConfigFile ?? "./invalid-configs.json")}`,
    "    # expectedFailures: ./expected-failures.txt   # clause patterns known to fail",
    "    # bounds: { timeout: 6000, budget: 5000, runTimeout: 900000 }",
  ];
}

function agentLines(input: ConfigTemplateInput): string[] {
  const env = input.env ?? {};
  const envLines = Object.keys(env).length > 0
    ? ["    env:", ...Object.entries(env).map(([name, value]) => `      ${name}: ${y(value)}`)]
    : [
        "    # env:   # point the CLI's model endpoint at the kit's model server, for example:",
        '    #   OPENAI_BASE_URL: "{{fixture.openai}}"      # or ANTHROPIC_BASE_URL: "{{fixture.anthropic}}"',
        '    #   OPENAI_API_KEY: "{{fixture.token}}"',
      ];
  return [
    "    # awp-jsonl, or stream-json (a second candidate checks the other mode).",
    `    mode: ${y(input.mode ?? "awp-jsonl")}`,
    ...(input.model !== undefined ? [`    model: ${y(input.model)}`] : []),
    "    # {{fixture.openai}}, {{fixture.anthropic}}, {{fixture.token}}, {{fixture.controlplane}} and",
    "    # {{fixture.controlplane_token}} expand to the kit's servers for each scenario.",
    ...envLines,
    "    # expectedFailures: ./expected-failures.txt   # clause patterns known to fail",
    "    # bounds: { turnTimeout: 10000, runTimeout: 900000 }",
  ];
}

/** awp-conformance.config.yaml. */
export function configYaml(input: ConfigTemplateInput): string {
  return [
    ...HEADER(input.schemaPath),
    "candidates:",
    `  - name: ${y(input.name)}`,
    `    protocol: ${input.protocol}`,
    "    # The executable, then its arguments (an executable without a slash is looked up on PATH).",
    `    command: ${y(input.command)}`,
    ...(input.protocol === "provider" ? providerLines(input) : agentLines(input)),
    "reporters: [console, json, junit, html]",
    "out: reports",
    "",
  ].join("\n");
}

/** invalid-configs.json: what the provider must reject (given, or one placeholder to replace). */
export function invalidConfigsJson(configs: readonly unknown[] | undefined): string {
  const list = configs ?? [{ awp_conformance_replace_me: "list here the configurations your provider must reject; this one has a setting no provider knows" }];
  return `[\n${list.map((c) => `  ${JSON.stringify(c)}`).join(",\n")}\n]\n`;
}

/** policy-tests.yaml: the case format, with cases written against the kit's reference provider. */
export function policyTestsYaml(config: Record<string, unknown>, forReference: boolean): string {
  return [
    "# Policy tests: the decisions your provider must make, one case per tool event.",
    "#   npx awp-conformance policy-test policy-tests.yaml PROVIDER [-- ARGS]",
    "# Schema: node_modules/awp-conformance/schemas/policy-cases.schema.json",
    ...(forReference ? [] : ["# These cases are written for the kit's reference provider (a blocked example_tool,", "# redact_terms): replace them with your provider's tools and decisions."]),
    "",
    "# The configuration of every case below that gives none.",
    `config: ${y(config)}`,
    "",
    "cases:",
    "  - name: a listed tool is blocked before it runs",
    "    tool: example_tool",
    "    input: { path: /tmp/notes.txt }",
    "    expect: { decision: block, reason_code: tool_policy }",
    "",
    "  # A table: one event template, one case per row (a row replaces the fields it gives).",
    "  - name: other tools are only observed",
    "    operation: check",
    "    expect: { decision: observe, reason_code: tool_seen }",
    "    table:",
    "      - tool: Bash",
    "        input: { command: ls }",
    "      - tool: Read",
    "        input: { file_path: /etc/hostname }",
    "",
    "  - name: redact replaces configured terms in the result text",
    "    event: tool.after",
    "    operation: redact",
    "    tool: Bash",
    '    result: "the password is hunter2"',
    '    expect: { decision: replace_result, text: "the password is [redacted]" }',
    "",
  ].join("\n");
}

export interface WorkflowInput {
  /** The configuration's folder relative to the repository root ("" for the root). */
  folder: string;
  protocol: "provider" | "agent-cli";
  /** provider: the policy-test step's case file and command (commented out until the cases are the provider's). */
  policyTest?: { cases: string; command: string[] };
}

/** .github/workflows/awp-conformance.yml. */
export function workflowYaml(input: WorkflowInput): string {
  const where = input.folder === "" ? [] : [`        working-directory: ${y(input.folder)}`];
  const reports = input.folder === "" ? "reports/" : `${input.folder}/reports/`;
  const policy = input.policyTest === undefined ? [] : [
    "      # Once policy-tests.yaml holds your provider's decisions:",
    "      # - name: Policy tests",
    `      #   run: npx awp-conformance policy-test ${[input.policyTest.cases, ...input.policyTest.command].join(" ")} --reporter console --reporter junit --out reports/policy-test`,
    ...(input.folder === "" ? [] : [`      #   working-directory: ${y(input.folder)}`]),
  ];
  return [
    "# Written by `awp-conformance init`: checks the candidates of awp-conformance.config.yaml.",
    "# It needs awp-conformance among the project's devDependencies: npm install --save-dev awp-conformance",
    "name: awp-conformance",
    "on:",
    "  push:",
    "  pull_request:",
    "jobs:",
    "  conformance:",
    "    runs-on: ubuntu-latest",
    "    steps:",
    "      - uses: actions/checkout@v4",
    "      - uses: actions/setup-node@v4",
    "        with:",
    "          node-version: 22",
    "          cache: npm",
    "      - run: npm ci",
    "      - name: Conformance",
    "        run: npx awp-conformance run --reporter console --reporter github --reporter junit --reporter json --reporter html",
    ...where,
    ...policy,
    "      - uses: actions/upload-artifact@v4",
    "        if: always()",
    "        with:",
    "          name: awp-conformance-reports",
    `          path: ${reports}`,
    "",
  ].join("\n");
}

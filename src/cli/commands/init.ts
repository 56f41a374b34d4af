import type { Argv } from "yargs";
import { KitError } from "../../core/errors.js";

/** `awp-conformance init`: writes a configuration, an invalid-configs file and a policy-tests.yaml (provider), and a GitHub workflow. */
export function initCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "init",
    "write awp-conformance.config.yaml for a candidate (a provider also gets invalid-configs.json and a policy-tests.yaml skeleton) and a GitHub workflow; asks on a terminal, takes flags otherwise: init --protocol provider --candidate ./my-provider [-- ARGS]",
    (c) =>
      c
        .option("protocol", { type: "string", choices: ["provider", "agent-cli"], describe: "which contract the candidate is checked against" })
        .option("candidate", { type: "string", describe: "the candidate's executable (its arguments after --)" })
        .option("name", { type: "string", describe: "the candidate's name in the configuration (default: from its file name)" })
        .option("dir", { type: "string", alias: "out-dir", default: ".", describe: "folder to write the configuration to (the workflow goes to the repository's .github/workflows)" })
        .option("force", { type: "boolean", default: false, describe: "overwrite files that exist (otherwise init writes nothing and says which exist)" })
        .option("config-file", { type: "string", describe: "provider: a JSON file with its valid configuration (referenced by the configuration)" })
        .option("invalid-config-file", { type: "string", describe: "provider: a JSON file of configurations it must reject (referenced instead of writing invalid-configs.json)" })
        .option("mode", { type: "string", choices: ["awp-jsonl", "stream-json"], describe: "agent-cli: the wire mode (default awp-jsonl)" })
        .option("model", { type: "string", describe: "agent-cli: model id passed with --model" })
        .option("env", { type: "string", array: true, describe: "agent-cli: NAME=VALUE for the CLI's environment (repeatable; {{fixture.openai}}, {{fixture.token}}... expand)" }),
    async (a) => {
      const { runInit } = await import("../../config/init-command.js");
      setCode(await runInit({
        ...(a.protocol !== undefined ? { protocol: a.protocol as "provider" | "agent-cli" } : {}),
        ...(a.candidate !== undefined ? { candidate: a.candidate } : {}),
        args: ((a["--"] as unknown[] | undefined) ?? []).map(String),
        ...(a.name !== undefined ? { name: a.name } : {}),
        dir: a.dir,
        force: a.force,
        ...(a.configFile !== undefined ? { configFile: a.configFile } : {}),
        ...(a.invalidConfigFile !== undefined ? { invalidConfigFile: a.invalidConfigFile } : {}),
        ...(a.mode !== undefined ? { mode: a.mode } : {}),
        ...(a.model !== undefined ? { model: a.model } : {}),
        ...(a.env !== undefined ? { env: a.env.map(String) } : {}),
      }).catch((error: unknown) => {
        throw error instanceof KitError ? error : new KitError("usage", `init: ${(error as Error).message}`);
      }));
    },
  );
}

import type { Argv } from "yargs";
import { withReportOptions } from "../report-options.js";

export function checkLaunchCommand(y: Argv, setCode: (code: number) => void): Argv {
  return y.command(
    "check-launch <record>",
    "judge a host from the mock's --record file: how it launched the mock, and how it reacted to the mock's faults (the host/ clauses)",
    (c) =>
      withReportOptions(c)
        .positional("record", { type: "string", demandOption: true, describe: "the JSON Lines file the mock wrote (AWP_CONFORMANCE_MOCK_RECORD)" })
        .option("protocol", { type: "string", choices: ["agent-cli", "provider"], describe: "which host to judge (default: the protocol of the record's processes)" })
        .option("expect-model", { type: "string", describe: "agent-cli: the model the host was configured with (AWP_AGENT_DEFAULT_MODEL)" })
        .option("expect-mode", { type: "string", choices: ["awp-jsonl", "stream-json"], describe: "agent-cli: the host's AWP_AGENT_CLI_PROTOCOL" })
        .option("expect-args-json", { type: "string", describe: "agent-cli: the prefix arguments (AWP_AGENT_CLI_ARGS_JSON); provider: the arguments after the executable, as the mock sees them once it has taken out its own --fault, --seed and --record; a JSON array of strings" })
        .option("expect-env-json", { type: "string", describe: "agent-cli: the configured child environment (AWP_AGENT_CLI_ENV_JSON); provider: entries every provider process gets; a JSON object of strings" })
        .option("expect-providers-json", { type: "string", describe: 'provider: the configured providers, {"NAME": {"args": [after the executable], "cwd": DIR, "env": {...}, "enabled": true|false}}' })
        .option("expect-cwd", { type: "string", describe: "provider: the working directory every provider process runs in" })
        .option("host-outcomes", { type: "string", describe: 'provider: a JSON file of the host\'s own account, {"REQUEST_ID": "failure"|"decision"} per invoke' })
        .option("expect-resume", { type: "string", describe: "agent-cli: the session id the host resumed" })
        .option("remote-opt-in", { type: "boolean", default: false, describe: "agent-cli: the host runs with AWP_AGENT_REMOTE_API_OPT_IN=1" })
        .option("shutdown-grace", { type: "number", describe: "agent-cli: ms the host waits between SIGTERM and SIGKILL (default 3000, the upstream launcher's)" })
        .option("oversize-stop", { type: "number", describe: "agent-cli: ms after an unbroken stdout run past 4 MiB began within which the host signals the CLI (default 2000, the kit's choice)" })
        .option("start-retries", { type: "number", describe: "agent-cli: how many times in a row a CLI that failed at start-up may be started again (default 2, the kit's choice)" })
        .option("retry-window", { type: "number", describe: "agent-cli: a launch this many ms after a start-up failure counts as starting it again (default 5000, the kit's choice)" })
        .option("slack", { type: "number", describe: "ms the kit allows on top of the grace or a budget_ms (default 1000, the kit's choice)" })
        .option("clause", { type: "string", array: true, describe: "only clauses matching PATTERN" })
        .option("skip", { type: "string", array: true, describe: "leave out clauses matching PATTERN" })
        .option("out", { type: "string", describe: "report folder (default: no files)" })
        .option("reporter", { type: "string", array: true, default: ["console"], describe: "console,json,junit,tap,markdown,html,badge,github (as for run)" }),
    async (a) => {
      // The record reader, the checks and the reporters load only for this command.
      const { checkLaunch } = await import("../check-launch.js");
      setCode(await checkLaunch(a as Parameters<typeof checkLaunch>[0]));
    },
  );
}

#!/usr/bin/env node
import { readFileSync } from "node:fs";
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { loadCatalogue } from "../core/clauses/catalogue.js";
import { KitError } from "../core/errors.js";
import { kitVersion } from "../core/paths.js";
import { computeInputDigest } from "../core/provider/digest.js";
import type { Protocol } from "../core/report/types.js";
import { killAllGroups } from "../runner/process-group.js";
import { runCommand } from "./run.js";

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).flatMap((v) => String(v).split(",")).map((v) => v.trim()).filter((v) => v !== "");

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

function readRequestFile(path: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new KitError("usage", `cannot read ${path}: ${(error as Error).message}`);
  }
}

function colorWanted(): boolean {
  return process.stdout.isTTY === true && process.env.NO_COLOR === undefined;
}

async function main(argv: string[]): Promise<number> {
  let code = 0;
  await yargs(argv)
    .scriptName("awp-conformance")
    .version(kitVersion())
    .parserConfiguration({ "populate--": true, "greedy-arrays": false })
    .strict()
    .command(
      "run [candidate] [args..]",
      "run the conformance suite against a candidate (or every bundled example when none is given)",
      (y) =>
        y
          .positional("candidate", { type: "string", describe: "path to the candidate executable" })
          .positional("args", { type: "string", array: true, describe: "arguments for the candidate (put -- before ones that start with a dash)" })
          .option("protocol", { type: "string", choices: ["provider", "agent-cli"], describe: "which contract to check" })
          .option("config-json", { type: "string", describe: "provider: the valid configuration, as JSON" })
          .option("config-file", { type: "string", describe: "provider: file holding the valid configuration" })
          .option("invalid-config-file", { type: "string", describe: "provider: a JSON object or array of configurations the provider must reject" })
          .option("out", { type: "string", describe: "report folder (default reports/)" })
          .option("clause", { type: "string", array: true, describe: "only clauses matching PATTERN (* within a segment, ** across)" })
          .option("skip", { type: "string", array: true, describe: "leave out clauses matching PATTERN" })
          .option("timeout", { type: "number", describe: "deadline of every call in ms (default budget + 1000)" })
          .option("budget", { type: "number", describe: "provider: budget_ms sent with invocations (default 5000)" })
          .option("reporter", { type: "string", array: true, default: ["console", "json"], describe: "console,json" }),
      async (a) => {
        const rest = ((a["--"] as unknown[] | undefined) ?? []).map(String);
        const positionalArgs = list(a.args);
        const candidate = a.candidate ?? rest.shift();
        code = await runCommand({
          ...(a.protocol !== undefined ? { protocol: a.protocol } : {}),
          ...(candidate !== undefined ? { candidate } : {}),
          args: [...positionalArgs, ...rest],
          ...(a.configJson !== undefined ? { configJson: a.configJson } : {}),
          ...(a.configFile !== undefined ? { configFile: a.configFile } : {}),
          ...(a.invalidConfigFile !== undefined ? { invalidConfigFile: a.invalidConfigFile } : {}),
          ...(a.out !== undefined ? { out: a.out } : {}),
          ...(a.timeout !== undefined ? { timeout: a.timeout } : {}),
          ...(a.budget !== undefined ? { budget: a.budget } : {}),
          clause: list(a.clause),
          skip: list(a.skip),
          reporter: list(a.reporter),
          color: colorWanted(),
        });
      },
    )
    .command(
      "list",
      "print the clause catalogue",
      (y) => y.option("protocol", { type: "string", choices: ["provider", "agent-cli"] }),
      (a) => {
        const protocols: Protocol[] = a.protocol ? [a.protocol as Protocol] : ["provider"];
        for (const protocol of protocols) {
          for (const clause of loadCatalogue(protocol)) process.stdout.write(`${clause.level.padEnd(6)} ${clause.id}  ${clause.title}\n`);
        }
      },
    )
    .command(
      "digest <request>",
      "print the input_digest of an invoke request file (- for stdin)",
      (y) => y.positional("request", { type: "string", demandOption: true }),
      async (a) => {
        // yargs hands a lone "-" over as an empty string.
        const fromStdin = a.request === "-" || a.request === "";
        const bytes = fromStdin ? await readAll(process.stdin) : readRequestFile(a.request);
        process.stdout.write(`${computeInputDigest(new Uint8Array(bytes))}\n`);
      },
    )
    .demandCommand(1, "give a command: run, list or digest")
    .fail((message, error) => {
      if (error) throw error;
      throw new KitError("usage", message);
    })
    .help()
    .parseAsync();
  return code;
}

// A closed pipe (`| head`) ends the output, not the kit with a stack trace.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    killAllGroups();
    process.exit(signal === "SIGINT" ? 130 : 143);
  });
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof KitError) {
      process.stderr.write(`awp-conformance: ${error.message} [${error.code}]\n`);
      process.exitCode = error.exitCode;
    } else {
      process.stderr.write(`awp-conformance: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 3;
    }
  },
);

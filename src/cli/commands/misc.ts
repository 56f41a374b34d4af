import type { Argv } from "yargs";
import { DEFAULT_DIGEST_DIALECT, dialectName, DIGEST_DIALECTS, isDigestDialect } from "../../core/json/dialects.js";
import type { SuiteProtocol } from "../../core/report/types.js";
import { readAll, readFileOrFail } from "../args.js";

export function listCommand(y: Argv): Argv {
  return y.command(
    "list",
    "print the clause catalogue (level, id, title)",
    (c) => c.option("protocol", { type: "string", choices: ["provider", "agent-cli", "host"], describe: "one catalogue; host: the clauses check-launch judges a host's launches by" }),
    async (a) => {
      // The build's snapshot of the catalogue when the suite files are unchanged: no YAML reader, no Ajv.
      const { catalogueOf } = await import("../../core/clauses/snapshot.js");
      const protocols: SuiteProtocol[] = a.protocol ? [a.protocol as SuiteProtocol] : ["provider", "agent-cli", "host"];
      for (const protocol of protocols) {
        for (const clause of await catalogueOf(protocol)) process.stdout.write(`${clause.level.padEnd(6)} ${clause.id}  ${clause.title}\n`);
      }
    },
  );
}

export function digestCommand(y: Argv): Argv {
  const ids = DIGEST_DIALECTS.map((d) => d.id);
  return y.command(
    "digest <request>",
    "print the input_digest of an invoke request file (- for stdin)",
    (c) =>
      c.positional("request", { type: "string", demandOption: true, describe: "an invoke request file, or - for stdin" }).option("dialect", {
        type: "string",
        choices: [...ids, "all"],
        default: DEFAULT_DIGEST_DIALECT,
        describe: `serde_json float format to hash with: ${DIGEST_DIALECTS.map((d) => `${d.id} = ${d.versions}`).join("; ")}; all prints one line per dialect`,
      }),
    async (a) => {
      // yargs hands a lone "-" over as an empty string.
      const fromStdin = a.request === "-" || a.request === "";
      const bytes = new Uint8Array(fromStdin ? await readAll(process.stdin) : readFileOrFail(a.request));
      // The JSON reader and the digest load only for this command (every other command's start goes without them).
      const { computeInputDigest, inputDigests } = await import("../../core/provider/digest.js");
      if (a.dialect === "all") {
        for (const { dialect, digest } of inputDigests(bytes)) process.stdout.write(`${digest} ${dialectName(dialect)}\n`);
      } else {
        process.stdout.write(`${computeInputDigest(bytes, isDigestDialect(a.dialect) ? a.dialect : DEFAULT_DIGEST_DIALECT)}\n`);
      }
    },
  );
}

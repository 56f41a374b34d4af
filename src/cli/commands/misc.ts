import type { Argv } from "yargs";
import { loadCatalogue } from "../../core/clauses/catalogue.js";
import { computeInputDigest } from "../../core/provider/digest.js";
import type { Protocol } from "../../core/report/types.js";
import { readAll, readFileOrFail } from "../args.js";

export function listCommand(y: Argv): Argv {
  return y.command(
    "list",
    "print the clause catalogue (level, id, title)",
    (c) => c.option("protocol", { type: "string", choices: ["provider", "agent-cli"] }),
    (a) => {
      const protocols: Protocol[] = a.protocol ? [a.protocol as Protocol] : ["provider", "agent-cli"];
      for (const protocol of protocols) {
        for (const clause of loadCatalogue(protocol)) process.stdout.write(`${clause.level.padEnd(6)} ${clause.id}  ${clause.title}\n`);
      }
    },
  );
}

export function digestCommand(y: Argv): Argv {
  return y.command(
    "digest <request>",
    "print the input_digest of an invoke request file (- for stdin)",
    (c) => c.positional("request", { type: "string", demandOption: true }),
    async (a) => {
      // yargs hands a lone "-" over as an empty string.
      const fromStdin = a.request === "-" || a.request === "";
      const bytes = fromStdin ? await readAll(process.stdin) : readFileOrFail(a.request);
      process.stdout.write(`${computeInputDigest(new Uint8Array(bytes))}\n`);
    },
  );
}

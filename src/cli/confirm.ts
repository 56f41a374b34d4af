import { createInterface } from "node:readline";
import type { ReplayConsent } from "../fuzz/replay-run.js";

/** Consent from the command line: --yes, or a y/N question when stdin is a terminal (Ctrl-C or Ctrl-D answer no). */
export function terminalConsent(yes: boolean): ReplayConsent {
  return {
    yes,
    interactive: process.stdin.isTTY === true,
    show: (text) => {
      process.stderr.write(text);
    },
    ask: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
        let answer = "";
        rl.on("SIGINT", () => rl.close());
        rl.on("close", () => resolve(answer));
        rl.question(question, (line) => {
          answer = line;
          rl.close();
        });
      }),
  };
}

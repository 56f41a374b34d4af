#!/usr/bin/env node
// agent-cli-fake.mjs [prefix args, among them --fault NAME] <the Desktop's flags>:
// the reference agent CLI (examples/reference-agent-cli) with exactly one fault.
//
// The kit passes `--fault NAME` as prefix arguments, before the Desktop's flags. Every
// prefix argument is taken away before the reference parses argv (launch-configuration
// tests pass odd ones), and a --model the reference would refuse becomes `fake-model`.
// Each fault (agent-cli-fake-faults.mjs) breaks one clause of suites/agent-cli/
// through the hooks of agent-cli-fake-hooks.mjs; everything else is the reference's own
// behaviour, imported, never copied. Without --fault the fake is the reference.

import { FAULTS } from "./agent-cli-fake-faults.mjs";
import { createState, installHooks, saneModel, splitArgv, valueOf } from "./agent-cli-fake-hooks.mjs";

const { prefix, desktop } = splitArgv(process.argv.slice(2));
const name = valueOf(prefix, "--fault");
const fault = name === undefined ? {} : FAULTS[name];
if (fault === undefined) {
  process.stderr.write(`agent-cli-fake: unknown fault ${JSON.stringify(name)} (known: ${Object.keys(FAULTS).join(", ")})\n`);
  process.exit(2);
}
process.argv = [process.argv[0], process.argv[1], ...saneModel(desktop)];

const state = createState(desktop);
await fault.startup?.(state);
installHooks(fault, state);
await import("../../examples/reference-agent-cli/agent-cli.mjs");

/**
 * The stdout one run of the kit records from all its processes together. Each process has
 * its own caps (SESSION_DEFAULTS: 64 MiB, 200 000 lines), but a run launches some twenty
 * processes and keeps every transcript until it judges them, so without a shared bound the
 * kit's memory would grow with what the CLI prints. Once the run's budget is spent, the
 * process printing more trips the same guard as its own cap: the rest of its stdout is not
 * recorded and the kit stops it. A CLI that answers the kit's scenarios stays well below it:
 * the reference prints about 0.2 MiB in 1,500 lines over a whole run, and a CLI can only
 * stream as many deltas as the model fixture sends chunks. The bound keeps the kit's peak RSS
 * under 150 MB however much a CLI prints (`npm run bench -- agent-cli-memory`): each
 * recorded line costs the kit about 1.5 KB at its peak (parsed by the checks, churned by V8),
 * hence the bound on lines beside the one on bytes, and a line's parsed values can take ten
 * times its bytes (`[[],[],...]`), hence the bound on JSON values (counted as the commas and
 * opening brackets of the recorded lines: the reference's come to about 7,800).
 */
import { DEFAULT_OUTPUT_BUDGET_MIB, RUN_BUDGET_WHAT } from "../../core/agent-cli/types.js";
import { MiB } from "../../core/inputs/limits.js";

export interface OutputBudgetLimits {
  /** Bytes of the stdout lines recorded from all processes of the run. */
  maxBytes: number;
  /** Stdout lines recorded from all processes of the run. */
  maxLines: number;
  /** JSON values in those lines, counted as their `,`, `[` and `{` bytes (strings included, so never fewer). */
  maxValues: number;
}

/** The limits of a budget of `mib` MiB: 3,750 lines and 25,000 JSON values per MiB (the default 4 MiB: 15,000 and 100,000). */
export function budgetLimits(mib: number): OutputBudgetLimits {
  return { maxBytes: mib * MiB, maxLines: 3_750 * mib, maxValues: 25_000 * mib };
}

export const RUN_OUTPUT_LIMITS: Readonly<OutputBudgetLimits> = budgetLimits(DEFAULT_OUTPUT_BUDGET_MIB);

export class OutputBudget {
  private bytes = 0;
  private lines = 0;
  private values = 0;

  constructor(readonly limits: Readonly<OutputBudgetLimits> = RUN_OUTPUT_LIMITS) {}

  /**
   * Takes a line to record; when it does not fit, takes nothing and returns the limit it
   * would pass. Only recorded lines count: an unbroken line still coming in is
   * bounded by the 4 MiB guard of its own process, so a 4 MiB line is always seen as one.
   */
  takeLine(line: Uint8Array): string | undefined {
    const values = jsonValues(line);
    if (this.lines + 1 > this.limits.maxLines) return `${this.limits.maxLines} lines, ${RUN_BUDGET_WHAT}`;
    if (this.bytes + line.byteLength > this.limits.maxBytes) return `${this.limits.maxBytes} bytes, ${RUN_BUDGET_WHAT}`;
    if (this.values + values > this.limits.maxValues) return `${this.limits.maxValues} JSON values, ${RUN_BUDGET_WHAT}`;
    this.force(line, values);
    return undefined;
  }

  /** Counts what was recorded anyway (the 4 KiB head of an oversize line, a cut partial line). */
  force(line: Uint8Array, values = jsonValues(line)): void {
    this.lines += 1;
    this.bytes += line.byteLength;
    this.values += values;
  }
}

/** About the JSON values a line can parse to (one fewer per container): its commas and opening brackets, those in strings too. */
function jsonValues(line: Uint8Array): number {
  let count = 0;
  for (const byte of line) if (byte === 0x2c || byte === 0x5b || byte === 0x7b) count += 1;
  return count;
}

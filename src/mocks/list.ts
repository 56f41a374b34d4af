/** `awp-conformance mock --list`: the fault catalogue as text or JSON (pure renderers). */
import { sourceLabel, sourceUrl } from "../core/clauses/sources.js";
import type { FaultInfo, FaultParam } from "./catalogue/types.js";

const paramText = (p: FaultParam): string => `${p.name}=${String(p.default)}`;

/** One fault as the user writes it with every default spelled out, e.g. slow-invoke:ms=budget+300,id=invoke-1. */
export function faultUsage(fault: FaultInfo): string {
  return fault.params.length === 0 ? fault.name : `${fault.name}:${fault.params.map(paramText).join(",")}`;
}

export function renderListText(faults: readonly FaultInfo[]): string {
  const out: string[] = [];
  let protocol = "";
  let group = "";
  for (const fault of faults) {
    if (fault.protocol !== protocol) {
      protocol = fault.protocol;
      group = "";
      out.push(`${out.length > 0 ? "\n" : ""}${protocol} faults: awp-conformance mock ${protocol} --fault NAME[:k=v,...] (or awp-conformance-mock-${protocol})`);
    }
    if (fault.group !== group) {
      group = fault.group;
      out.push(`\n  ${group}`);
    }
    out.push(`    ${faultUsage(fault)}`);
    out.push(`      does: ${fault.does}`);
    for (const p of fault.params) out.push(`      ${p.name}: ${p.about} (default ${String(p.default)})`);
    if (fault.seeded === true) out.push("      random: repeatable with --seed N");
    if (fault.kitOnly !== undefined) out.push(`      kit only: ${fault.kitOnly}`);
    out.push(`      host: ${fault.host.does} [${sourceLabel(fault.host.section)}]`);
  }
  return `${out.join("\n")}\n`;
}

/** The catalogue as JSON; each host rule's section also as its public link (`url`). */
export function renderListJson(faults: readonly FaultInfo[]): string {
  const linked = faults.map((f) => ({ ...f, host: { ...f.host, url: sourceUrl(f.host.section) } }));
  return `${JSON.stringify(linked, null, 2)}\n`;
}

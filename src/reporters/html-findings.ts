import type { Evidence, Finding, WireEntry } from "../core/report/types.js";
import { escapeLines, escapeNumber, escapeText } from "./html-escape.js";
import { kitBoundText } from "./kit-bound.js";

/** How each wire stream is labelled: the arrow says which way the bytes went. */
const STREAMS: Readonly<Record<WireEntry["stream"], { label: string; title: string }>> = {
  stdin: { label: "stdin →", title: "written by the kit to the candidate's stdin" },
  stdout: { label: "← stdout", title: "written by the candidate on stdout" },
  stderr: { label: "← stderr", title: "written by the candidate on stderr" },
  host: { label: "host", title: "what the kit (the host) did" },
  model: { label: "model", title: "the kit's fixture model server" },
  process: { label: "process", title: "the candidate process: spawn, signals, exit" },
};

/** A stream name from the report, mapped onto the fixed vocabulary (never echoed raw into a class). */
function streamOf(stream: unknown): { key: string; label: string; title: string } {
  const known = typeof stream === "string" && Object.hasOwn(STREAMS, stream) ? (stream as WireEntry["stream"]) : undefined;
  if (known !== undefined) return { key: known, ...STREAMS[known] };
  return { key: "other", label: escapeText(String(stream)), title: "unknown stream" };
}

/** Milliseconds since the start of the exchange, one decimal at most. */
function formatTime(t: unknown): string {
  if (typeof t !== "number" || !Number.isFinite(t)) return escapeNumber(t);
  return Number.isInteger(t) ? String(t) : t.toFixed(1);
}

/** The wire log as a table: time, direction, text; the entries the finding is about stand out. */
export function renderWire(wire: readonly WireEntry[]): string {
  const rows = wire.map((entry) => {
    const stream = streamOf(entry.stream);
    const mark = entry.highlight === true ? '<span class="hl-mark" title="the finding is about this entry">▶ finding</span>' : "";
    const cut = entry.truncated === true ? '<span class="trunc">… truncated by the kit</span>' : "";
    return (
      `<tr class="s-${stream.key}${entry.highlight === true ? " hl" : ""}"${entry.highlight === true ? ' data-highlight="true"' : ""}>` +
      `<td class="t">${formatTime(entry.t)}</td><td class="d" title="${stream.title}">${stream.label}</td>` +
      `<td class="x">${mark}${escapeLines(entry.text)}${cut}</td></tr>`
    );
  });
  return [
    '<p class="wire-legend">Wire log — time in ms since the start; → kit to candidate, ← candidate to kit; ↵ marks a line feed.</p>',
    '<table class="wire"><colgroup><col class="t"><col class="d"><col></colgroup>',
    '<thead><tr><th scope="col">ms</th><th scope="col">stream</th><th scope="col">text</th></tr></thead>',
    `<tbody>${rows.join("\n")}</tbody></table>`,
  ].join("\n");
}

function renderEvidence(evidence: readonly Evidence[]): string {
  const items = evidence.map((e) => {
    const where = [
      e.stream !== undefined ? escapeText(e.stream) : "evidence",
      e.seq !== undefined ? `#${escapeNumber(e.seq)}` : "",
      e.line !== undefined ? `line ${escapeNumber(e.line)}${e.column !== undefined ? `, column ${escapeNumber(e.column)}` : ""}` : "",
      e.offset !== undefined && e.line === undefined ? `offset ${escapeNumber(e.offset)}` : "",
    ].filter((part) => part !== "");
    return `<li><span class="muted">${where.join(" · ")}</span><pre>${escapeText(e.excerpt)}</pre></li>`;
  });
  return `<ul class="evidence">${items.join("\n")}</ul>`;
}

/** One finding: what was wrong, expected vs seen, how to replay it, the evidence and the wire log. */
export function renderFinding(finding: Finding, index: number): string {
  const tags = [
    finding.foundBy === "fuzz" ? '<span class="tag fuzz">found by fuzzing</span>' : "",
    finding.scenario !== undefined ? `<span class="tag">scenario: <span class="bidi">${escapeText(finding.scenario)}</span></span>` : "",
    finding.requestId !== undefined ? `<span class="tag">request <span class="bidi">${escapeText(finding.requestId)}</span></span>` : "",
  ].filter((tag) => tag !== "");
  const rows: string[] = [];
  if (finding.expected !== undefined) rows.push(`<dt>expected</dt><dd><pre>${escapeText(finding.expected)}</pre></dd>`);
  if (finding.seen !== undefined) rows.push(`<dt>seen</dt><dd><pre>${escapeText(finding.seen)}</pre></dd>`);
  if (finding.kitBound !== undefined) rows.push(`<dt>bound</dt><dd class="bidi">${escapeText(kitBoundText(finding.kitBound))}</dd>`);
  if (finding.reproduce !== undefined) {
    rows.push(`<dt>reproduce</dt><dd><div class="cmd-wrap"><pre class="cmd"><code>${escapeText(finding.reproduce)}</code></pre></div></dd>`);
  }
  if (finding.evidence !== undefined && finding.evidence.length > 0) rows.push(`<dt>evidence</dt><dd>${renderEvidence(finding.evidence)}</dd>`);
  return [
    '<article class="finding">',
    `<h3><span class="muted">#${index + 1}</span> <span class="bidi">${escapeText(finding.message)}</span> ${tags.join(" ")}</h3>`,
    rows.length > 0 ? `<dl>${rows.join("\n")}</dl>` : "",
    finding.wire !== undefined && finding.wire.length > 0 ? renderWire(finding.wire) : "",
    "</article>",
  ]
    .filter((part) => part !== "")
    .join("\n");
}

/** The findings of a clause: the first `shown` in full view, the rest one click away (still in the file). */
export function renderFindings(findings: readonly Finding[], shown: number): string {
  const head = findings.slice(0, shown).map((f, i) => renderFinding(f, i));
  const rest = findings.slice(shown).map((f, i) => renderFinding(f, i + shown));
  if (rest.length === 0) return head.join("\n");
  const label = `${rest.length} more finding${rest.length === 1 ? "" : "s"}`;
  return `${head.join("\n")}\n<details class="more"><summary>${label}</summary>\n${rest.join("\n")}\n</details>`;
}

/**
 * The report page's one stylesheet: static (no report data in it), hashed into the page's
 * Content-Security-Policy, and free of url(): the page loads nothing.
 */
export const HTML_STYLE = `
:root {
  --fg: #1f2328; --muted: #59636e; --bg: #ffffff; --panel: #f6f8fa; --line: #d1d9e0;
  --pass: #1a7f37; --pass-bg: #dafbe1; --fail: #cf222e; --fail-bg: #ffebe9;
  --warn: #9a6700; --warn-bg: #fff8c5; --grey: #59636e; --grey-bg: #eaeef2;
  --hl-bg: #fff1b8; --esc: #8250df; --code-bg: #f6f8fa;
  color-scheme: light dark;
}
@media screen and (prefers-color-scheme: dark) {
  :root {
    --fg: #e6edf3; --muted: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d;
    --pass: #3fb950; --pass-bg: #12361f; --fail: #ff7b72; --fail-bg: #3c1618;
    --warn: #d29922; --warn-bg: #3a2d08; --grey: #9198a1; --grey-bg: #262c36;
    --hl-bg: #4a3c0b; --esc: #d2a8ff; --code-bg: #151b23;
  }
}
* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main, header.page { max-width: 1200px; margin: 0 auto; padding: 0 20px; }
header.page { padding-top: 20px; }
h1 { font-size: 1.35rem; margin: 0 0 4px; }
h2 { font-size: 1.15rem; margin: 28px 0 10px; padding-bottom: 4px; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; margin: 14px 0 6px; }
a { color: inherit; }
code, pre, .mono { font-family: ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace; font-size: 0.86em; }
pre { margin: 4px 0; padding: 8px 10px; background: var(--code-bg); border: 1px solid var(--line); border-radius: 6px;
  white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: isolate; }
.muted { color: var(--muted); }
.esc { color: var(--esc); background: var(--grey-bg); border-radius: 3px; padding: 0 1px; font-family: ui-monospace, monospace; }
.nl { color: var(--muted); opacity: 0.6; user-select: none; }
.bidi { unicode-bidi: isolate; }

.verdict { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; margin: 14px 0; padding: 14px 18px;
  border-radius: 8px; border: 2px solid; font-size: 1.5rem; font-weight: 700; }
.verdict small { font-size: 0.95rem; font-weight: 400; }
.verdict.v-conformant { color: var(--pass); background: var(--pass-bg); }
.verdict.v-not-conformant { color: var(--fail); background: var(--fail-bg); }
.verdict.v-nothing-judged { color: var(--warn); background: var(--warn-bg); }
.verdict.v-incomplete { color: var(--grey); background: var(--grey-bg); }

.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0 0 12px; }
.meta dt { color: var(--muted); }
.meta dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.counts { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0; padding: 0; list-style: none; }
.counts li { padding: 6px 12px; border-radius: 6px; background: var(--panel); border: 1px solid var(--line); }
.counts b { font-size: 1.15rem; margin-right: 4px; }
.scroll { max-width: 100%; overflow-x: auto; }
table.levels { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
table.levels th, table.levels td { border: 1px solid var(--line); padding: 3px 12px; text-align: right; }
table.levels th:first-child { text-align: left; }
.box { margin: 12px 0; padding: 10px 14px; border-radius: 8px; border: 1px solid var(--line); background: var(--panel); }
.box h2 { margin: 0 0 6px; border: 0; font-size: 1rem; }
.box ul { margin: 4px 0; padding-left: 20px; }
.box.stale { border: 2px solid var(--fail); background: var(--fail-bg); }
.box.incomplete { border: 2px solid var(--grey); background: var(--grey-bg); }
.box.incomplete li { margin: 4px 0; }
.box.incomplete .ids { font-size: 0.9em; color: var(--muted); overflow-wrap: anywhere; }
.box.failures li { margin: 2px 0; }

.badge { display: inline-block; min-width: 4.6em; padding: 1px 6px; border-radius: 4px; font-size: 0.78rem; font-weight: 700;
  text-align: center; letter-spacing: 0.03em; border: 1px solid; white-space: nowrap; }
.badge.k-pass { color: var(--pass); background: var(--pass-bg); }
.badge.k-fail { color: var(--fail); background: var(--fail-bg); }
.badge.k-expected, .badge.k-flaky { color: var(--warn); background: var(--warn-bg); }
.badge.k-skip, .badge.k-na { color: var(--grey); background: var(--grey-bg); }
.tag { display: inline-block; max-width: 100%; padding: 0 6px; border-radius: 4px; font-size: 0.75rem; border: 1px solid var(--line);
  color: var(--muted); overflow-wrap: anywhere; }
.tag.fuzz { color: var(--esc); border-color: var(--esc); }
.tag.warning, .tag.flaky { color: var(--warn); border-color: var(--warn); }
.lvl { display: inline-block; min-width: 4.8em; font-size: 0.78rem; font-weight: 600; color: var(--muted); }

form.filters { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 6px 18px; align-items: center;
  margin: 16px 0 0; padding: 8px 12px; background: var(--panel); border: 1px solid var(--line); border-radius: 8px; }
form.filters fieldset { border: 0; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center; }
form.filters legend { float: left; font-weight: 600; margin-right: 6px; padding: 0; }
form.filters label { white-space: nowrap; cursor: pointer; }
form.filters button, button.copy { font: inherit; font-size: 0.85rem; padding: 2px 10px; border-radius: 6px; border: 1px solid var(--line);
  background: var(--bg); color: var(--fg); cursor: pointer; }
.shown { color: var(--muted); font-size: 0.9rem; }

nav.areas ul { display: flex; flex-wrap: wrap; gap: 6px; padding: 0; margin: 8px 0; list-style: none; }
nav.areas a { display: inline-block; padding: 2px 10px; border: 1px solid var(--line); border-radius: 14px; text-decoration: none; }
nav.areas .n-fail { color: var(--fail); font-weight: 600; }

section.area h2 .muted { font-size: 0.85rem; font-weight: 400; }
details.clause { border: 1px solid var(--line); border-left-width: 4px; border-radius: 6px; margin: 6px 0; color: var(--fg); background: var(--bg); }
details.clause.k-pass { border-left-color: var(--pass); }
details.clause.k-fail { border-left-color: var(--fail); }
details.clause.k-expected, details.clause.k-flaky { border-left-color: var(--warn); }
details.clause.k-skip, details.clause.k-na { border-left-color: var(--grey); }
details.clause > summary { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; padding: 6px 10px; cursor: pointer; list-style: none; }
details.clause > summary::-webkit-details-marker { display: none; }
details.clause > summary::before { content: "▸"; color: var(--muted); width: 0.8em; }
details.clause[open] > summary::before { content: "▾"; }
details.clause > summary .cid { font-weight: 600; overflow-wrap: anywhere; }
details.clause > summary .title { color: var(--muted); flex: 1 1 18em; }
.clause-body { padding: 4px 14px 12px 28px; border-top: 1px solid var(--line); }
.clause-text { margin: 8px 0 4px; max-width: 75em; }
.source, .judged { margin: 2px 0; color: var(--muted); font-size: 0.9rem; }
.reason { margin: 6px 0; padding: 4px 10px; border-radius: 4px; background: var(--grey-bg); }
.expectation { margin: 6px 0; padding: 4px 10px; border-radius: 4px; background: var(--warn-bg); color: var(--warn); }

.finding { margin: 12px 0; padding: 10px 12px; border: 1px solid var(--line); border-radius: 6px; background: var(--panel); }
.finding > h3 { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: baseline; margin: 0 0 6px; }
.finding dl { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 6px 0; }
.finding dt { color: var(--muted); font-size: 0.9rem; padding-top: 6px; }
.finding dd { margin: 0; min-width: 0; }
.cmd-wrap { display: flex; gap: 8px; align-items: flex-start; }
.cmd-wrap pre { flex: 1 1 auto; min-width: 0; }
ul.evidence { list-style: none; margin: 0; padding: 0; }
ul.evidence li + li { margin-top: 4px; }
details.more > summary { cursor: pointer; color: var(--muted); margin: 8px 0; }

.wire-legend { font-size: 0.82rem; color: var(--muted); margin: 8px 0 2px; }
table.wire { width: 100%; border-collapse: collapse; table-layout: fixed; font-size: 0.84rem; background: var(--bg); }
table.wire th { text-align: left; font-weight: 600; color: var(--muted); border-bottom: 1px solid var(--line); padding: 3px 6px; }
table.wire td { vertical-align: top; padding: 3px 6px; border-bottom: 1px solid var(--line); }
table.wire col.t { width: 6.5em; }
table.wire col.d { width: 7.5em; }
table.wire td.t { text-align: right; font-variant-numeric: tabular-nums; color: var(--muted); white-space: nowrap; }
table.wire td.d { white-space: nowrap; font-weight: 600; }
table.wire td.x { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; white-space: pre-wrap; overflow-wrap: anywhere; unicode-bidi: isolate; }
table.wire .s-stdin td.d { color: #0969da; }
table.wire .s-stdout td.d { color: var(--pass); }
table.wire .s-stderr td.d { color: var(--warn); }
table.wire .s-host td.d, table.wire .s-model td.d, table.wire .s-process td.d { color: var(--muted); }
table.wire tr.hl td { background: var(--hl-bg); }
table.wire tr.hl td.t { box-shadow: inset 4px 0 0 var(--fail); }
.hl-mark { display: inline-block; margin-right: 6px; padding: 0 5px; border-radius: 3px; background: var(--fail); color: #fff;
  font-family: system-ui, sans-serif; font-size: 0.72rem; font-weight: 700; }
.trunc { display: inline-block; margin-left: 6px; padding: 0 5px; border-radius: 3px; border: 1px dashed var(--muted);
  color: var(--muted); font-family: system-ui, sans-serif; font-size: 0.72rem; }
footer { max-width: 1200px; margin: 30px auto; padding: 0 20px; color: var(--muted); font-size: 0.85rem; }

@media (max-width: 640px) {
  body { font-size: 14px; }
  main, header.page, footer { padding: 0 10px; }
  .verdict { font-size: 1.2rem; }
  .meta { grid-template-columns: 1fr; }
  .meta dt { margin-top: 4px; }
  .clause-body { padding: 4px 8px 10px 10px; }
  .finding { padding: 8px 6px; }
  .finding dl { grid-template-columns: 1fr; }
  table.levels th, table.levels td { padding: 3px 6px; }
  table.wire, table.wire tbody { display: block; }
  table.wire colgroup, table.wire thead { display: none; }
  table.wire tr { display: grid; grid-template-columns: auto 1fr; border-bottom: 1px solid var(--line); }
  table.wire td { border: 0; }
  table.wire td.x { grid-column: 1 / -1; padding-top: 0; }
  form.filters { position: static; }
}
@media print {
  form.filters, button.copy, nav.areas { display: none !important; }
  body { font-size: 11pt; }
  details.clause > summary, table.wire tr, .verdict { break-inside: avoid; }
  a { text-decoration: none; }
}
`;

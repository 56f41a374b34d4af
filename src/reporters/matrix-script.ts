import { HTML_STYLE } from "./html-style.js";

/**
 * The matrix page's one script: static, hashed into its Content-Security-Policy like the run
 * report's. It reads the filter controls and the data-* attributes the reporter wrote from
 * fixed vocabularies (levels, "1"/"0", area names escaped as attributes) and writes only through
 * `hidden` and `textContent`. Without it the page shows every row.
 */
export const MATRIX_SCRIPT = `
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("tr.row"));
  var heads = Array.prototype.slice.call(document.querySelectorAll("tr.area-head"));
  var area = document.getElementById("area");
  var split = document.getElementById("disagree");
  var shown = document.getElementById("shown");
  function apply() {
    var levels = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[name='level']"), function (input) { levels[input.value] = input.checked; });
    var wanted = area ? area.value : "";
    var count = 0;
    rows.forEach(function (row) {
      var visible = levels[row.getAttribute("data-level")] !== false &&
        (wanted === "" || row.getAttribute("data-area") === wanted) &&
        (!split || !split.checked || row.getAttribute("data-disagree") === "1");
      row.hidden = !visible;
      if (visible) count += 1;
    });
    heads.forEach(function (head) {
      var name = head.getAttribute("data-area");
      head.hidden = !rows.some(function (row) { return !row.hidden && row.getAttribute("data-area") === name && row.parentNode === head.parentNode; });
    });
    if (shown) shown.textContent = count + " of " + rows.length + " rows shown";
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.hidden = false;
  apply();
})();
`;

/** The run report's stylesheet, and the matrix table's own rules after it (static: no report data). */
export const MATRIX_STYLE = `${HTML_STYLE}
main.matrix, header.page { max-width: none; }
table.matrix { border-collapse: collapse; margin: 8px 0; font-variant-numeric: tabular-nums; }
table.matrix th, table.matrix td { border: 1px solid var(--line); padding: 3px 8px; vertical-align: top; }
table.matrix thead th { position: sticky; top: 0; background: var(--panel); text-align: center; }
table.matrix th.cid { text-align: left; font-weight: 400; max-width: 34em; }
table.matrix th.cid .title { display: block; color: var(--muted); font-size: 0.85rem; }
table.matrix tr.area-head th { text-align: left; background: var(--panel); }
table.matrix tr.disagree th.cid { border-left: 4px solid var(--warn); }
table.matrix td.cell { text-align: center; white-space: nowrap; }
table.matrix td.cell a { text-decoration: none; }
.badge.k-absent, .badge.k-no-report { color: var(--grey); background: var(--bg); border-style: dashed; }
.warn-mark { color: var(--warn); font-size: 0.75rem; display: block; }
table.levels td.n-fail { color: var(--fail); font-weight: 600; }
table.levels td.n-disagree { color: var(--warn); font-weight: 600; }
.failure { color: var(--fail); }
`;

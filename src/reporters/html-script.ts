import { createHash } from "node:crypto";

/**
 * The page's one script: static, hashed into the Content-Security-Policy. It reads only
 * checkbox states and data-* attributes the reporter wrote from fixed vocabularies, and
 * writes only through `hidden`, `open` and `textContent`: never innerHTML, so report text
 * in the DOM can never turn into markup. Without it the page shows everything.
 */
export const HTML_SCRIPT = `
(function () {
  "use strict";
  var form = document.getElementById("filters");
  if (!form) return;
  var rows = Array.prototype.slice.call(document.querySelectorAll("details.clause"));
  var areas = Array.prototype.slice.call(document.querySelectorAll("section.area"));
  var shown = document.getElementById("shown");
  function ticked(name) {
    var set = {};
    Array.prototype.forEach.call(form.querySelectorAll("input[name='" + name + "']"), function (input) {
      set[input.value] = input.checked;
    });
    return set;
  }
  function apply() {
    var kinds = ticked("kind");
    var levels = ticked("level");
    var count = 0;
    rows.forEach(function (row) {
      var visible = kinds[row.getAttribute("data-kind")] !== false && levels[row.getAttribute("data-level")] !== false;
      row.hidden = !visible;
      if (visible) count += 1;
    });
    areas.forEach(function (area) {
      area.hidden = area.querySelector("details.clause:not([hidden])") === null;
    });
    if (shown) shown.textContent = count + " of " + rows.length + " clauses shown";
  }
  form.addEventListener("change", apply);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  form.addEventListener("click", function (event) {
    var button = event.target;
    if (!(button instanceof HTMLButtonElement)) return;
    var action = button.getAttribute("data-action");
    if (action === "all") {
      Array.prototype.forEach.call(form.querySelectorAll("input[type=checkbox]"), function (input) { input.checked = true; });
      apply();
    } else if (action === "expand" || action === "collapse") {
      rows.forEach(function (row) { if (!row.hidden) row.open = action === "expand"; });
    }
  });
  Array.prototype.forEach.call(document.querySelectorAll("pre.cmd"), function (pre) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.addEventListener("click", function () {
      var text = pre.textContent || "";
      var done = function () { button.textContent = "Copied"; };
      var select = function () {
        var range = document.createRange();
        range.selectNodeContents(pre);
        var selection = window.getSelection();
        if (selection) { selection.removeAllRanges(); selection.addRange(range); }
        button.textContent = "Selected";
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, select);
      else select();
    });
    if (pre.parentNode) pre.parentNode.insertBefore(button, pre.nextSibling);
  });
  form.hidden = false;
  apply();
})();
`;

function sha256(text: string): string {
  return `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;
}

/**
 * Nothing may load (no fonts, images, frames, connections, form posts or base URL); the one
 * style element and the one script run because their hashes are listed, an injected one
 * would not. Links still work: navigation is not a fetch. Every page the kit writes (the run
 * report, the matrix) takes its policy from here, with its own style and script.
 */
export function contentSecurityPolicy(style: string, script: string): string {
  return [
    "default-src 'none'",
    `style-src ${sha256(style)}`,
    `script-src ${sha256(script)}`,
    "img-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

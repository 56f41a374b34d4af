#!/usr/bin/env node
// Manual check of the HTML reporter in a real browser (not run in CI):
//   npm run build
//   node scripts/render-html.mjs [--slices] <report.json> <out.png>
// Renders the report with the BUILT reporter (dist/src/reporters/html.js) and writes the page
// next to the PNG (same name, .html). Then Debian's headless Chromium, driven over its DevTools
// pipe (no port, no shell, a fresh profile, no network services), loads the page and writes:
//   <out>.png         full page at 1280 px wide
//   <out>-phone.png   full page at 390 px wide (a phone)
//   <out>.dom.html    the DOM the browser built, to check hostile output stayed text
//   <out>-N.png       with --slices: the desktop page cut into 2400 px high pieces
//   <out>-phone-N.png with --slices: the phone page cut into 1600 px high pieces
// and checks that no dialog opened (alert) and that the only script element is the kit's.
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const CHROMIUM = "/usr/bin/chromium";
const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function fail(message) {
  process.stderr.write(`render-html: ${message}\n`);
  process.exit(1);
}

const args = process.argv.slice(2);
const slices = args[0] === "--slices" ? (args.shift(), true) : false;
const [reportPath, pngArg, ...extra] = args;
if (reportPath === undefined || pngArg === undefined || extra.length > 0 || !pngArg.endsWith(".png")) {
  fail("usage: node scripts/render-html.mjs [--slices] <report.json> <out.png>");
}
const built = join(root, "dist", "src", "reporters", "html.js");
if (!existsSync(built)) fail(`${built} is missing: run "npm run build" first`);
if (!existsSync(CHROMIUM)) fail(`${CHROMIUM} is missing: install it with "apt-get install -y chromium" (Debian's package)`);

const { renderHtml } = await import(pathToFileURL(built).href);
let report;
try {
  report = JSON.parse(readFileSync(reportPath, "utf8"));
} catch (error) {
  fail(`cannot read ${reportPath}: ${error.message}`);
}

const png = resolve(pngArg);
const base = png.replace(/\.png$/, "");
const htmlPath = `${base}.html`;
writeFileSync(htmlPath, renderHtml(report, { color: false }));
const url = pathToFileURL(htmlPath).href;

/** Chromium with --remote-debugging-pipe: commands in on fd 3, replies out on fd 4, NUL-separated JSON. */
function launch(profile) {
  const argv = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    `--user-data-dir=${profile}`,
    "--window-size=1280,2400",
    "--remote-debugging-pipe",
    "about:blank",
  ];
  const child = spawn(CHROMIUM, argv, { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const pending = new Map();
  const listeners = [];
  let nextId = 1;
  let buffer = "";
  child.stdio[4].on("data", (chunk) => {
    buffer += chunk.toString("utf8");
    let end;
    while ((end = buffer.indexOf("\0")) !== -1) {
      const message = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
      if (message.id !== undefined && pending.has(message.id)) {
        const { ok, ko, method } = pending.get(message.id);
        pending.delete(message.id);
        if (message.error) ko(new Error(`${method}: ${message.error.message}`));
        else ok(message.result);
      } else if (message.method !== undefined) {
        for (const listener of listeners) listener(message);
      }
    }
  });
  const exited = new Promise((_, ko) => child.on("exit", (code, signal) => ko(new Error(`chromium exited (${code ?? signal}):\n${stderr}`))));
  exited.catch(() => {});
  const send = (method, params = {}, sessionId) =>
    Promise.race([
      exited,
      new Promise((ok, ko) => {
        const id = nextId++;
        pending.set(id, { ok, ko, method });
        child.stdio[3].write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
      }),
    ]);
  return { child, send, on: (listener) => listeners.push(listener) };
}

const profile = mkdtempSync(join(tmpdir(), "awp-chromium-"));
const browser = launch(profile);
const timer = setTimeout(() => {
  browser.child.kill("SIGKILL");
  fail("chromium took longer than 60 s");
}, 60_000);
const dialogs = [];
const problems = [];
try {
  const { targetId } = await browser.send("Target.createTarget", { url: "about:blank" });
  const { sessionId } = await browser.send("Target.attachToTarget", { targetId, flatten: true });
  const page = (method, params) => browser.send(method, params, sessionId);
  browser.on((event) => {
    if (event.sessionId !== sessionId) return;
    if (event.method === "Page.javascriptDialogOpening") {
      dialogs.push(event.params.message);
      void page("Page.handleJavaScriptDialog", { accept: false });
    }
    if (event.method === "Runtime.exceptionThrown") problems.push(`script error: ${event.params.exceptionDetails.text}`);
  });
  await page("Page.enable");
  await page("Runtime.enable");
  const evaluate = async (expression) => (await page("Runtime.evaluate", { expression, returnByValue: true })).result.value;
  const shoot = async (width, mobile, file) => {
    await page("Emulation.setDeviceMetricsOverride", { width, height: mobile ? 844 : 2400, deviceScaleFactor: 1, mobile });
    const loaded = new Promise((ok) => browser.on((event) => event.sessionId === sessionId && event.method === "Page.loadEventFired" && ok()));
    await page("Page.navigate", { url });
    await loaded;
    const { cssContentSize } = await page("Page.getLayoutMetrics");
    const height = Math.ceil(cssContentSize.height);
    const capture = async (y, h) =>
      Buffer.from((await page("Page.captureScreenshot", { format: "png", captureBeyondViewport: true, clip: { x: 0, y, width, height: h, scale: 1 } })).data, "base64");
    writeFileSync(file, await capture(0, height));
    return { height, capture };
  };
  const desktop = await shoot(1280, false, png);
  const facts = await evaluate(`({
    title: document.title,
    scripts: document.scripts.length,
    images: document.images.length,
    elementsWithHandlers: Array.from(document.querySelectorAll("*")).filter((e) => Array.from(e.attributes).some((a) => /^on/i.test(a.name))).length,
    filtersShown: !document.getElementById("filters").hidden,
    shown: document.getElementById("shown").textContent,
    clauses: document.querySelectorAll("details.clause").length,
    highlighted: document.querySelectorAll("tr.hl").length,
    styled: getComputedStyle(document.querySelector(".verdict")).borderTopStyle === "solid",
    filter: (() => {
      const box = document.querySelector("input[name=kind][value=pass]");
      const rows = Array.from(document.querySelectorAll("details.clause"));
      box.click();
      const visible = rows.filter((row) => !row.hidden).length;
      const expected = rows.filter((row) => row.getAttribute("data-kind") !== "pass").length;
      box.click();
      return { visible, expected, restored: rows.every((row) => !row.hidden) };
    })(),
  })`);
  writeFileSync(`${base}.dom.html`, await evaluate("document.documentElement.outerHTML"));
  if (slices) {
    for (let y = 0, n = 1; y < desktop.height; y += 2400, n++) writeFileSync(`${base}-${n}.png`, await desktop.capture(y, Math.min(2400, desktop.height - y)));
  }
  const phone = await shoot(390, true, `${base}-phone.png`);
  if (slices) {
    for (let y = 0, n = 1; y < phone.height; y += 1600, n++) writeFileSync(`${base}-phone-${n}.png`, await phone.capture(y, Math.min(1600, phone.height - y)));
  }
  const checks = [
    [`no dialog opened${dialogs.length > 0 ? ` (got ${JSON.stringify(dialogs)})` : ""}`, dialogs.length === 0],
    [`no script error${problems.length > 0 ? ` (${problems.join("; ")})` : ""}`, problems.length === 0],
    [`one script element (${facts.scripts})`, facts.scripts === 1],
    [`no image element (${facts.images})`, facts.images === 0],
    [`no element with an on* handler attribute (${facts.elementsWithHandlers})`, facts.elementsWithHandlers === 0],
    ["the stylesheet applied (its CSP hash matched)", facts.styled],
    [`the script ran (its CSP hash matched): filters shown, "${facts.shown}"`, facts.filtersShown],
    [`unticking "pass" hides the passing clauses (${facts.filter.visible} shown, ${facts.filter.expected} expected)`, facts.filter.visible === facts.filter.expected && facts.filter.restored],
  ];
  for (const [label, ok] of checks) process.stdout.write(`${ok ? "ok  " : "FAIL"} ${label}\n`);
  process.stdout.write(`title: ${facts.title}\nclauses: ${facts.clauses}, highlighted wire entries: ${facts.highlighted}\n`);
  process.stdout.write(`page:  ${htmlPath}\ndom:   ${base}.dom.html\npng:   ${png} (1280 x ${desktop.height})\nphone: ${base}-phone.png (390 x ${phone.height})\n`);
  if (checks.some(([, ok]) => !ok)) process.exitCode = 1;
} catch (error) {
  process.stderr.write(`render-html: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  clearTimeout(timer);
  browser.child.kill("SIGTERM");
  await new Promise((ok) => (browser.child.exitCode !== null || browser.child.signalCode !== null ? ok() : browser.child.once("exit", ok)));
  rmSync(profile, { recursive: true, force: true });
}

// The front door's figures in Chromium, for `cargo bench --bench front`:
//
//   node bench.mjs --chromium PATH --dist DIR [--server URL] [--static] [--rounds N] -- QUERY...
//
// For each way in (file://; with --server, that server; with --static, a
// plain static file server over DIR, as a CDN serves the site) and each
// round: a
// fresh page (nothing cached) is opened and timed to its load event and to
// the moment the search box can answer (the manifest loaded); then each
// QUERY is typed on a fresh page as a reader would, and the time from the
// input event to the results list showing its answer is taken, once cold
// (the first query of the page) and once again warm. Also the bytes the
// page fetched for a cold query, and the page's own HTML, CSS and script
// gzipped. Prints one JSON report with medians.
import { chromium } from "playwright-core";
import { typeQuery } from "./typing.mjs";
import { pathToFileURL } from "node:url";
import { readFileSync, createReadStream, statSync } from "node:fs";
import { createServer } from "node:http";
import { gzipSync } from "node:zlib";
import { join } from "node:path";

const args = process.argv.slice(2);
const option = (name) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const dist = option("--dist");
const rounds = Number(option("--rounds") ?? 5);
const queries = args.slice(args.indexOf("--") + 1);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};
const browser = await chromium.launch({
  executablePath: option("--chromium") ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});

const type = typeQuery;

// A fresh browser context: no cache, no loaded scripts.
async function freshPage(url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  let bytes = 0;
  page.on("response", async (response) => {
    try { bytes += (await response.body()).length; } catch { /* a redirect has no body */ }
  });
  const started = Date.now();
  await page.goto(url, { waitUntil: "load" });
  const load = await page.evaluate(() => performance.getEntriesByType("navigation")[0].loadEventEnd);
  return { context, page, load, opened: Date.now() - started, bytes: () => bytes };
}

const report = { pageBytesGzipped: 0, ways: {} };
for (const name of ["index.html", "ui/site.css", "ui/site.js"]) {
  report.pageBytesGzipped += gzipSync(readFileSync(join(dist, name)), { level: 9 }).length;
}
const ways = [["file", pathToFileURL(join(dist, "index.html")).href]];
if (option("--server")) ways.push(["http", new URL("index.html", option("--server")).href]);
let host = null;
if (args.includes("--static")) {
  const types = { html: "text/html; charset=utf-8", js: "text/javascript; charset=utf-8", json: "application/json", css: "text/css" };
  host = createServer((request, response) => {
    const path = join(dist, decodeURIComponent(new URL(request.url, "http://x").pathname));
    if (!path.startsWith(dist) || !statSync(path, { throwIfNoEntry: false })?.isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "Content-Type": types[path.split(".").pop()] ?? "application/octet-stream" });
    createReadStream(path).pipe(response);
  });
  await new Promise((resolve) => host.listen(0, "127.0.0.1", resolve));
  ways.push(["static http", `http://127.0.0.1:${host.address().port}/index.html`]);
}
try {
  for (const [way, url] of ways) {
    const loads = [];
    const perQuery = Object.fromEntries(queries.map((q) => [q, { cold: [], warm: [], total: null, bytes: [] }]));
    for (let round = 0; round < rounds; round++) {
      for (const query of queries) {
        const fresh = await freshPage(url);
        loads.push(fresh.load);
        const before = fresh.bytes();
        const cold = await type(fresh.page, query);
        await type(fresh.page, "");
        const warm = await type(fresh.page, query);
        const entry = perQuery[query];
        entry.cold.push(cold.ms);
        entry.warm.push(warm.ms);
        entry.total = cold.total;
        entry.bytes.push(fresh.bytes() - before);
        await fresh.context.close();
      }
    }
    report.ways[way] = {
      loadMs: median(loads),
      queries: Object.fromEntries(Object.entries(perQuery).map(([q, e]) => [q, {
        total: e.total,
        coldMs: median(e.cold),
        warmMs: median(e.warm),
        bytesAfterLoad: median(e.bytes),
      }])),
    };
  }
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
  host?.close();
}

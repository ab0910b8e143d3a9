// What a real browser lets a page from another origin read from an API.
//
//   node cors.mjs [--chromium PATH] API_URL PATH...
//
// Serves a page from a second origin (its own server on another loopback
// port), opens it in headless Chromium (Debian's, driven by
// playwright-core), and has the page fetch each PATH from API_URL: once
// plainly, once with a header that makes the browser send a preflight.
// A control fetch goes to a third origin that sends no CORS headers, which
// the browser must block, so that a pass means the browser checked.
// Prints [{ path, plain, preflighted }] and the control as JSON; each result
// is { status, bytes } when the page could read the body, or { blocked }.
import { createServer } from "node:http";
import { chromium } from "playwright-core";

const args = process.argv.slice(2);
const chromiumPath = args[0] === "--chromium" ? args.splice(0, 2)[1] : "/usr/bin/chromium";
const [api, ...paths] = args;

const listen = (handler) =>
  new Promise((resolve) => {
    const server = createServer(handler).listen(0, "127.0.0.1", () => resolve(server));
  });
const origin = (server) => `http://127.0.0.1:${server.address().port}`;

const noCors = await listen((_, res) => {
  res.writeHead(200, { "Content-Type": "application/json" });
  res.end('{"readable": false}');
});
const page = await listen((_, res) => {
  res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
  res.end("<!doctype html><title>another origin</title><p>fetching</p>");
});

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});
try {
  const tab = await browser.newPage();
  await tab.goto(`${origin(page)}/`);
  const report = await tab.evaluate(
    async ({ api, paths, control }) => {
      const read = async (url, init) => {
        try {
          const response = await fetch(url, init);
          const bytes = (await response.arrayBuffer()).byteLength;
          return { status: response.status, bytes, contentType: response.headers.get("content-type"), etag: response.headers.get("etag") };
        } catch (error) {
          return { blocked: String(error) };
        }
      };
      const results = [];
      for (const path of paths) {
        const url = new URL(path.replace(/^\//, ""), api).href;
        results.push({
          path,
          plain: await read(url),
          preflighted: await read(url, { headers: { "X-Requested-With": "ontosite-test" } }),
        });
      }
      return { origin: location.origin, results, control: await read(control) };
    },
    { api, paths, control: `${origin(noCors)}/data.json` },
  );
  console.log(JSON.stringify(report));
} finally {
  await browser.close();
  page.close();
  noCors.close();
}

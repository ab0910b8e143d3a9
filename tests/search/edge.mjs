// Calls the site's generated /search handlers, the Netlify Edge Function
// and the Cloudflare Pages worker, with real `Request` objects for every
// query of a golden file, and reports every difference in status, body or
// headers from the Rust reference's answers:
//
//   node edge.mjs DIST GOLDEN.json
//
// The handlers read the index from the site: Netlify's through `fetch`
// (pointed here at DIST), Cloudflare's through its ASSETS binding (an
// object serving DIST, as Pages' binding does).
// Prints { "netlify": {checked, differences, first}, "cloudflare": {...} }.
import { readFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [dist, goldenPath] = process.argv.slice(2);
const SITE = "https://site.example";

// A static file from DIST as a Response, for a URL on SITE.
const serve = async (input) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  if (url.origin !== SITE) throw new Error(`the handler fetched ${url}, outside the site`);
  try {
    const body = await readFile(join(dist, decodeURIComponent(url.pathname)));
    return new Response(body, { status: 200, headers: { "Content-Type": "application/json" } });
  } catch {
    return new Response("not found", { status: 404 });
  }
};
globalThis.fetch = serve;

const netlify = (await import(pathToFileURL(join(dist, "_edge/netlify/search.js")).href)).default;
const worker = (await import(pathToFileURL(join(dist, "_worker.js")).href)).default;
const handlers = {
  netlify: (request) => netlify(request, {}),
  cloudflare: (request) => worker.fetch(request, { ASSETS: { fetch: serve } }),
};

const EVERY = {
  "access-control-allow-origin": "*",
  "cache-control": "public, max-age=3600",
  "x-content-type-options": "nosniff",
};

const golden = JSON.parse(await readFile(goldenPath, "utf8"));
const report = {};
for (const [host, handle] of Object.entries(handlers)) {
  const first = [];
  let differences = 0;
  for (const { params, status, body } of golden) {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(params)) if (value !== null) query.set(name, value);
    const response = await handle(new Request(`${SITE}/search?${query}`));
    const got = { status: response.status, body: await response.json(), headers: Object.fromEntries(response.headers) };
    const contentType = status === 200 ? "application/json" : "application/problem+json";
    const headersOk =
      Object.entries(EVERY).every(([name, value]) => got.headers[name] === value) &&
      got.headers["content-type"] === contentType;
    if (got.status !== status || !isDeepStrictEqual(got.body, body) || !headersOk) {
      differences += 1;
      if (first.length < 5) first.push({ params, expected: { status, body }, got });
    }
  }
  // Beyond queries: HEAD, a CORS preflight, and a method that is refused.
  const head = await handle(new Request(`${SITE}/search?q=a`, { method: "HEAD" }));
  const preflight = await handle(
    new Request(`${SITE}/search?q=a`, {
      method: "OPTIONS",
      headers: { Origin: "https://other.example", "Access-Control-Request-Method": "GET" },
    }),
  );
  const post = await handle(new Request(`${SITE}/search?q=a`, { method: "POST", body: "x" }));
  report[host] = {
    checked: golden.length,
    differences,
    first,
    head: { status: head.status, body: await head.text(), cors: head.headers.get("access-control-allow-origin") },
    preflight: {
      status: preflight.status,
      cors: preflight.headers.get("access-control-allow-origin"),
      methods: preflight.headers.get("access-control-allow-methods"),
    },
    post: { status: post.status, allow: post.headers.get("allow"), type: post.headers.get("content-type") },
  };
}
console.log(JSON.stringify(report));

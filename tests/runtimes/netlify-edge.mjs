// Runs a Netlify Edge Function module in real Deno, as Netlify's edge
// does: a path its `config.pattern` (a regex, as Netlify reads it) or
// `config.path` (a URLPattern) matches goes to the function, with a real
// Request and a `context.next()` that asks ORIGIN; every other path goes
// to ORIGIN, standing in for Netlify's static file server. Prints
// "listening on URL" once ready.
//
//   deno run --allow-net=127.0.0.1 --allow-read=MODULE MODULE_DIR/netlify-edge.mjs MODULE ORIGIN
const [modulePath, origin] = Deno.args;
const module = await import(new URL(modulePath, `file://${Deno.cwd()}/`).href);
const handler = module.default;
const { path, pattern } = module.config ?? {};
if (typeof handler !== "function" || (typeof path !== "string" && typeof pattern !== "string")) {
  throw new Error(`${modulePath} is not a Netlify Edge Function: no default function, or no config.path or config.pattern`);
}
const runs = (pathname) => (pattern !== undefined ? new RegExp(pattern).test(pathname) : new URLPattern({ pathname: path }).test({ pathname }));

// Asked for no coding, so the body passes through as the origin sent it.
function identity(request) {
  const headers = new Headers(request.headers);
  headers.set("Accept-Encoding", "identity");
  return headers;
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`) }, async (request) => {
  const url = new URL(request.url);
  if (runs(url.pathname)) {
    // Netlify's context object: `next()` gives what the site would answer
    // without the function (the request's own headers, no redirects
    // followed), as Netlify's does.
    const next = () => fetch(new URL(url.pathname + url.search, origin), { method: request.method, headers: identity(request), redirect: "manual" });
    return handler(request, { geo: {}, ip: "127.0.0.1", site: {}, next });
  }
  const forwarded = await fetch(new URL(url.pathname + url.search, origin), { method: request.method, headers: identity(request), redirect: "manual" });
  return new Response(forwarded.body, forwarded);
});
await server.finished;

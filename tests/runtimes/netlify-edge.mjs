// Runs a Netlify Edge Function module in real Deno, as Netlify's edge
// does: `/search` (the function's `config.path`) goes to the function,
// with a real Request; every other path goes to ORIGIN, standing in for
// Netlify's static file server. Prints "listening on URL" once ready.
//
//   deno run --allow-net=127.0.0.1 --allow-read=MODULE MODULE_DIR/netlify-edge.mjs MODULE ORIGIN
const [modulePath, origin] = Deno.args;
const module = await import(new URL(modulePath, `file://${Deno.cwd()}/`).href);
const handler = module.default;
const path = module.config?.path;
if (typeof handler !== "function" || typeof path !== "string") {
  throw new Error(`${modulePath} is not a Netlify Edge Function: no default function or config.path`);
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`) }, async (request) => {
  const url = new URL(request.url);
  if (url.pathname === path) {
    // Netlify's context object; the handler uses none of it.
    return handler(request, { geo: {}, ip: "127.0.0.1", site: {}, next: () => fetch(new URL(url.pathname + url.search, origin)) });
  }
  // Asked for no coding, so the body passes through as the origin sent it.
  const headers = new Headers(request.headers);
  headers.set("Accept-Encoding", "identity");
  const forwarded = await fetch(new URL(url.pathname + url.search, origin), { method: request.method, headers, redirect: "manual" });
  return new Response(forwarded.body, forwarded);
});
await server.finished;

// Runs a CloudFront Function (viewer request) in real Deno as CloudFront
// calls one: the file evaluated as a classic script (CloudFront takes no
// modules), `handler(event)` called with the event CloudFront builds from
// each request (lowercase header names, `{ value }` each), its answer sent
// where it returns one, else the request, as it may have rewritten it,
// sent on to an S3 origin. The origin stands for a bucket: the object at
// the path exactly (a file of SITE, its bytes and headers as ORIGIN, which
// is `ontosite serve --static` over SITE, answers it), no index documents,
// no rules; a missing object gets the distribution's 404 custom error
// response, `/404.json`. Prints "listening on URL" once ready.
//
//   deno run --allow-net=127.0.0.1 --allow-read=SITE cloudfront-function.mjs FUNCTION SITE ORIGIN
const [functionPath, site, origin] = Deno.args;
const source = await Deno.readTextFile(functionPath);
// In strict mode, as CloudFront runs every function.
const handler = new Function(`"use strict";\n${source}\nreturn handler;`)();

/** Whether the bucket holds an object at `path`: a regular file of the site. */
async function held(path) {
  try {
    const decoded = decodeURIComponent(path);
    if (decoded.split("/").some((s) => s === "..")) return false;
    return (await Deno.lstat(`${site}${decoded}`)).isFile;
  } catch {
    return false;
  }
}

async function fromBucket(request, path, status) {
  const headers = new Headers(request.headers);
  headers.set("Accept-Encoding", "identity");
  // The file's own bytes and type, never a rule's answer for the path.
  headers.delete("Accept");
  const answer = await fetch(new URL(path, origin), { method: request.method, headers, redirect: "manual" });
  return new Response(answer.body, { status: status ?? answer.status, headers: answer.headers });
}

const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: ({ port }) => console.log(`listening on http://127.0.0.1:${port}/`) }, async (request) => {
  const url = new URL(request.url);
  const headers = {};
  for (const [name, value] of request.headers) headers[name.toLowerCase()] = { value };
  const event = {
    version: "1.0",
    context: { eventType: "viewer-request" },
    viewer: { ip: "127.0.0.1" },
    request: { method: request.method, uri: url.pathname, querystring: {}, headers, cookies: {} },
  };
  const result = handler(event);
  if (result.statusCode !== undefined) {
    const answered = new Headers();
    for (const [name, header] of Object.entries(result.headers ?? {})) answered.set(name, header.value);
    return new Response(null, { status: result.statusCode, headers: answered });
  }
  if (await held(result.uri)) return fromBucket(request, result.uri);
  return fromBucket(request, "/404.json", 404);
});
await server.finished;

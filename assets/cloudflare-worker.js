// Cloudflare Pages advanced-mode worker for /search. ontosite's build
// writes it into the site as one self-contained module (search.js, then
// this handler); workerd takes every named export of a worker as an
// entrypoint, so the module exports nothing but its default handler.
// `_routes.json` sends /search here, and the files the build writes for
// the hosts (which the site must not publish), answered 404; every other
// path is a static file. The index is read through the ASSETS binding, so
// it never leaves Cloudflare.
import { RESPONSE_HEADERS, openIndex, respond } from "./search.js";

let index = null;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/search") {
      const problem = await env.ASSETS.fetch(new URL("/404.json", url));
      return new Response(problem.body, {
        status: 404,
        headers: { ...RESPONSE_HEADERS, "Content-Type": "application/problem+json" },
      });
    }
    index ??= openIndex(new URL("/search-index.json", url), { fetch: (target) => env.ASSETS.fetch(target) }).catch(
      (error) => {
        index = null;
        throw error;
      },
    );
    return respond(request, await index);
  },
};

// Cloudflare Pages advanced-mode worker for /search and for the IRIs the
// site mints (content negotiation). ontosite's build writes it into the
// site as one self-contained module (search.js, negotiate.js, the
// generated negotiation table, then this handler); workerd takes every
// named export of a worker as an entrypoint, so the module exports
// nothing but its default handler. `_routes.json` sends extensionless
// paths here, and the files the build writes for the hosts (which the
// site must not publish, answered 404); every other path is a static
// file, but where the site bundles its entities' documents, whose paths
// come here too. Files are read through the ASSETS binding, so they never
// leave Cloudflare.
import { RESPONSE_HEADERS, openIndex, respond } from "./search.js";
import { answerAt, isUnpublished } from "./negotiate.js";
import { NEGOTIATION } from "./negotiation.js";

let index = null;

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (isUnpublished(url.pathname, NEGOTIATION)) {
      const problem = await env.ASSETS.fetch(new URL("/404.json", url));
      return new Response(problem.body, {
        status: 404,
        headers: { ...RESPONSE_HEADERS, "Content-Type": "application/problem+json" },
      });
    }
    if (url.pathname !== "/search") {
      const asset = (path) => env.ASSETS.fetch(new URL(path, url));
      return answerAt(request, NEGOTIATION, RESPONSE_HEADERS, asset, () => env.ASSETS.fetch(request));
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

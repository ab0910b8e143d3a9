// Netlify Edge Function for /search and for the IRIs the site mints
// (content negotiation). ontosite's build writes it into the site as one
// self-contained module (search.js, negotiate.js, the generated
// negotiation table, then this handler), so Netlify's bundler has nothing
// to resolve; as committed, it imports them beside it and runs in Deno.
// Only paths without a `.` reach it (`config.pattern`); every file is
// served as it is, with no code on the way.
import { RESPONSE_HEADERS, openIndex, respond } from "./search.js";
import { answerAt } from "./negotiate.js";
import { NEGOTIATION } from "./negotiation.js";

// The index, opened once per isolate from the site itself.
let index = null;

export default async (request, context) => {
  const url = new URL(request.url);
  if (url.pathname !== "/search") {
    const asset = (path) => fetch(new URL(path, url));
    return answerAt(request, NEGOTIATION, RESPONSE_HEADERS, asset, () => context.next());
  }
  index ??= openIndex(new URL("/search-index.json", request.url)).catch((error) => {
    index = null;
    throw error;
  });
  return respond(request, await index);
};

// `/`, `/search`, `/vocab`, `/.well-known/void` and every path without a
// `.` an entity's IRI can have: its slug, or its own IRI in the site's
// namespace (`/Person`, `/sub/Thing`: the table's `aliases`). Where the
// site bundles its entities' documents, the build adds their paths.
export const config = { pattern: "^/(?:[^.]*|\\.well-known/void)$", cache: "manual" };

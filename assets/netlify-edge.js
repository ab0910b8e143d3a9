// Netlify Edge Function for /search. ontosite's build writes it into the
// site as one self-contained module (search.js, then this handler), so
// Netlify's bundler has nothing to resolve; as committed, it imports the
// client beside it and runs as it is in Deno.
import { openIndex, respond } from "./search.js";

// The index, opened once per isolate from the site itself.
let index = null;

export default async (request) => {
  index ??= openIndex(new URL("/search-index.json", request.url)).catch((error) => {
    index = null;
    throw error;
  });
  return respond(request, await index);
};

export const config = { path: "/search", cache: "manual" };

// Dereferences IRIs over HTTP with jsonld.js's own document loader, as a
// linked-data client does: no loader of ours, jsonld.js's default Accept
// header (`application/ld+json, application/json`), its handling of 303s.
//
//   node dereference.mjs PUBLISHED_BASE LOCAL_BASE URL...
//
// The site names its context at its published base URL; the loader is
// jsonld.js's own, with a URL under PUBLISHED_BASE fetched from LOCAL_BASE
// instead (the site under test). Prints JSON: for each URL, the N-Quads
// jsonld.js makes of what it got, sorted, or the error.
import jsonld from "jsonld";

const [published, local, ...urls] = process.argv.slice(2);
const own = jsonld.documentLoaders.node();
const documentLoader = (url) =>
  own(url.startsWith(published) ? local + url.slice(published.length) : url);
const report = {};
for (const url of urls) {
  try {
    const nquads = await jsonld.toRDF(url, { format: "application/n-quads", safe: true, documentLoader });
    report[url] = { quads: nquads.split("\n").filter(Boolean).sort() };
  } catch (error) {
    report[url] = { error: String(error && (error.details?.cause?.message ?? error.message ?? error)) };
  }
}
console.log(JSON.stringify(report));

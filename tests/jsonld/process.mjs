// Processes every JSON-LD document of a built site with jsonld.js, offline.
//
//   node process.mjs DIST [SLUG...]
//
// The document loader knows one document, the site's own context at its
// absolute URL; any other fetch is refused and reported. Every `.jsonld`
// file is expanded in safe mode (a key the context does not define is an
// error, not a dropped value), converted to N-Quads, and compacted back
// with the site's context, which must give the document again. Prints
// JSON: counts, the predicates seen, IRIs that are not absolute, refused
// fetches, failures, the N-Quads of each SLUG, and the entity IRIs that
// index.jsonld lists; and `plain`: each SLUG's plain .json read with the
// context its Link header names.
import jsonld from "jsonld";
import { readFile, readdir, writeFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";

const [dist, ...samples] = process.argv.slice(2);
const info = JSON.parse(await readFile(join(dist, "api.json"), "utf8"));
const contextUrl = new URL("context.jsonld", info.baseUrl).href;
const context = JSON.parse(await readFile(join(dist, "context.jsonld"), "utf8"));
// The context that the Link header of every plain .json names.
const jsonContextUrl = new URL("json-context.jsonld", info.baseUrl).href;
const jsonContext = JSON.parse(await readFile(join(dist, "json-context.jsonld"), "utf8").catch(() => "null"));
const refused = [];
const documentLoader = async (url) => {
  if (url === contextUrl) return { contextUrl: null, documentUrl: url, document: context };
  if (url === jsonContextUrl && jsonContext) return { contextUrl: null, documentUrl: url, document: jsonContext };
  refused.push(url);
  throw new Error(`offline: refusing to fetch ${url}`);
};
const options = { documentLoader, safe: true };

// With QUADS_OUT set, every entity's N-Quads go there as JSON (slug -> N-Quads).
// (index.jsonld is there too, as "index": it has Turtle and N-Triples too.)
const SITE_WIDE = ["vocab.jsonld", "void.jsonld", "api.json#dataset"];
const entityQuads = {};
const predicates = new Set();
const relative = new Set();
const failures = [];
const quadsOf = {};
let documents = 0;
let triples = 0;
let roundTrips = 0;
let indexIds = [];
const absolute = (iri) => /^[a-z][a-z0-9+.-]*:/i.test(iri) && !iri.startsWith("_:");

// Every data document: the context documents themselves are not data.
const contexts = ["context.jsonld", "json-context.jsonld"];
const names = (await readdir(dist)).filter((n) => n.endsWith(".jsonld") && !contexts.includes(n)).sort();
// The information document carries the data set's description as JSON-LD.
if (info.dataset) names.push("api.json#dataset");
for (const name of names) {
  try {
    const doc = name === "api.json#dataset" ? info.dataset : JSON.parse(await readFile(join(dist, name), "utf8"));
    const expanded = await jsonld.expand(doc, options);
    const dataset = await jsonld.toRDF(expanded, { ...options, format: "application/n-quads" });
    const quads = dataset.split("\n").filter(Boolean);
    for (const quad of await jsonld.toRDF(expanded, options)) {
      predicates.add(quad.predicate.value);
      for (const term of [quad.subject, quad.predicate, quad.object]) {
        if (term.termType === "NamedNode" && !absolute(term.value)) relative.add(`${name}: ${term.value}`);
      }
    }
    triples += quads.length;
    documents += 1;
    // A document that names the site's context compacts back to itself
    // with it; the site-wide descriptions (vocab, void) are written by an
    // RDF library in expanded form, with their prefixes as context.
    if (doc["@context"] === contextUrl) {
      const compacted = await jsonld.compact(expanded, contextUrl, options);
      if (isDeepStrictEqual(compacted, doc)) roundTrips += 1;
      else if (failures.length < 10) failures.push({ name, roundTrip: { original: doc, compacted } });
    }
    const slug = name === "api.json#dataset" ? "dataset" : name.replace(/\.jsonld$/, "");
    if (samples.includes(slug)) quadsOf[slug] = quads.sort();
    if (!SITE_WIDE.includes(name)) entityQuads[slug] = dataset;
    if (name === "index.jsonld") {
      indexIds = doc.itemListElement.map((element) => element.item["@id"]);
    }
  } catch (error) {
    if (failures.length < 10) failures.push({ name, error: String(error) });
  }
}

// Each sample's plain JSON, read as a processor reads it when the response
// names a context in its Link header.
const plain = {};
for (const slug of samples.filter((s) => s !== "dataset")) {
  try {
    const doc = JSON.parse(await readFile(join(dist, `${slug}.json`), "utf8"));
    const nquads = await jsonld.toRDF(doc, { ...options, expandContext: jsonContextUrl, format: "application/n-quads" });
    plain[slug] = nquads.split("\n").filter(Boolean).sort();
  } catch (error) {
    failures.push({ name: `${slug}.json`, error: String(error) });
  }
}

if (process.env.QUADS_OUT) await writeFile(process.env.QUADS_OUT, JSON.stringify(entityQuads));
console.log(
  JSON.stringify({
    plain,
    documents,
    triples,
    roundTrips,
    predicates: [...predicates].sort(),
    relative: [...relative].slice(0, 20),
    refused: [...new Set(refused)],
    failures,
    quads: quadsOf,
    indexIds,
  }),
);

// Reads the pages of index.jsonld with jsonld.js, offline, in safe mode
// (a key the context does not define is an error).
//
//   node pages.mjs DIST
//
// Prints JSON: `whole`, the N-Quads of index.jsonld; `pages`, the N-Quads
// of each page in the order its views link them, following hydra:next
// from the first page that api.json names.
import jsonld from "jsonld";
import { readFile } from "node:fs/promises";
import { join } from "node:path";

const [dist] = process.argv.slice(2);
const info = JSON.parse(await readFile(join(dist, "api.json"), "utf8"));
const contextUrl = new URL("context.jsonld", info.baseUrl).href;
const context = JSON.parse(await readFile(join(dist, "context.jsonld"), "utf8"));
const documentLoader = async (url) => {
  if (url === contextUrl) return { contextUrl: null, documentUrl: url, document: context };
  throw new Error(`offline: refusing to fetch ${url}`);
};
const options = { documentLoader, safe: true, format: "application/n-quads" };
const quads = async (file) =>
  (await jsonld.toRDF(JSON.parse(await readFile(join(dist, file), "utf8")), options)).split("\n").filter(Boolean);
const local = (url) => url.slice(info.baseUrl.length).replace(/^\//, "");

const whole = await quads("index.jsonld");
const pages = [];
const next = "<http://www.w3.org/ns/hydra/core#next>";
let url = info.pages.lists.find((l) => l.complete.endsWith("/index.jsonld")).first;
while (url && pages.length < 100000) {
  const page = await quads(local(url));
  pages.push(page);
  const link = page.find((q) => q.includes(` ${next} `));
  url = link ? link.split(" ")[2].slice(1, -1) : null;
}
console.log(JSON.stringify({ whole, pages }));

// Answers every query of a golden file with the search reader compiled to
// WebAssembly (assets/search-wasm.js over wasm/), fetching a built site's
// index files as it asks for them, and reports every difference from the
// answers the Rust reference gave:
//
//   node wasm.mjs READER.wasm GLUE.js DIST GOLDEN.json
//
// Prints { "checked": N, "differences": D, "fetches": F, "first": [...] }.
import { readFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [wasmPath, gluePath, dist, goldenPath] = process.argv.slice(2);
const { WasmReader } = await import(pathToFileURL(gluePath).href);
let fetches = 0;
const fetchFile = async (name) => {
  fetches += 1;
  try {
    return new Uint8Array(await readFile(join(dist, name)));
  } catch {
    return null;
  }
};
const reader = await WasmReader.open(
  await readFile(wasmPath),
  new Uint8Array(await readFile(join(dist, "search-index.json"))),
  fetchFile,
);

const golden = JSON.parse(await readFile(goldenPath, "utf8"));
const decoder = new TextDecoder();
const first = [];
let differences = 0;
for (const { params, status, body } of golden) {
  const query = new URLSearchParams(
    Object.entries(params).filter(([, value]) => value !== null && value !== undefined),
  ).toString();
  const got = await reader.search(query);
  const gotBody = JSON.parse(decoder.decode(got.body));
  if (got.status !== status || !isDeepStrictEqual(gotBody, body)) {
    differences += 1;
    if (first.length < 10) first.push({ params, expected: { status, body }, got: { status: got.status, body: gotBody } });
  }
}
console.log(JSON.stringify({ checked: golden.length, differences, fetches, first }));

// Answers every query of a golden file with a built site's own search.js
// over its own index files, and reports every difference from the answers
// the Rust reference gave:
//
//   node parity.mjs DIST GOLDEN.json
//
// GOLDEN.json: [{ "params": {q, limit, offset}, "status": 200 | 400, "body": ... }]
// Every query is answered twice: by a client that fetches the index files,
// and by one given the whole index in memory (`{ manifest, files }`).
// Prints { "checked": N, "differences": D, "first": [...] } as JSON.
import { readFile, readdir } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [dist, goldenPath] = process.argv.slice(2);
const { openIndex, fileContent } = await import(pathToFileURL(join(dist, "search.js")).href);
const readText = async (url) => readFile(fileURLToPath(url), "utf8");
const fetched = await openIndex(pathToFileURL(join(dist, "search-index.json")), { fetch: readText });
const files = {};
for (const name of await readdir(join(dist, "search"))) {
  const path = `search/${name}`;
  files[path] = fileContent(path, await readFile(join(dist, "search", name), "utf8"));
}
const manifest = JSON.parse(await readFile(join(dist, "search-index.json"), "utf8"));
const inMemory = await openIndex({ manifest, files });

const answer = async (index, params) => {
  try {
    return { status: 200, body: await index.search(params) };
  } catch (error) {
    if (error.name !== "SearchError") throw error;
    return { status: error.status, body: error.problem };
  }
};

const golden = JSON.parse(await readFile(goldenPath, "utf8"));
const first = [];
let differences = 0;
for (const { params, status, body } of golden) {
  for (const [client, index] of [["fetched", fetched], ["in memory", inMemory]]) {
    const got = await answer(index, params);
    if (got.status !== status || !isDeepStrictEqual(got.body, body)) {
      differences += 1;
      if (first.length < 10) first.push({ client, params, expected: { status, body }, got });
    }
  }
}
console.log(JSON.stringify({ checked: golden.length, differences, first }));

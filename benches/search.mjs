// Measures a built site's search index from a client's side:
//
//   node search.mjs DIST QUERIES.json
//
// For each query, with a fresh client (nothing cached but the manifest):
// the bytes fetched (raw and gzipped, as a CDN would send them) and the
// number of sequential request rounds after the manifest. Then, with every
// file cached, the latency of `search` alone (p50, p95). Prints JSON.
import { readFile, readdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { freshClients, gzipSize as gz } from "../tests/search/fresh.mjs";

const [dist, queriesPath] = process.argv.slice(2);
const queries = JSON.parse(await readFile(queriesPath, "utf8"));
const clients = await freshClients(dist);
const { read, manifestUrl, openIndex } = clients;

// Sizes of the whole index.
const names = (await readdir(join(dist, "search"))).map((n) => join(dist, "search", n));
let raw = 0;
let zipped = 0;
for (const path of [fileURLToPath(manifestUrl), ...names]) {
  const bytes = await readFile(path);
  raw += bytes.length;
  zipped += gz(bytes);
}
const manifest = await readFile(fileURLToPath(manifestUrl));

// Bytes and rounds per query, each with a fresh client.
const perQuery = [];
for (const q of queries) perQuery.push(await clients.answer(q));

// Latency with every file in memory.
const warm = await openIndex(manifestUrl, { fetch: async (url) => JSON.parse(await read(url)) });
for (const q of queries) await warm.search({ q });
const times = [];
for (let pass = 0; pass < 5; pass++) {
  for (const q of queries) {
    const start = performance.now();
    await warm.search({ q });
    times.push(performance.now() - start);
  }
}
times.sort((a, b) => a - b);
const pick = (list, p) => list[Math.min(list.length - 1, Math.floor(p * list.length))];
const byGz = [...perQuery].sort((a, b) => a.bytesGz - b.bytesGz);
console.log(
  JSON.stringify({
    index: { raw, gzip: zipped, files: names.length + 1 },
    manifest: { raw: manifest.length, gzip: gz(manifest) },
    perQuery: {
      medianGzip: pick(byGz, 0.5).bytesGz,
      p95Gzip: pick(byGz, 0.95).bytesGz,
      max: byGz[byGz.length - 1],
      maxRounds: Math.max(...perQuery.map((p) => p.rounds)),
      maxRoundsToFirst: Math.max(...perQuery.map((p) => p.roundsToFirst)),
      // How many queries took how many rounds after the manifest.
      rounds: perQuery.reduce((count, p) => ({ ...count, [p.rounds]: (count[p.rounds] ?? 0) + 1 }), {}),
      // How many took how many rounds to their first results, which a
      // page shows before the rest when they come first.
      roundsToFirst: perQuery.reduce((count, p) => ({ ...count, [p.roundsToFirst]: (count[p.roundsToFirst] ?? 0) + 1 }), {}),
    },
    latencyMs: { p50: pick(times, 0.5), p95: pick(times, 0.95) },
  }),
);

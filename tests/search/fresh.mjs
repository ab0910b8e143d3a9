// What a fresh client fetches to answer one query: a new `search.js` index
// that has only the manifest, over a built site's files, counting the
// bytes (raw and gzipped, as a CDN would send them) and the sequential
// rounds of requests after the manifest. Shared by the rounds test
// (`rounds.mjs`) and the search benchmark (`benches/search.mjs`).
import { readFile } from "node:fs/promises";
import { gzipSync } from "node:zlib";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const gzipSize = (bytes) => gzipSync(bytes, { level: 6 }).length;

/** A site's search: `answer(q)` with a fresh client each time. */
export async function freshClients(dist) {
  const { openIndex } = await import(pathToFileURL(join(dist, "search.js")).href);
  const manifestUrl = pathToFileURL(join(dist, "search-index.json"));
  const files = new Map();
  const read = async (url) => {
    const path = fileURLToPath(url);
    if (!files.has(path)) files.set(path, await readFile(path));
    return files.get(path);
  };
  return {
    read,
    manifestUrl,
    openIndex,
    async answer(q) {
      let counting = false;
      let [bytes, bytesGz, depth, rounds] = [0, 0, 0, 0];
      const fetch = async (url) => {
        // A request's round: one more than the deepest round finished
        // when it was made.
        const round = depth + 1;
        const body = await read(url);
        if (counting) {
          bytes += body.length;
          bytesGz += gzipSize(body);
          rounds = Math.max(rounds, round);
        }
        depth = Math.max(depth, round);
        return String(body);
      };
      const index = await openIndex(manifestUrl, { fetch });
      // The manifest is counted apart.
      [counting, depth] = [true, 0];
      // The rounds to the first results: when the answer's first items
      // come before the rest, the rounds finished by then.
      let early = null;
      const answer = await index.search({ q }, { first: (partial) => (early = { rounds, items: partial.items, total: partial.total }) });
      const prefix = early === null || (early.total === answer.total && early.items.every((item, k) => item.id === answer.items[k]?.id));
      const roundsToFirst = early?.rounds ?? rounds;
      return { q, bytes, bytesGz, rounds, roundsToFirst, firstItems: early?.items.length ?? null, prefix, total: answer.total };
    },
  };
}

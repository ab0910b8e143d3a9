// Opens a built site's index with its own search.js, as built and with its
// manifest damaged, and reports whether each opened or the error it gave:
//
//   node damaged.mjs DIST
//
// Prints { "<case>": "opened" | "<the error's message>" } as JSON.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const [dist] = process.argv.slice(2);
const { openIndex } = await import(pathToFileURL(join(dist, "search.js")).href);
const readJson = async (url) => JSON.parse(await readFile(fileURLToPath(url), "utf8"));
const built = await readJson(pathToFileURL(join(dist, "search-index.json")));

const cases = {
  "as built": (m) => m,
  // A group character with no group file named for it.
  "a group without its file": (m) => {
    const [key, leaf, rows, groups = "", files = ""] = m.nodes[0];
    m.nodes[0] = [key, leaf, rows, `${groups}x`, files];
    return m;
  },
  "rowsPerFile 0": (m) => ({ ...m, rowsPerFile: 0 }),
};
const report = {};
for (const [name, damage] of Object.entries(cases)) {
  const manifest = damage(structuredClone(built));
  try {
    const index = await openIndex(pathToFileURL(join(dist, "search-index.json")), {
      fetch: async (url) =>
        String(url).endsWith("/search-index.json") ? manifest : readFile(fileURLToPath(url), "utf8"),
    });
    await index.search({ q: "a" });
    report[name] = "opened";
  } catch (error) {
    report[name] = String(error.message);
  }
}
console.log(JSON.stringify(report));

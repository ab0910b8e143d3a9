// Regenerates `input/entities/` from the brand list of the CC0-licensed
// `simple-icons` npm package (pinned in package.json), so that the shipped
// ontology names real software products and can be rebuilt bit for bit.
//
//   cd input/generate && npm ci && node generate.mjs
//
// Selection, all deterministic:
// 1. keep brands whose title is plain ASCII letters, digits, spaces and
//    `. & + ' -` (no accents: the slug rule drops everything but a-z0-9,
//    and an ID that loses letters in its slug would read badly);
// 2. the vendor key is the title's alphanumeric runs, each starting with an
//    upper-case letter ("draw.io" -> "DrawIo"); brands whose key collides,
//    case-insensitively, with an earlier one are dropped;
// 3. sort by key and take 753 vendors spread evenly over the list;
// 4. every vendor gets Create Item, Update Item and Delete Item, except the
//    one in the middle of the list, which has no Delete Item: 2258 entities.
import { readFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const VENDORS = 753;
const here = dirname(fileURLToPath(import.meta.url));
const out = join(here, "..", "entities");
const dataFile = join(here, "node_modules", "simple-icons", "data", "simple-icons.json");
const brands = JSON.parse(readFileSync(dataFile, "utf8"));

const seen = new Set();
const vendors = [];
for (const { title } of brands) {
  if (!/^[A-Za-z0-9][A-Za-z0-9 .&+'-]*$/.test(title)) continue;
  const runs = title.match(/[A-Za-z0-9]+/g) ?? [];
  const key = runs.map((r) => r[0].toUpperCase() + r.slice(1)).join("");
  if (!/^[A-Za-z]/.test(key) || seen.has(key.toLowerCase())) continue;
  seen.add(key.toLowerCase());
  vendors.push({ title, key });
}
vendors.sort((a, b) => (a.key.toLowerCase() < b.key.toLowerCase() ? -1 : 1));
if (vendors.length < VENDORS) throw new Error(`only ${vendors.length} usable brands`);
const picked = Array.from({ length: VENDORS }, (_, i) => vendors[Math.floor((i * vendors.length) / VENDORS)]);
const withoutDelete = Math.floor(VENDORS / 2);

const operations = [
  { words: "Create Item", sentence: (v) => `Creates a new item in ${v}.` },
  { words: "Update Item", sentence: (v) => `Updates an existing item in ${v}.` },
  { words: "Delete Item", sentence: (v) => `Deletes an item from ${v}.` },
];

rmSync(out, { recursive: true, force: true });
let count = 0;
picked.forEach(({ title, key }, i) => {
  const dir = join(out, key.toLowerCase());
  mkdirSync(dir, { recursive: true });
  for (const op of operations) {
    if (i === withoutDelete && op.words === "Delete Item") continue;
    const id = key + op.words.replace(/ /g, "");
    const entity = {
      id,
      name: `${title} - ${op.words}`,
      description: op.sentence(title),
      vendor: title,
      operation: op.words,
    };
    writeFileSync(join(dir, `${id.toLowerCase()}.json`), JSON.stringify(entity, null, 2) + "\n");
    count += 1;
  }
});
console.log(`wrote ${count} entities for ${picked.length} vendors into ${out}`);

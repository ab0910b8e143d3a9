// The rounds of requests a fresh client makes after the manifest for each
// query, with the bytes:
//
//   node rounds.mjs DIST QUERIES.json
//
// Prints [{ q, rounds, bytes, bytesGz, total }] as JSON.
import { readFile } from "node:fs/promises";
import { freshClients } from "./fresh.mjs";

const [dist, queriesPath] = process.argv.slice(2);
const clients = await freshClients(dist);
const report = [];
for (const q of JSON.parse(await readFile(queriesPath, "utf8"))) report.push(await clients.answer(q));
console.log(JSON.stringify(report));

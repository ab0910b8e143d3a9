// Runs the site's R2 Worker in workerd through Miniflare, with a local R2
// bucket bound as SITE, filled with the objects listed in MANIFEST (JSON
// Lines: { key, file, contentType, cacheControl }): each object's bytes and
// HTTP metadata as the tests read them back from a real S3 server after
// `ontosite publish`. Prints "listening on URL" once every object is in.
//
//   node r2-worker.mjs WORKER MANIFEST PREFIX COMPATIBILITY_DATE
import { Miniflare } from "miniflare";
import { readFile } from "node:fs/promises";

const [workerPath, manifestPath, prefix, compatibilityDate] = process.argv.slice(2);
// Given as contents: workerd refuses a module path that leaves its directory.
const mf = new Miniflare({
  modules: [{ type: "ESModule", path: "worker.js", contents: await readFile(workerPath, "utf8") }],
  compatibilityDate,
  r2Buckets: ["SITE"],
  bindings: { SITE_PREFIX: prefix },
  host: "127.0.0.1",
  port: 0,
});
const url = await mf.ready;
const bucket = await mf.getR2Bucket("SITE");
const objects = (await readFile(manifestPath, "utf8"))
  .split("\n")
  .filter((line) => line !== "")
  .map((line) => JSON.parse(line));
// A few at a time: each put is a round trip into workerd.
// Progress every few seconds: the tests take a minute of silence for a hang.
let next = 0;
let said = Date.now();
const put = async () => {
  while (next < objects.length) {
    if (Date.now() - said > 5000) {
      said = Date.now();
      console.log(`put ${next} of ${objects.length} objects`);
    }
    const { key, file, contentType, cacheControl } = objects[next++];
    const httpMetadata = {};
    if (contentType) httpMetadata.contentType = contentType;
    if (cacheControl) httpMetadata.cacheControl = cacheControl;
    // Miniflare's proxy takes a whole ArrayBuffer, not a view into Node's pool.
    const bytes = await readFile(file);
    const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    await bucket.put(key, body, { httpMetadata });
  }
};
await Promise.all(Array.from({ length: 16 }, put));
console.log(`listening on ${url}`);
process.on("SIGTERM", async () => {
  await mf.dispose();
  process.exit(0);
});

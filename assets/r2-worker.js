// Cloudflare Worker in front of an R2 bucket that `ontosite publish` filled:
// the whole site from the bucket, answered as `ontosite serve` answers it.
// No static host stands between the worker and the objects, so the worker
// does what Pages does itself on the other hosts: it finds the file a path
// names (pretty URLs), follows the site's rewrites (`/` is the information
// document, a missing path the 404 problem), answers the files the build
// writes for the hosts 404, and serves ranges and conditional requests. An
// object's Content-Type and Cache-Control are the ones publish set from the
// route table; the headers every response carries are added here, as
// `_headers` adds them on the Pages hosts. Bindings (wrangler.toml):
//
//   [[r2_buckets]]  binding = "SITE", bucket_name = "BUCKET"
//   [vars]          SITE_PREFIX = "PREFIX"   (the prefix publish wrote under; "" for none)
//
// The build writes it into the site as one self-contained module, like the
// other hosts' handlers, so it exports nothing but its default handler.
import { RESPONSE_HEADERS, openIndex, respond } from "./search.js";
import { answerAt, isUnpublished } from "./negotiate.js";
import { NEGOTIATION } from "./negotiation.js";

/** The search index, per prefix: opened once per isolate. */
const indexes = new Map();

/** The problem document a malformed path gets, as `serve` says it. */
function badPath(detail) {
  const problem = { type: "about:blank", title: "Bad Request", status: 400, detail };
  return new Response(JSON.stringify(problem), {
    status: 400,
    headers: { ...RESPONSE_HEADERS, "Content-Type": "application/problem+json" },
  });
}

/** Longer request paths are refused, as `serve` refuses them (`MAX_PATH`). */
const MAX_PATH = 2048;

/**
 * A request's path decoded and checked as `serve` checks it
 * (src/serve/path.rs): `{ path }`, empty segments dropped and a trailing
 * `/` kept, or `{ refusal }`, the detail of a 400. Keys are flat, so no
 * path escapes the prefix either way; this keeps the answers `serve`'s.
 */
function sitePath(raw) {
  if (raw.length > MAX_PATH) return { refusal: "the path is longer than any path of this site" };
  let decoded;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return { refusal: "the path is not UTF-8 once percent-decoded" };
  }
  if (!decoded.startsWith("/")) return { refusal: "the path does not start with `/`" };
  if (decoded.includes("\\")) return { refusal: "the path contains a backslash" };
  const control = (c) => c.codePointAt(0) < 0x20 || (c.codePointAt(0) >= 0x7f && c.codePointAt(0) <= 0x9f);
  if ([...decoded].some(control)) return { refusal: "the path contains a control character" };
  const segments = decoded.split("/").filter((s) => s !== "");
  if (segments.some((s) => s === "." || s === "..")) return { refusal: "the path has a `.` or `..` segment" };
  const trailing = decoded.endsWith("/") && segments.length > 0 ? "/" : "";
  return { path: `/${segments.join("/")}${trailing}` };
}

/** The object key of a checked site path that names a file, under `prefix`. */
function keyOf(prefix, path) {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  return trimmed === "" ? path.slice(1) : `${trimmed}/${path.slice(1)}`;
}

/** The site in one bucket under one prefix, read as a static host reads a directory. */
class Bucket {
  constructor(bucket, prefix) {
    this.bucket = bucket;
    this.prefix = prefix;
  }

  /**
   * The object at a site path, with its body (a range of it, where asked
   * and it is a plain read), or null. A condition the request states that
   * the object fails leaves it without a body: a 304.
   */
  get(path, request) {
    if (path === "/" || path.endsWith("/")) return Promise.resolve(null);
    const key = keyOf(this.prefix, path);
    const options = request === undefined ? {} : { onlyIf: request.headers, range: request.headers };
    return this.bucket.get(key, options);
  }

  /**
   * The file a path names, as `serve` finds it on a static host: the file
   * itself; for `/name/`, `name/index.html`, then `name` and `name.html`;
   * for `/name`, `name.html` ("pretty URLs"), then `name/index.html`.
   * Never a file the build wrote for the hosts.
   */
  async find(path, request) {
    const stem = path.replace(/\/+$/, "");
    const candidates = path.endsWith("/") ? [`${stem}/index.html`, stem, `${stem}.html`] : [path, `${stem}.html`, `${stem}/index.html`];
    for (const candidate of candidates) {
      if (candidate === "" || isUnpublished(candidate, NEGOTIATION)) continue;
      const object = await this.get(candidate, request);
      if (object !== null) return object;
    }
    return null;
  }
}

/** The headers of an object's answer: every response's, then the object's own. */
function objectHeaders(object) {
  const headers = new Headers(RESPONSE_HEADERS);
  const metadata = object.httpMetadata ?? {};
  if (metadata.contentType) headers.set("Content-Type", metadata.contentType);
  if (metadata.cacheControl) headers.set("Cache-Control", metadata.cacheControl);
  if (metadata.contentEncoding) headers.set("Content-Encoding", metadata.contentEncoding);
  headers.set("ETag", object.httpEtag);
  headers.set("Accept-Ranges", "bytes");
  return headers;
}

/**
 * An object as the answer to `request`, with `status` where it is whole:
 * a 304 where the request's condition left it without a body, a 206 with
 * its range where a range was read.
 */
function objectAnswer(object, request, status = 200) {
  const headers = objectHeaders(object);
  const head = request.method === "HEAD";
  if (!("body" in object)) {
    // `If-None-Match` matched (or another condition failed): nothing to send.
    const failed = request.headers.has("If-Match") || request.headers.has("If-Unmodified-Since");
    return new Response(null, { status: failed ? 412 : 304, headers });
  }
  const range = object.range;
  if (status === 200 && request.headers.has("Range") && range !== undefined) {
    const offset = range.offset ?? (range.suffix !== undefined ? object.size - range.suffix : 0);
    const length = range.length ?? object.size - offset;
    if (length < object.size) {
      headers.set("Content-Range", `bytes ${offset}-${offset + length - 1}/${object.size}`);
      headers.set("Content-Length", String(length));
      return new Response(head ? null : object.body, { status: 206, headers });
    }
  }
  headers.set("Content-Length", String(object.size));
  return new Response(head ? null : object.body, { status, headers });
}

/** A rewrite of the site's route table (`_redirects` on the other hosts) that matches `path`. */
function rewriteOf(path, forced) {
  return (NEGOTIATION.rewrites ?? []).find(
    (rule) => rule.force === forced && (rule.path.endsWith("/*") ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path),
  );
}

/**
 * What the bucket answers at `path` as a static host with the site's
 * rules: a forced rewrite, else the file, else a plain rewrite (the 404
 * problem), else a bare 404. `conditions` is the request whose range and
 * conditions the object is read with, or undefined for a plain read.
 */
async function staticAnswer(site, request, path, conditions) {
  const rewrite = async (rule) => {
    const target = await site.find(rule.to.split("?")[0], rule.status === 200 ? conditions : undefined);
    return target === null ? notFound(request) : objectAnswer(target, request, rule.status);
  };
  const forced = rewriteOf(path, true);
  if (forced !== undefined) return rewrite(forced);
  const file = await site.find(path, conditions);
  if (file !== null) return objectAnswer(file, request);
  const plain = rewriteOf(path, false);
  return plain !== undefined ? rewrite(plain) : notFound(request);
}

/** The host's own 404, where not even the 404 problem is in the bucket. */
function notFound(request) {
  const problem = { type: "about:blank", title: "Not Found", status: 404, detail: "No resource of this API is at that path." };
  return new Response(request.method === "HEAD" ? null : JSON.stringify(problem), {
    status: 404,
    headers: { ...RESPONSE_HEADERS, "Content-Type": "application/problem+json" },
  });
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (request.method !== "GET" && request.method !== "HEAD") return respond(request, null);
    const { path, refusal } = sitePath(url.pathname);
    if (refusal !== undefined) return badPath(refusal);
    const prefix = env.SITE_PREFIX ?? "";
    const site = new Bucket(env.SITE, prefix);
    if (isUnpublished(path, NEGOTIATION)) {
      const problem = await site.get("/404.json");
      return problem === null ? notFound(request) : objectAnswer(problem, request, 404);
    }
    if (url.pathname === "/search") {
      if (!indexes.has(prefix)) {
        const read = async (target) => {
          const object = await site.get(new URL(target).pathname);
          return object === null ? new Response(null, { status: 404 }) : new Response(object.body);
        };
        const opened = openIndex(new URL("/search-index.json", url), { fetch: read }).catch((error) => {
          indexes.delete(prefix);
          throw error;
        });
        indexes.set(prefix, opened);
      }
      return respond(request, await indexes.get(prefix));
    }
    // A file the handlers read to build an answer (a bundle, a piece): whole, unconditional.
    const asset = async (target) => {
      const object = await site.get(target);
      return object === null ? new Response(null, { status: 404 }) : new Response(object.body, { headers: objectHeaders(object) });
    };
    return answerAt(request, NEGOTIATION, RESPONSE_HEADERS, asset, () => staticAnswer(site, request, path, request));
  },
};

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
import { answerAt, cached, isUnpublished } from "./negotiate.js";
import { NEGOTIATION } from "./negotiation.js";

/** The search index, per prefix, with the tag of the manifest it was opened from. */
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
  // As `percent_decode_str`: a `%` not followed by two hex digits stays as it is.
  const bytes = [];
  const text = new TextEncoder().encode(raw);
  for (let i = 0; i < text.length; i++) {
    const hex = String.fromCharCode(text[i + 1] ?? 0, text[i + 2] ?? 0);
    if (text[i] === 0x25 && /^[0-9a-fA-F]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(text[i]);
    }
  }
  let decoded;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes));
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

/**
 * Whether a site path is one no host publishes (`routes::is_private`): a
 * file the build wrote for the hosts, or a hidden one (a name starting
 * with `.`, but under `/.well-known/`), such as publish's own record.
 */
function isPrivate(path) {
  const visible = path.startsWith("/.well-known/") ? path.slice("/.well-known/".length) : path;
  return visible.split("/").some((s) => s.startsWith(".")) || isUnpublished(path, NEGOTIATION);
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

  /** The object at a site path, whole, or null: what a handler reads to build an answer. */
  get(path) {
    if (path === "/" || path.endsWith("/")) return Promise.resolve(null);
    return this.bucket.get(keyOf(this.prefix, path));
  }

  /**
   * The answer with the file at a site path, or null where there is none:
   * `status` with the whole object, or, as `serve` answers (range.rs), a
   * 304 where `If-None-Match` names its tag, a 206 with the one range a
   * `Range` asks (unless `If-Range` names another version), a 416 for a
   * range past its end. Only a `HEAD` reads no body.
   */
  async answer(path, request, status) {
    if (path === "/" || path.endsWith("/")) return null;
    const key = keyOf(this.prefix, path);
    const head = request.method === "HEAD";
    const range = status === 200 ? request.headers.get("Range") : null;
    // Where a part of it or nothing is sent, its description comes first.
    const described = head || range !== null;
    const object = described ? await this.bucket.head(key) : await this.bucket.get(key);
    if (object === null) return null;
    const headers = objectHeaders(object);
    if (status === 200 && noneMatch(request.headers.get("If-None-Match"), object.httpEtag)) {
      await object.body?.cancel();
      headers.delete("Content-Type");
      return new Response(null, { status: 304, headers });
    }
    const ifRange = request.headers.get("If-Range");
    const asked = range !== null && (ifRange === null || ifRange === object.httpEtag) ? askedRange(range, object.size) : null;
    if (asked === "unsatisfiable") {
      headers.set("Content-Range", `bytes */${object.size}`);
      return new Response(null, { status: 416, headers });
    }
    const [offset, length, code] = asked === null ? [0, object.size, status] : [asked.start, asked.end - asked.start + 1, 206];
    if (asked !== null) headers.set("Content-Range", `bytes ${asked.start}-${asked.end}/${object.size}`);
    headers.set("Content-Length", String(length));
    if (head) return new Response(null, { status: code, headers });
    if (!described) return new Response(object.body, { status: code, headers });
    const read = await this.bucket.get(key, asked === null ? {} : { range: { offset, length } });
    return read === null ? null : new Response(read.body, { status: code, headers });
  }

  /**
   * The answer with the file a path names, as `serve` finds it on a static
   * host: the file itself; for `/name/`, `name/index.html`, then `name`
   * and `name.html`; for `/name`, `name.html` ("pretty URLs"), then
   * `name/index.html`. Never a private file. Null where none is there.
   */
  async find(path, request, status = 200) {
    const stem = path.replace(/\/+$/, "");
    const candidates = path.endsWith("/") ? [`${stem}/index.html`, stem, `${stem}.html`] : [path, `${stem}.html`, `${stem}/index.html`];
    for (const candidate of candidates) {
      if (candidate === "" || isPrivate(candidate)) continue;
      const answer = await this.answer(candidate, request, status);
      if (answer !== null) return answer;
    }
    return null;
  }
}

/** Whether an `If-None-Match` header names the tag `tag` (weakly compared), or is `*`. */
function noneMatch(header, tag) {
  if (header === null) return false;
  const bare = (t) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || bare(t) === bare(tag));
}

/**
 * What a `Range` header asks of a body of `size` bytes, as `serve` reads
 * it (src/serve/range.rs): `{ start, end }`, "unsatisfiable", or null for
 * the whole body (no range, several, or one it may ignore).
 */
function askedRange(header, size) {
  const spec = header.trim().startsWith("bytes=") ? header.trim().slice("bytes=".length) : null;
  if (spec === null || spec.includes(",") || !spec.includes("-")) return null;
  const [first, last] = [spec.slice(0, spec.indexOf("-")).trim(), spec.slice(spec.indexOf("-") + 1).trim()];
  const number = (text) => (/^[0-9]+$/.test(text) ? Number(text) : null);
  const [start, end] = [number(first), number(last)];
  if (first === "" && end !== null) {
    return end === 0 || size === 0 ? "unsatisfiable" : { start: Math.max(size - end, 0), end: size - 1 };
  }
  if (start === null || (last !== "" && end === null)) return null;
  if (start >= size) return "unsatisfiable";
  if (end !== null && end < start) return null;
  return { start, end: end === null ? size - 1 : Math.min(end, size - 1) };
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

/** A rewrite of the site's route table (`_redirects` on the other hosts) that matches `path`. */
function rewriteOf(path, forced) {
  return (NEGOTIATION.rewrites ?? []).find(
    (rule) => rule.force === forced && (rule.path.endsWith("/*") ? path.startsWith(rule.path.slice(0, -1)) : rule.path === path),
  );
}

/**
 * What the bucket answers at `path` as a static host with the site's
 * rules: a forced rewrite, else the file, else a See Other to a release,
 * else a plain rewrite (the 404 problem), else a bare 404.
 */
async function staticAnswer(site, request, path) {
  const rewrite = async (rule) => (await site.find(rule.to.split("?")[0], request, rule.status)) ?? notFound(request);
  const forced = rewriteOf(path, true);
  if (forced !== undefined) return rewrite(forced);
  const file = await site.find(path, request);
  if (file !== null) return file;
  // A version IRI in the site's namespace: its release (a 303 rule of
  // `_redirects` on the other hosts, which come before the rewrites).
  // A trailing `/` matches with or without, as a rule's path does.
  const bare = (p) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  const moved = (NEGOTIATION.seeOther ?? []).find((rule) => bare(rule.path) === bare(path));
  if (moved !== undefined) {
    // Under /releases/{version}/, frozen as every answer there.
    const headers = { ...RESPONSE_HEADERS, ...cached(moved), Location: moved.to };
    return new Response(null, { status: 303, headers });
  }
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

/**
 * The search index of the site under `prefix`, opened once per isolate
 * and again once a publish has replaced its manifest (its tag changed).
 */
async function searchIndex(site, prefix, url) {
  const manifest = await site.bucket.head(keyOf(prefix, "/search-index.json"));
  const tag = manifest?.httpEtag ?? null;
  const cached = indexes.get(prefix);
  if (cached !== undefined && cached.tag === tag) return cached.index;
  const read = async (target) => {
    const object = await site.get(new URL(target).pathname);
    return object === null ? new Response(null, { status: 404 }) : new Response(object.body);
  };
  const index = openIndex(new URL("/search-index.json", url), { fetch: read }).catch((error) => {
    indexes.delete(prefix);
    throw error;
  });
  indexes.set(prefix, { tag, index });
  return index;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    const { path, refusal } = sitePath(url.pathname);
    if (refusal !== undefined) return badPath(refusal);
    if (request.method !== "GET" && request.method !== "HEAD") return respond(request, null);
    const prefix = env.SITE_PREFIX ?? "";
    const site = new Bucket(env.SITE, prefix);
    if (isPrivate(path)) return (await site.find("/404.json", request, 404)) ?? notFound(request);
    if (path === "/search") return respond(request, await searchIndex(site, prefix, url));
    // A file the handlers read to build an answer (a bundle, a piece): whole, unconditional.
    const asset = async (target) => {
      const object = await site.get(target);
      return object === null ? new Response(null, { status: 404 }) : new Response(object.body, { headers: objectHeaders(object) });
    };
    // The path as serve reads it (decoded, empty segments dropped): the
    // bucket is answered from it too.
    return answerAt(request, NEGOTIATION, RESPONSE_HEADERS, asset, () => staticAnswer(site, request, path), path);
  },
};

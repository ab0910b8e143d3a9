// ontosite search client: answers /search queries from the prebuilt index
// exactly as the Rust reference does (docs/search.md is the definition).
//
// A dependency-free ES module for browsers, Node 20+, Deno, Netlify Edge
// Functions and Cloudflare Workers:
//
//   import { openIndex } from "./search.js";
//   const index = await openIndex("https://example.org/search-index.json");
//   const answer = await index.search({ q: "airtable create", limit: 10 });
//
// `openIndex` also takes `{ fetch }` (any function with fetch's signature
// that resolves to a Response, or to parsed JSON) and, instead of a URL, an
// in-memory index `{ manifest, files: { "search/n0.json": {...}, ... } }`.
// A bad query throws a SearchError whose `problem` is the RFC 9457
// document to answer with status 400.

export const FORMAT_VERSION = 4;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 999999999;
/** The headers every response of the site carries (ontosite's route table). */
export const RESPONSE_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": "public, max-age=3600",
  "X-Content-Type-Options": "nosniff",
  "Access-Control-Expose-Headers": "ETag, Link",
};
const EXACT = 8;
const NAME = 1;
const NAME_OR_ID = 1 | 2;

export class SearchError extends Error {
  constructor(detail) {
    super(detail);
    this.name = "SearchError";
    this.status = 400;
    this.problem = { type: "about:blank", title: "Bad Request", status: 400, detail };
  }
}

/** NFKD, marks dropped, lower-cased. */
export function fold(text) {
  return text.normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase();
}

/** The runs of a text: maximal sequences of letters, digits and marks. */
export function runs(text) {
  return text.match(/[\p{L}\p{N}\p{M}]+/gu) ?? [];
}

/** The folded runs of a query. */
export function terms(query) {
  return runs(query).map(fold).filter((term) => term.length > 0);
}

function whole(text, max) {
  if (!/^[0-9]+$/.test(text)) return null;
  const significant = text.replace(/^0+/, "");
  if (significant.length > 9) return null;
  const value = significant === "" ? 0 : Number(significant);
  return value <= max ? value : null;
}

/**
 * Checks a request's parameters: a URLSearchParams, or an object with
 * `q`, `limit` and `offset` (strings or numbers; absent when undefined or
 * null).
 */
export function parseQuery(params) {
  const get = (name) => {
    const value = params instanceof URLSearchParams ? params.get(name) : params?.[name];
    return value === undefined || value === null ? null : String(value);
  };
  const text = get("q");
  if (text === null) throw new SearchError("the query parameter `q` is missing; search with /search?q=word");
  const found = terms(text);
  if (found.length === 0) throw new SearchError(`the query \`${text}\` has no letters or digits to search for`);
  let limit = DEFAULT_LIMIT;
  const limitText = get("limit");
  if (limitText !== null) {
    limit = whole(limitText, MAX_LIMIT);
    if (limit === null || limit < 1) {
      throw new SearchError(`\`limit\` must be a whole number from 1 to ${MAX_LIMIT}, not \`${limitText}\``);
    }
  }
  let offset = 0;
  const offsetText = get("offset");
  if (offsetText !== null) {
    offset = whole(offsetText, MAX_OFFSET);
    if (offset === null) {
      throw new SearchError(`\`offset\` must be a whole number from 0 to ${MAX_OFFSET}, not \`${offsetText}\``);
    }
  }
  return { text, terms: found, limit, offset };
}

/** The default slug of an ID: lower-cased, `a-z0-9` kept. */
function derivedSlug(id) {
  return id.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

/** Decodes postings into [entity, mask] pairs. */
function decode(postings) {
  const out = new Array(postings.length);
  let entity = 0;
  for (let i = 0; i < postings.length; i++) {
    const n = postings[i];
    entity += Math.floor(n / 16);
    out[i] = [entity, n % 16];
  }
  return out;
}

class Index {
  constructor(manifest, load) {
    if (manifest.version !== FORMAT_VERSION) {
      throw new Error(`search index format ${manifest.version} is not ${FORMAT_VERSION}; rebuild the site or update search.js`);
    }
    this.manifest = manifest;
    this.load = load;
    this.nodes = new Map(manifest.nodes.map(([key, leaf, rows], i) => [key, { i, leaf: leaf === 1, rows }]));
    // Deprecated terms rank after every other match.
    this.deprecated = new Set(manifest.deprecated ?? []);
  }

  /** The node that answers words starting with `term` (or equal to it). */
  node(term) {
    let key = "";
    for (;;) {
      const node = this.nodes.get(key);
      if (node === undefined) return null;
      if (node.leaf || key === term) return { key, ...node };
      key += String.fromCodePoint(term.codePointAt(key.length));
    }
  }

  file(node) {
    return this.load(`search/n${node.i}.json`);
  }

  /**
   * The entities with a word that starts with `term`, and for each the
   * fields such words are in: `{ entities, masks }`, `masks` indexed by
   * entity (0 for none), so that a query matching every entity of a large
   * site takes linear time. The node that answered is added to `answered`.
   */
  async termMasks(term, answered) {
    const found = { entities: [], masks: null };
    const node = this.node(term);
    if (node === null) return found;
    answered.push(node);
    const file = await this.file(node);
    const masks = new Uint8Array(this.manifest.total);
    const add = (postings) => {
      let entity = 0;
      for (let i = 0; i < postings.length; i++) {
        const n = postings[i];
        entity += Math.floor(n / 16);
        const fields = n % 16 & ~EXACT;
        if (fields === 0) continue;
        if (masks[entity] === 0) found.entities.push(entity);
        masks[entity] |= fields;
      }
    };
    if (node.leaf) {
      for (const [word, postings] of file.words) if (word.startsWith(term)) add(postings);
    } else {
      add(file.all);
    }
    found.masks = masks;
    return found;
  }

  /** Entities whose joined ID, label or synonym, or slug, equals `joined`. */
  async exact(joined) {
    const found = new Set();
    const node = this.node(joined);
    if (node === null || (!node.leaf && node.key !== joined)) return found;
    const file = await this.file(node);
    for (const [word, postings] of file.words) {
      if (word !== joined) continue;
      for (const [entity, mask] of decode(postings)) if (mask & EXACT) found.add(entity);
    }
    return found;
  }

  /**
   * The rows of `entities`, which match every term: from the row chunks
   * they fall in, or from the row file of one of the leaves that answered
   * (it names every entity that matches its term), whichever holds fewer.
   */
  async rows(entities, answered) {
    const per = this.manifest.rowsPerFile;
    const chunks = [...new Set(entities.map((e) => Math.floor(e / per)))];
    const leaf = this.rowLeaf(answered);
    const found = new Map();
    if (leaf !== undefined && leaf.rows < chunks.length * per) {
      for (const [entity, ...row] of await this.load(`search/r${leaf.i}.json`)) found.set(entity, row);
    } else {
      const files = await Promise.all(chunks.map((c) => this.load(`search/d${c}.json`)));
      chunks.forEach((c, k) => files[k].forEach((row, j) => found.set(c * per + j, row)));
    }
    return entities.map((e) => found.get(e));
  }

  /** The answering leaf with the fewest rows that has a row file. */
  rowLeaf(answered) {
    return answered.filter((n) => n.rows > 0).sort((a, b) => a.rows - b.rows)[0];
  }

  /** Answers a query; throws SearchError for a bad one. */
  async search(params) {
    const query = parseQuery(params);
    const answered = [];
    const pending = Promise.all([
      this.exact(query.terms.join("")),
      ...query.terms.map((term) => this.termMasks(term, answered)),
    ]);
    // The nodes that answer are known from the manifest alone. A leaf's
    // row file with fewer rows than a chunk holds is what `rows` takes
    // whenever there is a match, so it is fetched now, beside the nodes:
    // one round after the manifest instead of two.
    const leaf = this.rowLeaf(answered);
    if (leaf !== undefined && leaf.rows < this.manifest.rowsPerFile) {
      this.load(`search/r${leaf.i}.json`).catch(() => {});
    }
    const [exact, ...perTerm] = await pending;
    const smallest = perTerm.reduce((a, b) => (b.entities.length < a.entities.length ? b : a));
    // The order is (deprecated last, tier, entity): a bucket per
    // (deprecated, tier), each sorted by entity, taken in turn.
    const buckets = Array.from({ length: 8 }, () => []);
    for (const entity of smallest.entities) {
      let [allName, allNameOrId] = [true, true];
      let matched = true;
      for (const { masks } of perTerm) {
        const mask = masks[entity];
        if (mask === 0) {
          matched = false;
          break;
        }
        allName &&= (mask & NAME) !== 0;
        allNameOrId &&= (mask & NAME_OR_ID) !== 0;
      }
      if (!matched) continue;
      const tier = exact.has(entity) ? 0 : allName ? 1 : allNameOrId ? 2 : 3;
      buckets[(this.deprecated.has(entity) ? 4 : 0) + tier].push(entity);
    }
    const total = buckets.reduce((sum, b) => sum + b.length, 0);
    const end = Math.min(query.offset + query.limit, total);
    const page = [];
    let skipped = 0;
    for (const bucket of buckets) {
      if (page.length >= end - query.offset) break;
      if (skipped + bucket.length <= query.offset) {
        skipped += bucket.length;
        continue;
      }
      const sorted = Uint32Array.from(bucket).sort();
      for (let i = Math.max(0, query.offset - skipped); i < sorted.length && page.length < end - query.offset; i++) {
        page.push(sorted[i]);
      }
      skipped += bucket.length;
    }
    const base = this.manifest.baseUrl;
    const rows = page.length > 0 ? await this.rows(page, answered) : [];
    const items = rows.map(([id, name, type, summary, explicitSlug]) => {
      const slug = explicitSlug ?? derivedSlug(id);
      const links = Object.fromEntries(this.manifest.links.map((extension) => [extension, `${base}${slug}.${extension}`]));
      return { slug, id, name, type: this.manifest.types[type], summary, links };
    });
    const next =
      end < total
        ? `${base}search?${new URLSearchParams({ q: query.text, limit: String(query.limit), offset: String(end) })}`
        : null;
    return { query: query.text, total, limit: query.limit, offset: query.offset, items, next };
  }
}

/**
 * Opens an index: `source` is the URL of `search-index.json`, or an
 * in-memory index `{ manifest, files }`.
 */
export async function openIndex(source, options = {}) {
  const cache = new Map();
  if (typeof source === "object" && source !== null && !(source instanceof URL) && "manifest" in source) {
    const load = (path) =>
      path in source.files
        ? Promise.resolve(source.files[path])
        : Promise.reject(new Error(`the in-memory index has no ${path}`));
    return new Index(source.manifest, load);
  }
  const fetcher = options.fetch ?? globalThis.fetch;
  const base = new URL(String(source), options.base ?? globalThis.location?.href);
  const get = async (url) => {
    const response = await fetcher(url);
    if (response && typeof response.json === "function") {
      if (response.ok === false) throw new Error(`${url}: HTTP ${response.status}`);
      return response.json();
    }
    return response;
  };
  const load = (path) => {
    if (!cache.has(path)) {
      const pending = get(new URL(path, base).href);
      pending.catch(() => cache.delete(path));
      cache.set(path, pending);
    }
    return cache.get(path);
  };
  return new Index(await get(base.href), load);
}

/**
 * Answers an HTTP request for /search with a Response: 200 and the answer,
 * 400 and a problem document for a bad query, 405 for a method other than
 * GET, HEAD or OPTIONS. `headers` are the ones every response of the site
 * carries (CORS, caching).
 */
export async function respond(request, index, headers = RESPONSE_HEADERS) {
  const allow = "GET, HEAD, OPTIONS";
  const send = (status, body, contentType) =>
    new Response(request.method === "HEAD" || body === null ? null : body, {
      status,
      headers: { ...headers, ...(contentType ? { "Content-Type": contentType } : {}) },
    });
  if (request.method === "OPTIONS") {
    return new Response(null, {
      status: 204,
      headers: {
        ...headers,
        "Access-Control-Allow-Methods": allow,
        "Access-Control-Allow-Headers": request.headers.get("Access-Control-Request-Headers") ?? "*",
        "Access-Control-Max-Age": "3600",
      },
    });
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    const problem = { type: "about:blank", title: "Method Not Allowed", status: 405, detail: `${request.method} is not allowed; this API answers ${allow}` };
    const response = send(405, JSON.stringify(problem), "application/problem+json");
    response.headers.set("Allow", allow);
    return response;
  }
  try {
    const answer = await index.search(new URL(request.url).searchParams);
    return send(200, JSON.stringify(answer), "application/json");
  } catch (error) {
    if (error.name !== "SearchError") throw error;
    return send(error.status, JSON.stringify(error.problem), "application/problem+json");
  }
}

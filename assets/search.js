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
// in-memory index `{ manifest, files: { "search/{digest}.js": {...}, ... } }`.
// A bad query throws a SearchError whose `problem` is the RFC 9457
// document to answer with status 400.

export const FORMAT_VERSION = 9;
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1000;
export const MAX_OFFSET = 999999999;
export const MAX_TERMS = 32;
export const MAX_TERM_CHARS = 128;
/** The headers every response of the site carries (ontosite's route table). */
export const RESPONSE_HEADERS = {
  "Access-Control-Allow-Origin": "*",
  "Cache-Control": "public, max-age=3600",
  "X-Content-Type-Options": "nosniff",
  "Access-Control-Expose-Headers": "ETag, Link",
  "Content-Security-Policy": "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'",
};
const EXACT = 8;
const NAME = 1;
const NAME_OR_ID = 1 | 2;
// Strict tiers 0 to 3, then the near tiers 4 to 6 (exact has no near one).
const NEAR_TIERS = 3;
const TIERS = 7;

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
  if (found.length > MAX_TERMS) throw new SearchError(`the query has ${found.length} words; search with at most ${MAX_TERMS}`);
  for (const term of found) {
    // Code points, as Rust counts characters.
    let chars = 0;
    for (const _ of term) chars++;
    if (chars > MAX_TERM_CHARS) {
      throw new SearchError(`a word of the query has ${chars} characters; search with words of at most ${MAX_TERM_CHARS}`);
    }
  }
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

// Near matches (docs/search.md, "Near matches"): word forms and typos,
// forgiven only when nothing matches strictly.
const TYPO_MIN_CHARS = 4;
const TWO_TYPOS_CHARS = 8;
const STEM_MIN_CHARS = 3;
const UNDOUBLED = "bcdfghjkmnpqrtvwxy";

/** The English stem of a folded term, or null (the rules of src/search/near.rs). */
export function stem(term) {
  const chars = Array.from(term);
  const ends = (suffix) => term.endsWith(suffix);
  let keep = null;
  if (ends("ies") || ends("ied")) {
    keep = chars.length - 3;
  } else if (ends("ing") || ends("ed")) {
    keep = chars.length - (ends("ing") ? 3 : 2);
    if (keep >= 2 && chars[keep - 1] === chars[keep - 2] && UNDOUBLED.includes(chars[keep - 1])) keep -= 1;
  } else if (ends("es") && ["ses", "xes", "zes", "ches", "shes"].some(ends)) {
    keep = chars.length - 2;
  } else if (ends("s") && !(ends("ss") || ends("us") || ends("is"))) {
    keep = chars.length - 1;
  }
  return keep !== null && keep >= STEM_MIN_CHARS ? chars.slice(0, keep).join("") : null;
}

/** How many typos a folded term is forgiven. */
export function typoBudget(term) {
  const n = Array.from(term).length;
  return n < TYPO_MIN_CHARS ? 0 : n < TWO_TYPOS_CHARS ? 1 : 2;
}

/**
 * Whether `word` begins within `budget` typos of `term`: the same first
 * character, and a prefix of it at least as long as the term, or the whole
 * word where `whole` allows and it is shorter, at most `budget`
 * insertions, deletions, substitutions and swaps of neighbours (optimal
 * string alignment) from the term, counted in characters.
 */
export function withinTypos(term, word, budget, whole = true) {
  if (budget === 0 || word.codePointAt(0) !== term.codePointAt(0)) return false;
  const a = termChars(term);
  const n = a.length;
  // Row i: the edits from the word's first i characters to each prefix of
  // the term; the one before it and the one before that, for swaps.
  let [before, previous, row] = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  for (let j = 0; j <= n; j++) previous[j] = j;
  let i = 0;
  let last = "";
  for (const c of word) {
    i += 1;
    row[0] = i;
    let least = i;
    for (let j = 1; j <= n; j++) {
      let edits = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (c === a[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && c === a[j - 2] && last === a[j - 1]) edits = Math.min(edits, before[j - 2] + 1);
      row[j] = edits;
      if (edits < least) least = edits;
    }
    // No later row can come back under the budget.
    if (least > budget) return false;
    if (i >= n && row[n] <= budget) return true;
    // A longer prefix is more than the budget away.
    if (i === n + budget) return false;
    [before, previous, row] = [previous, row, before];
    last = c;
  }
  // The whole word, shorter than the term.
  return whole && i < n && previous[n] <= budget;
}

// The characters of the last term measured, which every word of a node is
// measured against in turn.
let measured = { term: null, chars: [] };
function termChars(term) {
  if (measured.term !== term) measured = { term, chars: Array.from(term) };
  return measured.chars;
}

/** The default slug of an ID: lower-cased, `a-z0-9` kept. */
function derivedSlug(id) {
  return id.replace(/[^A-Za-z0-9]/g, "").toLowerCase();
}

/** Adds decoded postings to a term's `{ entities, count, masks }`, field bits only. */
function add(found, postings) {
  let entity = 0;
  for (let i = 0; i < postings.length; i++) {
    const n = postings[i];
    entity += Math.floor(n / 16);
    const fields = n % 16 & ~EXACT;
    if (fields === 0) continue;
    if (found.masks[entity] === 0) found.entities[found.count++] = entity;
    found.masks[entity] |= fields;
  }
}

/** A digest that names a file of the index (src/search/format.rs). */
const DIGEST = /^[0-9a-f]{16}$/;

/** The path of the index file named by `digest`. */
function indexFile(digest) {
  if (digest === undefined) throw new Error("search index: a node names no file where its entry needs one");
  return `search/${digest}.js`;
}

/** The function an index file calls with its path and content. */
const SCRIPT_CALL = "ontositeSearchFile";

/**
 * The content of the index file at `path` from its text: each is a script,
 * `ontositeSearchFile("search/{digest}.js",{...});`, that a page opened
 * from disk loads and every other reader takes the JSON out of
 * (`search::format::content` in src/search/format.rs).
 */
export function fileContent(path, text) {
  const head = `${SCRIPT_CALL}(${JSON.stringify(path)},`;
  const body = text.trimEnd();
  if (!body.startsWith(head) || !body.endsWith(");")) {
    throw new Error(`search index: ${path} is not an index file: it does not call ${SCRIPT_CALL} with its path and content`);
  }
  return JSON.parse(body.slice(head.length, -2));
}

/**
 * A node's files as its manifest entry lists them (`NodeFiles` in
 * src/search/format.rs): `{ n, r, p, g: [...] }`, each a digest.
 */
function nodeFiles(written, key) {
  const files = { g: [] };
  for (let at = 0; at < written.length; at += 1 + 16) {
    const kind = written[at];
    const digest = written.slice(at + 1, at + 17);
    if (!DIGEST.test(digest) || !"nrpg".includes(kind) || (kind !== "g" && kind in files)) {
      throw new Error(`search index: the files of node ${JSON.stringify(key)} are not named by digests`);
    }
    if (kind === "g") files.g.push(digest);
    else files[kind] = digest;
  }
  return files;
}

class Index {
  constructor(manifest, load) {
    if (manifest.version !== FORMAT_VERSION) {
      throw new Error(`search index format ${manifest.version} is not ${FORMAT_VERSION}; rebuild the site or update search.js`);
    }
    this.manifest = manifest;
    this.load = load;
    this.nodes = new Map(
      manifest.nodes.map(([key, leaf, rows, groups = "", files = ""], i) => [
        key,
        { key, i, files: nodeFiles(files, key), leaf: leaf === 1, rows, groups: Array.from(groups) },
      ]),
    );
    for (const node of this.nodes.values()) {
      if (node.files.g.length !== node.groups.length) {
        throw new Error(`search index: node ${JSON.stringify(node.key)} names ${node.files.g.length} group files for ${node.groups.length} groups`);
      }
    }
    // As the Rust reader: a manifest's rowsPerFile of 0 reads as 1.
    this.rowsPerFile = Math.max(1, manifest.rowsPerFile);
    // Each node's children, for the walk that finds a typo's words.
    this.children = new Map();
    for (const node of this.nodes.values()) {
      if (node.key === "") continue;
      const parent = Array.from(node.key).slice(0, -1).join("");
      if (!this.children.has(parent)) this.children.set(parent, []);
      this.children.get(parent).push(node);
    }
    // Deprecated terms rank after every other match.
    // A flag per entity: ranking looks every match up.
    this.chunks = manifest.chunks ?? [];
    if (this.chunks.length !== Math.ceil(manifest.total / this.rowsPerFile) || !this.chunks.every((c) => typeof c === "string" && DIGEST.test(c))) {
      throw new Error("search index: its chunks of rows are not one digest per chunk");
    }
    this.deprecated = new Uint8Array(manifest.total);
    for (const entity of manifest.deprecated ?? []) this.deprecated[entity] = 1;
  }

  /** The node that answers words starting with `term` (or equal to it). */
  node(term) {
    let key = "";
    for (;;) {
      const node = this.nodes.get(key);
      if (node === undefined) return null;
      if (node.leaf || key === term) return node;
      key += String.fromCodePoint(term.codePointAt(key.length));
    }
  }

  /** A node's file: from the manifest when it carries them, else fetched. */
  file(node) {
    const inline = this.manifest.nodeFiles;
    if (inline) return Promise.resolve(inline[node.i]);
    if (node.files.n === undefined) return Promise.reject(new Error(`search index: no file of node ${JSON.stringify(node.key)}`));
    return this.load(indexFile(node.files.n));
  }

  /**
   * Adds to `found` (`{ entities, count, masks, read }`) the entities with a word
   * that starts with `prefix`: from the node that answers it, its words
   * or, for an inner node, the union under it (`all`).
   */
  async addPrefix(prefix, found) {
    const node = this.node(prefix);
    if (node === null) return;
    found.read.push(node);
    const file = await this.file(node);
    if (node.leaf) {
      for (const [word, postings] of file.words) if (word.startsWith(prefix)) add(found, postings);
    } else {
      add(found, file.all);
    }
  }

  /**
   * The entities with a word that starts with `term`, and for each the
   * fields such words are in: `{ entities, count, masks, read }`, the first
   * `count` of `entities` in the order they were added, `masks` indexed
   * by entity (0 for none), so that a query matching every entity of a
   * large site takes linear time; `read`, the nodes that answered.
   */
  async termMasks(term) {
    const total = this.manifest.total;
    const found = { entities: new Uint32Array(total), count: 0, masks: new Uint8Array(total), read: [] };
    await this.addPrefix(term, found);
    return found;
  }

  /**
   * Adds to a term's strict matches its near ones: the words its stem
   * begins, and the words within its typo budget; and to `atHand` the
   * files fetched for the rows.
   */
  async addNear(term, found, atHand) {
    const stemmed = this.manifest.stem === "en" ? stem(term) : null;
    const budget = typoBudget(term);
    // The first page of the stem comes beside its node, as a term's does.
    // Not the rows of a typo's words: they are spread over every leaf the
    // walk reads, and their row files cost more than the round they save
    // (on PATO, twice the bytes per query).
    if (stemmed !== null) {
      for (const file of this.firstPageFiles([stemmed])) atHand.push(this.load(file).catch(() => null));
    }
    await Promise.all([
      stemmed === null ? null : this.addPrefix(stemmed, found),
      ...this.typoNodes(term, budget).map(async ({ node, all }) => {
        found.read.push(node);
        const file = await this.file(node);
        if (all) {
          add(found, file.all);
          return;
        }
        for (const [word, postings] of file.words) if (withinTypos(term, word, budget)) add(found, postings);
      }),
    ]);
  }

  /**
   * The nodes whose words may begin within `budget` typos of `term`, from
   * a walk down the trie from the term's first character, each with what
   * to read of it: `all`, when its key begins near the term, so every word
   * under it does; else its words, to filter: a leaf's, or an inner
   * node's own when its key as a whole word is near. The walk leaves a key
   * further than the budget from every prefix of the term, as is every
   * word under it.
   */
  typoNodes(term, budget) {
    if (budget === 0) return [];
    const chars = Array.from(term);
    const root = this.nodes.get("");
    if (root === undefined) return [];
    if (root.leaf) return [{ node: root, all: false }];
    const found = [];
    // Row i: the edits from the key's first i characters to each prefix of
    // the term, by optimal string alignment as in `withinTypos` (a swap of
    // neighbours is one edit); the rows of the key's prefixes are those of
    // the nodes above it, so a walk keeps one row per depth.
    const rows = [Array.from({ length: chars.length + 1 }, (_, j) => j)];
    const push = (key) => {
      const k = Array.from(key);
      const i = k.length;
      const c = k[i - 1];
      rows.length = i;
      const previous = rows[i - 1];
      const row = [i];
      for (let j = 1; j <= chars.length; j++) {
        let edits = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (chars[j - 1] === c ? 0 : 1));
        if (i > 1 && j > 1 && c === chars[j - 2] && k[i - 2] === chars[j - 1]) edits = Math.min(edits, rows[i - 2][j - 2] + 1);
        row.push(edits);
      }
      rows.push(row);
      // A loop, not Math.min(...row): spreading a long row overflows the stack.
      return row.some((edits) => edits <= budget);
    };
    const visit = (node) => {
      if (!push(node.key)) return;
      if (withinTypos(term, node.key, budget, false)) {
        found.push({ node, all: !node.leaf });
        return;
      }
      if (node.leaf || withinTypos(term, node.key, budget)) found.push({ node, all: false });
      if (node.leaf) return;
      for (const child of this.children.get(node.key) ?? []) visit(child);
    };
    const first = this.nodes.get(chars[0]);
    if (first === undefined) return [];
    visit(first);
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
      let entity = 0;
      for (let i = 0; i < postings.length; i++) {
        entity += Math.floor(postings[i] / 16);
        if (postings[i] % 16 & EXACT) found.add(entity);
      }
    }
    return found;
  }

  /**
   * The rows of `entities`, which match every term: from the files already
   * fetched for the query (`atHand`, promises of row and page files), and
   * for those they lack, from the row chunks they fall in, or from the row
   * file of a leaf that alone answered one of the terms (it names every
   * entity that matches that term), whichever holds fewer. When some are
   * at hand and others need another round, `first` (if given) is called
   * with the rows at hand that lead the page, in order.
   */
  async rows(entities, perTerm, atHand, first) {
    // Every file fetched for the query is awaited, even when the page is
    // empty: a host that ends a request's I/O with its response (workerd)
    // would otherwise leave a later query waiting on a fetch that never
    // ends, through the shared cache.
    const found = new Map();
    for (const file of await Promise.all(atHand)) {
      for (const [entity, ...row] of (Array.isArray(file) ? file : file?.rows) ?? []) found.set(entity, row);
    }
    const leading = entities.findIndex((e) => !found.has(e));
    if (leading >= 0) {
      if (first !== undefined && leading > 0) first(entities.slice(0, leading).map((e) => found.get(e)));
      const missing = entities.slice(leading).filter((e) => !found.has(e));
      const per = this.rowsPerFile;
      const chunks = [...new Set(missing.map((e) => Math.floor(e / per)))];
      const leaf = this.rowLeaf(perTerm.map((t) => t.read));
      if (leaf !== undefined && leaf.rows < chunks.length * per) {
        for (const [entity, ...row] of await this.load(indexFile(leaf.files.r))) found.set(entity, row);
      } else {
        const files = await Promise.all(chunks.map((c) => this.load(indexFile(this.chunks[c]))));
        chunks.forEach((c, k) => files[k].forEach((row, j) => found.set(c * per + j, row)));
      }
    }
    return entities.map((e) => found.get(e));
  }

  /**
   * The files that hold the rows of a query's first page, as far as the
   * manifest alone tells, so they can be fetched beside the nodes. One file
   * that names every entity a term matches, and so every match of the
   * query, when there is one: a leaf's row file of at most a chunk's rows,
   * else the group file of the character that follows the leaf's key in
   * the term. Else the page file of a term that is a node's key. On a
   * small site, whose nodes are at hand, only the row file: the other rows
   * are chosen once the page is known.
   */
  firstPageFiles(terms) {
    const per = this.rowsPerFile;
    const nodes = terms.map((term) => [term, this.node(term)]).filter(([, node]) => node !== null);
    const whole = [];
    for (const [term, node] of nodes) {
      // A query of several terms takes a leaf's larger row file too: a
      // page file holds only one term's first page, not theirs.
      if (node.rows > 0 && node.rows <= (terms.length > 1 ? 4 * per : per)) {
        whole.push({ rows: node.rows, file: indexFile(node.files.r) });
        continue;
      }
      const next = Array.from(term)[Array.from(node.key).length];
      if (node.leaf && next !== undefined && node.groups.includes(next)) {
        // Fewer rows than the leaf's: rank after every small row file.
        whole.push({ rows: per + 1, file: indexFile(node.files.g[node.groups.indexOf(next)]) });
      }
    }
    if (whole.length > 0) return [whole.sort((a, b) => a.rows - b.rows)[0].file];
    // One page, of the longest term: likely the rarest, whose first page
    // holds the query's more often than a shorter term's.
    const paged = terms.map((term) => this.pageFile(term)).filter((page) => page !== null);
    return paged.length === 0 ? [] : [paged.reduce((a, b) => (b.key.length > a.key.length ? b : a)).file];
  }

  /**
   * The page file of `term` (`{ key, file }`): where the nodes are
   * fetched, a node whose key is the term has one unless a row file of
   * at most a chunk's rows holds its every match.
   */
  pageFile(term) {
    const node = this.node(term);
    if (this.manifest.nodeFiles || node === null || node.key !== term) return null;
    if (node.rows > 0 && node.rows <= this.rowsPerFile) return null;
    if (node.files.p === undefined) return null;
    return { key: node.key, file: indexFile(node.files.p) };
  }

  /**
   * Of the terms each answered by the nodes in `read`, the one leaf with
   * the fewest rows that alone answered a term and has a row file.
   */
  rowLeaf(read) {
    return read
      .filter((nodes) => nodes.length > 0 && nodes.every((n) => n === nodes[0]) && nodes[0].rows > 0)
      .map((nodes) => nodes[0])
      .sort((a, b) => a.rows - b.rows)[0];
  }

  /**
   * The entities every term matched, as buckets in answer order: one per
   * (ranks last, tier), `tiers` added to each tier (the near tiers follow
   * the strict ones), each `{ size, first }`: how many, and at least the
   * `keep` smallest of them, unsorted. When the candidates come in entity
   * order (one list of postings), the first `keep` are the smallest, and a
   * query matching every entity of a large site keeps a page, not a copy.
   */
  rank(perTerm, exact, tiers, keep) {
    const smallest = perTerm.reduce((a, b) => (b.count < a.count ? b : a));
    const { entities, count } = smallest;
    let ascending = true;
    for (let k = 1; k < count && ascending; k++) ascending = entities[k - 1] < entities[k];
    const cap = ascending ? keep : Infinity;
    const masks = perTerm.map((t) => t.masks);
    const buckets = Array.from({ length: 2 * TIERS }, () => ({ size: 0, first: [] }));
    for (let k = 0; k < count; k++) {
      const entity = entities[k];
      // The fields every term matched in: a bit is set where all agree.
      let name = NAME;
      let nameOrId = NAME_OR_ID;
      let matched = true;
      for (let t = 0; t < masks.length; t++) {
        const mask = masks[t][entity];
        if (mask === 0) {
          matched = false;
          break;
        }
        name &= mask;
        if ((mask & NAME_OR_ID) === 0) nameOrId = 0;
      }
      if (!matched) continue;
      const tier = exact(entity) ? 0 : name !== 0 ? 1 : nameOrId !== 0 ? 2 : 3;
      // A deprecated term ranks last, unless it is an exact match (the
      // strict tier 0): as `engine::ranks_last` says.
      const last = this.deprecated[entity] === 1 && (tiers !== 0 || tier !== 0);
      const bucket = buckets[(last ? TIERS : 0) + tiers + tier];
      bucket.size += 1;
      if (bucket.first.length < cap) bucket.first.push(entity);
    }
    return buckets;
  }

  /**
   * Answers a query; throws SearchError for a bad one. `options.first`,
   * if given, is called at most once, before the answer, with an answer
   * that has the final answer's `total` and its first items, when those
   * came with the query's first round of files and the rest need another
   * round: a page can show its first results that much sooner.
   */
  async search(params, options = {}) {
    const query = parseQuery(params);
    // A one-term query within the first page of a key is answered from the
    // key's page file alone: the build ranked it and counted its matches.
    const keyPage = query.terms.length === 1 && query.offset + query.limit <= DEFAULT_LIMIT ? this.pageFile(query.terms[0]) : null;
    if (keyPage !== null) {
      const file = await this.load(keyPage.file).catch(() => null);
      if (file !== null && file.total > 0) {
        const picked = file.rows.slice(query.offset, query.offset + query.limit);
        const rows = picked.map(([, ...row]) => row);
        return this.answer(query, file.total, rows, picked.map(([entity]) => entity));
      }
    }
    // Each term's first page is fetched now, beside the nodes, so that a
    // page among them needs no second round; one that fails to come is
    // fetched again from the chunks.
    const atHand = this.firstPageFiles(query.terms).map((file) => this.load(file).catch(() => null));
    const [exact, ...perTerm] = await Promise.all([
      this.exact(query.terms.join("")),
      ...query.terms.map((term) => this.termMasks(term)),
    ]);
    const keep = query.offset + query.limit;
    let buckets = this.rank(perTerm, exact.size === 0 ? () => false : (entity) => exact.has(entity), 0, keep);
    if (buckets.every((b) => b.size === 0)) {
      // Nothing matches strictly: the near matches, in the near tiers.
      await Promise.all(query.terms.map((term, k) => this.addNear(term, perTerm[k], atHand)));
      buckets = this.rank(perTerm, () => false, NEAR_TIERS, keep);
    }
    const total = buckets.reduce((sum, b) => sum + b.size, 0);
    const end = Math.min(keep, total);
    const page = [];
    let skipped = 0;
    for (const bucket of buckets) {
      if (page.length >= end - query.offset) break;
      if (skipped + bucket.size <= query.offset) {
        skipped += bucket.size;
        continue;
      }
      const sorted = Uint32Array.from(bucket.first).sort();
      for (let i = Math.max(0, query.offset - skipped); i < sorted.length && page.length < end - query.offset; i++) {
        page.push(sorted[i]);
      }
      skipped += bucket.size;
    }
    const first = options.first && ((leading) => options.first(this.answer(query, total, leading, page)));
    const rows = await this.rows(page, perTerm, atHand, first);
    return this.answer(query, total, rows, page);
  }

  /**
   * The answer to `query`: `total` matches, and the rows of its page,
   * whose entity numbers `entities` gives in the same order (a deprecated
   * term's item says so).
   */
  answer(query, total, rows, entities) {
    const base = this.manifest.baseUrl;
    const end = Math.min(query.offset + query.limit, total);
    const items = rows.map(([id, name, type, summary, explicitSlug], i) => {
      const slug = explicitSlug ?? derivedSlug(id);
      const links = Object.fromEntries(this.manifest.links.map((extension) => [extension, `${base}${slug}.${extension}`]));
      const item = { slug, id, name, type: this.manifest.types[type], summary, links };
      if (this.deprecated[entities[i]] === 1) item.deprecated = true;
      return item;
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
  // The manifest is JSON; every other file the script `fileContent` reads.
  // A `fetch` of one's own may answer a Response, the text, or the content.
  const get = async (url, path) => {
    const response = await fetcher(url);
    let text = response;
    if (response && typeof response.text === "function") {
      if (response.ok === false) throw new Error(`${url}: HTTP ${response.status}`);
      text = await response.text();
    }
    if (typeof text !== "string") return text;
    return path === undefined ? JSON.parse(text) : fileContent(path, text);
  };
  const load = (path) => {
    if (!cache.has(path)) {
      const pending = get(new URL(path, base).href, path);
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

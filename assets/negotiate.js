// Content negotiation for the IRIs an ontosite site mints, for the hosts'
// handlers: the same choices as ontosite's Rust (src/site/negotiation.rs,
// which documents the rules); the tests run both on the same requests.
//
// `table` is what the build generates from its table of formats:
// { slugPattern, unpublished: [paths], resources: [{ path, choices: [{ type, see }] }],
//   aliases: { path: slug } }.

/** The type of an entity's page. */
const PAGE_TYPE = "text/html; charset=utf-8";

/**
 * Whether what the host answers at an entity's IRI is its page. Netlify
 * matches the `_headers` rule `/*.nt` as the regular expression
 * `/(.*).nt`, so the page of `/student` comes typed as N-Triples: a page
 * typed by a rule its slug's tail matches is a page too; its own type is
 * set when it is answered.
 */
function isPage(slug, contentType, table) {
  return (
    contentType.startsWith("text/html") ||
    table.splatTypes.some(([extension, type]) => slug.length > extension.length && slug.endsWith(extension) && contentType.startsWith(type))
  );
}

// The choice itself, from here to "end of the choice", is also the core of
// the CloudFront Function (src/hosts/object_storage.rs), whose runtime takes no
// modules, no destructuring and no spread: it keeps to ES 5.1 with `const`,
// `let` and arrow functions (cloudfront-js-2.0).

/** A quality value ("0", "0.5", "1.000") in thousandths, or null. */
function qvalue(text) {
  const dot = text.indexOf(".");
  const whole = dot < 0 ? text : text.slice(0, dot);
  const fraction = dot < 0 ? "" : text.slice(dot + 1);
  if (fraction.length > 3 || !/^[0-9]*$/.test(fraction)) return null;
  const thousandths = Number((fraction + "000").slice(0, 3));
  if (whole === "0") return thousandths;
  if (whole === "1" && thousandths === 0) return 1000;
  return null;
}

/** One media range of an Accept header: [type, quality], or null. */
function range(text) {
  const parameters = text.split(";");
  const mediaRange = parameters[0].trim().toLowerCase();
  if (mediaRange.indexOf("/") < 0) return null;
  let quality = 1000;
  for (let i = 1; i < parameters.length; i++) {
    const parameter = parameters[i];
    const eq = parameter.indexOf("=");
    if (eq < 0) continue;
    if (parameter.slice(0, eq).trim().toLowerCase() === "q") {
      quality = qvalue(parameter.slice(eq + 1).trim());
      if (quality === null) return null;
    }
  }
  return [mediaRange, quality];
}

/**
 * The index of the choice an Accept header prefers (RFC 9110, 12.5.1):
 * the highest quality of the most specific matching range; among equals,
 * a type the header names before a wildcard's, then the client's order,
 * then ours (as `negotiation::choose` says).
 */
export function choose(accept, choices) {
  if (accept === null || accept === undefined || accept.trim() === "") return 0;
  const ranges = accept.split(",").map(range).filter((r) => r !== null);
  // [quality, specificity, place in the header]
  let best = [0, [0, 0, 0]];
  const better = (a, b) => (a[0] !== b[0] ? a[0] > b[0] : a[1] !== b[1] ? a[1] > b[1] : a[2] < b[2]);
  choices.forEach((choice, i) => {
    const kind = choice.type.split("/")[0];
    let found = null;
    ranges.forEach((r, at) => {
      const mediaRange = r[0];
      const specificity =
        mediaRange === choice.type ? 3 : mediaRange.slice(-2) === "/*" && mediaRange.slice(0, -2) === kind ? 2 : mediaRange === "*/*" ? 1 : 0;
      if (specificity > 0 && (found === null || specificity >= found[1])) found = [r[1], specificity, at];
    });
    if (found !== null && found[0] > 0 && (best[1][0] === 0 || better(found, best[1]))) best = [i, found];
  });
  return best[0];
}

/**
 * The negotiated resource at `pathname`, with the entity's slug and
 * whether the path is an alias (an entity's own IRI in the site's
 * namespace, whose page is at `/{slug}`), or null.
 */
export function resourceAt(pathname, table) {
  const exact = table.resources.filter((r) => r.path === pathname)[0];
  if (exact) return { resource: exact, slug: null, alias: false };
  const entity = table.resources.filter((r) => r.path === "/{slug}")[0];
  if (entity === undefined) return null;
  if (Object.prototype.hasOwnProperty.call(table.aliases, pathname)) return { resource: entity, slug: table.aliases[pathname], alias: true };
  const slug = pathname.slice(1);
  if (pathname.charAt(0) !== "/" || !new RegExp(table.slugPattern).test(slug)) return null;
  return { resource: entity, slug: slug, alias: false };
}

// end of the choice

/** The 32-bit FNV-1a hash of a text's UTF-8 bytes (src/site/bundles.rs). */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash ^ byte, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * An entity's document from its bundle, where the folder it is in bundles
 * them (src/site/bundles.rs, `table.bundles.folders`: the root, `/`, and
 * the releases' copies, `/releases/{version}/`): the bytes its file would
 * hold, typed as the host types the file, with an entity tag of the
 * bundle's and the slug's (a matching `If-None-Match` gets a 304); in a
 * copy, its page at its path without `.html` too (the root's is
 * negotiated); null where `decoded` (the path, percent-decoded) names no
 * bundled document, or the method reads nothing. `fetchAsset(path)` reads a file of the site.
 */
export async function bundled(request, decoded, table, headers, fetchAsset) {
  const bundles = table.bundles;
  if (bundles === undefined || !reads(request)) return null;
  const cut = decoded.lastIndexOf("/") + 1;
  const folder = decoded.slice(0, cut);
  if (!Object.hasOwn(bundles.folders, folder)) return null;
  const match = /^([^/.]+)(?:\.([a-z]+))?$/.exec(decoded.slice(cut));
  if (match === null) return null;
  const slug = match[1];
  const extension = match[2] ?? (folder === "/" ? null : "html");
  if (extension === null || !Object.hasOwn(bundles.types, extension) || !new RegExp(table.slugPattern).test(slug)) return null;
  const answeredIn = bundles.folders[folder];
  const response = await fetchAsset(`${folder}${bundles.dir}/${extension}/${fnv1a(slug) % answeredIn.count}.json`);
  if (!response.ok) return null;
  const documents = await response.json();
  if (!Object.hasOwn(documents, slug)) return null;
  const bundleTag = (response.headers.get("ETag") ?? "").replace(/^W\//, "").replaceAll('"', "");
  const tag = `W/"${bundleTag}-${slug}"`;
  const answered = { ...headers, ...cached(answeredIn), "Content-Type": bundles.types[extension], ETag: tag };
  const asked = request.headers.get("If-None-Match");
  if (asked !== null && asked.split(",").some((t) => t.trim() === tag || t.trim() === "*")) {
    return new Response(null, { status: 304, headers: answered });
  }
  return new Response(request.method === "HEAD" ? null : documents[slug], { status: 200, headers: answered });
}

/**
 * A whole document the site publishes in pieces, where its host takes no
 * file that large (`table.joined`, src/site/parts.rs): its head, each
 * piece's bytes but its first `skip` and last `trim` (a page's own
 * wrapper), the separator between pieces, then its tail, streamed in
 * order as `serve` joins them; null where `pathname` is no such document,
 * or the method reads nothing. The answer is a 200 only once the first
 * piece is there.
 */
export async function joined(request, pathname, table, headers, fetchAsset) {
  const joins = table.joined;
  if (joins === undefined || !reads(request) || !Object.hasOwn(joins, pathname)) return null;
  const join = joins[pathname];
  const fetchPiece = async (piece) => {
    const response = await fetchAsset(`/${piece.path}`);
    if (response.ok && response.body !== null) return response;
    await response.body?.cancel();
    return null;
  };
  const first = join.pieces.length === 0 ? null : await fetchPiece(join.pieces[0]);
  if (first === null) return null;
  const answered = { ...headers, ...cached(join), "Content-Type": join.type };
  if (request.method === "HEAD") {
    await first.body.cancel();
    return new Response(null, { status: 200, headers: answered });
  }
  const { readable, writable } = new TransformStream();
  const writer = writable.getWriter();
  const text = new TextEncoder();
  const copy = async (response, piece) => {
    if (piece.skip === 0 && piece.trim === 0) {
      const reader = response.body.getReader();
      try {
        for (let read = await reader.read(); !read.done; read = await reader.read()) await writer.write(read.value);
      } catch (error) {
        // The client went away: the piece's stream is let go too.
        await reader.cancel().catch(() => {});
        throw error;
      }
      return;
    }
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length < piece.skip + piece.trim) throw new Error(`${piece.path} is shorter than its wrapper`);
    await writer.write(bytes.subarray(piece.skip, bytes.length - piece.trim));
  };
  const join_ = async () => {
    if (join.head !== "") await writer.write(text.encode(join.head));
    for (const [i, piece] of join.pieces.entries()) {
      const response = i === 0 ? first : await fetchPiece(piece);
      if (response === null) throw new Error(`${piece.path}, a piece of ${pathname}, is missing`);
      if (i > 0 && join.separator !== "") await writer.write(text.encode(join.separator));
      await copy(response, piece);
    }
    if (join.tail !== "") await writer.write(text.encode(join.tail));
    await writer.close();
  };
  join_().catch((error) => writer.abort(error));
  return new Response(readable, { status: 200, headers: answered });
}

/**
 * The `Cache-Control` a table entry sets where it is not the site's
 * hour (a kept release's, `cache`), as headers to spread.
 */
export function cached(entry) {
  return entry.cache === undefined ? {} : { "Cache-Control": entry.cache };
}

/** Whether the request's method reads what it names: GET or HEAD. */
function reads(request) {
  return request.method === "GET" || request.method === "HEAD";
}

/**
 * What a handler answers at a path that is not `/search`: a negotiated
 * IRI's answer, else the file, or where the site bundles its entities'
 * documents, one from its bundle. `fallback()` is what the host serves
 * itself; at an entity's IRI, its page is `{path}.html`. The path is
 * read as the host reads it: the request's, decoded once to find a
 * bundled document; or `decodedPath`, from a handler that serves the
 * site itself, decoded once already as `serve` decodes it (never again).
 */
export async function answerAt(request, table, headers, fetchAsset, fallback, decodedPath) {
  const pathname = decodedPath ?? new URL(request.url).pathname;
  let decoded = decodedPath ?? null;
  if (decodedPath === undefined) {
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      decoded = null;
    }
  }
  const whole = await joined(request, pathname, table, headers, fetchAsset);
  if (whole !== null) return whole;
  const file = async (path) => (path === null ? null : await bundled(request, path, table, headers, fetchAsset)) ?? fallback();
  return (await negotiate(request, table, headers, () => file(decoded === null ? null : `${decoded}.html`), pathname)) ?? file(decoded);
}

/** Whether `pathname` is a file the build writes for the host only. */
export function isUnpublished(pathname, table) {
  return table.unpublished.some((p) => (p.endsWith("/*") ? pathname.startsWith(p.slice(0, -1)) : pathname === p));
}

/**
 * The answer to a request for a negotiated IRI, or null when `request` is
 * for another path. `atIri()` gives what the host itself serves at the
 * path (the entity's page, the information document): answered as it is
 * where it is a 404, not an entity's page, or the chosen document; else a
 * 303 See Other. `pathname` as `answerAt` reads it.
 */
export async function negotiate(request, table, headers, atIri, pathname = new URL(request.url).pathname) {
  if (!reads(request)) return null;
  const found = resourceAt(pathname, table);
  if (found === null) return null;
  const { resource, slug, alias } = found;
  const choice = resource.choices[choose(request.headers.get("Accept"), resource.choices)];
  if (alias) {
    // Nothing lives at an alias: every document, the page too, is at the slug.
    const see = (choice.see ?? "/{slug}").replaceAll("{slug}", slug);
    return new Response(null, { status: 303, headers: { ...headers, Location: see, Vary: "Accept" } });
  }
  const answer = await atIri();
  // An entity's IRI is one where the site serves the entity's page: a path
  // a redirect rule sends elsewhere answers as it would without this.
  if (answer.status === 404 || (slug !== null && !isPage(slug, answer.headers.get("Content-Type") ?? "", table))) return answer;
  if (choice.see === null) {
    const inPlace = new Response(answer.body, answer);
    if (slug !== null) inPlace.headers.set("Content-Type", PAGE_TYPE);
    inPlace.headers.append("Vary", "Accept");
    return inPlace;
  }
  const location = slug === null ? choice.see : choice.see.replaceAll("{slug}", slug);
  // What is at the IRI is not sent: its stream is let go.
  await answer.body?.cancel();
  return new Response(null, { status: 303, headers: { ...headers, Location: location, Vary: "Accept" } });
}

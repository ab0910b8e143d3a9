// CloudFront Function (viewer request, runtime cloudfront-js-2.0) for a site
// `ontosite publish` put in an S3 bucket behind CloudFront. It answers what
// `serve` answers with code and an S3 origin cannot: the See Others of
// content negotiation and of the version IRIs, an entity's page at its IRI,
// and a page at its path without `.html`. It reads no object, so an IRI is
// negotiated whether or not the site has it (the document it is sent to is
// then the 404). Every other request goes on to the bucket as it is: set
// the distribution's 404 custom error response to /404.json (docs/hosts.md).
// A classic script, as CloudFront runs one: its table and the choice
// (negotiate.js) come first.

/** A 303 to `location`, with the headers every answer of the site carries. */
function seeOther(location, cache, negotiated) {
  const headers = {
    location: { value: location },
    "access-control-allow-origin": { value: "*" },
    "access-control-expose-headers": { value: "ETag, Link" },
    "cache-control": { value: cache || "public, max-age=3600" },
    "x-content-type-options": { value: "nosniff" },
  };
  if (negotiated) headers.vary = { value: "Accept" };
  return { statusCode: 303, statusDescription: "See Other", headers: headers };
}

/**
 * The See Other of a version IRI at `path` (without its trailing `/`), by
 * the table's groups of paths `{prefix}{version}{suffix}`, each to
 * `/releases/{version}/`; undefined where none names it.
 */
function versionRule(path) {
  const groups = NEGOTIATION.seeOtherVersions || [];
  for (let i = 0; i < groups.length; i++) {
    const group = groups[i];
    const end = path.length - group.suffix.length;
    if (end < group.prefix.length || path.indexOf(group.prefix) !== 0 || path.slice(end) !== group.suffix) continue;
    const version = path.slice(group.prefix.length, end);
    if (group.versions.indexOf(version) >= 0) return { to: "/releases/" + version + "/", cache: group.cache };
  }
  return undefined;
}

function handler(event) {
  const request = event.request;
  const path = request.uri;
  if (request.method !== "GET" && request.method !== "HEAD") return request;
  // A trailing `/` matches with or without, as a rule's path does.
  const bare = (p) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  // (Never one to the path itself: `/releases/1/` is its release's root.)
  const moved = versionRule(bare(path)) || (NEGOTIATION.seeOther || []).filter((rule) => rule.path === bare(path))[0];
  if (moved && bare(moved.to) !== bare(path)) return seeOther(moved.to, moved.cache, false);
  const found = resourceAt(path, NEGOTIATION);
  // In place: an entity's page, or the document at the IRI itself.
  let page = false;
  if (found !== null) {
    const accept = request.headers.accept ? request.headers.accept.value : null;
    const choice = found.resource.choices[choose(accept, found.resource.choices)];
    const see = choice.see !== null ? choice.see : found.alias ? "/{slug}" : null;
    if (see !== null) return seeOther(see.split("{slug}").join(found.slug), undefined, true);
    page = choice.type.indexOf("text/html") === 0;
  }
  const rewrite = NEGOTIATION.rewrites.filter((r) => r.force && r.status === 200 && r.path === path)[0];
  const last = path.slice(path.lastIndexOf("/") + 1);
  if (rewrite) request.uri = rewrite.to;
  else if (found !== null) request.uri = page ? path + ".html" : path;
  else if (last === "") request.uri = path + "index.html";
  // A page at its path without `.html`, as the other hosts answer it; the
  // site's few files without an extension (`/all`) are named in the table.
  else if (last.indexOf(".") < 0 && NEGOTIATION.plain.indexOf(last) < 0) request.uri = path + ".html";
  return request;
}

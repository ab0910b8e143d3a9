//! The answer to one request, as the CDN gives it: search first (an edge
//! function on the hosts), then the redirect rules with shadowing, then the
//! site's files, the header rules on every response, errors included.
//!
//! Each concern is one small function that `answer` calls in turn, as in
//! static-web-server; `answer` is plain code over a [`Snapshot`], so the
//! router around it only moves bytes.

use super::encoding::{self, Coding};
use super::path::{self, SitePath};
use super::range;
use super::rules::Route;
use super::search_index::{Reads, Unanswered};
use super::site::Snapshot;
use crate::site::routes::{Serves, endpoints};
use crate::site::{answers, media, negotiation};
use bytes::Bytes;
use http::{HeaderMap, HeaderName, HeaderValue, Method, Response, StatusCode, header};
use std::sync::OnceLock;

/// A response's body: the whole answer, made before it is sent.
pub type Body = http_body_util::Full<Bytes>;

/// The type of an entity's page, answered at its IRI.
const PAGE_TYPE: &str = media::PAGE;

/// The methods every path answers.
const ALLOW: &str = "GET, HEAD, OPTIONS";

/// What a response carries before it becomes an HTTP response.
struct Answer {
    status: StatusCode,
    content_type: Option<String>,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
    /// Whether this is an entity's page answered at its IRI, whose type no
    /// header rule changes (`negotiate`).
    is_page: bool,
}

impl Answer {
    fn new(status: StatusCode, content_type: &str, body: Vec<u8>) -> Answer {
        Answer {
            status,
            content_type: Some(content_type.to_owned()),
            headers: Vec::new(),
            body,
            is_page: false,
        }
    }

    fn problem(status: StatusCode, detail: &str) -> Answer {
        let title = status.canonical_reason().unwrap_or("Error");
        let body = answers::problem(status.as_u16(), title, detail).to_string();
        Answer::new(status, "application/problem+json", body.into_bytes())
    }

    fn empty(status: StatusCode) -> Answer {
        Answer {
            status,
            content_type: None,
            headers: Vec::new(),
            body: Vec::new(),
            is_page: false,
        }
    }
}

/// An answer with every header but those that depend on the request:
/// what a cache may keep and hand to every client that asks the same.
#[derive(Debug, Clone)]
pub struct Prepared {
    status: StatusCode,
    headers: HeaderMap,
    body: Bytes,
    /// Whether every request for the same path and query gets this answer
    /// from the same site (files and rules; not search, not errors of the
    /// method).
    pub cacheable: bool,
    /// The body in brotli and in gzip, made when first asked for.
    coded: [OnceLock<Bytes>; 2],
}

impl Prepared {
    /// What a cache counts this answer as: the body, its codings, headers.
    pub fn weight(&self) -> u64 {
        (self.body.len() * 2 + 64 * self.headers.len()) as u64
    }

    fn compressible(&self) -> bool {
        let media_type = self
            .headers
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok());
        self.body.len() >= encoding::MIN_SIZE
            && media_type.is_some_and(|t| {
                t.starts_with("text/")
                    || t.contains("json")
                    || t.contains("javascript")
                    || t.contains("xml")
                    // RDF's line formats are text under `application/`.
                    || t.starts_with("application/n-triples")
                    || t.starts_with("application/n-quads")
            })
    }

    fn body_in(&self, coding: Coding) -> Bytes {
        let slot = match coding {
            Coding::Identity => return self.body.clone(),
            Coding::Brotli => &self.coded[0],
            Coding::Gzip => &self.coded[1],
        };
        slot.get_or_init(|| encoding::encode(&self.body, coding))
            .clone()
    }
}

/// What an answer depends on besides the site, as the cache keys it. A
/// file's answer is kept once, whatever the query (`?_=<random>`, the
/// usual cache-buster, must not fill the cache), unless a redirect rule
/// looks at the query; a negotiated IRI's answer once per document that
/// `Accept` can choose (never per `Accept` header as sent: there are as
/// many of those as clients).
pub fn cache_key(site: &Snapshot, uri: &http::Uri, request: &HeaderMap, runs_code: bool) -> String {
    let mut key = if site.redirects.read_queries() {
        uri.path_and_query().map_or("", |p| p.as_str()).to_owned()
    } else {
        uri.path().to_owned()
    };
    let path = path::site_path(uri.path()).ok().filter(|_| runs_code);
    let negotiated = path
        .as_ref()
        .and_then(|p| negotiation::resource_at(p.as_str(), &site.aliases).map(|f| f.resource));
    if let Some(resource) = negotiated {
        let accept = request.get(header::ACCEPT).and_then(|v| v.to_str().ok());
        key.push_str(&format!(
            "\nAccept: {}",
            negotiation::choose(accept, &resource.choices)
        ));
    }
    key
}

/// Answers one request from one site.
pub fn answer(
    site: &Snapshot,
    method: &Method,
    uri: &http::Uri,
    request: &HeaderMap,
    runs_code: bool,
) -> Prepared {
    let raw_path = uri.path();
    let path = match path::site_path(raw_path) {
        Ok(path) => path,
        Err(refusal) => {
            let answer = Answer::problem(StatusCode::BAD_REQUEST, refusal.0);
            return prepare(site, raw_path, answer, false);
        }
    };
    let (answer, cacheable) = match *method {
        _ if is_search_request(method, &path, runs_code) => {
            let query = uri.query().unwrap_or("");
            // With reads allowed every search is answered.
            let answer = search(site, query, Reads::Allowed).unwrap_or_else(|| {
                Answer::problem(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "the search was not answered",
                )
            });
            (answer, false)
        }
        Method::GET | Method::HEAD => {
            match negotiation::resource_at(path.as_str(), &site.aliases).filter(|_| runs_code) {
                // Kept by the document `Accept` chooses (`cache_key`).
                Some(found) => (
                    negotiate(site, &path, uri.query().unwrap_or(""), request, &found),
                    true,
                ),
                None => (get(site, &path, uri.query().unwrap_or(""), runs_code), true),
            }
        }
        Method::OPTIONS => (options(request), false),
        _ => {
            let mut answer = Answer::problem(
                StatusCode::METHOD_NOT_ALLOWED,
                "This API is read-only: it answers GET, HEAD and OPTIONS.",
            );
            answer.headers.push(("Allow".into(), ALLOW.into()));
            (answer, false)
        }
    };
    prepare(site, path.as_str(), answer, cacheable)
}

/// `OPTIONS`: a CORS preflight gets what it asks for, as far as a read-only
/// API allows; any other `OPTIONS` learns the allowed methods.
fn options(request: &HeaderMap) -> Answer {
    let mut answer = Answer::empty(StatusCode::NO_CONTENT);
    let preflight = request.contains_key(header::ORIGIN)
        && request.contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    if preflight {
        answer
            .headers
            .push(("Access-Control-Allow-Methods".into(), ALLOW.into()));
        if let Some(asked) = request
            .get(header::ACCESS_CONTROL_REQUEST_HEADERS)
            .and_then(|v| v.to_str().ok())
        {
            answer
                .headers
                .push(("Access-Control-Allow-Headers".into(), asked.into()));
        }
        // As long as the responses themselves may be cached.
        answer
            .headers
            .push(("Access-Control-Max-Age".into(), "3600".into()));
    } else {
        answer.headers.push(("Allow".into(), ALLOW.into()));
    }
    answer
}

fn get(site: &Snapshot, path: &SitePath, query: &str, runs_code: bool) -> Answer {
    let static_file = static_file(site, path, runs_code);
    // Query conditions match the decoded parameters, the first of a name.
    let params = QueryParams::parse(query);
    let route = site
        .redirects
        .route(path.as_str(), |name| params.first(name));
    match route {
        Some(route) if route.force || static_file.is_none() => follow(site, &route, runs_code),
        _ => match static_file {
            Some((served, body)) => file(&served, body, StatusCode::OK),
            None => not_found(),
        },
    }
}

/// A negotiated IRI (`site::negotiation`): the document the client's
/// `Accept` prefers, by a `303 See Other` to its URL, or in place where it
/// lives at the IRI itself; whatever is at the IRI where that is a 404.
fn negotiate(
    site: &Snapshot,
    path: &SitePath,
    query: &str,
    request: &HeaderMap,
    found: &negotiation::Found,
) -> Answer {
    let accept = request.get(header::ACCEPT).and_then(|v| v.to_str().ok());
    let choices = &found.resource.choices;
    let choice = &choices[negotiation::choose(accept, choices)];
    let see_other = |location: String| {
        let mut answer = Answer::empty(StatusCode::SEE_OTHER);
        answer.headers.push(("Location".into(), location));
        answer.headers.push(("Vary".into(), "Accept".into()));
        answer
    };
    // Nothing lives at an alias: every document, the page too, is at the
    // slug.
    if found.alias
        && let Some(location) = negotiation::location(choice, found)
    {
        return see_other(location);
    }
    let at_iri = get(site, path, query, true);
    // An entity's IRI is one where the site serves the entity's page: a
    // path a redirect rule sends elsewhere, or no entity at all, answers
    // as it would without negotiation. The type it comes with is the
    // file's before the header rules (`prepare`), which may type a page
    // wrongly (`site::negotiation::is_page`); its own is kept.
    let is_page = |slug: &str| {
        at_iri
            .content_type
            .as_deref()
            .is_some_and(|t| negotiation::is_page(slug, t))
    };
    if at_iri.status == StatusCode::NOT_FOUND || found.slug.is_some_and(|s| !is_page(s)) {
        return at_iri;
    }
    match negotiation::location(choice, found) {
        Some(location) => see_other(location),
        None => {
            let mut answer = at_iri;
            answer.is_page = found.slug.is_some();
            answer.headers.push(("Vary".into(), "Accept".into()));
            answer
        }
    }
}

/// A request's query parameters, decoded.
struct QueryParams(Vec<(String, String)>);

impl QueryParams {
    fn parse(query: &str) -> QueryParams {
        QueryParams(
            url::form_urlencoded::parse(query.as_bytes())
                .into_owned()
                .collect(),
        )
    }

    /// The first value of `name`, as URLSearchParams.get and Netlify's
    /// query conditions take it.
    fn first(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Whether the request is a search: a read of the path the hosts answer
/// with compute, where this server runs it.
fn is_search_request(method: &Method, path: &SitePath, runs_code: bool) -> bool {
    matches!(*method, Method::GET | Method::HEAD)
        && runs_code
        && endpoints()
            .iter()
            .any(|e| matches!(e.serves, Serves::Search) && e.path == path.as_str())
}

/// The answer to a search request that the search index's caches alone
/// can give, made on the connection's own thread: most queries of a
/// warm server, without the hand-over to the blocking pool and back.
/// `None` for any other request, and for a search that must read a file
/// or is too long to answer on that thread.
pub fn answer_from_memory(
    site: &Snapshot,
    method: &Method,
    uri: &http::Uri,
    runs_code: bool,
) -> Option<Prepared> {
    let path = path::site_path(uri.path())
        .ok()
        .filter(|path| is_search_request(method, path, runs_code))?;
    let answer = search(site, uri.query().unwrap_or(""), Reads::CachedOnly)?;
    Some(prepare(site, path.as_str(), answer, false))
}

/// The answer to a search; `None` when `reads` forbids a read it needs.
fn search(site: &Snapshot, query: &str, reads: Reads) -> Option<Answer> {
    Some(
        match answers::respond_to_query(query, |query| site.index.answer(query, reads)) {
            Ok((200, body)) => Answer::new(StatusCode::OK, "application/json", body),
            Ok((status, body)) => Answer::new(
                StatusCode::from_u16(status).unwrap_or(StatusCode::BAD_REQUEST),
                "application/problem+json",
                body,
            ),
            Err(Unanswered::Uncached) => return None,
            Err(Unanswered::Bad(error)) => {
                Answer::problem(StatusCode::INTERNAL_SERVER_ERROR, &error.to_string())
            }
        },
    )
}

/// The file a path names on a static host, as Netlify finds it: the file
/// itself; for `/name/`, `name/index.html`, then the file `name` and
/// `name.html`; for `/name`, `name.html` ("pretty URLs"), then
/// `name/index.html`. Never a private file. Where the host runs code, an
/// entity's document is found in its bundle too (`site::bundles`), as the
/// hosts' handlers find it.
fn static_file(site: &Snapshot, path: &SitePath, runs_code: bool) -> Option<(SitePath, Vec<u8>)> {
    let stem = path.as_str().trim_end_matches('/');
    let candidates = if path.is_directory() {
        vec![
            format!("{stem}/index.html"),
            stem.to_owned(),
            format!("{stem}.html"),
        ]
    } else {
        vec![
            path.as_str().to_owned(),
            format!("{stem}.html"),
            format!("{stem}/index.html"),
        ]
    };
    candidates.iter().find_map(|candidate| {
        let served = path::checked(candidate).ok()?;
        if path::is_private(&served) {
            return None;
        }
        // A handler finds a bundled document at its own path and a page at
        // `/{slug}`, not under a folder's `/`.
        let bundled = runs_code && !path.is_directory();
        let body = site
            .dir
            .read(&served)
            .or_else(|| bundled.then(|| site.bundled(&served)).flatten())
            .or_else(|| bundled.then(|| site.joined(&served)).flatten())?;
        Some((served, body))
    })
}

/// A matching rule: a rewrite serves another file of the site with the
/// rule's status; anything else redirects.
fn follow(site: &Snapshot, route: &Route, runs_code: bool) -> Answer {
    let status = StatusCode::from_u16(route.status).unwrap_or(StatusCode::OK);
    if !route.is_rewrite() {
        let mut answer = Answer::empty(status);
        answer.headers.push(("Location".into(), route.to.clone()));
        return answer;
    }
    match (route.rewrite_path.as_deref())
        .and_then(|target| path::checked(target).ok())
        .and_then(|t| static_file(site, &t, runs_code))
    {
        Some((served, body)) => file(&served, body, status),
        None => not_found(),
    }
}

fn file(served: &SitePath, body: Vec<u8>, status: StatusCode) -> Answer {
    Answer {
        status,
        content_type: Some(media_type(served)),
        headers: Vec::new(),
        body,
        is_page: false,
    }
}

/// The host's own answer when neither a rule nor a file answers.
fn not_found() -> Answer {
    Answer::problem(
        StatusCode::NOT_FOUND,
        "No resource of this API is at that path.",
    )
}

/// The media type a static host gives a file by its name.
fn media_type(path: &SitePath) -> String {
    crate::site::media::of_file(path.as_str())
}

/// Adds the header rules of the request path and the entity tag.
fn prepare(site: &Snapshot, rules_path: &str, answer: Answer, cacheable: bool) -> Prepared {
    let mut headers = HeaderMap::new();
    if let Some(content_type) = &answer.content_type {
        insert(&mut headers, "Content-Type", content_type);
    }
    // The site's rules come after the defaults, so that they win, as on
    // the host: `/all` and `.jsonld` get their types this way.
    for (name, value) in answer
        .headers
        .iter()
        .chain(&site.headers.for_path(rules_path))
    {
        insert(&mut headers, name, value);
    }
    // A kept release's files never change; a 404 there may yet be
    // answered (a release published later), so it keeps the hour, whatever
    // the rule for its path says, as the R2 Worker's does.
    if let Some(frozen) = crate::site::routes::cache_control(rules_path) {
        let answered = answer.status.is_success() || answer.status.is_redirection();
        let cache = if answered {
            frozen
        } else {
            crate::site::routes::HOUR
        };
        insert(&mut headers, "Cache-Control", cache);
    }
    // Every error is a problem document, as openapi.json says, whatever a
    // rule for the requested path types its files as. (Netlify applies
    // that rule to a 404 too: docs/serve.md lists the difference.)
    if answer.status.is_client_error() && answer.content_type.is_some() {
        insert(&mut headers, "Content-Type", media::PROBLEM);
    }
    // A See Other has no body, so no type, whatever a rule for its path
    // says (`/.well-known/void` is typed Turtle).
    if answer.status == StatusCode::SEE_OTHER {
        headers.remove(header::CONTENT_TYPE);
    }
    if answer.is_page {
        insert(&mut headers, "Content-Type", PAGE_TYPE);
    }
    if answer.status == StatusCode::OK {
        insert(&mut headers, "ETag", &entity_tag(&answer.body));
    }
    Prepared {
        status: answer.status,
        headers,
        body: Bytes::from(answer.body),
        // Only files and negotiated IRIs' See Others: an error answer is
        // cheap to make again, and keeping one per unknown path would let
        // requests fill the cache.
        cacheable: cacheable
            && (answer.status.is_success() || answer.status == StatusCode::SEE_OTHER),
        coded: Default::default(),
    }
}

/// The response to one request: `If-None-Match` answered with 304 where
/// the tag matches. (`Served::answer` leaves out the body of a HEAD response.)
pub fn finish(prepared: &Prepared, request: &HeaderMap) -> Response<Body> {
    let mut response = Response::builder().status(prepared.status);
    let headers = response.headers_mut().expect("a fresh builder has headers");
    headers.clone_from(&prepared.headers);
    // Every answer of a compressible file says so, 304 and 206 included
    // (RFC 9110, 15.4.5): a cache keeps the coding apart either way.
    let compressible = prepared.compressible();
    if compressible {
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
    }
    let not_modified = prepared.status == StatusCode::OK
        && prepared
            .headers
            .get(header::ETAG)
            .and_then(|tag| tag.to_str().ok())
            .is_some_and(|tag| none_match(request, tag));
    if not_modified {
        headers.remove(header::CONTENT_TYPE);
        return response
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::default())
            .expect("valid parts");
    }
    if prepared.status == StatusCode::OK && prepared.cacheable {
        headers.insert(header::ACCEPT_RANGES, HeaderValue::from_static("bytes"));
        let tag = headers.get(header::ETAG).and_then(|t| t.to_str().ok());
        if let Some(part) = range::part(request, tag, &prepared.body) {
            insert(headers, "Content-Range", &part.content_range);
            if part.status == StatusCode::RANGE_NOT_SATISFIABLE {
                headers.remove(header::CONTENT_TYPE);
            }
            return response
                .status(part.status)
                .body(Body::from(part.body))
                .expect("valid parts");
        }
    }
    let coding = if compressible {
        encoding::negotiate(
            request
                .get(header::ACCEPT_ENCODING)
                .and_then(|v| v.to_str().ok()),
        )
    } else {
        Coding::Identity
    };
    if let Some(name) = coding.header() {
        headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(name));
    }
    response
        .body(Body::from(prepared.body_in(coding)))
        .expect("valid parts")
}

fn insert(headers: &mut HeaderMap, name: &str, value: &str) {
    if let (Ok(name), Ok(value)) = (HeaderName::try_from(name), HeaderValue::try_from(value)) {
        headers.insert(name, value);
    }
}

/// A weak tag from the content hash: weak, because the compression layer
/// may send the same content in another encoding under the same tag.
fn entity_tag(body: &[u8]) -> String {
    let hash = blake3::hash(body);
    format!("W/\"{}\"", &hash.to_hex()[..32])
}

/// `If-None-Match` by weak comparison (RFC 9110, 13.1.2).
fn none_match(request: &HeaderMap, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_owned();
    request
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|t| t.trim() == "*" || opaque(t) == opaque(tag))
}

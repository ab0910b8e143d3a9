//! The documents every way of answering writes the same: the problem
//! document of an error, and the answer to a search. The reference, `serve`
//! from the index files and (through the tests) the hosts' handlers all
//! write their answers here.

use super::formats::Links;
use crate::model::BaseUrl;
use crate::search::reader::Found;
use crate::search::{Answer, Listing, Query, Searcher};
use serde::Serialize;
use serde_json::{Value, json};

/// An RFC 9457 problem document. `about:blank` as the type: the status
/// and its title say all there is to say.
pub fn problem(status: u16, title: &str, detail: &str) -> Value {
    json!({ "type": "about:blank", "title": title, "status": status, "detail": detail })
}

/// One entity of a search answer: an entry of `index.json` with what kind
/// of entity it is and the start of its description.
#[derive(Serialize)]
struct SearchItem<'a> {
    slug: &'a str,
    id: &'a str,
    name: &'a str,
    #[serde(rename = "type")]
    kind: &'a str,
    summary: &'a str,
    links: Links<'a>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    deprecated: bool,
}

/// The answer to a search (`docs/search.md`).
pub fn search_answer(
    searcher: &Searcher,
    query: &Query,
    answer: &Answer,
) -> Result<Vec<u8>, serde_json::Error> {
    let listings = searcher.listings();
    let page: Vec<&Listing> = answer.page.iter().map(|&i| &listings[i]).collect();
    answer_page(
        searcher.base_url,
        query,
        answer.total,
        answer.next_offset,
        &page,
    )
}

/// The answer to a search from what the index's reader found
/// (`search::reader`): `serve`'s and the WebAssembly reader's.
pub fn found_answer(
    base_url: &BaseUrl,
    query: &Query,
    found: &Found,
) -> Result<Vec<u8>, serde_json::Error> {
    let listed: Vec<&Listing> = found.listings.iter().collect();
    answer_page(base_url, query, found.total, found.next_offset, &listed)
}

/// The answer to a search from its parts: how many entities match, the
/// offset of the next page, and this page's entities. Whatever answers a
/// search (the reference, or `serve` from the index files) writes its
/// answer here.
pub fn answer_page(
    base_url: &BaseUrl,
    query: &Query,
    total: usize,
    next_offset: Option<usize>,
    page: &[&Listing],
) -> Result<Vec<u8>, serde_json::Error> {
    #[derive(Serialize)]
    struct SearchAnswer<'a> {
        query: &'a str,
        total: usize,
        limit: usize,
        offset: usize,
        items: Vec<SearchItem<'a>>,
        next: Option<String>,
    }
    let next = next_offset.map(|offset| {
        let q: String = url::form_urlencoded::byte_serialize(query.text.as_bytes()).collect();
        base_url.join(&format!(
            "search?q={q}&limit={}&offset={offset}",
            query.limit
        ))
    });
    serde_json::to_vec(&SearchAnswer {
        query: &query.text,
        total,
        limit: query.limit,
        offset: query.offset,
        items: page
            .iter()
            .map(|listing| SearchItem {
                slug: listing.slug.as_str(),
                id: &listing.id,
                name: &listing.name,
                kind: &listing.kind,
                summary: &listing.summary,
                links: Links::at(base_url, &listing.slug),
                deprecated: listing.deprecated,
            })
            .collect(),
        next,
    })
}

/// The whole answer to a `/search` request from its raw parameters: 200
/// with the answer, or 400 with a problem document saying what is wrong.
/// The server answers with this; the hosts' handlers are tested against it.
pub fn search_response(
    searcher: &Searcher,
    q: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
) -> Result<(u16, Vec<u8>), serde_json::Error> {
    respond(q, limit, offset, |query| {
        search_answer(searcher, query, &searcher.search(query))
    })
}

/// [`respond`] to a request's query string (`q=…&limit=…&offset=…`),
/// each parameter's first value taken, as `URLSearchParams.get` and
/// Netlify's query conditions take it.
pub fn respond_to_query<E: From<serde_json::Error>>(
    query: &str,
    answer: impl FnOnce(&Query) -> Result<Vec<u8>, E>,
) -> Result<(u16, Vec<u8>), E> {
    let first = |name: &str| {
        url::form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.into_owned())
    };
    let (q, limit, offset) = (first("q"), first("limit"), first("offset"));
    respond(q.as_deref(), limit.as_deref(), offset.as_deref(), answer)
}

/// [`search_response`] with any search: `answer` answers a checked query.
pub fn respond<E: From<serde_json::Error>>(
    q: Option<&str>,
    limit: Option<&str>,
    offset: Option<&str>,
    answer: impl FnOnce(&Query) -> Result<Vec<u8>, E>,
) -> Result<(u16, Vec<u8>), E> {
    match Query::from_params(q, limit, offset) {
        Ok(query) => Ok((200, answer(&query)?)),
        Err(error) => Ok((
            400,
            serde_json::to_vec(&problem(400, "Bad Request", &error.to_string()))?,
        )),
    }
}

//! The human front door: `index.html` and a page per entity, rendered from
//! templates (minijinja, HTML auto-escaping), plus the page's stylesheet
//! and script, and the search index as a script for pages opened from disk.
//!
//! The built-in templates are the repository's `templates/`, compiled into
//! the binary; a user's own (`build --templates DIR`) replace them by name.
//! Pages link relatively, so `dist/` works from `file://` as from a host.

use super::error::RenderError;
use super::json::{SynonymView, TermLinks, TermRef, TextView};
use super::manchester::{self, Namer};
use super::rendering::Rendering;
use super::templates::script_json;
use super::{info, jsonld};
use crate::model::{Entity, Text, cut};
use crate::search::text::short_name;
use crate::site::formats::ENTITY_FORMATS;
use minijinja::context;
use serde::Serialize;
use serde_json::Value;

/// One entity as its page shows it.
#[derive(Serialize)]
struct EntityView<'a> {
    slug: &'a str,
    id: &'a str,
    name: &'a str,
    description: &'a str,
    iri: String,
    json_url: String,
    jsonld_url: String,
    /// The entity's other documents, one per entity format.
    representations: Vec<Representation>,
    fields: Vec<Field<'a>>,
    /// What kind of entity it is (`CreateAction`, `owl:Class`).
    kind: String,
    /// The entity's JSON document, as `/{slug}.json` answers it, indented.
    json: String,
    /// What the page shows of a term of an ontology source.
    term: Option<TermPage<'a>>,
}

/// A term's page: its names in every language, its place in the
/// hierarchy, and every statement of the source about it.
#[derive(Serialize)]
struct TermPage<'a> {
    /// Its types, as prefixed names where ontosite knows the prefix.
    types: Vec<String>,
    /// Every name and description, the language shown with each.
    labels: Vec<TextView<'a>>,
    descriptions: Vec<TextView<'a>>,
    synonyms: Vec<SynonymPage<'a>>,
    /// The IDs it was known by before.
    alternative_ids: &'a [String],
    /// The nearest terms of a path from a root down to the parent.
    breadcrumbs: Vec<TermRef<'a>>,
    /// The term above the breadcrumbs, where the path goes on.
    breadcrumbs_above: Option<TermRef<'a>>,
    /// Whether the hierarchy's pages show it: it has a parent or a child.
    in_tree: bool,
    /// The hierarchy's page that shows it.
    tree_page: String,
    #[serde(flatten)]
    links: TermLinks<'a>,
    /// Its class expressions in Manchester syntax.
    axioms: Vec<manchester::Axiom>,
    /// Its statements, less those the axioms and annotations show.
    statements: Vec<Statement<'a>>,
}

/// A synonym on a page: as its JSON states it, its type by name.
#[derive(Serialize)]
struct SynonymPage<'a> {
    #[serde(flatten)]
    view: SynonymView<'a>,
    kind_name: Option<String>,
}

/// Names IRIs on a page: a published term by its name, with its page;
/// another by its prefixed name.
struct PageNamer<'s, 'a>(&'s Rendering<'a>);

impl Namer for PageNamer<'_, '_> {
    fn name(&self, iri: &str) -> manchester::Part {
        let site = self.0;
        let published = site
            .relations
            .position(iri)
            .map(|p| &site.ontology.entities[p]);
        manchester::Part {
            text: published.map_or_else(
                || site.ontology.meta.compact(iri),
                |e| short_name(&e.name).into_owned(),
            ),
            iri: Some(iri.to_owned()),
            href: published.map(|e| format!("{}.html", e.slug)),
        }
    }
}

/// One triple about the term, as a row: its predicate, its object.
#[derive(Serialize)]
struct Statement<'a> {
    /// The predicate for people: the name of the term it is where the
    /// site publishes it, else its IRI's local name, made readable.
    label: String,
    /// As a prefixed name where ontosite knows the prefix.
    predicate: String,
    predicate_iri: &'a str,
    /// The object as text: a literal's value, a published term's name, an
    /// IRI (prefixed where ontosite knows the prefix), or `_:b1` for a
    /// blank node (which then has rows of its own).
    object: String,
    /// The object's IRI, where it is one.
    object_iri: Option<&'a str>,
    language: Option<&'a str>,
    /// Where the object is a published term, its page.
    href: Option<String>,
    /// The subject where it is a blank node under the term.
    under: Option<&'a str>,
    /// What an `owl:Axiom` says of this statement: a definition's
    /// references, a synonym's type.
    annotations: Vec<manchester::Annotation>,
}

impl<'a> TermPage<'a> {
    fn of(site: &'a Rendering, entity: &'a Entity) -> Option<TermPage<'a>> {
        let term = entity.term.as_deref()?;
        let relations = &site.relations;
        let position = relations.position_of(entity);
        let at = |list: &[usize]| list.iter().map(|&p| TermRef::at(site, p)).collect();
        // The name and description the page leads with are not repeated.
        let others = |texts: &'a [Text], shown: &str| -> Vec<TextView<'a>> {
            TextView::all(texts)
                .into_iter()
                .filter(|t| t.value != shown)
                .collect()
        };
        let tree_page = position.and_then(|p| site.tree_pages().page_of(p));
        let (crumbs, above) = position.map_or((Vec::new(), None), |p| {
            relations.breadcrumbs(site.ontology, p)
        });
        let mut described = manchester::describe(
            entity.iri.as_deref().unwrap_or_default(),
            &term.statements,
            &PageNamer(site),
        );
        Some(TermPage {
            types: term
                .types
                .iter()
                .map(|t| site.ontology.meta.compact(t))
                .collect(),
            labels: others(&term.labels, &entity.name),
            descriptions: others(&term.descriptions, &entity.description),
            synonyms: SynonymView::all(&term.synonyms)
                .into_iter()
                .map(|view| SynonymPage {
                    kind_name: view.kind.map(|k| PageNamer(site).name(k).text),
                    view,
                })
                .collect(),
            alternative_ids: &term.alternative_ids,
            breadcrumbs: at(&crumbs),
            breadcrumbs_above: above.map(|p| TermRef::at(site, p)),
            in_tree: tree_page.is_some(),
            tree_page: super::browse::TreePages::file(tree_page.unwrap_or(0)),
            links: TermLinks::of(site, entity, term, false),
            axioms: std::mem::take(&mut described.axioms),
            statements: term
                .statements
                .iter()
                .enumerate()
                .filter(|(at, _)| !described.shown.contains(at))
                .map(|(_, t)| {
                    let annotations = described
                        .annotations
                        .remove(&(t.predicate.as_str(), &t.object))
                        .unwrap_or_default();
                    Statement::of(site, t, annotations)
                })
                .collect(),
        })
    }
}

impl<'a> Statement<'a> {
    /// A statement of the term's that no other part of its page shows:
    /// the predicate by its name where the site publishes it, the object
    /// linked where it names a page.
    fn of(
        site: &'a Rendering,
        t: &'a oxrdf::Triple,
        annotations: Vec<manchester::Annotation>,
    ) -> Statement<'a> {
        let (object, language, href) = match &t.object {
            oxrdf::Term::NamedNode(n) => {
                let named = PageNamer(site).name(n.as_str());
                (named.text, None, named.href)
            }
            oxrdf::Term::BlankNode(b) => (format!("_:{}", b.as_str()), None, None),
            oxrdf::Term::Literal(l) => (l.value().to_owned(), l.language(), None),
        };
        let predicate = t.predicate.as_str();
        let published = site
            .relations
            .position(predicate)
            .map(|p| &site.ontology.entities[p]);
        Statement {
            label: match published {
                Some(term) => readable(&short_name(&term.name)),
                None => readable(crate::model::namespaces::local_name(predicate)),
            },
            object_iri: match &t.object {
                oxrdf::Term::NamedNode(n) => Some(n.as_str()),
                _ => None,
            },
            predicate: site.ontology.meta.compact(predicate),
            predicate_iri: predicate,
            object,
            language,
            href,
            under: match &t.subject {
                oxrdf::NamedOrBlankNode::BlankNode(b) => Some(b.as_str()),
                _ => None,
            },
            annotations,
        }
    }
}

/// One of an entity's documents, as its page links it.
#[derive(Serialize)]
struct Representation {
    title: &'static str,
    media_type: &'static str,
    /// Relative, so that pages work from disk.
    file: String,
    url: String,
}

/// A pass-through field as a row of the page: its label, and its value
/// as a tree the template renders as nested lists.
#[derive(Serialize)]
struct Field<'a> {
    /// The input's key, which the label stands for.
    key: &'a str,
    label: String,
    value: ValueView<'a>,
}

/// A JSON value for people: a scalar as text (a link into a sibling by the
/// name the input gave it), an array or object as a list of its items.
#[derive(Serialize)]
struct ValueView<'a> {
    /// An object's key for this item, made readable.
    label: Option<String>,
    text: Option<std::borrow::Cow<'a, str>>,
    href: Option<&'a str>,
    /// Whether the items are an object's (a definition list) rather than
    /// an array's.
    keyed: bool,
    items: Vec<ValueView<'a>>,
}

impl<'a> ValueView<'a> {
    fn of(value: &'a Value, label: Option<String>, link: Option<&'a Entity>) -> ValueView<'a> {
        let leaf = |text: std::borrow::Cow<'a, str>, href: Option<&'a str>| ValueView {
            label: label.clone(),
            text: Some(text),
            href,
            keyed: false,
            items: Vec::new(),
        };
        match value {
            Value::String(text) => match link {
                Some(entity) => leaf(
                    entity
                        .link_names
                        .get(text)
                        .map_or(text.as_str(), String::as_str)
                        .into(),
                    Some(text),
                ),
                None => leaf(text.as_str().into(), None),
            },
            Value::Array(items) => ValueView {
                label,
                text: None,
                href: None,
                keyed: false,
                items: items.iter().map(|v| ValueView::of(v, None, link)).collect(),
            },
            Value::Object(fields) => ValueView {
                label,
                text: None,
                href: None,
                keyed: true,
                items: fields
                    .iter()
                    .map(|(k, v)| ValueView::of(v, Some(readable(k)), None))
                    .collect(),
            },
            Value::Null => leaf("(none)".into(), None),
            other => leaf(other.to_string().into(), None),
        }
    }
}

/// A key or identifier as a label: `actionStatus` and `action_status` as
/// "Action status". Text that already has spaces is a label and stays.
fn readable(key: &str) -> String {
    if key.contains(' ') {
        return key.to_owned();
    }
    let mut out = String::with_capacity(key.len() + 4);
    let chars: Vec<char> = key.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let previous = i.checked_sub(1).map(|p| chars[p]);
        let next = chars.get(i + 1);
        if c == '_' || c == '-' {
            out.push(' ');
            continue;
        }
        // A capital after a lower-case letter or a digit starts a word, and
        // so does the last capital of a run before a lower-case letter
        // (`HTTPServer`: "HTTP server").
        let starts_word = c.is_uppercase()
            && previous.is_some_and(|p| {
                p.is_lowercase()
                    || p.is_ascii_digit()
                    || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
            });
        if starts_word && !out.ends_with(' ') {
            out.push(' ');
        }
        let acronym = next.is_some_and(|n| n.is_uppercase());
        if out.is_empty() {
            out.extend(c.to_uppercase());
        } else if starts_word && !acronym {
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

pub fn home(site: &Rendering, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let context = context! {
        example_query => info::example_query(site.ontology),
        operations => minijinja::Value::from(minijinja::value::Serde(super::api_docs::operations(site)?)),
        tree => site.relations.has_hierarchy(),
        release => site.release.as_ref().map(|release| context! {
            version => &release.version,
            change_log => site.has_change_log(),
            previous => release.since.as_ref().map(|(previous, _)| previous),
        }),
    };
    render_template(site, "index.html", "", context, out)
}

/// Renders the page template `name` into `out`. Every page sees `info`
/// and `root`, the way back to the site root from the page's folder
/// (`../` from `browse/`), which keeps links relative for `file://`.
pub fn render_template(
    site: &Rendering,
    name: &str,
    root: &str,
    context: minijinja::Value,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let context = context! {
        info => info_value(site)?,
        root => root,
        hierarchy => site.relations.has_hierarchy(),
        // From the site's root: a release's copy is a folder inside it.
        releases_href => site.release.as_ref().map(|_| if site.kept_release {
            "../index.html".to_owned()
        } else {
            crate::site::files::release_list("html")
        }),
        ..context
    };
    let template = site
        .templates
        .env
        .get_template(name)
        .map_err(RenderError::Template)?;
    let page = template.render(context).map_err(RenderError::Template)?;
    out.extend_from_slice(page.trim_end().as_bytes());
    Ok(())
}

/// How much of an entity's JSON answer its page shows: the answer is a
/// click away, and a 10 MB definition was on the page twice more in it.
const ANSWER_BYTES: usize = 16 * 1024;

/// The entity's JSON answer as its page shows it: whole, or its lines up
/// to [`ANSWER_BYTES`], then `…`.
fn shown_answer(mut json: String) -> String {
    if json.len() > ANSWER_BYTES {
        let shown = cut::within_bytes(&json, ANSWER_BYTES);
        let end = match shown.rfind('\n') {
            Some(line_end) if line_end > 0 => line_end,
            _ => shown.len(),
        };
        json.truncate(end);
        json.push_str("\n…");
    }
    json
}

pub fn entity(site: &Rendering, entity: &Entity, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let mut ld = Vec::new();
    jsonld::entity(site, entity, &mut ld)?;
    let ld = script_json(std::str::from_utf8(&ld).expect("JSON is UTF-8"));
    let view = EntityView {
        slug: entity.slug.as_str(),
        id: &entity.id,
        name: &entity.name,
        description: &entity.description,
        iri: entity.iri(&site.ontology.meta.base_url),
        json_url: site.url(&crate::site::formats::json_file(entity)),
        jsonld_url: site.url(&format!("{}.jsonld", entity.slug)),
        representations: ENTITY_FORMATS
            .iter()
            .filter(|f| f.media_type != crate::site::media::HTML)
            .map(|f| Representation {
                title: f.title,
                media_type: f.media_type,
                file: f.file(entity),
                url: site.url(&f.file(entity)),
            })
            .collect(),
        fields: entity
            .extra
            .iter()
            .map(|(key, value)| {
                let meta = &site.ontology.meta;
                let linked = meta.sibling_linked_by(key).map(|_| entity);
                Field {
                    key,
                    label: meta
                        .field_labels
                        .get(key)
                        .cloned()
                        .unwrap_or_else(|| readable(key)),
                    value: ValueView::of(value, None, linked),
                }
            })
            .collect(),
        kind: site.ontology.meta.kind(entity).into_owned(),
        json: shown_answer(super::json::entity_pretty(site, entity)?),
        term: TermPage::of(site, entity),
    };
    let history: Vec<_> = site
        .history
        .get(&view.iri)
        .into_iter()
        .flatten()
        .rev()
        .map(|changed| {
            context! {
                version => &changed.version,
                what => &changed.what,
                href => format!("{}{}.html", crate::site::files::release(&changed.shown_in), changed.slug),
            }
        })
        .collect();
    let entity = minijinja::Value::from(minijinja::value::Serde(&view));
    let context = context! { entity => entity, jsonld => ld, history => history };
    render_template(site, "entity.html", "", context, out)
}

/// One term in the hierarchy's page.
#[derive(Serialize)]
struct TreeItem<'a> {
    slug: &'a str,
    name: std::borrow::Cow<'a, str>,
    deprecated: bool,
    depth: usize,
    branch: bool,
    repeat: bool,
    close: usize,
    /// For a term named again, the page that expands it, where another.
    here: Option<String>,
    /// How many terms it has directly under it.
    children: usize,
}

/// A page of the hierarchy (`tree.html`, `tree-2.html`, …): the tree from
/// its roots as nested lists that open level by level, a page's first
/// rows its ancestors again; the last page names the terms outside it.
pub fn tree(site: &Rendering, n: usize, out: &mut Vec<u8>) -> Result<(), RenderError> {
    use super::browse::{PAGE_ENTRIES, TreePages};
    let entities = &site.ontology.entities;
    let pages = site.tree_pages();
    let (page_rows, context_rows) = pages.rows(n);
    let rows: Vec<TreeItem> = page_rows
        .iter()
        .enumerate()
        .map(|(i, row)| {
            let context = i < context_rows;
            let entity = &entities[row.position];
            TreeItem {
                slug: entity.slug.as_str(),
                name: short_name(&entity.name),
                deprecated: entity.term.as_ref().is_some_and(|t| t.deprecated),
                depth: row.depth,
                branch: row.branch,
                // An ancestor shown again for context keeps no anchor.
                repeat: row.repeat || context,
                close: row.close,
                children: site.relations.children(row.position).len(),
                here: (row.repeat && !context)
                    .then(|| pages.page_of(row.position))
                    .flatten()
                    .filter(|&p| p != n)
                    .map(TreePages::file),
            }
        })
        .collect();
    let last = n + 1 == pages.count();
    let (outside, outside_page) = site.browse().outside();
    let loose: &[u32] = if last { outside } else { &[] };
    let listed: Vec<TermRef> = if loose.len() <= PAGE_ENTRIES {
        loose
            .iter()
            .map(|&p| TermRef::at(site, p as usize))
            .collect()
    } else {
        Vec::new()
    };
    let context = context! {
        page => n + 1,
        pages => pages.count(),
        previous => n.checked_sub(1).map(TreePages::file),
        next => (!last).then(|| TreePages::file(n + 1)),
        rows => minijinja::Value::from(minijinja::value::Serde(&rows)),
        opened => pages.opened(n),
        loose_count => loose.len(),
        loose => minijinja::Value::from(minijinja::value::Serde(&listed)),
        outside => outside_page,
    };
    render_template(site, "tree.html", "", context, out)
}

/// `vocab.html`: the vocabulary's terms, for people.
pub fn vocabulary(site: &Rendering, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let context = context! {
        iri => super::vocab::iri_of(site),
        namespace => site.vocabulary(),
        terms => minijinja::Value::from(minijinja::value::Serde(super::vocab::terms(site))),
    };
    render_template(site, "vocab.html", "", context, out)
}

/// The release list's page, `releases/index.html`.
pub fn releases(site: &Rendering, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let context = context! {
        list => template_value(&super::releases::list_view(site)),
    };
    render_template(site, "releases.html", "../", context, out)
}

/// A release's change log page, `change-log.html`.
pub fn change_log(site: &Rendering, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let log = super::releases::log_view(site).unwrap_or_default();
    let context = context! {
        log => template_value(&log),
    };
    render_template(site, "change-log.html", "", context, out)
}

/// The page of a term earlier releases had and this one has not.
pub fn removed(
    site: &Rendering,
    removed: &super::release::Removed,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let context = context! {
        term => template_value(&serde_json::to_value(removed)?),
        last_href => format!("{}{}.html", crate::site::files::release(&removed.last_release), removed.term.slug),
    };
    render_template(site, "removed.html", "", context, out)
}

/// The page of a hash document: an anchor per term, at its fragment.
pub fn hash_document(
    site: &Rendering,
    document: &super::context::HashDocument,
    out: &mut Vec<u8>,
) -> Result<(), RenderError> {
    let terms = super::hashes::listed(site, document);
    let context = context! {
        iri => document.iri.clone(),
        slug => document.slug.to_string(),
        terms => template_value(&serde_json::to_value(&terms)?),
    };
    render_template(site, "hash.html", "", context, out)
}

/// `ui/site.js`: the search client as a classic script (a page opened from
/// disk cannot load ES modules), then the page script.
pub fn script(site: &Rendering, out: &mut Vec<u8>) {
    out.extend_from_slice(b"// The search client (search.js) as a classic script, then the page script.\nvar ontositeSearch = (function () {\n\"use strict\";\n");
    crate::hosts::script::private(crate::search::client::SEARCH_JS, out);
    out.extend_from_slice(b"return { openIndex: openIndex, parseQuery: parseQuery, SearchError: SearchError };\n})();\n\n");
    out.extend_from_slice(site.templates.asset("site.js").trim_end().as_bytes());
}

/// The information document as the templates read it, made once.
fn info_value(site: &Rendering) -> Result<minijinja::Value, RenderError> {
    if let Some(info) = site.info.get() {
        return Ok(info.clone());
    }
    let info = template_value(&info::document(site)?);
    Ok(site.info.get_or_init(|| info).clone())
}

/// A JSON value as templates see it. Not through serde_json's own
/// `Serialize`: with exact numbers (`arbitrary_precision`) it hands a
/// number to other serializers as a private one-key map, which a page
/// would show as is.
pub fn template_value(value: &Value) -> minijinja::Value {
    minijinja::Value::from(minijinja::value::Serde(Plain(value)))
}

/// Serialises a JSON value with numbers as numbers (one that fits no
/// machine number as its text, which a float would round).
struct Plain<'a>(&'a Value);

impl Serialize for Plain<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self.0 {
            Value::Number(n) => match (n.as_i64(), n.as_u64()) {
                (Some(i), _) => serializer.serialize_i64(i),
                (None, Some(u)) => serializer.serialize_u64(u),
                _ => serializer.serialize_str(&n.to_string()),
            },
            Value::Array(items) => serializer.collect_seq(items.iter().map(Plain)),
            Value::Object(fields) => {
                let mut map = serializer.serialize_map(Some(fields.len()))?;
                for (key, value) in fields {
                    map.serialize_entry(key, &Plain(value))?;
                }
                map.end()
            }
            other => other.serialize(serializer),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::readable;

    #[test]
    fn keys_read_as_labels() {
        assert_eq!(readable("vendor"), "Vendor");
        assert_eq!(readable("actionStatus"), "Action status");
        assert_eq!(readable("action_status"), "Action status");
        assert_eq!(readable("subClassOf"), "Sub class of");
        assert_eq!(readable("HTTPServer"), "HTTP server");
        assert_eq!(readable("isbn13Code"), "Isbn13 code");
        assert_eq!(readable("has part"), "has part");
        assert_eq!(readable("URL"), "URL");
    }
}

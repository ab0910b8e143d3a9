//! The documents of hash IRIs. A client never sends an IRI's fragment:
//! `http://purl.obolibrary.org/obo/pato#attribute_slim` arrives at the site
//! as `/pato`. So where terms' IRIs in the site's namespace are
//! `{namespace}{rest}#{fragment}`, the site publishes one document for
//! each `{rest}`, describing every term of it, as the W3C's "Cool URIs for
//! the Semantic Web" have hash IRIs resolve (its "hash URIs" recipe). Its
//! files are an entity's (`{slug}.{extension}` in every entity format), so
//! `/{slug}` is negotiated as an entity's IRI is, by the same table on
//! every host, and `/{rest}` is an alias of it where the two differ.

use crate::model::Slug;

/// One document of hash IRIs: the path the IRIs arrive at, its slug, and
/// its terms, by fragment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HashDocument<T> {
    /// Where the IRIs arrive: `/{rest}`.
    pub path: String,
    /// Its files' name: `{slug}.{extension}`.
    pub slug: Slug,
    /// The IRI of the document itself, `{namespace}{rest}`.
    pub iri: String,
    /// Each term's fragment and what the caller knows it by, in fragment
    /// order.
    pub terms: Vec<(String, T)>,
}

/// Whether a URL path carries `rest` unchanged, as an IRI's path that
/// resolves through the site: ASCII letters, digits, `-_~!$&'()*+,;=:@`
/// and inner `/`; no `.` (it would shadow a file, `/index.json`), no
/// leading `_` (the hosts' own files).
pub fn carried(rest: &str) -> bool {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-_~!$&'()*+,;=:@/".contains(c);
    !rest.is_empty()
        && rest.chars().all(allowed)
        && !rest.starts_with(['_', '/'])
        && !rest.ends_with('/')
        && !rest.contains("//")
}

/// The hash documents of the terms `(IRI, T)` in `namespace`. A `{rest}`
/// gets none where its path is not free (`taken`: a path that is an
/// alias already; the site's own, `/vocab`, `/releases/…`) or a term's IRI is `{namespace}{rest}` itself: that
/// term's documents stand there. Its slug is the rest's (`Slug::from_id`),
/// numbered where that is taken (an entity's or a removed term's slug, a
/// path an alias holds, a reserved name): `person2` for `person#…` beside
/// the class `person#Person`, whose slug is `person`; rests that are
/// their slug already choose first.
pub fn group<'a, T>(
    namespace: &str,
    terms: impl Iterator<Item = (&'a str, T)>,
    taken: impl Fn(&str) -> bool,
) -> Vec<HashDocument<T>> {
    // A namespace with a fragment of its own resolves at no path here.
    if namespace.contains('#') {
        return Vec::new();
    }
    let mut by_rest: std::collections::BTreeMap<&str, Vec<(String, T)>> = Default::default();
    let mut whole: std::collections::HashSet<&str> = Default::default();
    for (iri, item) in terms {
        let Some(rest) = iri.strip_prefix(namespace) else {
            continue;
        };
        match rest.split_once('#') {
            Some((rest, fragment)) if carried(rest) && !fragment.is_empty() => {
                by_rest
                    .entry(rest)
                    .or_default()
                    .push((fragment.to_owned(), item));
            }
            Some(_) => {}
            None => {
                whole.insert(rest);
            }
        }
    }
    // Each with the rest's own slug for now.
    let mut groups: Vec<HashDocument<T>> = by_rest
        .into_iter()
        .filter(|(rest, _)| {
            // `/vocab`, `/releases/…`: the site's own paths answer there.
            let first = rest.split('/').next().unwrap_or(rest);
            !crate::site::reserved::reserved_slugs().contains(&first)
                && !whole.contains(rest)
                && !taken(&format!("/{rest}"))
        })
        .filter_map(|(rest, mut terms)| {
            terms.sort_by(|a, b| a.0.cmp(&b.0));
            Some(HashDocument {
                path: format!("/{rest}"),
                slug: Slug::from_id(rest).ok()?,
                iri: format!("{namespace}{rest}"),
                terms,
            })
        })
        .collect();
    // Rests that are their slug first, so that each keeps it.
    groups.sort_by_key(|d| (d.path[1..] != *d.slug.as_str(), d.path.clone()));
    let mut chosen = std::collections::HashSet::new();
    let free = |name: &str, chosen: &std::collections::HashSet<String>| {
        crate::site::reserved::names_entity(name)
            && !taken(name)
            && !taken(&format!("/{name}"))
            && !chosen.contains(name)
    };
    let mut documents = Vec::with_capacity(groups.len());
    for mut document in groups {
        let own = document.slug.to_string();
        let numbered = (2..1000).map(|n| format!("{own}{n}"));
        let slug = std::iter::once(own.clone())
            .chain(numbered)
            .find(|name| free(name, &chosen))
            .and_then(|name| Slug::parse(&name).ok());
        let Some(slug) = slug else {
            continue;
        };
        chosen.insert(slug.to_string());
        document.slug = slug;
        documents.push(document);
    }
    documents.sort_by(|a, b| a.path.cmp(&b.path));
    documents
}

#[cfg(test)]
mod tests {
    use super::*;

    const OBO: &str = "http://purl.obolibrary.org/obo/";

    fn grouped(iris: &[&str], taken: &[&str]) -> Vec<HashDocument<usize>> {
        let terms = iris.iter().enumerate().map(|(i, iri)| (*iri, i));
        group(OBO, terms, |name| taken.contains(&name))
    }

    /// PATO's subsets and relations (`pato#attribute_slim`) share the
    /// document `/pato`, their fragments in order; other IRIs have none.
    #[test]
    fn hash_iris_share_the_document_their_requests_arrive_at() {
        let found = grouped(
            &[
                "http://purl.obolibrary.org/obo/pato#value_slim",
                "http://purl.obolibrary.org/obo/PATO_0000001",
                "http://purl.obolibrary.org/obo/pato#attribute_slim",
                "http://purl.obolibrary.org/obo/Mondo#x",
                "http://elsewhere.org/pato#y",
                "http://purl.obolibrary.org/obo/pato#",
                "http://purl.obolibrary.org/obo/a.b#c",
            ],
            &[],
        );
        assert_eq!(
            found,
            vec![
                HashDocument {
                    path: "/Mondo".to_owned(),
                    slug: Slug::parse("mondo").unwrap(),
                    iri: format!("{OBO}Mondo"),
                    terms: vec![("x".to_owned(), 3)],
                },
                HashDocument {
                    path: "/pato".to_owned(),
                    slug: Slug::parse("pato").unwrap(),
                    iri: format!("{OBO}pato"),
                    terms: vec![
                        ("attribute_slim".to_owned(), 2),
                        ("value_slim".to_owned(), 0)
                    ],
                },
            ]
        );
    }

    fn placed(found: &[HashDocument<usize>]) -> Vec<(&str, &str)> {
        found
            .iter()
            .map(|d| (d.path.as_str(), d.slug.as_str()))
            .collect()
    }

    /// Where an alias holds the path, or a term is the document's own
    /// IRI, the hash IRIs resolve nowhere: the site answers for something
    /// else there. Where only the slug is held (an entity's, a reserved
    /// name, a path an alias holds), the document takes the next number.
    #[test]
    fn a_name_held_already_is_left_to_its_holder() {
        let pato = "http://purl.obolibrary.org/obo/pato#attribute_slim";
        assert_eq!(placed(&grouped(&[pato], &["pato"])), [("/pato", "pato2")]);
        assert_eq!(placed(&grouped(&[pato], &["/pato"])), []);
        assert_eq!(
            placed(&grouped(&[pato], &["pato", "pato2"])),
            [("/pato", "pato3")]
        );
        let capital = "http://purl.obolibrary.org/obo/Pato#x";
        assert_eq!(placed(&grouped(&[capital], &["/Pato"])), []);
        // `/pato` would be sent elsewhere by its alias.
        assert_eq!(
            placed(&grouped(&[capital], &["/pato"])),
            [("/Pato", "pato2")]
        );
        assert_eq!(
            placed(&grouped(
                &[pato, "http://purl.obolibrary.org/obo/pato"],
                &[]
            )),
            []
        );
        for own in ["vocab#x", "releases/x#y"] {
            let iri = format!("{OBO}{own}");
            assert_eq!(placed(&grouped(&[&iri], &[])), [], "{own}");
        }
        // Two rests of one slug: the one that is its slug keeps it.
        let two = grouped(&[capital, "http://purl.obolibrary.org/obo/pato#y"], &[]);
        assert_eq!(placed(&two), [("/Pato", "pato2"), ("/pato", "pato")]);
        // An inner `/` is carried; the slug drops it.
        let nested = grouped(&["http://purl.obolibrary.org/obo/ns/prov#Entity"], &[]);
        assert_eq!(placed(&nested), [("/ns/prov", "nsprov")]);
        // A hash namespace resolves at no path of the site.
        let terms = [("https://w3id.org/x#a", 0)].into_iter();
        assert!(group("https://w3id.org/x#", terms, |_| false).is_empty());
    }
}

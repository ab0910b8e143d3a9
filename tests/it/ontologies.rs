//! Real ontologies as they are published (`../shared/ontologies/`) and
//! small fixtures of each format and rule: what a publisher looks at
//! (counts by type, a known term's names, parents and children, a
//! deprecated term, search), each term's documents read back by a real
//! RDF library, and bad input.

use crate::dereference::rdf_json;
use crate::openapi::assert_site_follows_its_openapi;
use crate::serve::{Server, client};
use crate::util::*;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The real ontologies, beside the checkout (as in CI).
pub fn shared_ontology(name: &str) -> PathBuf {
    let path = root().join("../shared/ontologies").join(name);
    assert!(path.is_file(), "{} is missing", path.display());
    path
}

fn fixture(name: &str) -> PathBuf {
    root().join("tests/fixtures/ontologies").join(name)
}

/// An input folder holding `source` as it is and an `ontology.json` with
/// nothing but `manifest`.
fn input_with(dir: &Path, source: &Path, manifest: &str) -> PathBuf {
    let input = dir.join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(source, input.join(source.file_name().unwrap())).unwrap();
    std::fs::write(input.join("ontology.json"), manifest).unwrap();
    input
}

/// An input folder `dir/in` holding the source `name` with `text` and an
/// `ontology.json` with nothing but `manifest`.
fn written_input(dir: &Path, name: &str, text: &str, manifest: &str) -> PathBuf {
    let input = dir.join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join(name), text).unwrap();
    std::fs::write(input.join("ontology.json"), manifest).unwrap();
    input
}

/// Builds `input` into `dir/dist` and returns the site.
fn built(dir: &Path, input: &Path) -> PathBuf {
    let site = dir.join("dist");
    build_ok(input, &site);
    site
}

/// Where `serve` sends a request for `path` (under its root) that asks
/// for `accept`: it must answer `303 See Other`.
fn see_other(server: &Server, path: &str, accept: &str) -> String {
    let response = client()
        .get(format!("{}{path}", server.url))
        .header("Accept", accept)
        .send()
        .unwrap();
    assert_eq!(response.status().as_u16(), 303, "{path}");
    response.headers()["location"].to_str().unwrap().to_owned()
}

fn items(site: &Path) -> Vec<Value> {
    read_json(&site.join("all"))["items"]
        .as_array()
        .unwrap()
        .clone()
}

fn count_typed(items: &[Value], type_iri: &str) -> usize {
    items
        .iter()
        .filter(|i| i["types"].as_array().unwrap().iter().any(|t| t == type_iri))
        .count()
}

fn names(list: &Value) -> Vec<&str> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|r| r["name"].as_str().unwrap_or("?"))
        .collect()
}

/// The names `/search?q=` answers with, in order.
fn search(server: &Server, q: &str) -> Vec<String> {
    let url = format!("{}search?q={}&limit=10", server.url, q.replace(' ', "+"));
    let answer: Value =
        serde_json::from_slice(&client().get(&url).send().unwrap().bytes().unwrap()).unwrap();
    answer["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{url}: {answer}"))
        .iter()
        .map(|i| i["name"].as_str().unwrap().to_owned())
        .collect()
}

/// The hierarchy's pages (`tree.html`, `tree-2.html`, …) joined, each
/// checked to be nested lists that close what they open and to link the
/// next, with each term expanded once over all (one `id` each).
fn tree_page(site: &Path) -> String {
    let mut tree = String::new();
    for n in 1.. {
        let file = if n == 1 {
            "tree.html".to_owned()
        } else {
            format!("tree-{n}.html")
        };
        let Ok(page) = std::fs::read_to_string(site.join(&file)) else {
            break;
        };
        for tag in ["ul", "li", "details", "summary"] {
            let opened = page.matches(&format!("<{tag}>")).count()
                + page.matches(&format!("<{tag} ")).count();
            let closed = page.matches(&format!("</{tag}>")).count();
            assert_eq!(
                opened, closed,
                "{file}: <{tag}> opened {opened}, closed {closed}"
            );
        }
        let more = site.join(format!("tree-{}.html", n + 1)).exists();
        assert_eq!(
            page.contains(&format!("href=\"tree-{}.html\" rel=\"next\"", n + 1)),
            more,
            "{file}"
        );
        tree.push_str(&page);
    }
    let mut ids: Vec<&str> = tree
        .match_indices("<li id=\"")
        .map(|(at, m)| {
            let rest = &tree[at + m.len()..];
            &rest[..rest.find('"').unwrap()]
        })
        .collect();
    let count = ids.len();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), count, "a term expanded twice");
    tree
}

/// Every term's `.nt`, `.ttl` and `.jsonld` against the source, read by
/// pyoxigraph (`tests/rdf/terms.py`).
fn assert_documents_state_the_source(source: &Path, site: &Path, base: &str, terms: usize) {
    let report = rdf_json(
        "terms.py",
        &[source.as_os_str(), site.as_os_str(), base.as_ref()],
    );
    assert_eq!(report["problems"], serde_json::json!([]), "{report}");
    assert_eq!(report["entities"], terms, "{report}");
}

/// schema.org built in `dir` with only a name and a base URL: its source
/// file and its site.
fn built_schema_org(dir: &Path) -> (PathBuf, PathBuf) {
    let source = shared_ontology("schemaorg-30.0-current-https.ttl");
    let input = input_with(
        dir,
        &source,
        r#"{"name": "schema.org", "baseUrl": "https://schema.test"}"#,
    );
    (source, built(dir, &input))
}

#[test]
fn schema_org_builds_with_only_its_name_and_base_url() {
    needs!(
        Need::SharedOntologies,
        Need::Slow,
        OPENAPI_VALIDATOR,
        PYOXIGRAPH
    );
    let dir = tempdir();
    let (source, site) = built_schema_org(dir.path());
    let all = items(&site);
    assert_eq!(all.len(), 2987);
    assert_eq!(
        count_typed(&all, "http://www.w3.org/2000/01/rdf-schema#Class"),
        933
    );
    assert_eq!(
        count_typed(&all, "http://www.w3.org/1999/02/22-rdf-syntax-ns#Property"),
        1521
    );
    // Enumeration members are terms too: typed with a class of schema.org.
    assert_eq!(count_typed(&all, "https://schema.org/MedicalSpecialty"), 42);

    let person = read_json(&site.join("person.json"));
    assert_eq!(person["iri"], "https://schema.org/Person");
    assert_eq!(person["name"], "Person");
    assert_eq!(
        person["description"],
        "A person (alive, dead, undead, or fictional)."
    );
    assert_eq!(names(&person["parents"]), ["Thing"]);
    assert!(names(&person["children"]).contains(&"Patient"));
    assert!(names(&person["linkedFrom"]).contains(&"birthDate"));
    // Case-only twins: the class takes the plain slug, the property is
    // numbered.
    assert_eq!(
        read_json(&site.join("text.json"))["iri"],
        "https://schema.org/Text"
    );
    assert_eq!(
        read_json(&site.join("text2.json"))["iri"],
        "https://schema.org/text"
    );
    // Superseded is deprecated, and the replacement is linked.
    // (The class `Code` takes the slug `code` from the property `code`.)
    let code = read_json(&site.join("code.json"));
    assert_eq!(code["iri"], "https://schema.org/Code");
    assert_eq!(code["deprecated"], true);
    assert_eq!(names(&code["replacedBy"]), ["SoftwareSourceCode"]);
    // The IRI is schema.org's; the page says where its documents are.
    let turtle = std::fs::read_to_string(site.join("person.ttl")).unwrap();
    assert!(
        turtle.contains("@prefix schema: <https://schema.org/> ."),
        "{turtle}"
    );
    assert!(
        turtle.contains("foaf:isPrimaryTopicOf <https://schema.test/person>"),
        "{turtle}"
    );
    // Published unchanged.
    assert_eq!(
        std::fs::read(site.join("source-files/schemaorg-30.0-current-https.ttl")).unwrap(),
        std::fs::read(&source).unwrap()
    );
    assert_documents_state_the_source(&source, &site, "https://schema.test", 2987);

    assert_site_follows_its_openapi(&site);
    let server = Server::dir(&site);
    assert_eq!(search(&server, "person")[0], "Person");
    assert_eq!(search(&server, "birth date")[0], "birthDate");
    // A result says what kind of term it is and how its description starts.
    let answer = |q: &str| -> Value {
        let url = format!("{}search?q={q}&limit=1", server.url);
        serde_json::from_slice(&client().get(url).send().unwrap().bytes().unwrap()).unwrap()
    };
    let answer_birthdate = answer("birthdate");
    let item = &answer_birthdate["items"][0];
    assert_eq!(item["type"], "rdf:Property", "{item}");
    assert_eq!(item["summary"], "Date of birth.", "{item}");
    let person = answer("person");
    assert_eq!(person["items"][0]["type"], "rdfs:Class", "{person}");
}

#[test]
fn pato_owl_builds_with_its_hierarchy_synonyms_and_obsolete_terms() {
    needs!(Need::SharedOntologies, Need::Slow, PYOXIGRAPH);
    let dir = tempdir();
    let source = shared_ontology("pato-base.owl");
    let input = input_with(
        dir.path(),
        &source,
        r#"{"name": "PATO", "baseUrl": "https://pato.test"}"#,
    );
    let site = built(dir.path(), &input);
    let all = items(&site);
    assert_eq!(
        count_typed(&all, "http://www.w3.org/2002/07/owl#Class"),
        2869
    );
    assert_eq!(
        count_typed(&all, "http://www.w3.org/2002/07/owl#ObjectProperty"),
        21
    );
    assert_eq!(all.iter().filter(|i| i["deprecated"] == true).count(), 1003);
    // OBO identifiers as their users write them; slugs from them.
    let size = read_json(&site.join("pato0000586.json"));
    assert_eq!(size["id"], "PATO:0000586");
    assert_eq!(size["iri"], "http://purl.obolibrary.org/obo/PATO_0000586");
    assert_eq!(size["name"], "increased size");
    assert_eq!(
        names(&size["parents"]),
        ["size", "increased object quality"]
    );
    let synonyms: Vec<&str> = strings_of(&size["synonyms"], "value");
    assert!(
        synonyms.contains(&"big") && synonyms.contains(&"large"),
        "{synonyms:?}"
    );
    let quality = read_json(&site.join("pato0000001.json"));
    assert_eq!(quality["name"], "quality");
    assert!(names(&quality["children"]).contains(&"physical object quality"));
    assert_eq!(quality["ancestors"], serde_json::json!([]));
    let page = std::fs::read_to_string(site.join("pato0000586.html")).unwrap();
    assert!(
        page.contains(r#"<a href="pato0000001.html">quality</a> › "#),
        "no breadcrumbs"
    );
    // The information document has the ontology's own header.
    let info = read_json(&site.join("api.json"));
    assert_eq!(
        info["ontology"]["title"],
        "PATO - the Phenotype And Trait Ontology"
    );
    assert_eq!(info["version"], "2025-05-14");
    assert_documents_state_the_source(&source, &site, "https://pato.test", all.len());

    let server = Server::dir(&site);
    // A synonym, exactly: its term first.
    assert_eq!(search(&server, "big")[0], "increased size");
    // Obsolete terms after every live one.
    let found = search(&server, "size");
    assert!(
        !found.iter().any(|n| n.starts_with("obsolete")),
        "{found:?}"
    );
}

#[test]
fn a_skos_scheme_keeps_its_languages_and_broader_concepts() {
    needs!(OPENAPI_VALIDATOR, PYOXIGRAPH);
    let dir = tempdir();
    let site = built(dir.path(), &fixture("skos"));
    let red = read_json(&site.join("red.json"));
    assert_eq!(red["iri"], "https://colours.example/red");
    assert_eq!(red["name"], "red");
    assert_eq!(
        red["labels"],
        serde_json::json!([
            {"value": "red", "language": "en"},
            {"value": "rot", "language": "de"},
            {"value": "rouge", "language": "fr"}
        ])
    );
    assert_eq!(names(&red["parents"]), ["colour"]);
    assert_eq!(names(&red["children"]), ["blood red", "dark red"]);
    // Collections are published, their members linked both ways, and
    // every membership is in the dump (an ordered one as its list).
    let warm = read_json(&site.join("warm.json"));
    assert_eq!(
        warm["types"],
        serde_json::json!(["http://www.w3.org/2004/02/skos/core#Collection"])
    );
    assert!(names(&red["linkedFrom"]).contains(&"warm colours"));
    let dump = std::fs::read_to_string(site.join("dump.nt")).unwrap();
    assert_eq!(
        dump.matches("<http://www.w3.org/2004/02/skos/core#member> ")
            .count(),
        2
    );
    assert!(dump.contains("<http://www.w3.org/2004/02/skos/core#memberList> _:"));
    let ordered = read_json(&site.join("bywavelength.json"));
    assert_eq!(ordered["name"], "colours by wavelength");
    // The IRI is the site's own: no link to add, and it resolves there.
    let turtle = std::fs::read_to_string(site.join("red.ttl")).unwrap();
    assert!(!turtle.contains("isPrimaryTopicOf"), "{turtle}");
    let page = std::fs::read_to_string(site.join("red.html")).unwrap();
    assert!(page.contains(r#"<dd lang="fr">rouge</dd>"#), "{page}");
    assert!(!page.contains("<strong>Deprecated.</strong>"));
    let blood = std::fs::read_to_string(site.join("blood.html")).unwrap();
    assert!(
        blood.contains(
            r#"<strong>Deprecated.</strong> Use instead: <a href="darkred.html">dark red</a>."#
        ),
        "{blood}"
    );
    // The hierarchy's page: colour, then red, then its two children.
    let tree = tree_page(&site);
    let order: Vec<&str> = ["colour.html", "red.html", "blood.html", "darkred.html"]
        .iter()
        .map(|href| {
            let at = tree
                .find(&format!("href=\"{href}\""))
                .unwrap_or_else(|| panic!("{href}: {tree}"));
            &tree[at..at + href.len() + 6]
        })
        .collect();
    let mut sorted = order.clone();
    sorted.sort_by_key(|h| tree.find(*h));
    assert_eq!(order, sorted, "{tree}");
    assert!(tree.contains("dark red</a>"), "{tree}");
    assert!(page.contains(r#"<a href="tree.html#red">See it in the tree</a>"#));
    assert!(
        std::fs::read_to_string(site.join("home.html"))
            .unwrap()
            .contains(r#"<a href="tree.html">Browse the hierarchy</a>"#)
    );
    let info = read_json(&site.join("api.json"));
    assert_eq!(
        info["description"],
        "A small colour scheme in three languages."
    );
    assert_eq!(
        info["license"],
        "https://creativecommons.org/publicdomain/zero/1.0/"
    );
    assert_documents_state_the_source(
        &fixture("skos/colours.ttl"),
        &site,
        "https://colours.example",
        6,
    );

    assert_site_follows_its_openapi(&site);
    let server = Server::dir(&site);
    assert_eq!(search(&server, "scarlet"), ["red"]);
    assert_eq!(search(&server, "rouge")[0], "red");
    assert_eq!(search(&server, "ecarlate"), ["red"]);
    // `blood red` would come before `dark red` by slug: deprecated, last.
    assert_eq!(search(&server, "red"), ["red", "dark red", "blood red"]);
}

#[test]
fn the_default_language_chooses_the_name() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&fixture("skos"), &input);
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Farben", "baseUrl": "https://colours.example", "language": "de"}"#,
    )
    .unwrap();
    let site = built(dir.path(), &input);
    assert_eq!(read_json(&site.join("red.json"))["name"], "rot");
    // No German label: the untagged one, else the first.
    assert_eq!(read_json(&site.join("blood.json"))["name"], "blood red");
}

/// The base URL of the fixture whose namespace is the site's.
pub const NAMESPACE_BASE: &str = "https://onto.test/";

/// The fixture whose IRIs are in the site's namespace, built in `dir`.
pub fn namespace_site(dir: &Path) -> PathBuf {
    let manifest = r#"{"name": "People", "baseUrl": "https://onto.test"}"#;
    built(
        dir,
        &input_with(dir, &fixture("namespace/onto.ttl"), manifest),
    )
}

/// Where `serve` sends a request for `path` that accepts `accept`: its
/// status and `Location`.
fn see(server: &Server, path: &str, accept: &str) -> (u16, Option<String>) {
    let response = client()
        .get(format!("{}{}", server.url, path.trim_start_matches('/')))
        .header("Accept", accept)
        .send()
        .unwrap();
    let location = response
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned());
    (response.status().as_u16(), location)
}

/// Where the ontology's namespace is the base URL, its IRIs resolve
/// through the site even where the local name is not the slug: `serve`
/// answers `/Person` with a 303 to the document `Accept` prefers, the page
/// included; a case twin whose local name is its slug keeps it.
#[test]
fn iris_in_the_site_namespace_resolve_through_it() {
    needs!(OPENAPI_VALIDATOR, PYOXIGRAPH);
    let dir = tempdir();
    let site = namespace_site(dir.path());
    let slugs: Vec<(String, String)> = items(&site)
        .iter()
        .map(|i| {
            (
                i["iri"].as_str().unwrap().to_owned(),
                i["slug"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let slug_of = |iri: &str| {
        slugs
            .iter()
            .find(|(i, _)| i == iri)
            .map(|(_, s)| s.as_str())
            .unwrap_or_else(|| panic!("{iri}: {slugs:?}"))
    };
    assert_eq!(slug_of("https://onto.test/text"), "text");
    assert_eq!(slug_of("https://onto.test/Text"), "text2");
    assert_eq!(slug_of("https://onto.test/data_1501"), "data1501");
    let server = Server::dir(&site);
    let see = |path: &str, accept: &str| see(&server, path, accept);
    assert_eq!(
        see("/Person", "text/turtle"),
        (303, Some("/person.ttl".into()))
    );
    assert_eq!(see("/Person", "text/html"), (303, Some("/person".into())));
    assert_eq!(
        see("/Text", "application/n-triples"),
        (303, Some("/text2.nt".into()))
    );
    assert_eq!(see("/text", "text/turtle"), (303, Some("/text.ttl".into())));
    assert_eq!(
        see("/data_1501", "application/ld+json"),
        (303, Some("/data1501.jsonld".into()))
    );
    assert_eq!(see("/Nobody", "text/turtle").0, 404);
    // The page of `/student` is a page, though the host's rule `/*.nt`
    // matches its path as Netlify matches (`/(.*).nt`).
    let page = client()
        .get(format!("{}student", server.url))
        .header("Accept", "text/html")
        .send()
        .unwrap();
    assert_eq!(page.status().as_u16(), 200);
    assert_eq!(page.headers()["content-type"], "text/html; charset=utf-8");
    // `{base}/text` is the term's IRI and its documents' URL at once; the
    // others say where their documents are.
    // What the ontology says of itself is in the data set's description.
    let void = std::fs::read_to_string(site.join("void.nt")).unwrap();
    assert!(
        void.contains("<https://onto.test/> <http://www.w3.org/2000/01/rdf-schema#label> \"People and texts\"@en ."),
        "{void}"
    );
    let text = std::fs::read_to_string(site.join("text.nt")).unwrap();
    assert!(!text.contains("isPrimaryTopicOf"), "{text}");
    let person = std::fs::read_to_string(site.join("person.nt")).unwrap();
    assert!(
        person.contains("<https://onto.test/Person> <http://xmlns.com/foaf/0.1/isPrimaryTopicOf> <https://onto.test/person> ."),
        "{person}"
    );
    // The 6 terms' IRIs, the 4 pages `foaf:isPrimaryTopicOf` names where
    // the IRI is not `{base}/{slug}`, `/`, the list and the vocabulary.
    crate::dereference::assert_crawl_from(NAMESPACE_BASE, &site, &server.url, "serve", 13);
    assert_documents_state_the_source(
        &fixture("namespace/onto.ttl"),
        &site,
        "https://onto.test",
        6,
    );

    // The same IRIs published from another host that their namespace
    // redirects to, as w3id.org does: `namespace` names it.
    let mirror = dir.path().join("mirror");
    std::fs::create_dir_all(&mirror).unwrap();
    let input = input_with(
        &mirror,
        &fixture("namespace/onto.ttl"),
        r#"{"name": "People", "baseUrl": "https://mirror.test", "namespace": "https://onto.test/"}"#,
    );
    let site = built(&mirror, &input);
    assert_eq!(
        read_json(&site.join("api.json"))["namespace"],
        "https://onto.test/"
    );
    let server = Server::dir(&site);
    assert_eq!(see_other(&server, "Person", "text/turtle"), "/person.ttl");
    assert_site_follows_its_openapi(&site);
}

/// The fixture whose terms' IRIs have a fragment (`{base}/core#Person`),
/// built in `dir`.
pub fn hash_site(dir: &Path) -> PathBuf {
    let manifest = r#"{"name": "Core", "baseUrl": "https://onto.test"}"#;
    built(dir, &input_with(dir, &fixture("hash/core.ttl"), manifest))
}

/// A request never carries an IRI's fragment: `{base}/core#Person` arrives
/// as `/core`, which answers as an entity's IRI does, with a document of
/// every `core#` term. A client that follows its nose (pyoxigraph)
/// reaches every term and gathers exactly the dump.
#[test]
fn hash_iris_resolve_through_the_document_before_their_fragment() {
    needs!(PYOXIGRAPH);
    let dir = tempdir();
    let site = hash_site(dir.path());
    let server = Server::dir(&site);
    let see = |accept: &str| see(&server, "/core", accept);
    assert_eq!(see("text/turtle"), (303, Some("/core.ttl".into())));
    assert_eq!(see("application/n-triples"), (303, Some("/core.nt".into())));
    assert_eq!(see("application/json"), (303, Some("/core.json".into())));
    assert_eq!(see("text/html").0, 200);
    let listed = read_json(&site.join("core.json"));
    assert_eq!(listed["iri"], "https://onto.test/core");
    let fragments: Vec<&str> = listed["terms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["fragment"].as_str().unwrap())
        .collect();
    assert_eq!(fragments, ["Agent", "Person", "knows"]);
    assert_eq!(listed["terms"][1]["iri"], "https://onto.test/core#Person");
    assert_eq!(listed["terms"][1]["url"], "https://onto.test/person.json");
    let page = std::fs::read_to_string(site.join("core.html")).unwrap();
    for (fragment, slug) in [("Agent", "agent"), ("Person", "person"), ("knows", "knows")] {
        assert!(
            page.contains(&format!(r#"<li id="{fragment}"><a href="{slug}.html">"#)),
            "{fragment}: {page}"
        );
    }
    // `/`, the list, the vocabulary, `/core`, `/Place` and the pages the
    // four terms are the primary topics of, each through a 303.
    crate::dereference::assert_crawl_from(NAMESPACE_BASE, &site, &server.url, "serve", 9);
    assert_documents_state_the_source(&fixture("hash/core.ttl"), &site, "https://onto.test", 4);
}

/// Where the ontology's own IRI is the one its terms' hash IRIs share
/// (`https://onto.test/core`, terms `core#…`), its hash document states
/// the ontology's header too: dereferencing the ontology's IRI gives what
/// the ontology says of itself. Elsewhere (the fixture above, whose
/// ontology is `https://onto.test/`) it states its terms' only.
#[test]
fn the_ontology_s_own_hash_document_states_its_header() {
    let dir = tempdir();
    let source = dir.path().join("core.ttl");
    let header = "<https://onto.test/core> a owl:Ontology ;\n    rdfs:label \"Core terms\"@en .\n";
    let fixture = std::fs::read_to_string(fixture("hash/core.ttl")).unwrap();
    let start = fixture.find("<https://onto.test/> a owl:Ontology").unwrap();
    let end = start + fixture[start..].find(" .\n").unwrap() + 3;
    std::fs::write(
        &source,
        format!("{}{header}{}", &fixture[..start], &fixture[end..]),
    )
    .unwrap();
    let manifest = r#"{"name": "Core", "baseUrl": "https://onto.test"}"#;
    let site = built(dir.path(), &input_with(dir.path(), &source, manifest));
    let stated = std::fs::read_to_string(site.join("core.nt")).unwrap();
    for triple in [
        "<https://onto.test/core> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Ontology> .",
        "<https://onto.test/core> <http://www.w3.org/2000/01/rdf-schema#label> \"Core terms\"@en .",
        "<https://onto.test/core#Person> <http://www.w3.org/2000/01/rdf-schema#label> \"Person\"@en .",
    ] {
        assert!(
            stated.lines().any(|line| line == triple),
            "{triple} not in:\n{stated}"
        );
    }
    let other = tempdir();
    let fixture_site = hash_site(other.path());
    let stated = std::fs::read_to_string(fixture_site.join("core.nt")).unwrap();
    assert!(!stated.contains("Ontology>"), "{stated}");
}

/// In a browser, a link to a hash IRI opens its term's page, from a
/// server and from disk; a fragment no term has stays on the document.
#[test]
fn a_browser_follows_a_hash_iri_to_its_term() {
    needs!(CHROMIUM);
    let dir = tempdir();
    let site = hash_site(dir.path());
    let server = Server::dir(&site);
    let from_disk = url::Url::from_file_path(site.join("core.html")).unwrap();
    let urls = [
        format!("{}core#Person", server.url),
        format!("{from_disk}#knows"),
        format!("{}core#Nobody", server.url),
    ];
    let chromium = chromium();
    let mut args = vec![std::ffi::OsStr::new("--chromium"), chromium.as_ref()];
    args.extend(urls.iter().map(std::ffi::OsStr::new));
    let report = node_json(&root().join("tests/browser/hash.mjs"), &args);
    let landed = |i: usize| report[i]["landed"].as_str().unwrap().to_owned();
    assert!(
        landed(0).starts_with(&format!("{}person", server.url)),
        "{report}"
    );
    assert_eq!(
        report[0]["heading"].as_str().map(str::trim),
        Some("Person"),
        "{report}"
    );
    assert_eq!(
        landed(1),
        from_disk.join("knows.html").unwrap().as_str(),
        "{report}"
    );
    assert_eq!(landed(2), urls[2], "{report}");
    for seen in report.as_array().unwrap() {
        assert_eq!(seen["errors"], serde_json::json!([]), "{report}");
    }
}

#[test]
fn an_owl_ontology_keeps_hash_iris_restrictions_and_axioms() {
    needs!(OPENAPI_VALIDATOR, PYOXIGRAPH);
    let dir = tempdir();
    let site = built(dir.path(), &fixture("owl"));
    let all = items(&site);
    // `dcterms:creator` is only declared: used, not defined, here.
    assert_eq!(all.len(), 8);
    let pet = read_json(&site.join("pet.json"));
    assert_eq!(pet["iri"], "http://example.org/pets#Pet");
    // The restriction is a statement, not a named parent.
    assert_eq!(names(&pet["parents"]), ["Animal"]);
    assert_eq!(names(&pet["children"]), ["Cat", "Dog"]);
    let turtle = std::fs::read_to_string(site.join("pet.ttl")).unwrap();
    assert!(turtle.contains("owl:someValuesFrom :Person"), "{turtle}");
    let unlabelled = read_json(&site.join("unlabelled.json"));
    assert_eq!(
        unlabelled["name"], "Unlabelled",
        "the local name, documented"
    );
    assert_eq!(
        read_json(&site.join("dog.json"))["ancestors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|a| a["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["Pet", "Animal"]
    );
    let info = read_json(&site.join("api.json"));
    assert_eq!(info["ontology"]["iri"], "http://example.org/pets");
    assert_eq!(
        info["ontology"]["versionIri"],
        "http://example.org/pets/1.0"
    );
    assert_eq!(info["version"], "1.0");
    assert_documents_state_the_source(&fixture("owl/pets.ttl"), &site, "https://pets.example", 8);
    assert_site_follows_its_openapi(&site);
}

#[test]
fn the_same_ontology_builds_the_same_bytes() {
    let dir = tempdir();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    build_ok(&fixture("owl"), &a);
    build_ok(&fixture("owl"), &b);
    assert_eq!(snapshot(&a), snapshot(&b));
}

/// Builds `source_text` saved as `file_name` and returns the stderr of the
/// failed build.
fn failed_build(file_name: &str, source_text: &str) -> String {
    let dir = tempdir();
    let input = dir.path().join("input");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(input.join(file_name), source_text).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Bad", "baseUrl": "https://bad.test"}"#,
    )
    .unwrap();
    let output = build(&input, &dir.path().join("dist"), &[]);
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(!dir.path().join("dist").exists());
    stderr(&output)
}

#[test]
fn a_turtle_syntax_error_names_file_line_and_column() {
    let text = "@prefix ex: <http://example.org/> .\nex:a a <http://www.w3.org/2002/07/owl#Class> ;\n    ex:label \"x\" ,, .\nex:b ex:p \"unterminated .\n";
    let err = failed_build("bad.ttl", text);
    assert!(err.contains("bad.ttl:3:"), "{err}");
    assert!(err.contains("Turtle syntax error"), "{err}");
    // Every error of the file, not the first only.
    assert!(err.contains("bad.ttl:4:"), "{err}");
}

#[test]
fn an_rdf_xml_syntax_error_names_file_line_and_column() {
    let text = "<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n  <rdf:Description rdf:about=\"http://example.org/a\">\n  </rdf:Descriptio>\n</rdf:RDF>\n";
    let err = failed_build("bad.owl", text);
    assert!(err.contains("bad.owl:4:"), "{err}");
    assert!(err.contains("RDF/XML syntax error"), "{err}");
}

#[test]
fn two_iris_with_one_slug_are_an_error_naming_both() {
    let text = "@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n<http://a.example/Thing> a owl:Class ; rdfs:label \"A\" .\n<http://b.example/Thing> a owl:Class ; rdfs:label \"B\" .\n";
    let err = failed_build("two.ttl", text);
    assert!(
        err.contains("http://a.example/Thing") && err.contains("http://b.example/Thing"),
        "{err}"
    );
    assert!(err.contains("the same slug `thing`"), "{err}");
}

#[test]
fn pato_obo_gives_the_terms_of_its_owl_release() {
    needs!(Need::SharedOntologies, Need::Slow, NETLIFY);
    let dir = tempdir();
    let obo = built(
        &dir.path().join("obo"),
        &input_with(
            &dir.path().join("obo"),
            &shared_ontology("pato.obo"),
            r#"{"name": "PATO", "baseUrl": "https://pato.test"}"#,
        ),
    );
    let all = items(&obo);
    assert_eq!(
        count_typed(&all, "http://www.w3.org/2002/07/owl#Class"),
        2785
    );
    assert_eq!(all.iter().filter(|i| i["deprecated"] == true).count(), 919);
    let info = read_json(&obo.join("api.json"));
    assert_eq!(info["version"], "2025-05-14");
    assert_eq!(
        info["license"],
        "https://creativecommons.org/licenses/by/3.0/"
    );

    // The OWL release, built beside it: every PATO term reads the same.
    let owl = built(
        &dir.path().join("owl"),
        &input_with(
            &dir.path().join("owl"),
            &shared_ontology("pato-base.owl"),
            r#"{"name": "PATO", "baseUrl": "https://pato.test"}"#,
        ),
    );
    // Every PATO term is in the hierarchy's pages once with its id, the
    // terms under several parents named again; the terms outside it (more
    // than a page's worth) are counted there and listed, every one, on
    // pages of their own.
    let tree = tree_page(&obo);
    let outside = " terms with neither parents nor children</summary>";
    let at = tree.find(outside).expect("the terms outside the tree");
    let count: usize = tree[..at].rsplit('>').next().unwrap().parse().unwrap();
    assert!(count > 500, "{count}");
    assert!(tree.contains("listed by name on <a href=\"browse&#x2f;outside-1.html\">"));
    let outside = crate::browse::follow(&obo, "outside-1.html");
    assert_eq!(outside.len(), count);
    assert_eq!(
        tree.matches("<li id=\"").count() + count,
        all.len(),
        "one id per term"
    );
    for slug in &outside {
        assert!(!tree.contains(&format!("<li id=\"{slug}\"")), "{slug}");
    }
    assert!(tree.contains("(shown above)"));
    // The source files are published typed: no host knows `.obo`, not
    // every host `.owl`. Netlify's matcher agrees.
    for (site, name, media_type) in [
        (&obo, "pato.obo", "text/obo"),
        (&owl, "pato-base.owl", "application/rdf+xml"),
    ] {
        let path = format!("/source-files/{name}");
        let report = crate::netlify::route(site, &[&path]);
        let route = &report["routes"][0];
        assert_eq!(route["status"], 200, "{route}");
        assert_eq!(route["headers"]["Content-Type"], media_type, "{route}");
    }
    let by_iri = |site: &Path| -> std::collections::BTreeMap<String, Value> {
        items(site)
            .into_iter()
            .filter(|i| i["iri"].as_str().unwrap().contains("/PATO_"))
            .map(|i| (i["iri"].as_str().unwrap().to_owned(), i))
            .collect()
    };
    let (from_obo, from_owl) = (by_iri(&obo), by_iri(&owl));
    assert_eq!(from_obo.len(), 2785);
    let texts = |item: &Value, key: &str| -> Vec<String> {
        let mut values: Vec<String> = item[key]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|t| t["value"].as_str().unwrap().to_owned())
                    .collect()
            })
            .unwrap_or_default();
        values.sort();
        values
    };
    let mut parents_differ = Vec::new();
    for (iri, term) in &from_obo {
        let other = &from_owl[iri];
        assert_eq!(term["name"], other["name"], "{iri}");
        assert_eq!(term["description"], other["description"], "{iri}");
        assert_eq!(term["deprecated"], other["deprecated"], "{iri}");
        assert_eq!(texts(term, "synonyms"), texts(other, "synonyms"), "{iri}");
        // The parents both state: the OWL base has logical definitions the
        // OBO file leaves out, whose genus it adds, marked.
        let parents = |t: &Value| -> Vec<String> {
            let mut p: Vec<String> = t["parents"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|p| p.get("fromDefinition").is_none())
                .map(|p| p["iri"].as_str().unwrap().to_owned())
                .collect();
            p.sort();
            p
        };
        if parents(term) != parents(other) {
            parents_differ.push(iri.clone());
        }
    }
    // The OWL base places the root under BFO's quality; the OBO file
    // does not say so.
    assert_eq!(
        parents_differ,
        ["http://purl.obolibrary.org/obo/PATO_0000001"]
    );
    let increased = &from_owl["http://purl.obolibrary.org/obo/PATO_0000470"];
    assert_eq!(
        increased["parents"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["fromDefinition"] == true)
            .map(|p| p["name"].as_str().unwrap())
            .collect::<Vec<_>>(),
        ["amount"]
    );

    let server = Server::dir(&obo);
    assert_eq!(search(&server, "big")[0], "increased size");
}

#[test]
fn an_obo_file_keeps_synonyms_obsolete_terms_and_class_expressions() {
    needs!(OPENAPI_VALIDATOR);
    let dir = tempdir();
    let site = built(dir.path(), &fixture("obo"));
    let round = read_json(&site.join("shape0000002.json"));
    assert_eq!(round["id"], "SHAPE:0000002");
    assert_eq!(round["name"], "round");
    assert_eq!(
        round["synonyms"],
        serde_json::json!([
            {"value": "circular", "scope": "exact"},
            {"value": "rounded", "scope": "related"}
        ])
    );
    let obsolete = read_json(&site.join("shape0000004.json"));
    assert_eq!(obsolete["deprecated"], true);
    assert_eq!(names(&obsolete["replacedBy"]), ["round"]);
    // `relationship` and `intersection_of` are OWL class expressions.
    let square = std::fs::read_to_string(site.join("shape0000003.ttl")).unwrap();
    assert!(
        square.contains("owl:someValuesFrom obo:SHAPE_0000005"),
        "{square}"
    );
    let corner = std::fs::read_to_string(site.join("shape0000005.ttl")).unwrap();
    assert!(corner.contains("owl:intersectionOf"), "{corner}");
    // Defined only by `intersection_of`: its genus is its parent, marked,
    // as OLS shows it, and it is among the genus's children.
    let corner = read_json(&site.join("shape0000005.json"));
    assert_eq!(names(&corner["parents"]), ["shape"]);
    assert_eq!(corner["parents"][0]["fromDefinition"], true);
    let shape = read_json(&site.join("shape0000001.json"));
    assert_eq!(names(&shape["children"]), ["corner", "round", "square"]);
    assert_eq!(shape["children"][0].get("fromDefinition"), None);
    let page = std::fs::read_to_string(site.join("shape0000005.html")).unwrap();
    assert!(page.contains("(by definition)"), "{page}");
    let has_part = read_json(&site.join("haspart.json"));
    assert_eq!(
        has_part["iri"],
        "http://purl.obolibrary.org/obo/shapes#has_part"
    );
    let info = read_json(&site.join("api.json"));
    assert_eq!(
        info["ontology"]["versionIri"],
        "http://purl.obolibrary.org/obo/shapes/2026-11-01/shapes.owl"
    );
    assert_eq!(
        info["description"],
        "A small OBO ontology of shapes, for ontosite's tests."
    );
    assert_site_follows_its_openapi(&site);
    let server = Server::dir(&site);
    assert_eq!(search(&server, "circular"), ["round"]);
    assert_eq!(search(&server, "round"), ["round", "obsolete roundish"]);
    // A deprecated term's item says so; a live one's has no such key.
    let answer: Value = serde_json::from_slice(
        &client()
            .get(format!("{}search?q=round", server.url))
            .send()
            .unwrap()
            .bytes()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(answer["items"][0].get("deprecated"), None);
    assert_eq!(answer["items"][1]["deprecated"], true);
}

/// A logical definition as a person reads it in Chromium: Manchester
/// syntax, each class and property a link to its page, and the rows it
/// stands for no longer listed; the page passes axe.
#[test]
fn a_term_page_shows_its_logical_definition_in_manchester_syntax() {
    needs!(CHROMIUM);
    let dir = tempdir();
    let site = built(dir.path(), &fixture("obo"));
    let page = site.join("shape0000005.html");
    let chromium = chromium();
    let args: Vec<&std::ffi::OsStr> = vec![
        "--chromium".as_ref(),
        chromium.as_ref(),
        "--page".as_ref(),
        page.as_os_str(),
    ];
    let report = node_json(&root().join("tests/browser/expressions.mjs"), &args);
    assert_eq!(
        report["axioms"],
        serde_json::json!([{
            "keyword": "EquivalentTo",
            "text": "shape and (has part some shape)",
            "links": [
                {"text": "shape", "heading": "shape"},
                {"text": "has part", "heading": "has part"},
                {"text": "shape", "heading": "shape"}
            ]
        }])
    );
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("rdf:first"), "{html}");
    crate::front::assert_pages_fit_a_phone(&site, &["shape0000005.html".to_owned()]);
}

#[test]
fn an_obo_syntax_error_names_file_line_and_column() {
    let err = failed_build(
        "bad.obo",
        "format-version: 1.4\nontology: bad\n\n[Term]\nid: X:1\nname: ok\nis_a X:0\n",
    );
    assert!(err.contains("bad.obo:7:1: OBO syntax error"), "{err}");
}

/// What OBO 1.2 releases write and the 1.4 grammar is strict about (issue
/// 28): comment lines in the header and in stanzas, tags the grammar does
/// not name, escaped commas and spaces in cross-references, typed
/// synonyms, and a relation named by its cross-reference.
#[test]
fn an_obo_1_2_release_publishes_what_it_states() {
    let dir = tempdir();
    let site = built(dir.path(), &fixture("obo-practice"));
    let thing = triples_of(&site.join("prac0000001.nt"));
    let of = |subject: &str, predicate: &str| -> Vec<String> {
        thing
            .iter()
            .filter(|t| t[0] == format!("<{subject}>") && t[1] == format!("<{predicate}>"))
            .map(|t| t[2].clone())
            .collect()
    };
    let obo = "http://purl.obolibrary.org/obo/";
    let oio = "http://www.geneontology.org/formats/oboInOwl#";
    let iri = format!("{obo}PRAC_0000001");
    assert_eq!(
        of(&iri, &format!("{oio}created_in")),
        ["\"2004\""],
        "{thing:?}"
    );
    assert_eq!(
        of(&iri, &format!("{oio}hasDbXref")),
        ["\"https://en.wikipedia.org/wiki/Evergreen_sclerophyllous_forests,_scrub,_or_woodlands\""]
    );
    assert_eq!(
        of(&iri, &format!("{obo}IAO_0000115")),
        ["\"Anything at all, from EEA (1997) The concept of environmental space, Copenhagen.\""]
    );
    let mut references: Vec<String> = thing
        .iter()
        .filter(|t| t[1] == format!("<{oio}hasDbXref>") && t[0].starts_with("_:"))
        .map(|t| t[2].clone())
        .collect();
    references.sort();
    assert_eq!(
        references,
        [
            "\"EEA:1997\"",
            "\"WHATIF: chain\"",
            "\"http://www.eea.europa.eu/a,b\""
        ]
    );
    let part = std::fs::read_to_string(site.join("prac0000002.nt")).unwrap();
    assert!(
        part.contains(&format!("<{oio}hasSynonymType> <{obo}practice#layperson>")),
        "{part}"
    );
    // `part_of` with `xref: BFO:0000050` is BFO's relation, everywhere.
    assert!(
        part.contains(&format!(
            "<http://www.w3.org/2002/07/owl#onProperty> <{obo}BFO_0000050>"
        )),
        "{part}"
    );
    // The type is kept, in the JSON and on the page.
    let part_json = read_json(&site.join("prac0000002.json"));
    assert_eq!(
        part_json["synonyms"],
        serde_json::json!([
            {"value": "bit", "scope": "exact", "type": format!("{obo}practice#layperson")},
            {"value": "piece", "scope": "related"}
        ])
    );
    let page = std::fs::read_to_string(site.join("prac0000002.html")).unwrap();
    assert!(
        page.contains(r#"bit</span> <span class="muted">exact, A synonym a layperson uses</span>"#),
        "{page}"
    );
    let relation = read_json(&site.join("bfo0000050.json"));
    assert_eq!(relation["iri"], format!("{obo}BFO_0000050"));
    assert_eq!(relation["name"], "part of");
    let layperson = read_json(&site.join("layperson.json"));
    assert_eq!(layperson["name"], "A synonym a layperson uses");
}

/// What OWL releases do that the defaults missed (issue 28): two
/// `owl:Ontology` headers (PROV-O), `prov:definition`,
/// `oboInOwl:replacedBy`, and properties known only by `owl:inverseOf`.
#[test]
fn an_owl_release_keeps_its_real_header_definitions_replacements_and_inverses() {
    let dir = tempdir();
    let site = built(dir.path(), &fixture("owl-practice"));
    let info = read_json(&site.join("api.json"));
    assert_eq!(info["ontology"]["iri"], "http://example.org/practice-o#");
    assert_eq!(info["ontology"]["version"], "1.2");
    assert_eq!(
        info["description"],
        "What OWL releases do that default rules missed."
    );
    let activity = read_json(&site.join("activity.json"));
    assert_eq!(
        activity["description"],
        "Something that occurs over a period of time."
    );
    let old = read_json(&site.join("oldactivity.json"));
    assert_eq!(names(&old["replacedBy"]), ["Activity"]);
    for slug in ["hadactivity", "activityof"] {
        let property = read_json(&site.join(format!("{slug}.json")));
        assert_eq!(
            property["types"],
            serde_json::json!(["http://www.w3.org/2002/07/owl#ObjectProperty"]),
            "{slug}"
        );
    }
    let dump = std::fs::read_to_string(site.join("dump.nt")).unwrap();
    assert!(dump.contains(
        "<http://example.org/practice#hadActivity> <http://www.w3.org/2002/07/owl#inverseOf>"
    ));

    // A description under a predicate the rules do not name: `check` says
    // which, and the setting.
    let input = dir.path().join("noted");
    std::fs::create_dir_all(&input).unwrap();
    let source = std::fs::read_to_string(fixture("owl-practice").join("prov.ttl")).unwrap();
    std::fs::write(
        input.join("prov.ttl"),
        source.replace("prov:definition", "prov:editorialNote"),
    )
    .unwrap();
    std::fs::copy(
        fixture("owl-practice").join("ontology.json"),
        input.join("ontology.json"),
    )
    .unwrap();
    let output = ontosite()
        .arg("check")
        .arg("--input")
        .arg(&input)
        .output()
        .unwrap();
    assert!(output.status.success());
    let note = stderr(&output);
    assert!(
        note.contains("note: 6 of 6 terms have no description")
            && note.contains("<http://www.w3.org/ns/prov#editorialNote> on 1")
            && note.contains("`terms.description`"),
        "{note}"
    );
}

/// The triples of an N-Triples file, each term as N-Triples writes it.
fn triples_of(path: &Path) -> Vec<[String; 3]> {
    let text = std::fs::read(path).unwrap();
    oxttl::NTriplesParser::new()
        .for_slice(&text)
        .map(|t| {
            let t = t.unwrap();
            [
                t.subject.to_string(),
                t.predicate.to_string(),
                t.object.to_string(),
            ]
        })
        .collect()
}

/// An earlier ID (`alt_id`) is searched as the ID is, in the exact tier,
/// and its path answers with the term, as OBO PURLs and OLS do.
#[test]
fn an_alternative_id_finds_and_resolves_to_its_term() {
    needs!(OPENAPI_VALIDATOR);
    let dir = tempdir();
    let site = built(dir.path(), &fixture("obo-practice"));
    let part = read_json(&site.join("prac0000002.json"));
    assert_eq!(part["alternativeIds"], serde_json::json!(["PRAC:0000009"]));
    let page = std::fs::read_to_string(site.join("prac0000002.html")).unwrap();
    assert!(page.contains("<code>PRAC:0000009</code>"), "{page}");
    let server = Server::dir(&site);
    assert_eq!(search(&server, "PRAC:0000009"), ["part"]);
    assert_eq!(
        see_other(&server, "prac0000009", "application/ld+json"),
        "/prac0000002.jsonld"
    );
    assert_site_follows_its_openapi(&site);

    // Where OBO PURLs resolve through the site, the earlier ID's PURL does.
    let input = dir.path().join("purl");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::copy(
        fixture("obo-practice").join("practice.obo"),
        input.join("practice.obo"),
    )
    .unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "Practice", "baseUrl": "https://practice.example", "namespace": "http://purl.obolibrary.org/obo/"}"#,
    )
    .unwrap();
    let site = dir.path().join("purl-site");
    build_ok(&input, &site);
    let server = Server::dir(&site);
    for (path, to) in [
        ("PRAC_0000009", "/prac0000002.ttl"),
        ("PRAC_0000002", "/prac0000002.ttl"),
    ] {
        assert_eq!(see_other(&server, path, "text/turtle"), to);
    }
}

/// The repro of issue 28: a comment line inside a stanza made fastobo
/// panic (`unreachable!`) and ontosite exit 101 with a backtrace.
#[test]
fn a_comment_line_inside_an_obo_stanza_is_read_without_a_panic() {
    let dir = tempdir();
    let input = written_input(
        dir.path(),
        "a.obo",
        "format-version: 1.2\nontology: x\n\n[Term]\nid: X:1\nname: a\n! c\n\n[Term]\nid: X:2\nname: b\n",
        r#"{"name": "X", "baseUrl": "https://x.test"}"#,
    );
    let output = ontosite()
        .arg("check")
        .arg("--input")
        .arg(&input)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(!stderr(&output).contains("panicked"), "{}", stderr(&output));
}

/// Every error of an OBO file in one run, each at its line and column, and
/// the lines around them read as usual.
#[test]
fn every_obo_error_of_a_file_is_reported_at_its_place() {
    let err = failed_build(
        "bad.obo",
        "format-version: 1.4\nontology: bad\n\n[Term]\nid: X:1 junk\nname: ok\nis_a: X:0 Y\ncreation_date: yesterday\n\n[Thing]\nid: Y\n\n[Term]\nname: nameless\n",
    );
    assert!(err.contains("the input has 5 errors"), "{err}");
    assert!(
        err.contains("bad.obo:5:8: OBO syntax error: unexpected text after the value"),
        "{err}"
    );
    assert!(err.contains("bad.obo:7:11: OBO syntax error"), "{err}");
    assert!(err.contains("bad.obo:8:16: OBO syntax error"), "{err}");
    assert!(
        err.contains("bad.obo:10:1: `[Thing]` is not a kind of stanza OBO has"),
        "{err}"
    );
    assert!(
        err.contains("bad.obo:13:1: this [Term] stanza has no `id:` line"),
        "{err}"
    );
}

/// ENVO's release as published: OBO 1.2 escapes in its cross-references
/// (it failed at line 14985), 1,613 `intersection_of` lines.
#[test]
fn envo_obo_builds() {
    needs!(Need::SharedOntologies, Need::Slow);
    let dir = tempdir();
    let site = built(
        dir.path(),
        &input_with(
            dir.path(),
            &shared_ontology("envo.obo"),
            r#"{"name": "ENVO", "baseUrl": "https://envo.test"}"#,
        ),
    );
    let all = items(&site);
    assert_eq!(all.len(), 7099);
    let forest = all
        .iter()
        .find(|i| i["iri"] == "http://purl.obolibrary.org/obo/ENVO_01000220")
        .cloned();
    assert!(forest.is_some());

    // A file per document is past Cloudflare Pages Free's 20,000 files...
    let input = dir.path().join("input");
    let files = check(&input, &["--host", "cloudflare", "--layout", "files"]);
    assert_eq!(files.status.code(), Some(1));
    assert!(
        stderr(&files).contains("files; it takes at most 20,000 per site"),
        "{}",
        stderr(&files)
    );
    // ...bundled, the release fits, and its terms answer as their files.
    let bundled = dir.path().join("bundled");
    let output = build(&input, &bundled, &["--host", "cloudflare"]);
    assert!(output.status.success(), "{}", stderr(&output));
    let line = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        line.contains("fits Cloudflare Pages (Free) (--host cloudflare): "),
        "{line}"
    );
    let written = snapshot(&bundled).len();
    assert!(written < 20_000, "{written} files");
    let server = Server::dir(&bundled);
    let slug = forest.unwrap()["slug"].as_str().unwrap().to_owned();
    for extension in ["json", "ttl", "html"] {
        let body = client()
            .get(format!("{}{slug}.{extension}", server.url))
            .send()
            .unwrap()
            .bytes()
            .unwrap();
        let file = std::fs::read(site.join(format!("{slug}.{extension}"))).unwrap();
        assert!(body == file, "{slug}.{extension}");
    }
}

#[test]
fn a_tsv_release_is_read_through_its_column_mapping() {
    let dir = tempdir();
    let site = built(dir.path(), &fixture("table"));
    let alignment = read_json(&site.join("data0863.json"));
    assert_eq!(alignment["iri"], "http://edam.example/data_0863");
    assert_eq!(alignment["name"], "Sequence alignment");
    assert_eq!(names(&alignment["parents"]), ["Data"]);
    assert_eq!(alignment["deprecated"], false);
    let data = read_json(&site.join("data0006.json"));
    assert_eq!(
        data["synonyms"],
        serde_json::json!([
            {"value": "Data record", "scope": "exact"},
            {"value": "Data set", "scope": "exact"}
        ])
    );
    assert_eq!(read_json(&site.join("data1916.json"))["deprecated"], true);
    // The ignored column is not published.
    let turtle = std::fs::read_to_string(site.join("data0006.ttl")).unwrap();
    assert!(!turtle.contains("kept out"), "{turtle}");
    let server = Server::dir(&site);
    assert_eq!(
        search(&server, "sequence alignment")[0],
        "Sequence alignment"
    );
    assert_eq!(
        search(&server, "alignment"),
        ["Sequence alignment", "Alignment (old)"]
    );
}

#[test]
fn a_table_column_left_unmapped_and_a_bad_iri_are_errors() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&fixture("table"), &input);
    let manifest = std::fs::read_to_string(input.join("ontology.json"))
        .unwrap()
        .replace(r#""ignore": ["Notes"]"#, r#""ignore": []"#);
    std::fs::write(input.join("ontology.json"), manifest).unwrap();
    let output = build(&input, &dir.path().join("dist"), &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("edam.tsv:1:7: the column `Notes` is not mapped"),
        "{err}"
    );

    let tsv = std::fs::read_to_string(fixture("table/edam.tsv"))
        .unwrap()
        .replace("http://edam.example/data_1916", "not an iri");
    copy_tree(&fixture("table"), &input);
    std::fs::write(input.join("edam.tsv"), tsv).unwrap();
    let output = build(&input, &dir.path().join("dist"), &[]);
    let err = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{err}");
    assert!(
        err.contains("edam.tsv:4:1: `not an iri` is not an IRI"),
        "{err}"
    );
}

/// Every kind of page of an ontology with a hierarchy (schema.org): the
/// front page, a class and a property, the tree's pages, the browsing
/// pages, fit a phone and pass axe-core; the API section documents it.
#[test]
fn schema_org_s_pages_fit_a_phone_and_pass_axe() {
    needs!(Need::SharedOntologies, Need::Slow, CHROMIUM);
    let dir = tempdir();
    let (_, site) = built_schema_org(dir.path());
    assert!(
        site.join("tree-2.html").exists(),
        "the tree runs over pages"
    );
    let person = std::fs::read_to_string(site.join("person.html")).unwrap();
    // Parents and what links here by name, the JSON answer shown.
    assert!(
        person.contains(
            r#"<a href="thing.html" title="https:&#x2f;&#x2f;schema.org&#x2f;Thing">Thing</a>"#
        ),
        "{person}"
    );
    assert!(person.contains("<dt>What links here</dt>"));
    assert!(person.contains("The JSON answer of"));
    let pages: Vec<String> = [
        "index.html",
        "person.html",
        "name.html",
        "thing.html",
        "tree.html",
        "tree-2.html",
        "browse/index.html",
        "browse/names-1.html",
        "browse/type-1-1.html",
    ]
    .map(String::from)
    .into();
    crate::front::assert_pages_fit_a_phone(&site, &pages);
}

/// EDAM 1.25's OBO release (issue 63): a definition with quotes left
/// unescaped inside it is read with them, where the line's end is
/// unambiguous, and `check` says so at its line; a line with two readings
/// stays an error.
#[test]
fn a_definition_with_unescaped_inner_quotes_is_read_with_a_note() {
    let dir = tempdir();
    let edam = concat!(
        "format-version: 1.2\nontology: edam\n\n[Term]\nid: format:2195\nname: Ontology format\n",
        "def: \"A superset of the \"Description-Logic Knowledge Representation System Specification from the KRSS Group of the ARPA Knowledge Sharing Effort\".\" [http://edamontology.org]\n",
        "synonym: \"the \"KRSS\" format\" EXACT []\n",
    );
    let input = written_input(
        dir.path(),
        "edam.obo",
        edam,
        r#"{"name": "EDAM", "baseUrl": "https://x.test"}"#,
    );
    let checked = check(&input, &[]);
    assert_eq!(checked.status.code(), Some(0), "{}", stderr(&checked));
    let said = stderr(&checked);
    let notes: Vec<&str> = said
        .lines()
        .filter(|line| line.starts_with("note: "))
        .collect();
    assert_eq!(notes.len(), 2, "{}", stderr(&checked));
    assert!(notes[0].contains("edam.obo:7:1: the quotes inside this text are not escaped"));
    assert!(notes[1].contains("edam.obo:8:1: "));
    let site = dir.path().join("dist");
    let built = ontosite()
        .args(["build", "--input"])
        .arg(&input)
        .arg("--out")
        .arg(&site)
        .output()
        .unwrap();
    assert!(built.status.success(), "{}", stderr(&built));
    assert_eq!(
        stderr(&built).matches("note: ").count(),
        2,
        "{}",
        stderr(&built)
    );
    let term = &items(&site)[0];
    assert_eq!(
        term["description"],
        "A superset of the \"Description-Logic Knowledge Representation System Specification from the KRSS Group of the ARPA Knowledge Sharing Effort\"."
    );
    assert_eq!(
        term["synonyms"][0]["value"], "the \"KRSS\" format",
        "{term:#}"
    );

    // Two quotes either of which could close the text: refused, placed.
    std::fs::write(
        input.join("edam.obo"),
        "format-version: 1.2\nontology: edam\n\n[Term]\nid: format:1\nname: x\ndef: \"p \"x\" [A \"q\" [B]\n",
    )
    .unwrap();
    let refused = check(&input, &[]);
    assert_ne!(refused.status.code(), Some(0));
    assert!(
        stderr(&refused).contains("edam.obo:7:"),
        "{}",
        stderr(&refused)
    );
}

/// Curators' defaults (issue 63): OBO's "alternative label"
/// (`IAO:0000118`) and the properties a source declares beneath it (OBI's
/// "IEDB alternative term") are synonyms, found by search; a term's
/// description comes from the first predicate of the rule that has one,
/// then by language within it (PROV-O's untagged `prov:definition` over
/// an English `rdfs:comment`), an empty text being none.
#[test]
fn alternative_labels_are_synonyms_and_descriptions_follow_the_rule_s_order() {
    let dir = tempdir();
    let input = written_input(
        dir.path(),
        "o.ttl",
        r#"@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix prov: <http://www.w3.org/ns/prov#> .
obo:OBI_9991118 a owl:AnnotationProperty ; rdfs:subPropertyOf obo:IAO_0000118 .
obo:OBI_0000001 a owl:Class ; rdfs:label "electroporation"@en ;
    obo:IAO_0000118 "electropermeabilization"@en ;
    obo:OBI_9991118 "electrotransfer" ;
    rdfs:comment ""@en .
obo:OBI_0000002 a owl:Class ; rdfs:label "plan"@en ;
    rdfs:comment "An editorial note."@en ;
    prov:definition "A plan is an entity that represents a set of actions." .
"#,
        r#"{"name": "O", "baseUrl": "https://o.test"}"#,
    );
    let site = built(dir.path(), &input);
    let all = items(&site);
    let by_id = |id: &str| all.iter().find(|t| t["id"] == id).unwrap();
    let electroporation = by_id("OBI:0000001");
    let synonyms: Vec<&str> = electroporation["synonyms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["value"].as_str().unwrap())
        .collect();
    assert_eq!(synonyms, ["electropermeabilization", "electrotransfer"]);
    // Its only description is empty: it has none.
    assert!(
        electroporation["description"].is_null(),
        "{electroporation}"
    );
    assert_eq!(
        by_id("OBI:0000002")["description"],
        "A plan is an entity that represents a set of actions."
    );
    let index = ontosite::serve::search_index::PublishedIndex::open(&site).unwrap();
    for q in ["electropermeabilization", "electrotransfer"] {
        let (status, body) = ontosite::site::answers::respond(Some(q), None, None, |query| {
            index.answer(query, ontosite::serve::search_index::Reads::Allowed)
        })
        .unwrap();
        let answer: Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(
            (status, &answer["items"][0]["id"]),
            (200, &Value::from("OBI:0000001")),
            "{q}: {answer}"
        );
    }
}

/// GO's obsolete terms name terms to `consider` and none that replaces
/// them (issue 63): the JSON lists them, the page links them ("Consider
/// instead"), and the RDF keeps the statement as the source made it (an
/// IRI from OBO, GO's OWL release's text ID as text).
#[test]
fn an_obsolete_term_points_to_the_terms_to_consider() {
    let dir = tempdir();
    let input = written_input(
        dir.path(),
        "go.obo",
        "format-version: 1.2\nontology: go\n\n[Term]\nid: GO:0000001\nname: old one\nis_obsolete: true\nconsider: GO:0000002\nconsider: GO:0000009\n\n[Term]\nid: GO:0000002\nname: new one\n",
        r#"{"name": "GO", "baseUrl": "https://go.test"}"#,
    );
    let site = built(dir.path(), &input);
    let old = read_json(&site.join("go0000001.json"));
    let considered: Vec<(&str, &Value)> = old["consider"]
        .as_array()
        .unwrap_or_else(|| panic!("{old:#}"))
        .iter()
        .map(|t| (t["iri"].as_str().unwrap(), &t["slug"]))
        .collect();
    assert_eq!(
        considered,
        [
            (
                "http://purl.obolibrary.org/obo/GO_0000002",
                &Value::from("go0000002")
            ),
            ("http://purl.obolibrary.org/obo/GO_0000009", &Value::Null),
        ]
    );
    let page = std::fs::read_to_string(site.join("go0000001.html")).unwrap();
    assert!(
        page.contains(r#"Consider instead: <a href="go0000002.html">new one</a>, <code>"#)
            && page.contains("GO_0000009</code>.</p>"),
        "{page}"
    );
    let turtle = std::fs::read_to_string(site.join("go0000001.ttl")).unwrap();
    assert!(turtle.contains("consider"), "{turtle}");

    // GO's OWL release states the ID as text.
    std::fs::remove_file(input.join("go.obo")).unwrap();
    std::fs::write(
        input.join("go.ttl"),
        r#"@prefix obo: <http://purl.obolibrary.org/obo/> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .
obo:GO_0000001 a owl:Class ; rdfs:label "old one" ; owl:deprecated true ;
    oboInOwl:consider "GO:0000002", "not an ID" .
obo:GO_0000002 a owl:Class ; rdfs:label "new one" .
"#,
    )
    .unwrap();
    let site = built(dir.path(), &input);
    let old = read_json(&site.join("go0000001.json"));
    assert_eq!(old["consider"][0]["slug"], "go0000002", "{old:#}");
    assert_eq!(old["consider"].as_array().unwrap().len(), 1);
}

/// A source whose name holds what a URL cannot carry as it is (issue 63:
/// `a#b.ttl`) is listed in `api.json` at a percent-encoded URL, which the
/// site answers with the file.
#[test]
fn a_source_s_url_is_percent_encoded() {
    let dir = tempdir();
    let turtle = "<https://o.test/a> a <http://www.w3.org/2002/07/owl#Class> ; <http://www.w3.org/2000/01/rdf-schema#label> \"a\" .\n";
    let input = written_input(
        dir.path(),
        "a#b ?é.ttl",
        turtle,
        r#"{"name": "O", "baseUrl": "https://o.test"}"#,
    );
    let site = built(dir.path(), &input);
    let info = read_json(&site.join("api.json"));
    let url = info["sources"][0]["url"].as_str().unwrap();
    let path = url.strip_prefix("https://o.test/").unwrap();
    assert!(path.ends_with("a%23b%20%3F%C3%A9.ttl"), "{url}");
    let server = Server::dir(&site);
    let response = server.get(path);
    assert_eq!(response.status().as_u16(), 200, "{url}");
    assert_eq!(response.text().unwrap(), turtle);
}

/// A source's file name is its path in the site (`source-files/{name}`),
/// in the output's records and in messages. One with a newline, a byte
/// that is not UTF-8 or a mark that turns the text's direction is refused
/// by `check` and `build`, the name shown escaped on one line, and the
/// previous site stays; so is a second source of a file name already
/// taken, from another folder. No build leaves an output the next one
/// refuses.
#[test]
fn a_source_s_file_name_that_cannot_be_published_is_refused_and_shown_escaped() {
    let dir = tempdir();
    let turtle = "@prefix : <http://t.test/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n:A a owl:Class ; <http://www.w3.org/2000/01/rdf-schema#label> \"A\" .\n";
    let manifest = r#"{"name": "T", "baseUrl": "https://t.test"}"#;
    let input = written_input(dir.path(), "t.ttl", turtle, manifest);
    let site = built(dir.path(), &input);
    let before = snapshot(&site);
    let mut names: Vec<(std::ffi::OsString, &str)> = vec![
        ("a\nb.ttl".into(), "a\\u{a}b.ttl"),
        ("rtl\u{202E}lmt.ttl".into(), "rtl\\u{202e}lmt.ttl"),
    ];
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        names.push((
            std::ffi::OsStr::from_bytes(b"bad\xFF.ttl").to_owned(),
            "bad\\xFF.ttl",
        ));
    }
    for (name, shown) in &names {
        let bad = input.join(name);
        std::fs::write(&bad, turtle.replace(":A", ":B")).unwrap();
        for output in [build(&input, &site, &[]), check(&input, &[])] {
            assert_eq!(output.status.code(), Some(1), "{shown}");
            let said = stderr(&output);
            assert!(
                said.contains(&format!("{shown}: the file name holds")),
                "{said}"
            );
            assert!(said.contains("help: rename the file"), "{said}");
            assert!(!said.contains('\u{202E}'), "{said}");
            assert_eq!(
                said.lines().count(),
                3,
                "one error, on its own lines: {said}"
            );
        }
        assert!(snapshot(&site) == before, "{shown}: the site changed");
        std::fs::remove_file(&bad).unwrap();
    }

    // One file name in two folders, named in `sources`.
    for folder in ["a", "b"] {
        std::fs::create_dir_all(input.join(folder)).unwrap();
        std::fs::write(input.join(folder).join("x.ttl"), turtle).unwrap();
    }
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "T", "baseUrl": "https://t.test", "sources": ["a/x.ttl", "b/x.ttl"]}"#,
    )
    .unwrap();
    for output in [build(&input, &site, &[]), check(&input, &[])] {
        assert_eq!(output.status.code(), Some(1));
        let said = stderr(&output);
        assert!(
            said.contains("b/x.ttl: has the file name of `")
                && said.contains("a/x.ttl`: both would be published at `source-files/x.ttl`"),
            "{said}"
        );
    }
    assert!(snapshot(&site) == before);
    // And a build after the refusals replaces the site as usual.
    std::fs::write(input.join("ontology.json"), manifest).unwrap();
    build_ok(&input, &site);
}

/// `_headers` types the source files with one rule for each extension
/// a host would type wrongly, however many sources there are (100 OWL
/// sources were 100 rules, all of Cloudflare's), and `serve`, which
/// applies the rules, answers each source with its type.
#[test]
fn one_header_rule_types_every_source_of_an_extension() {
    let dir = tempdir();
    let input = dir.path().join("in");
    std::fs::create_dir_all(&input).unwrap();
    std::fs::write(
        input.join("ontology.json"),
        r#"{"name": "T", "baseUrl": "https://t.test"}"#,
    )
    .unwrap();
    for n in 0..120 {
        std::fs::write(
            input.join(format!("part{n}.owl")),
            format!(
                r#"<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:owl="http://www.w3.org/2002/07/owl#"><owl:Class rdf:about="http://t.test/C{n}"/></rdf:RDF>"#
            ),
        )
        .unwrap();
    }
    std::fs::write(
        input.join("more.obo"),
        "format-version: 1.2\nontology: t\n\n[Term]\nid: T:1\nname: one\n",
    )
    .unwrap();
    let site = built(dir.path(), &input);
    let headers = std::fs::read_to_string(site.join("_headers")).unwrap();
    assert_eq!(headers.matches("/source-files/").count(), 2, "{headers}");
    assert!(
        headers.contains("/source-files/*.owl\n  Content-Type: application/rdf+xml\n")
            && headers.contains("/source-files/*.obo\n  Content-Type: text/obo\n"),
        "{headers}"
    );
    let server = Server::dir(&site);
    for (path, media_type) in [
        ("/source-files/part7.owl", "application/rdf+xml"),
        ("/source-files/part119.owl", "application/rdf+xml"),
        ("/source-files/more.obo", "text/obo"),
    ] {
        let answer = server.get(path);
        assert_eq!(answer.status(), 200, "{path}");
        assert_eq!(answer.headers()["content-type"], media_type, "{path}");
    }
}

/// EDAM's shapes (issue 63): an earlier ID given as an IRI
/// (`hasAlternativeId "http://edamontology.org/topic_0197"`) resolves at
/// the path of its local name, as an OBO ID's does, and at no path made of
/// the whole IRI; an OBO header whose `ontology` is an IRI names the
/// ontology by it and mints its unprefixed IDs in that namespace, not
/// under an OBO PURL around it.
#[test]
fn earlier_iris_and_an_ontology_named_by_an_iri_stay_in_their_namespace() {
    let dir = tempdir();
    let input = written_input(
        dir.path(),
        "edam.ttl",
        "@prefix edam: <http://edamontology.org/> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix oboInOwl: <http://www.geneontology.org/formats/oboInOwl#> .\nedam:topic_0003 a owl:Class ; rdfs:label \"Topic\" ; oboInOwl:hasAlternativeId \"http://edamontology.org/topic_0197\" .\n",
        r#"{"name": "EDAM", "baseUrl": "https://edam.test", "namespace": "http://edamontology.org/"}"#,
    );
    let site = built(dir.path(), &input);
    let server = Server::dir(&site);
    let slug = read_json(&site.join("index.json"))["items"][0]["slug"]
        .as_str()
        .unwrap()
        .to_owned();
    for path in ["topic_0197", "topic0197"] {
        assert_eq!(
            see_other(&server, path, "text/turtle"),
            format!("/{slug}.ttl")
        );
    }
    assert_eq!(server.get("/httpedamontologyorgtopic0197").status(), 404);

    let obo = written_input(
        &dir.path().join("obo"),
        "edam.obo",
        "format-version: 1.2\ndata-version: 1.25\nontology: http://edamontology.org\n\n[Term]\nid: EDAM:1\nname: one\nrelationship: has_format EDAM:2\n\n[Term]\nid: EDAM:2\nname: two\n\n[Typedef]\nid: has_format\nname: has format\n",
        r#"{"name": "EDAM", "baseUrl": "https://edam.test"}"#,
    );
    let site = built(&dir.path().join("obo"), &obo);
    let dump = std::fs::read_to_string(site.join("dump.nt")).unwrap();
    assert!(!dump.contains("purl.obolibrary.org/obo/http"), "{dump}");
    assert!(
        dump.contains("<http://edamontology.org/has_format>"),
        "{dump}"
    );
    assert!(
        dump.contains("<http://edamontology.org> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Ontology> ."),
        "{dump}"
    );
    assert!(
        dump.contains(
            "<http://edamontology.org> <http://www.w3.org/2002/07/owl#versionInfo> \"1.25\" ."
        ),
        "{dump}"
    );
}

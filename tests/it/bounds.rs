//! What one term's input can make the site hold (docs/input.md, "Bounds"): a deep
//! hierarchy, a term with many children and a huge label each keep the
//! site proportional to the input, their own documents whole.

use crate::util::*;
use std::path::Path;

/// A chain of `n` classes, `c0` the root and each `c{i}` under `c{i-1}`.
fn chain(n: usize) -> String {
    let mut body = String::from(":c0 a owl:Class ; rdfs:label \"c0\" .\n");
    for i in 1..n {
        body.push_str(&format!(
            ":c{i} a owl:Class ; rdfs:label \"c{i}\" ; rdfs:subClassOf :c{} .\n",
            i - 1
        ));
    }
    body
}

fn site_bytes(dir: &Path) -> u64 {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap().metadata().unwrap().len())
        .sum()
}

/// Doubling a chain's depth doubles the site, not quadruples it: the
/// ancestors a term lists and the breadcrumbs its page shows are the
/// nearest ones, with the way up by links. Unbounded, 300 and 600 levels
/// made 15 and 48 MB (a ratio of 3.2), 10,000 levels over 27 GB.
#[test]
fn a_deep_hierarchy_keeps_the_site_proportional() {
    let dir = tempdir();
    let mut sizes = Vec::new();
    for n in [300, 600] {
        let input = turtle_input(&dir.path().join(n.to_string()), &chain(n));
        let out = dir.path().join(format!("{n}/dist"));
        build_ok(&input, &out);
        sizes.push(site_bytes(&out));
        let last = format!("c{}", n - 1);
        let json = read_json(&out.join(format!("{last}.json")));
        let ancestors = json["ancestors"].as_array().unwrap();
        assert_eq!(ancestors.len(), 64, "the nearest 64 levels");
        assert_eq!(ancestors[0]["slug"], format!("c{}", n - 2));
        assert_eq!(json["ancestorsComplete"], false);
        let near = read_json(&out.join("c10.json"));
        assert_eq!(near["ancestors"].as_array().unwrap().len(), 10);
        assert_eq!(near["ancestorsComplete"], true);
        // The page: the nearest 12 breadcrumbs, then a link further up.
        let page = std::fs::read_to_string(out.join(format!("{last}.html"))).unwrap();
        let crumbs = page
            .split("aria-label=\"Breadcrumbs\"")
            .nth(1)
            .unwrap()
            .split("</nav>")
            .next()
            .unwrap();
        assert_eq!(crumbs.matches("<a href=").count(), 1 + 1 + 12, "{crumbs}");
        assert!(
            crumbs.contains(&format!(
                "<a href=\"c{}.html\" title=\"further up: c{0}\">…</a>",
                n - 14
            )),
            "{crumbs}"
        );
    }
    let ratio = sizes[1] as f64 / sizes[0] as f64;
    assert!(
        ratio < 2.3,
        "600 levels made {ratio:.2} times the site of 300: {sizes:?}"
    );
}

/// A term with 1,500 children lists the first 1,000 in its documents, with
/// the total, and its page links to the tree, which lists every one.
#[test]
fn a_term_with_many_children_lists_the_first_thousand() {
    let dir = tempdir();
    let mut body = String::from(":top a owl:Class ; rdfs:label \"top\" .\n");
    for i in 0..1500 {
        body.push_str(&format!(
            ":k{i:04} a owl:Class ; rdfs:label \"kid {i:04}\" ; rdfs:subClassOf :top .\n"
        ));
    }
    let input = turtle_input(dir.path(), &body);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let top = read_json(&out.join("top.json"));
    assert_eq!(top["children"].as_array().unwrap().len(), 1000);
    assert_eq!(top["childrenTotal"], 1500);
    assert_eq!(top["children"][999]["slug"], "k0999");
    assert_eq!(top["linkedFrom"].as_array().unwrap().len(), 1000);
    assert_eq!(top["linkedFromTotal"], 1500);
    let page = std::fs::read_to_string(out.join("top.html")).unwrap();
    assert!(
        page.contains(
            "The first 1000 of 1500: <a href=\"tree.html#top\">every one in the tree</a>"
        ),
        "{}",
        &page[page.find("Children").unwrap_or(0)..][..400]
    );
    let tree: String = ["tree.html", "tree-2.html"]
        .iter()
        .map(|f| std::fs::read_to_string(out.join(f)).unwrap())
        .collect();
    for i in [0, 999, 1000, 1499] {
        assert!(
            tree.contains(&format!("id=\"k{i:04}\"")),
            "k{i:04} in the tree"
        );
    }
}

/// One 1 MB label: the term's own documents hold it whole; the front page,
/// the lists and other terms' pages show its first words.
#[test]
fn a_huge_label_stays_on_its_own_pages() {
    let dir = tempdir();
    let label = "word ".repeat(200_000);
    let body = format!(
        ":big a owl:Class ; rdfs:label \"{label}\" .\n:small a owl:Class ; rdfs:label \"small\" ; rdfs:subClassOf :big .\n"
    );
    let input = turtle_input(dir.path(), &body);
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let big = read_json(&out.join("big.json"));
    assert_eq!(
        big["name"].as_str().map(str::len),
        Some(label.len()),
        "whole"
    );
    // Its page shows the answer's first 16 KiB, not the whole answer again.
    let page = std::fs::read_to_string(out.join("big.html")).unwrap();
    assert!(page.contains("Its first 16 KiB: the whole answer is at <a href=\"big.json\">"));
    let copies = page.len() as f64 / label.len() as f64;
    assert!(copies < 6.0, "the page holds the label {copies:.1} times");
    for file in [
        "index.html",
        "home.html",
        "index.json",
        "small.json",
        "small.html",
        "tree.html",
    ] {
        let size = std::fs::metadata(out.join(file)).unwrap().len();
        assert!(size < 100_000, "{file} holds {size} bytes");
    }
    let small = read_json(&out.join("small.json"));
    let shown = small["parents"][0]["name"].as_str().unwrap();
    assert!(
        shown.chars().count() <= 200 && shown.ends_with("word…"),
        "{shown}"
    );
}

/// A one-word label of 2 MB is no example query: the front page and the
/// information document search for the first word within the bound on
/// examples, here the next term's, and stay small (a 50 MB word made
/// them 150 MB each).
#[test]
fn a_huge_word_is_never_the_example_query() {
    let dir = tempdir();
    let word = "x".repeat(2_000_000);
    let body = format!(
        ":a a owl:Class ; rdfs:label \"{word}\" .\n:b a owl:Class ; rdfs:label \"Small term\" .\n"
    );
    let out = dir.path().join("dist");
    build_ok(&turtle_input(dir.path(), &body), &out);
    let info = std::fs::read_to_string(out.join("api.json")).unwrap();
    assert!(
        info.contains("search?q=small\""),
        "{}",
        &info[..info.len().min(2000)]
    );
    for file in ["index.html", "home.html", "api.json", "openapi.json"] {
        let size = std::fs::metadata(out.join(file)).unwrap().len();
        assert!(size < 200_000, "{file} holds {size} bytes");
    }
}

/// Characters of one to four bytes, the marks and controls that a cut or
/// a shown value must keep whole, and the characters each syntax escapes.
const UNICODE: &[char] = &[
    'a', 'Z', ' ', 'é', 'ß', 'ж', 'א', 'ع', '日', '語', '한', '😀', '𝔸', '\u{301}', '\u{200d}',
    '\u{202e}', '\u{2066}', '\u{feff}', '"', '\\', '\n', '\t', '<', '&', '…',
];

/// A value of exactly `chars` characters from [`UNICODE`], drawn by `seed`;
/// with `wide`, only four-byte characters, so that a cut by bytes meets
/// one at every offset as the lengths around it change.
fn unicode_value(seed: u64, chars: usize, wide: bool) -> String {
    let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    (0..chars)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if wide {
                ['😀', '𝔸', '🀄'][(state % 3) as usize]
            } else {
                UNICODE[(state % UNICODE.len() as u64) as usize]
            }
        })
        .collect()
}

/// The `n`th term's local name: of every length mod 4, to shift what
/// precedes each value in its documents.
fn local_name(n: usize) -> String {
    format!("a{}{n}", "x".repeat(n % 4))
}

/// `value` as a Turtle string.
fn turtle_string(value: &str) -> String {
    let escaped = value
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n");
    format!("\"{escaped}\"")
}

/// Every bound a value meets on its way into a site, in characters or in
/// bytes (docs/input.md, "Bounds"; the constants in `src/`): quoted in a
/// message (120), a summary (160), a name or a slug (200), a line of an
/// example (240), a search key (32), and a page's share of its answer
/// (16 KiB) and a search leaf (24 KiB) in bytes, the last two met by
/// four-byte characters at every offset.
const CHAR_BOUNDS: [usize; 5] = [32, 120, 160, 200, 240];
const BYTE_BOUNDS: [usize; 2] = [16 * 1024, 24 * 1024];

/// No value at or around a bound's length makes a build panic: whole
/// sites are built from Unicode values of each length from three below a
/// bound to three above it, as labels, definitions, synonyms and
/// ontology descriptions, with the term that comes first in every list
/// (the front page's example) taking each length in turn.
#[test]
fn no_value_around_a_bound_makes_the_build_panic() {
    let dir = tempdir();
    let mut lengths: Vec<(usize, bool)> = CHAR_BOUNDS
        .iter()
        .flat_map(|&b| (b - 3..=b + 3).map(|n| (n, false)))
        .collect();
    // A four-byte character every four bytes: these lengths put the
    // bound before each of its bytes, whatever precedes the value.
    lengths.extend(
        BYTE_BOUNDS
            .iter()
            .flat_map(|&b| (b / 4 - 3..=b / 4 + 3).map(|n| (n, true))),
    );
    for (round, &(first, wide)) in lengths.iter().enumerate().step_by(3) {
        let seed = round as u64;
        let mut body = String::new();
        for (n, &(chars, wide)) in std::iter::once(&(first, wide)).chain(&lengths).enumerate() {
            let label = unicode_value(seed * 1000 + n as u64, chars, wide);
            let definition = unicode_value(seed * 1000 + n as u64 + 7, chars + 1, wide);
            let synonym = unicode_value(seed * 1000 + n as u64 + 11, chars, false);
            let parent = if n > 0 {
                format!(" ; rdfs:subClassOf :{}", local_name(n - 1))
            } else {
                String::new()
            };
            body.push_str(&format!(
                ":{} a owl:Class ; rdfs:label {} ; rdfs:comment {} ; \
                 <http://www.geneontology.org/formats/oboInOwl#hasExactSynonym> {}{parent} .\n",
                local_name(n),
                turtle_string(&label),
                turtle_string(&definition),
                turtle_string(&synonym),
            ));
        }
        let case = dir.path().join(format!("round{round}"));
        let input = turtle_input(&case, &body);
        let description = unicode_value(seed + 99, first, wide);
        std::fs::write(
            input.join("ontology.json"),
            serde_json::json!({
                "name": unicode_value(seed + 98, first.min(240), false),
                "description": description,
                "baseUrl": "https://t.test",
            })
            .to_string(),
        )
        .unwrap();
        let out = case.join("dist");
        let output = build(&input, &out, &["--quiet"]);
        assert!(
            output.status.success(),
            "round {round} (first value {first} characters, wide {wide}): {}",
            stderr(&output)
        );
        std::fs::remove_dir_all(&case).unwrap();
    }
}

/// The case that panicked (issue 63): an entity of the JSON input whose
/// answer passes 16 KiB with a multi-byte character across byte 16,384
/// (a 9,900-character Japanese name, three bytes each); at every offset,
/// its page shows the answer's whole lines up to the bound.
#[test]
fn a_long_japanese_name_builds_and_its_page_shows_the_answer_s_start() {
    let dir = tempdir();
    let input = generated_input(dir.path(), "input", 0, "");
    let lines: String = (0..3)
        .map(|shift| {
            serde_json::json!({
                "id": format!("e{}", "x".repeat(shift)),
                "name": "日本語の名前".repeat(1650),
                "description": "説明",
            })
            .to_string()
                + "\n"
        })
        .collect();
    std::fs::write(input.join("entities/all.jsonl"), lines).unwrap();
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let page = std::fs::read_to_string(out.join("e.html")).unwrap();
    assert!(
        page.contains("Its first 16 KiB"),
        "the page shows the answer whole"
    );
}

/// Many prefixes and many columns are read in time proportional to their
/// number (a scan of a list per declaration made 30,000 prefixes take
/// minutes, and 60,000 ignored columns 24 s): both build, every prefix
/// declared in the Turtle dump as the source has it, every ignored
/// column left out. The times are the sources bench's to print; here,
/// the pass-through.
#[test]
fn thirty_thousand_prefixes_and_sixty_thousand_ignored_columns_build() {
    let dir = tempdir();
    let prefixes: String = (0..30_000)
        .map(|n| format!("@prefix p{n}: <http://p{n}.test/ns#> .\n"))
        .collect();
    let input = turtle_input(
        dir.path(),
        &format!("{prefixes}:A a owl:Class ; rdfs:label \"A\" ; rdfs:seeAlso p29999:x .\n"),
    );
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    let dump = std::fs::read_to_string(out.join("dump.ttl")).unwrap();
    for n in [0, 12_345, 29_999] {
        assert!(
            dump.contains(&format!("@prefix p{n}: <http://p{n}.test/ns#> .")),
            "p{n}"
        );
    }
    assert!(dump.contains("p29999:x"), "the prefix abbreviates");

    let table = dir.path().join("table");
    std::fs::create_dir_all(&table).unwrap();
    let ignored: Vec<String> = (0..60_000).map(|n| format!("c{n}")).collect();
    std::fs::write(
        table.join("t.csv"),
        format!(
            "id,label,{}\nhttp://t.test/A,A,{}\n",
            ignored.join(","),
            vec!["x"; ignored.len()].join(",")
        ),
    )
    .unwrap();
    std::fs::write(
        table.join("ontology.json"),
        serde_json::json!({
            "name": "T",
            "baseUrl": "https://t.test",
            "table": {"iri": "id", "type": "owl:Class", "columns": {"label": "rdfs:label"}, "ignore": ignored},
        })
        .to_string(),
    )
    .unwrap();
    let out = dir.path().join("table-dist");
    build_ok(&table, &out);
    let nt = std::fs::read_to_string(out.join("dump.nt")).unwrap();
    assert!(nt.contains("<http://t.test/A> <http://www.w3.org/2000/01/rdf-schema#label> \"A\" ."));
    assert!(!nt.contains("\"x\""), "an ignored column was read");
}

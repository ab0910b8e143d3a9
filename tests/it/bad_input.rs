//! Every kind of bad input: a clear message naming the file (and line and
//! column for syntax), a non-zero exit, and the previous output untouched.

use crate::util::*;
use std::path::Path;

struct Case {
    name: &'static str,
    /// Changes a copy of the small fixture's input.
    break_input: fn(&Path),
    /// What stderr must say: the place and the problem.
    expect: &'static [&'static str],
}

fn write(input: &Path, rel: &str, text: &str) {
    let path = input.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const CASES: &[Case] = &[
    Case {
        name: "invalid JSON",
        break_input: |i| write(i, "entities/bad.json", "{\"id\": \"X\",\n  \"name\" \"y\"}"),
        expect: &[
            "entities/bad.json:2:10: expected `:`",
            "help: fix the JSON syntax",
        ],
    },
    Case {
        name: "invalid JSON on a line of a .jsonl file",
        break_input: |i| {
            write(
                i,
                "entities/more.jsonl",
                "{\"id\":\"A\",\"name\":\"a\",\"description\":\"d\"}\n{\"id\":\"B\",\"name\":\"b\",\"description\":\"d\"}\n{\"id\":\"C\", \"name\": }\n",
            )
        },
        expect: &["entities/more.jsonl:3:20: expected value"],
    },
    Case {
        name: "not UTF-8",
        break_input: |i| {
            std::fs::write(i.join("entities/latin1.json"), b"{\"id\": \"Caf\xe9\"}").unwrap()
        },
        expect: &[
            "entities/latin1.json:1:12: is not valid UTF-8",
            "save the file as UTF-8",
        ],
    },
    Case {
        name: "a required field missing",
        break_input: |i| write(i, "entities/x.json", r#"{"id": "X", "name": "n"}"#),
        expect: &["entities/x.json (entity `X`): the required field `description` is missing"],
    },
    Case {
        name: "a required field empty",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "X", "name": "  ", "description": "d"}"#,
            )
        },
        expect: &["entities/x.json (entity `X`): the required field `name` is empty"],
    },
    Case {
        name: "a field of the wrong type",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": 7, "name": "n", "description": "d"}"#,
            )
        },
        expect: &["entities/x.json: `id` must be a string, found a number"],
    },
    Case {
        name: "an entity that is not an object",
        break_input: |i| write(i, "entities/x.json", "7"),
        expect: &["entities/x.json: an entity must be a JSON object, found a number"],
    },
    Case {
        name: "several entities in a json file as an array",
        break_input: |i| write(i, "entities/x.json", "[{\"id\": \"A\"}, {\"id\": \"B\"}]"),
        expect: &[
            "entities/x.json: the file holds an array; a .json file holds one entity object",
            "help: put several entities in a .jsonl file",
        ],
    },
    Case {
        name: "several entities in a json file one after another",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                "{\"id\": \"A\", \"name\": \"a\", \"description\": \"d\"}\n{\"id\": \"B\", \"name\": \"b\", \"description\": \"d\"}\n",
            )
        },
        expect: &[
            "entities/x.json:2:1: trailing characters",
            "help: put several entities in a .jsonl file",
        ],
    },
    Case {
        name: "ontology json is a directory",
        break_input: |i| {
            std::fs::remove_file(i.join("ontology.json")).unwrap();
            std::fs::create_dir(i.join("ontology.json")).unwrap();
        },
        expect: &["ontology.json: the ontology description is a directory"],
    },
    Case {
        name: "ontology json is a fifo",
        break_input: |i| {
            std::fs::remove_file(i.join("ontology.json")).unwrap();
            let made = std::process::Command::new("mkfifo")
                .arg(i.join("ontology.json"))
                .status()
                .unwrap();
            assert!(made.success());
        },
        expect: &["ontology.json: the ontology description is not a regular file"],
    },
    Case {
        name: "an empty file",
        break_input: |i| write(i, "entities/x.json", "\n"),
        expect: &["entities/x.json: the file is empty"],
    },
    Case {
        name: "a duplicate ID",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "ZetaDeleteItem", "slug": "other", "name": "n", "description": "d"}"#,
            )
        },
        expect: &[
            "(entity `ZetaDeleteItem`): the ID `ZetaDeleteItem` is also the ID of an entity in",
            "entities/x.json",
            "entities/zeta.json",
        ],
    },
    Case {
        name: "a duplicate slug",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "Other", "slug": "zetadeleteitem", "name": "n", "description": "d"}"#,
            )
        },
        expect: &[
            "entities/zeta.json",
            "the slug `zetadeleteitem` is also the slug of",
            "entities/x.json",
        ],
    },
    Case {
        name: "a slug with a bad character",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "X", "slug": "x_y", "name": "n", "description": "d"}"#,
            )
        },
        expect: &["entities/x.json (entity `X`): the slug `x_y` has the character `_`"],
    },
    Case {
        name: "a slug over 200 characters",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                &format!(
                    r#"{{"id": "{}", "name": "n", "description": "d"}}"#,
                    "a".repeat(201)
                ),
            )
        },
        expect: &[
            "entities/x.json",
            "has 201 characters; at most 200 are allowed",
        ],
    },
    Case {
        name: "an ID that gives no slug",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "--", "name": "n", "description": "d"}"#,
            )
        },
        expect: &["entities/x.json (entity `--`): no slug can be made from the ID"],
    },
    Case {
        name: "a reserved slug",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "Index", "name": "n", "description": "d"}"#,
            )
        },
        expect: &["entities/x.json (entity `Index`): the slug `index` is reserved"],
    },
    Case {
        name: "a field ontosite generates",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "X", "name": "n", "description": "d", "links": []}"#,
            )
        },
        expect: &["entities/x.json (entity `X`): the field `links` is reserved"],
    },
    Case {
        name: "a missing ontology.json",
        break_input: |i| std::fs::remove_file(i.join("ontology.json")).unwrap(),
        expect: &[
            "ontology.json: the ontology description is missing",
            "help: create",
        ],
    },
    Case {
        name: "a misspelt field in ontology.json",
        break_input: |i| {
            let text = std::fs::read_to_string(i.join("ontology.json")).unwrap();
            std::fs::write(
                i.join("ontology.json"),
                text.replace("\"entityType\"", "\"entitytype\""),
            )
            .unwrap();
        },
        expect: &["ontology.json:4:3: unknown field `entitytype`"],
    },
    Case {
        name: "a base URL that is not absolute",
        break_input: |i| {
            let text = std::fs::read_to_string(i.join("ontology.json")).unwrap();
            std::fs::write(
                i.join("ontology.json"),
                text.replace("https://tiny.example.org/api/", "tiny.example.org"),
            )
            .unwrap();
        },
        expect: &["ontology.json:5:3: `baseUrl`: `tiny.example.org` is not an absolute URL"],
    },
    Case {
        name: "no entities at all",
        break_input: |i| std::fs::remove_dir_all(i.join("entities")).unwrap(),
        expect: &["entities: no entities found"],
    },
    Case {
        name: "a subtype or entity property that is no term name",
        break_input: |i| {
            write(
                i,
                "ontology.json",
                r#"{"name": "T", "description": "d", "entityType": "Action", "baseUrl": "https://t.example",
                    "subtypes": {"field": "operation", "types": {"Create Item": "Create Action"}},
                    "entityProperties": {"actionStatus": "Potential-Status!"}}"#,
            )
        },
        expect: &[
            "ontology.json:2:21: the subtype for `Create Item` `Create Action` is not a schema.org term name",
            "ontology.json:3:21: the value of `actionStatus` `Potential-Status!` is not a schema.org term name",
        ],
    },
    Case {
        name: "an entity field that ontology.json gives every entity",
        break_input: |i| {
            write(
                i,
                "ontology.json",
                r#"{"name": "T", "description": "d", "entityType": "Action", "baseUrl": "https://t.example",
                    "entityProperties": {"actionStatus": "PotentialActionStatus"}}"#,
            );
            write(
                i,
                "entities/status.json",
                r#"{"id": "Status", "name": "n", "description": "d", "actionStatus": "x"}"#,
            );
        },
        expect: &[
            "entities/status.json (entity `Status`): the field `actionStatus` is one that ontology.json's `entityProperties` gives every entity",
        ],
    },
    Case {
        name: "an entity IRI a browser would run",
        break_input: |i| {
            write(
                i,
                "entities/x.json",
                r#"{"id": "X", "name": "n", "description": "d", "iri": "JavaScript:alert(1)"}"#,
            )
        },
        expect: &["entities/x.json (entity `X`): `iri` uses the scheme `JavaScript:`"],
    },
    Case {
        name: "a license a browser would run",
        break_input: |i| {
            let manifest = i.join("ontology.json");
            let text = std::fs::read_to_string(&manifest).unwrap();
            std::fs::write(
                &manifest,
                text.replace("\"CC0-1.0\"", "\"javascript:alert(document.domain)\""),
            )
            .unwrap();
        },
        expect: &["ontology.json:6:3: `license` uses the scheme `javascript:`"],
    },
];

#[test]
fn every_bad_input_fails_clearly_and_keeps_the_previous_output() {
    let dir = tempdir();
    let out = dir.path().join("site");
    build_ok(&tiny_input(), &out);
    let before = snapshot(&out);
    for case in CASES {
        let input = dir
            .path()
            .join(format!("input-{}", case.name.replace(' ', "-")));
        copy_tree(&tiny_input(), &input);
        (case.break_input)(&input);
        let output = build(&input, &out, &[]);
        let message = stderr(&output);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{}: exit {:?}\n{message}",
            case.name,
            output.status
        );
        assert!(message.starts_with("error: "), "{}: {message}", case.name);
        for needle in case.expect {
            assert!(
                message.contains(needle),
                "{}: stderr lacks {needle:?}:\n{message}",
                case.name
            );
        }
        assert!(
            message.contains("help: "),
            "{}: no help in\n{message}",
            case.name
        );
        assert!(
            snapshot(&out) == before,
            "{}: the previous output changed",
            case.name
        );
        let leftovers: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(|e| e.ok())
            .filter(|e| e.file_name().to_string_lossy().contains(".ontosite-"))
            .collect();
        assert!(leftovers.is_empty(), "{}: left {leftovers:?}", case.name);
    }
}

#[test]
fn all_errors_of_a_run_are_reported_up_to_a_cap() {
    let dir = tempdir();
    let input = dir.path().join("input");
    copy_tree(&tiny_input(), &input);
    for n in 0..60 {
        write(&input, &format!("entities/bad{n:02}.json"), "{");
    }
    write(
        &input,
        "entities/zz.json",
        r#"{"id": "Z", "name": "", "description": "d"}"#,
    );
    let output = ontosite()
        .args(["check", "--input"])
        .arg(&input)
        .output()
        .unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1));
    assert!(
        message.starts_with("error: the input has 61 errors:"),
        "{message}"
    );
    assert!(message.contains("bad00.json:1:1"), "{message}");
    assert!(message.contains("... and 11 more not shown"), "{message}");
    assert_eq!(message.matches("help: ").count(), 50);
}

/// What an ontology input's errors say, each a case of its own input: the
/// file, the place where there is one, what is wrong, and no echo of
/// anything huge. (Issue 29's list of messages.)
#[test]
fn ontology_source_errors_say_what_and_where() {
    const TTL: &str = "@prefix : <http://t.test/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n";
    let long = "a".repeat(100_000);
    type Case<'a> = (&'a str, Vec<(&'a str, Vec<u8>)>, Vec<String>);
    let cases: Vec<Case> = vec![
        (
            "a field of ontology.json at its place",
            vec![(
                "ontology.json",
                b"{\n  \"name\": \"X\",\n  \"baseUrl\": \"ftp://x.test\",\n  \"license\": \"not a license!\"\n}\n".to_vec(),
            )],
            vec![
                "ontology.json:3:3: `baseUrl`: `ftp://x.test` uses the scheme `ftp`".into(),
                "ontology.json:4:3: `license` `not a license!` is neither".into(),
            ],
        ),
        (
            "an external XML entity",
            vec![("x.owl", b"<?xml version=\"1.0\"?>\n<!DOCTYPE rdf:RDF [\n<!ENTITY xxe SYSTEM \"file:///etc/passwd\">\n]>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/>\n".to_vec())],
            vec!["x.owl:3: RDF/XML refused: its DTD entity `xxe` is external (`SYSTEM`)".into()],
        ),
        (
            "a NUL in RDF/XML",
            vec![("x.owl", b"<?xml version=\"1.0\"?>\n<rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\" xmlns:rdfs=\"http://www.w3.org/2000/01/rdf-schema#\">\n<rdf:Description rdf:about=\"http://t.test/a\"><rdfs:label>a\0b</rdfs:label></rdf:Description></rdf:RDF>\n".to_vec())],
            vec!["x.owl:3:59: RDF/XML refused: it holds a NUL character".into()],
        ),
        (
            "a literal longer than the Turtle parser holds",
            vec![(
                "t.ttl",
                format!("{TTL}:a a owl:Class ; rdfs:label \"{}\" .\n", "x".repeat(17 << 20)).into_bytes(),
            )],
            vec!["t.ttl:4:1: a single literal or IRI is longer than the Turtle parser holds (16 MiB)".into()],
        ),
        (
            "typed subjects only declared",
            vec![("t.ttl", format!("{TTL}:a a owl:Class .\n:b rdfs:label \"b\" .\n").into_bytes())],
            vec!["t.ttl: the ontology sources hold no term of the ontology's own".into()],
        ),
        (
            "a 100,000-character IRI",
            vec![(
                "t.ttl",
                format!("{TTL}<http://t.test/{long}> a owl:Class ; rdfs:label \"a\" .\n").into_bytes(),
            )],
            vec!["(100014 characters)".into()],
        ),
    ];
    let dir = tempdir();
    for (name, files, expected) in cases {
        let input = dir.path().join(name.replace(' ', "-"));
        write(
            &input,
            "ontology.json",
            r#"{"name": "T", "baseUrl": "https://t.test"}"#,
        );
        for (file, bytes) in files {
            std::fs::write(input.join(file), bytes).unwrap();
        }
        let output = ontosite().arg("check").arg(&input).output().unwrap();
        let message = stderr(&output);
        assert_eq!(output.status.code(), Some(1), "{name}: {message}");
        for needle in &expected {
            assert!(
                message.contains(needle.as_str()),
                "{name}: no {needle:?} in\n{message}"
            );
        }
        assert!(
            message.len() < 4000,
            "{name}: {} bytes of error",
            message.len()
        );
    }
}

/// What an ontology input may hold that other tools write: a byte order
/// mark before Turtle; `Foo`, `foo` and `foo2` in one namespace (three
/// slugs, none taken twice). And what it may not: a named pipe among the
/// sources, which would hang a build that opened it.
#[test]
fn a_bom_and_near_names_pass_and_a_pipe_is_refused() {
    let dir = tempdir();
    let input = dir.path().join("input");
    write(
        &input,
        "ontology.json",
        r#"{"name": "T", "baseUrl": "https://t.test"}"#,
    );
    std::fs::write(
        input.join("t.ttl"),
        b"\xEF\xBB\xBF@prefix : <http://t.test/> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\n@prefix owl: <http://www.w3.org/2002/07/owl#> .\n:Foo a owl:Class ; rdfs:label \"F\" .\n:foo a owl:Class ; rdfs:label \"f\" .\n:foo2 a owl:Class ; rdfs:label \"f2\" .\n",
    )
    .unwrap();
    let out = dir.path().join("dist");
    build_ok(&input, &out);
    assert_eq!(read_json(&out.join("foo.json"))["iri"], "http://t.test/foo");
    assert_eq!(
        read_json(&out.join("foo2.json"))["iri"],
        "http://t.test/foo2"
    );
    assert_eq!(
        read_json(&out.join("foo3.json"))["iri"],
        "http://t.test/Foo"
    );

    let fifo = input.join("x.ttl");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|s| s.success()) {
        eprintln!("skipped the pipe: mkfifo is not available");
        return;
    }
    let output = ontosite()
        .arg("check")
        .arg(&input)
        .output_within(std::time::Duration::from_secs(30))
        .unwrap();
    let message = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{message}");
    assert!(
        message.contains("x.ttl: is a named pipe (FIFO), not a regular file"),
        "{message}"
    );
}

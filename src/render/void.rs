//! The data set: its VoID and schema.org description, and the dumps of
//! every triple the site states.
//!
//! The data set's IRI is the site's base URL. Its description is the one
//! graph behind `void.ttl`, `void.nt`, `void.jsonld`, `/.well-known/void`
//! (where the VoID specification says to look) and the `dataset` member of
//! the information document; for an ontology source it holds what the
//! source says of the ontology itself. A dump is that description, the
//! vocabulary and every entity's triples, in that order.

use super::context::Context;
use super::counted::Counted;
use super::error::RenderError;
use super::rdf::{self, SCHEMA, Syntax, VOID, iri};
use super::vocab;
use crate::model::cut;
use crate::site::parts::Parted;
use crate::site::{files, media};
use oxrdf::vocab::{rdf as rdf_vocab, xsd};
use oxrdf::{Literal, NamedNode, Triple};
use rayon::prelude::*;
use std::io::Write;

/// A file of the data set to download: its file and its media type.
pub const DOWNLOADS: [(&str, &str); 6] = [
    (files::DUMP_NT, media::N_TRIPLES),
    (files::DUMP_NT_GZ, media::GZIP),
    (files::DUMP_TTL, media::TURTLE),
    (files::ALL, media::JSON),
    (files::INDEX, media::JSON),
    (files::INDEX_LD, media::JSON_LD),
];

/// The dumps among the downloads: every triple of the site.
const DUMPS: [&str; 3] = [files::DUMP_NT, files::DUMP_NT_GZ, files::DUMP_TTL];

/// The site's downloads with their media types: as [`DOWNLOADS`], but
/// where the dumps are in parts, each part in place of its whole dump.
fn downloads(site: &Context) -> Vec<(String, &'static str)> {
    DOWNLOADS
        .iter()
        .flat_map(
            |&(file, media_type)| match (site.parts(Parted::Dump), whole_dump_syntax(file)) {
                (Some(parts), Some(extension)) => (1..=parts)
                    .map(|k| (Parted::Dump.part(extension, k), media_type))
                    .collect::<Vec<_>>(),
                _ => vec![(file.to_owned(), media_type)],
            },
        )
        .collect()
}

/// The extension of a dump that is written in parts where the site's
/// dumps are (the gzipped one stays whole: it is a tenth the size).
fn whole_dump_syntax(file: &str) -> Option<&'static str> {
    match file {
        files::DUMP_NT => Some("nt"),
        files::DUMP_TTL => Some("ttl"),
        _ => None,
    }
}

fn schema(term: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{SCHEMA}{term}"))
}

fn void(term: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{VOID}{term}"))
}

/// How many triples all the entities state together, counted once.
fn entity_triples(site: &Context) -> Result<usize, RenderError> {
    if let Some(count) = site.entity_triples.get() {
        return Ok(*count);
    }
    let count = site
        .ontology
        .entities
        .par_iter()
        .map(|e| rdf::entity_triples(site, e).map(|t| t.len()))
        .sum::<Result<usize, RenderError>>()?;
    Ok(*site.entity_triples.get_or_init(|| count))
}

/// The description of the data set.
pub fn triples(site: &Context) -> Result<Vec<Triple>, RenderError> {
    let meta = &site.ontology.meta;
    let dataset = iri(site.url(""))?;
    let mut triples = Vec::new();
    let mut add = |predicate: NamedNode, object: oxrdf::Term| {
        triples.push(Triple::new(dataset.clone(), predicate, object));
    };
    add(rdf_vocab::TYPE.into(), void("Dataset").into());
    add(rdf_vocab::TYPE.into(), schema("Dataset").into());
    // DCAT too, which data portals and their harvesters read alone.
    add(rdf_vocab::TYPE.into(), dcat("Dataset").into());
    add(schema("name"), Literal::from(meta.name.as_str()).into());
    add(dcterms("title"), Literal::from(meta.name.as_str()).into());
    add(
        schema("description"),
        Literal::from(meta.description.as_str()).into(),
    );
    add(
        dcterms("description"),
        Literal::from(meta.description.as_str()).into(),
    );
    if let Some(license) = meta.license_iri() {
        let license = iri(license)?;
        add(schema("license"), license.clone().into());
        add(dcterms("license"), license.into());
    }
    if let Some(version) = &meta.version {
        add(schema("version"), Literal::from(version.as_str()).into());
    }
    // Where the site keeps releases: this one's version, and on the
    // current site the copy that stays and the list of them all (DCAT 3's
    // versioning); a release's copy names the site it is a version of.
    if let Some(release) = &site.release {
        add(
            dcat("version"),
            Literal::from(release.version.as_str()).into(),
        );
        let in_site = |path: &str| iri(format!("{}{path}", release.site));
        if site.kept_release {
            add(dcat("isVersionOf"), in_site("")?.into());
        } else {
            add(
                dcat("hasCurrentVersion"),
                in_site(&files::release(&release.version))?.into(),
            );
            add(
                NamedNode::new_unchecked(format!("{}seeAlso", rdf::RDFS)),
                in_site(&files::release_list("ttl"))?.into(),
            );
        }
    }
    add(void("vocabulary"), iri(SCHEMA)?.into());
    add(void("vocabulary"), iri(vocab::iri_of(site))?.into());
    if let Some(space) = uri_space(site) {
        add(void("uriSpace"), Literal::from(space).into());
    }
    let entities = site.ontology.entities.len();
    add(
        void("entities"),
        Literal::new_typed_literal(entities.to_string(), xsd::INTEGER).into(),
    );
    if let Some(example) = site.ontology.entities.first() {
        add(
            void("exampleResource"),
            iri(example.iri(&meta.base_url))?.into(),
        );
    }
    // The entry point from which every entity is linked.
    add(void("rootResource"), iri(site.url(rdf::INDEX))?.into());
    for (file, _) in downloads(site) {
        if DUMPS.contains(&file.as_str()) || file.starts_with(Parted::Dump.dir()) {
            add(void("dataDump"), iri(site.url(&file))?.into());
        }
    }
    // Each predicate's objects together: a JSON-LD writer gives the data
    // set one node object while its subject and predicate stay the same.
    for distribution in [schema("distribution"), dcat("distribution")] {
        for (file, _) in downloads(site) {
            add(distribution.clone(), iri(site.url(&file))?.into());
        }
    }
    triples.extend(data_downloads(site)?);
    // What the ontology source says of itself (`owl:Ontology`,
    // `skos:ConceptScheme`), as it says it: the data set is about it.
    if let Some(header) = &meta.header {
        let ontology = iri(header.iri.as_str())?;
        if ontology != dataset {
            triples.push(Triple::new(dataset.clone(), schema("mainEntity"), ontology));
        }
        triples.extend(header.statements.iter().cloned());
    }
    // This one included.
    let total = dump_triple_count(site)? + triples.len() + 1;
    triples.push(Triple::new(
        dataset,
        void("triples"),
        Literal::new_typed_literal(total.to_string(), xsd::INTEGER),
    ));
    Ok(triples)
}

/// Each published dump and list as a `schema:DataDownload` and a
/// `dcat:Distribution`, with its media type (DCAT's as IANA's IRI).
fn data_downloads(site: &Context) -> Result<Vec<Triple>, RenderError> {
    let mut triples = Vec::new();
    for (file, media_type) in downloads(site) {
        let download = iri(site.url(&file))?;
        triples.extend([
            Triple::new(download.clone(), rdf_vocab::TYPE, schema("DataDownload")),
            Triple::new(download.clone(), rdf_vocab::TYPE, dcat("Distribution")),
            Triple::new(
                download.clone(),
                schema("encodingFormat"),
                Literal::from(media_type),
            ),
            Triple::new(download.clone(), schema("contentUrl"), download.clone()),
            Triple::new(download.clone(), dcat("downloadURL"), download.clone()),
            Triple::new(download.clone(), dcat("accessURL"), download.clone()),
            Triple::new(
                download,
                dcat("mediaType"),
                iri(format!("{IANA_MEDIA_TYPES}{media_type}"))?,
            ),
        ]);
    }
    Ok(triples)
}

/// Where IANA's register names each media type, as DCAT's `mediaType`
/// takes it.
const IANA_MEDIA_TYPES: &str = "http://www.iana.org/assignments/media-types/";

fn dcat(term: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{}{term}", rdf::DCAT))
}

fn dcterms(term: &str) -> NamedNode {
    NamedNode::new_unchecked(format!("{}{term}", rdf::DCTERMS))
}

/// The triples of the dump besides the data set's description: every
/// entity's, the vocabulary's, and the list's own, which are four per
/// entity and three more, and two more for a term's entry, its name and
/// URL (`rdf::entity_list`).
fn dump_triple_count(site: &Context) -> Result<usize, RenderError> {
    let entities = site.ontology.entities.len();
    let terms = site
        .ontology
        .entities
        .iter()
        .filter(|e| e.term.is_some())
        .count();
    let list = 3 + 4 * entities + 2 * terms;
    Ok(entity_triples(site)? + vocab::triples(site)?.len() + list)
}

pub fn render(site: &Context, syntax: Syntax, out: &mut Vec<u8>) -> Result<(), RenderError> {
    rdf::write(site, syntax, &triples(site)?, out)
}

/// The description as JSON-LD, as a value for the information document
/// and the front page.
pub fn json_ld(site: &Context) -> Result<serde_json::Value, RenderError> {
    let mut out = Vec::new();
    render(site, Syntax::JsonLd, &mut out)?;
    Ok(serde_json::from_slice(&out)?)
}

/// Every triple of the site: the data set, the vocabulary, the entity
/// list, each entity.
/// Every triple of the site, into any stream (`Document::render_into`
/// ends it with its newline).
pub fn dump<W: Write>(site: &Context, syntax: Syntax, out: W) -> Result<(), RenderError> {
    let mut writer = rdf::writer(site, syntax, out)?;
    dump_triples(site, &mut writer)?;
    writer.end()?;
    Ok(())
}

/// Every triple of the site, in the dumps' order: the data set's
/// description, the vocabulary, the list, each entity.
fn dump_triples<W: Write>(site: &Context, writer: &mut rdf::Writer<W>) -> Result<(), RenderError> {
    dump_head(site, writer)?;
    dump_entities(site, &site.ontology.entities, writer)
}

/// The dump's triples before the entities': the data set's description,
/// the vocabulary, the list.
fn dump_head<W: Write>(site: &Context, writer: &mut rdf::Writer<W>) -> Result<(), RenderError> {
    dump_description(site, writer)?;
    rdf::entity_list(site, writer, false)?;
    Ok(())
}

/// The dump's first triples: the data set's description, the vocabulary.
pub(super) fn dump_description<W: Write>(
    site: &Context,
    writer: &mut rdf::Writer<W>,
) -> Result<(), RenderError> {
    for triple in triples(site)?.iter().chain(&vocab::triples(site)?) {
        writer.triple(triple)?;
    }
    Ok(())
}

pub(super) fn dump_entities<W: Write>(
    site: &Context,
    entities: &[crate::model::Entity],
    writer: &mut rdf::Writer<W>,
) -> Result<(), RenderError> {
    for entity in entities {
        for triple in &rdf::entity_triples(site, entity)? {
            writer.triple(triple.as_ref())?;
        }
    }
    Ok(())
}

/// How large the N-Triples dump will be, about: whether to plan its
/// parts (`parts::plan`) at all.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DumpEstimate {
    /// The head: the data set's description, the vocabulary, the list.
    pub head: u64,
    /// An entity's triples, on average over the sample.
    pub per_entity: f64,
}

impl DumpEstimate {
    /// The whole dump.
    pub fn whole(&self, entities: usize) -> u64 {
        self.head + (self.per_entity * entities as f64) as u64
    }
}

/// How large the N-Triples dump's head and an entity's triples are, from
/// the head and every `step`th entity's triples rendered and counted:
/// enough to choose where the parts split (the build measures the parts
/// it wrote after, as every file).
pub fn estimated_dump_bytes(site: &Context, step: usize) -> Result<DumpEstimate, RenderError> {
    let counted = |render: &dyn Fn(&mut rdf::Writer<&mut Counted>) -> Result<(), RenderError>| {
        let mut counted = Counted::default();
        let mut writer = rdf::writer(site, Syntax::NTriples, &mut counted)?;
        render(&mut writer)?;
        writer.end()?;
        Ok::<u64, RenderError>(counted.bytes)
    };
    let head = counted(&|writer| dump_head(site, writer))?;
    let entities = &site.ontology.entities;
    let sample: Vec<&crate::model::Entity> = entities.iter().step_by(step.max(1)).collect();
    let sampled = counted(&|writer| {
        for entity in &sample {
            for triple in &rdf::entity_triples(site, entity)? {
                writer.triple(triple.as_ref())?;
            }
        }
        Ok(())
    })?;
    Ok(DumpEstimate {
        head,
        per_entity: sampled as f64 / sample.len().max(1) as f64,
    })
}

/// The N-Triples dump, gzipped: `dump.nt` and its last newline, streamed
/// into the encoder, so the plain dump is never held whole. Written with
/// no file name and no time in its header, so the same site gives the
/// same bytes; at the fastest level: it was the largest single cost of a
/// build at the default one, and N-Triples, all repetition, still shrinks
/// more than tenfold.
pub fn dump_gz(site: &Context, out: &mut Vec<u8>) -> Result<(), RenderError> {
    let encoder = flate2::GzBuilder::new()
        .mtime(0)
        .write(out, flate2::Compression::fast());
    // The serialiser writes a term at a time; the encoder is fed in large
    // pieces, or compressing takes longer than serialising.
    let buffered = std::io::BufWriter::with_capacity(1 << 18, encoder);
    let mut writer = rdf::writer(site, Syntax::NTriples, buffered)?;
    dump_triples(site, &mut writer)?;
    let encoder = writer.end()?.into_inner().map_err(|e| e.into_error())?;
    encoder.finish()?;
    Ok(())
}

/// The namespace every entity's IRI starts with (VoID's `uriSpace`): the
/// base URL where the site names its entities, else the longest common
/// start of the entities' own IRIs, back to its last `/` or `#`; none
/// where they share no namespace. A term site's IRIs are the ontology's
/// own: the base URL was stated, and matched none of them.
fn uri_space(site: &Context) -> Option<String> {
    let base = site.url("");
    let entities = &site.ontology.entities;
    // Without an IRI of its own, an entity is named `{base}/{slug}`.
    if entities
        .iter()
        .all(|e| e.iri.as_deref().is_none_or(|iri| iri.starts_with(&base)))
    {
        return Some(base);
    }
    let meta = &site.ontology.meta;
    let first = entities.first()?.iri(&meta.base_url);
    let mut common = first.len();
    for entity in &entities[1..] {
        let iri = entity.iri(&meta.base_url);
        common = first
            .bytes()
            .zip(iri.bytes())
            .take(common)
            .take_while(|(a, b)| a == b)
            .count();
    }
    let end = cut::within_bytes(&first, common).rfind(['/', '#'])? + 1;
    let space = &first[..end];
    // `http://` alone is no namespace.
    (space.trim_end_matches('/').contains('/') && !space.ends_with("://")).then(|| space.to_owned())
}

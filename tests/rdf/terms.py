"""Checks that a site built from an RDF source publishes each term's triples.

    python terms.py SOURCE SITE BASE_URL

For every entity of SITE (its `all` document), the triples of its `.nt`,
`.ttl` and `.jsonld` must each equal, as graphs, what pyoxigraph reads in
SOURCE about the entity's IRI: every triple with the IRI as subject, the
blank nodes under it (followed through objects), and the OWL axioms whose
`owl:annotatedSource` is the IRI (with theirs); plus ontosite's documented
additions: `<iri> foaf:isPrimaryTopicOf <BASE/slug>` where the IRI is not
BASE/slug, and the triples of other published terms whose object is the
IRI. Prints JSON: counts and the first differences.
"""

import collections
import json
import pathlib
import sys

import pyoxigraph as ox

FORMATS = {
    ".ttl": ox.RdfFormat.TURTLE,
    ".nt": ox.RdfFormat.N_TRIPLES,
    ".owl": ox.RdfFormat.RDF_XML,
    ".rdf": ox.RdfFormat.RDF_XML,
    ".nq": ox.RdfFormat.N_QUADS,
    ".trig": ox.RdfFormat.TRIG,
    ".jsonld": ox.RdfFormat.JSON_LD,
}
ANNOTATED_SOURCE = ox.NamedNode("http://www.w3.org/2002/07/owl#annotatedSource")
PRIMARY_TOPIC_OF = ox.NamedNode("http://xmlns.com/foaf/0.1/isPrimaryTopicOf")


def canonical(triples):
    dataset = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in triples)
    dataset.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return {str(q.triple) for q in dataset}


def main():
    source, site, base = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2]), sys.argv[3]
    triples = [
        ox.Triple(q.subject, q.predicate, q.object)
        for q in ox.parse(path=source, format=FORMATS[source.suffix], base_iri=base + "/")
    ]
    by_subject = collections.defaultdict(list)
    axioms = collections.defaultdict(list)
    for t in triples:
        by_subject[t.subject].append(t)
        if t.predicate == ANNOTATED_SOURCE and isinstance(t.subject, ox.BlankNode):
            axioms[t.object].append(t.subject)

    def closure(iri):
        found, queue, seen = list(by_subject.get(iri, [])), list(axioms.get(iri, [])), set()
        seen.update(queue)
        at = 0
        while True:
            while at < len(found):
                o = found[at].object
                if isinstance(o, ox.BlankNode) and o not in seen:
                    seen.add(o)
                    queue.append(o)
                at += 1
            if not queue:
                return found
            found.extend(by_subject.get(queue.pop(), []))

    items = json.loads((site / "all").read_text())["items"]
    published = {ox.NamedNode(item["iri"]) for item in items}
    incoming = collections.defaultdict(list)
    for t in triples:
        if t.subject in published and t.object in published and t.object != t.subject:
            incoming[t.object].append(t)
    problems, checked, total = [], 0, 0
    for item in items:
        iri, slug = ox.NamedNode(item["iri"]), item["slug"]
        expected = list(closure(iri)) + incoming[iri]
        if iri.value != f"{base}/{slug}":
            expected.append(ox.Triple(iri, PRIMARY_TOPIC_OF, ox.NamedNode(f"{base}/{slug}")))
        want = canonical(expected)
        total += len(want)
        for extension, format in [("nt", ox.RdfFormat.N_TRIPLES), ("ttl", ox.RdfFormat.TURTLE), ("jsonld", ox.RdfFormat.JSON_LD)]:
            got = canonical(ox.parse((site / f"{slug}.{extension}").read_bytes(), format=format))
            if got != want and len(problems) < 5:
                problems.append(
                    {
                        "slug": slug,
                        "format": extension,
                        "missing": sorted(want - got)[:5],
                        "extra": sorted(got - want)[:5],
                    }
                )
        checked += 1
    print(json.dumps({"entities": checked, "triples": total, "problems": problems}))


main()

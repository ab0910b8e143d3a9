"""Checks that every RDF document of a built site says the same.

    python isomorphic.py SITE JSONLD_QUADS

For every entity and the entity list (`index`), its `.ttl`, its `.nt` and
its `.jsonld` (as jsonld.js turned it into N-Quads: JSONLD_QUADS, a JSON
object slug -> N-Quads) must be isomorphic graphs; the vocabulary and the data set's description the
same in each of their syntaxes; and `dump.nt` (and `dump.ttl`, and the
gzipped dump) the union of the entity graphs, the vocabulary and the data
set's description, and the list. Prints JSON: counts and the first
differences.
"""

import gzip
import json
import pathlib
import sys

import pyoxigraph as ox


def graph(data, format):
    """A graph as a canonical set of triple strings (blank nodes relabelled)."""
    dataset = ox.Dataset(ox.Quad(t.subject, t.predicate, t.object) for t in ox.parse(data, format=format))
    dataset.canonicalize(ox.CanonicalizationAlgorithm.UNSTABLE)
    return {str(q.triple) for q in dataset}


def main():
    site = pathlib.Path(sys.argv[1])
    jsonld = json.loads(pathlib.Path(sys.argv[2]).read_text())
    problems = []
    union = set()
    entities = 0
    for slug, quads in sorted(jsonld.items()):
        entities += slug != "index"
        turtle = graph((site / f"{slug}.ttl").read_bytes(), ox.RdfFormat.TURTLE)
        ntriples = graph((site / f"{slug}.nt").read_bytes(), ox.RdfFormat.N_TRIPLES)
        from_jsonld = graph(quads.encode(), ox.RdfFormat.N_QUADS)
        if not (turtle == ntriples == from_jsonld):
            problems.append(
                {
                    "slug": slug,
                    "onlyTurtle": sorted(turtle - from_jsonld)[:5],
                    "onlyJsonLd": sorted(from_jsonld - turtle)[:5],
                    "turtleIsNTriples": turtle == ntriples,
                }
            )
        union |= turtle
    for name in ["vocab", "void"]:
        turtle = graph((site / f"{name}.ttl").read_bytes(), ox.RdfFormat.TURTLE)
        ntriples = graph((site / f"{name}.nt").read_bytes(), ox.RdfFormat.N_TRIPLES)
        jsonld_graph = graph((site / f"{name}.jsonld").read_bytes(), ox.RdfFormat.JSON_LD)
        if not (turtle == ntriples == jsonld_graph):
            problems.append({"document": name, "turtleIsNTriples": turtle == ntriples})
        union |= turtle
    well_known = graph((site / ".well-known" / "void").read_bytes(), ox.RdfFormat.TURTLE)
    if well_known != graph((site / "void.ttl").read_bytes(), ox.RdfFormat.TURTLE):
        problems.append({"document": ".well-known/void"})
    dumps = {
        "dump.nt": graph((site / "dump.nt").read_bytes(), ox.RdfFormat.N_TRIPLES),
        "dump.ttl": graph((site / "dump.ttl").read_bytes(), ox.RdfFormat.TURTLE),
        "dump.nt.gz": graph(gzip.decompress((site / "dump.nt.gz").read_bytes()), ox.RdfFormat.N_TRIPLES),
    }
    for name, triples in dumps.items():
        if triples != union:
            problems.append({"dump": name, "missing": sorted(union - triples)[:5], "extra": sorted(triples - union)[:5]})
    print(json.dumps({"entities": entities, "unionTriples": len(union), "problems": problems[:10]}))


if __name__ == "__main__":
    main()

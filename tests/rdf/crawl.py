"""A linked-data client that follows its nose, as LOD crawlers do.

    python crawl.py BASE VIA DUMP

Starts from BASE (the site's base URL) asking for Turtle, and dereferences
every IRI under BASE that the answers mention (subjects, predicates,
objects; a hash IRI through the document before its `#`), sending the
requests to VIA (the host under test) instead of BASE. A 303 See Other is
followed by hand. An IRI whose last segment has an extension is a
document: it must answer 200 with the media type its extension says; so
must an IRI that the answers describe as a `schema:DataDownload`, with its
`schema:encodingFormat`.
Every other IRI must answer, in the end, 200 with parseable Turtle. Prints
JSON: what was fetched, the problems, and whether the union of what the
IRIs answered equals the N-Triples dump DUMP.
"""

import http.client
import json
import sys
import urllib.parse

import pyoxigraph as ox

DOCUMENT_TYPES = {
    "json": "application/json",
    "jsonld": "application/ld+json",
    "ttl": "text/turtle",
    "nt": "application/n-triples",
    "html": "text/html",
    "gz": "application/gzip",
    "js": "text/javascript",
    "css": "text/css",
}


def main():
    base, via, dump = sys.argv[1], sys.argv[2], sys.argv[3]
    target = urllib.parse.urlsplit(via)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=30)

    def get(path, accept):
        connection.request("GET", path, headers={"Accept": accept})
        response = connection.getresponse()
        return response.status, dict((k.lower(), v) for k, v in response.getheaders()), response.read()

    # Downloads the answers describe: IRI -> media type.
    described = {}
    gathered = set()
    seen = set()
    queue = [base]
    problems = []
    documents = resources = redirects = 0
    while queue:
        iri = queue.pop()
        if iri in seen:
            continue
        seen.add(iri)
        path = "/" + iri[len(base):].lstrip("/")
        last = path.rsplit("/", 1)[-1]
        extension = last.rsplit(".", 1)[1] if "." in last[1:] else None
        if extension is not None or iri in described:
            documents += 1
            expected = described.get(iri, DOCUMENT_TYPES.get(extension))
            status, headers, _ = get(path, "text/turtle")
            media_type = headers.get("content-type", "").split(";")[0].strip()
            if status != 200 or media_type != expected:
                problems.append(f"{iri}: {status} {media_type}, expected 200 {expected}")
            continue
        resources += 1
        status, headers, body = get(path, "text/turtle")
        if status == 303:
            redirects += 1
            location = urllib.parse.urljoin(via.rstrip("/") + path, headers.get("location", ""))
            status, headers, body = get(urllib.parse.urlsplit(location).path, "text/turtle")
        media_type = headers.get("content-type", "").split(";")[0].strip()
        if status != 200 or media_type != "text/turtle":
            problems.append(f"{iri}: {status} {media_type}, expected 200 text/turtle")
            continue
        try:
            triples = list(ox.parse(body, format=ox.RdfFormat.TURTLE))
        except Exception as error:  # noqa: BLE001 - reported, not hidden
            problems.append(f"{iri}: unparseable Turtle: {error}")
            continue
        for triple in triples:
            gathered.add(str(triple))
            if triple.predicate.value == "http://schema.org/encodingFormat":
                described[triple.subject.value] = triple.object.value
            for term in (triple.subject, triple.predicate, triple.object):
                if isinstance(term, ox.NamedNode) and term.value.startswith(base):
                    queue.append(term.value.split("#", 1)[0])
    with open(dump, "rb") as file:
        expected = {str(t) for t in ox.parse(file.read(), format=ox.RdfFormat.N_TRIPLES)}
    print(
        json.dumps(
            {
                "resources": resources,
                "redirects": redirects,
                "documents": documents,
                "triples": len(gathered),
                "dumpTriples": len(expected),
                "missing": sorted(expected - gathered)[:10],
                "extra": sorted(gathered - expected)[:10],
                "problems": problems[:20],
                "problemCount": len(problems),
            }
        )
    )


if __name__ == "__main__":
    main()

"""What changed between two OBO releases, read by obonet (a reader of its
own, not ontosite's fastobo), for checking `ontosite diff`.

    python changes.py BEFORE.obo AFTER.obo

Prints JSON: the IDs of the [Term] and [Typedef] stanzas added, removed,
newly obsolete, no longer obsolete, and renamed.
"""

import json
import re
import sys

import obonet


def typedefs(path):
    """The [Typedef] stanzas, which obonet leaves out: an unprefixed ID is
    `http://purl.obolibrary.org/obo/{ontology}#{id}`, as the OBO-to-OWL
    mapping names it."""
    found, stanza, ontology = {}, None, ""
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            line = line.strip()
            if line.startswith("["):
                stanza = {} if line == "[Typedef]" else None
            elif stanza is None and line.startswith("ontology:") and not found:
                ontology = line.split(":", 1)[1].strip()
            elif stanza is not None and ":" in line:
                tag, value = line.split(":", 1)
                value = value.split(" !")[0].strip()
                if tag == "id":
                    key = value if ":" in value else f"http://purl.obolibrary.org/obo/{ontology}#{value}"
                    stanza.update(key=key, name="", obsolete=False, unprefixed=":" not in value)
                    found[key] = stanza
                elif tag == "xref" and stanza.get("unprefixed") and re.fullmatch(r"[A-Za-z_]+:[0-9]+", value.split()[0]):
                    # An unprefixed ID with a prefixed xref is named by the
                    # xref (the mapping's rule for shorthand relations).
                    found.pop(stanza["key"], None)
                    stanza.update(key=value.split()[0], unprefixed=False)
                    found[stanza["key"]] = stanza
                elif tag == "name" and not stanza["name"]:
                    # A stanza with two names (PATO 2024-03-28's
                    # has_ontology_root_term) is named by its first.
                    stanza["name"] = value
                elif tag == "is_obsolete":
                    stanza["obsolete"] = value == "true"
    return found


def terms(path):
    graph = obonet.read_obo(path, ignore_obsolete=False)
    found = {
        node: {
            "name": data.get("name", ""),
            "obsolete": data.get("is_obsolete", "false") == "true",
        }
        for node, data in graph.nodes(data=True)
        # A node with no data is one an edge names, not a stanza.
        if data
    }
    found.update(typedefs(path))
    return {key: {"name": t["name"], "obsolete": t["obsolete"]} for key, t in found.items()}


before, after = terms(sys.argv[1]), terms(sys.argv[2])
kept = sorted(before.keys() & after.keys())
print(
    json.dumps(
        {
            "added": sorted(after.keys() - before.keys()),
            "removed": sorted(before.keys() - after.keys()),
            "deprecated": [t for t in kept if after[t]["obsolete"] and not before[t]["obsolete"]],
            "undeprecated": [t for t in kept if before[t]["obsolete"] and not after[t]["obsolete"]],
            "relabelled": [t for t in kept if before[t]["name"] != after[t]["name"]],
        }
    )
)

// Checks documents against the JSON Schemas of an OpenAPI 3.1 document
// with Ajv (JSON Schema 2020-12, OpenAPI 3.1's dialect), offline.
//
//   node conform.mjs request.json
//
// The request: { "openapi": "path/openapi.json", "checks": [ { "schema":
// "#/components/schemas/Entity", "file": "path/x.json" } or { "schema":
// ..., "document": ... }, ... ] }, each schema a JSON pointer into the
// OpenAPI document. Prints { "errors": [[...], ...] }: for each check, in
// order, its first errors (none when the document conforms).
import Ajv2020 from "ajv/dist/2020.js";
import { readFile } from "node:fs/promises";

const request = JSON.parse(await readFile(process.argv[2], "utf8"));
const openapi = JSON.parse(await readFile(request.openapi, "utf8"));
// OpenAPI's own keywords (`example`, `discriminator`) beside the schemas'
// are not errors; formats are annotations, as JSON Schema 2020-12 says.
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const base = "https://ontosite.test/openapi.json";
ajv.addSchema(openapi, base);
const compiled = new Map();
const errors = [];
for (const check of request.checks) {
  let validate = compiled.get(check.schema);
  if (!validate) {
    validate = ajv.compile({ $ref: base + check.schema });
    compiled.set(check.schema, validate);
  }
  const document = "file" in check ? JSON.parse(await readFile(check.file, "utf8")) : check.document;
  errors.push(
    validate(document)
      ? []
      : validate.errors.slice(0, 5).map((e) => `${e.message} at ${e.instancePath || "/"} (${e.schemaPath})`),
  );
}
console.log(JSON.stringify({ errors }));

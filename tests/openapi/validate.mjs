// Validates an OpenAPI document with @readme/openapi-parser (OpenAPI 3.1
// structure and its JSON Schemas), offline.
//
//   node validate.mjs openapi.json
//
// Prints { "valid": bool, "errors": [...], "paths": N } as JSON.
import { validate } from "@readme/openapi-parser";
import { readFile } from "node:fs/promises";

const document = JSON.parse(await readFile(process.argv[2], "utf8"));
const paths = Object.keys(document.paths ?? {}).length;
const result = await validate(document, { resolve: { external: false } });
console.log(JSON.stringify({ valid: result.valid, errors: (result.errors ?? []).map((e) => e.message ?? String(e)), paths }));

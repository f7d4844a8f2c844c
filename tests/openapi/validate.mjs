// SPDX-License-Identifier: MIT
// docs/openapi.yaml against the OpenAPI specification's JSON schema (its `openapi` version's), with
// @seriousme/openapi-schema-validator: what any standard tool reading the file would refuse. Also
// refuses a schema property that declares neither a type nor a reference (a client generator cannot
// type it). Exit 0 when valid; otherwise every error, one per line.
import { readFileSync } from "node:fs";
import { Validator } from "@seriousme/openapi-schema-validator";
import YAML from "yaml";

const path = process.argv[2];
const doc = YAML.parse(readFileSync(path, "utf8"));
const validator = new Validator();
const result = await validator.validate(doc);
let failures = 0;
if (!result.valid) {
    for (const e of [].concat(result.errors ?? [])) {
        console.log(`FAIL ${path}: ${e.instancePath || "/"} ${e.message ?? JSON.stringify(e)}${e.params ? " " + JSON.stringify(e.params) : ""}`);
        ++failures;
    }
}
// Properties without a type: walk every schema's `properties`.
const typed = (s) => s && (s.type || s.$ref || s.oneOf || s.anyOf || s.allOf || s.enum || s.const !== undefined);
const walk = (node, where) => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${where}/${i}`));
    if (!node || typeof node !== "object") return;
    if (node.properties && typeof node.properties === "object") {
        for (const [name, s] of Object.entries(node.properties)) {
            if (!typed(s)) {
                console.log(`FAIL ${path}: ${where}/properties/${name} has no type (give it one, or null's: type: ['null', ...])`);
                ++failures;
            }
        }
    }
    for (const [k, v] of Object.entries(node)) walk(v, `${where}/${k}`);
};
walk(doc, "");
if (failures === 0) console.log(`ok: ${path} is valid OpenAPI ${doc.openapi} and every property has a type`);
process.exit(failures === 0 ? 0 : 1);

// SPDX-License-Identifier: MIT
// tst_openapi: every answer tst_engineservice received (BULLPEN_API_ANSWERS, one JSON line each) against
// docs/openapi.yaml. An answer fails when its path and method are not documented, its status is not
// listed for the operation, its JSON body does not validate against the listed schema, or a 405's
// Allow differs from the methods the document gives the path.
import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020.js";
import YAML from "yaml";

const [docPath, answersPath] = process.argv.slice(2);
const doc = YAML.parse(readFileSync(docPath, "utf8"));

// "#/components/schemas/X" → "doc#/components/schemas/X", so that any schema compiled alone resolves it.
const rewrite = (v) => {
    if (Array.isArray(v)) return v.map(rewrite);
    if (v && typeof v === "object") {
        const out = {};
        for (const [k, x] of Object.entries(v))
            out[k] = k === "$ref" && typeof x === "string" && x.startsWith("#/") ? "doc" + x : rewrite(x);
        return out;
    }
    return v;
};
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
ajv.addSchema({ $id: "doc", components: rewrite(doc.components) });

const templates = Object.keys(doc.paths).map((t) => ({ t, parts: t.split("/").filter(Boolean) }));
const templateOf = (path) => {
    const segs = path.split("/").filter(Boolean);
    const found = templates.find(({ parts }) =>
        parts.length === segs.length && parts.every((p, i) => (p.startsWith("{") && p.endsWith("}") ? segs[i] !== "" : p === segs[i])));
    return found?.t;
};

const compiled = new Map();
const validatorFor = (key, schema) => {
    if (!compiled.has(key)) compiled.set(key, ajv.compile(rewrite(schema)));
    return compiled.get(key);
};

const failures = [];
const seen = new Set();
let checked = 0;
for (const line of readFileSync(answersPath, "utf8").split("\n")) {
    if (!line.trim()) continue;
    const a = JSON.parse(line);
    checked++;
    const where = `${a.method} ${a.path} → ${a.status}`;
    const template = templateOf(a.path);
    if (!template) {
        if (a.status !== 404) failures.push(`${where}: the path is not in the document, and the answer is not 404`);
        continue;
    }
    const item = doc.paths[template];
    const op = item[a.method.toLowerCase()];
    if (!op) {
        const allowed = Object.keys(item).map((m) => m.toUpperCase()).sort().join(", ");
        if (a.status !== 405) failures.push(`${where}: the method is not documented for ${template}, and the answer is not 405`);
        else if (a.allow !== allowed) failures.push(`${where}: Allow is "${a.allow}", the document gives ${template} "${allowed}"`);
        continue;
    }
    seen.add(`${a.method} ${template}`);
    const response = op.responses[String(a.status)];
    if (!response) {
        failures.push(`${where}: status ${a.status} is not listed for ${a.method} ${template}`);
        continue;
    }
    const json = response.content?.["application/json"];
    if (!json) continue; // metrics, events, images: not JSON
    if (a.body === null) {
        failures.push(`${where}: the document says JSON, the body is not`);
        continue;
    }
    const validate = validatorFor(`${a.method} ${template} ${a.status}`, json.schema);
    if (!validate(a.body)) {
        const e = validate.errors[0];
        failures.push(`${where}: ${e.instancePath || "(body)"} ${e.message}${e.params ? " " + JSON.stringify(e.params) : ""}`);
    }
}

const operations = Object.entries(doc.paths).flatMap(([t, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${t}`));
const unseen = operations.filter((o) => !seen.has(o));
console.log(`tst_openapi: ${checked} answers checked against ${operations.length} operations; ${operations.length - unseen.length} operations seen`);
if (unseen.length) console.log(`  not exercised by tst_engineservice: ${unseen.join("; ")}`);
if (checked === 0) failures.push("no answers were recorded (run tst_engineservice with BULLPEN_API_ANSWERS)");
for (const f of failures.slice(0, 40)) console.log(`FAIL ${f}`);
if (failures.length > 40) console.log(`… and ${failures.length - 40} more`);
process.exit(failures.length ? 1 : 0);

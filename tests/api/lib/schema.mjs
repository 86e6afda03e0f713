// Response-schema validation against GitBook's published OpenAPI document
// (@gitbook/api@0.143.2, spec/openapi.json), converted from OpenAPI 3.0 to
// JSON Schema (draft-07) for ajv.
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';

const require = createRequire(import.meta.url);
const specPath = require.resolve('@gitbook/api/spec/openapi.json');
export const spec = JSON.parse(readFileSync(specPath, 'utf8'));

const SPEC_ID = 'gitbook-openapi';

// Operations that 0.143.2 lacks but docsd implements (taken from @gitbook/api@0.202.0).
const EXTRA_OPERATIONS = {
    // compat=true (the default) answers the change request.
    updateChangeRequestContent: {
        method: 'post',
        path: '/spaces/{spaceId}/change-requests/{changeRequestId}/content',
        responses: {
            200: {
                content: {
                    'application/json': { schema: { $ref: '#/components/schemas/ChangeRequest' } },
                },
            },
        },
    },
    createOrganization: {
        method: 'post',
        path: '/orgs',
        responses: {
            201: {
                content: {
                    'application/json': { schema: { $ref: '#/components/schemas/Organization' } },
                },
            },
        },
    },
};

const SCHEMA_MAP_KEYS = new Set(['properties', 'patternProperties', 'definitions', '$defs']);
const SCHEMA_ARRAY_KEYS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_KEYS = new Set(['items', 'additionalProperties', 'not', 'propertyNames', 'contains']);
const DROP_KEYS = new Set(['nullable', 'example', 'examples', 'discriminator', 'xml', 'externalDocs', 'deprecated']);

function rewriteRef(ref) {
    if (ref.startsWith('#/')) return `${SPEC_ID}${ref}`;
    return ref;
}

/** Convert one OpenAPI 3.0 schema object to a JSON Schema (draft-07) object. */
export function convertSchema(schema) {
    if (Array.isArray(schema)) return schema.map(convertSchema);
    if (schema === null || typeof schema !== 'object') return schema;
    const out = {};
    for (const [key, value] of Object.entries(schema)) {
        if (DROP_KEYS.has(key) || key.startsWith('x-')) continue;
        if (key === '$ref') out.$ref = rewriteRef(value);
        else if (SCHEMA_MAP_KEYS.has(key)) {
            out[key] = {};
            for (const [name, sub] of Object.entries(value)) out[key][name] = convertSchema(sub);
        } else if (SCHEMA_ARRAY_KEYS.has(key)) out[key] = value.map(convertSchema);
        else if (SCHEMA_KEYS.has(key)) out[key] = typeof value === 'object' ? convertSchema(value) : value;
        else out[key] = value;
    }
    // OpenAPI 3.0 boolean exclusiveMinimum/Maximum (draft-04 style).
    if (out.exclusiveMinimum === true) {
        out.exclusiveMinimum = out.minimum;
        delete out.minimum;
    } else if (out.exclusiveMinimum === false) delete out.exclusiveMinimum;
    if (out.exclusiveMaximum === true) {
        out.exclusiveMaximum = out.maximum;
        delete out.maximum;
    } else if (out.exclusiveMaximum === false) delete out.exclusiveMaximum;

    if (schema.nullable === true) {
        if (out.$ref !== undefined || (out.type === undefined && out.enum === undefined)) {
            // $ref (or a composition) that may also be null.
            return { anyOf: [out, { type: 'null' }] };
        }
        if (out.type !== undefined) {
            const types = Array.isArray(out.type) ? out.type : [out.type];
            if (!types.includes('null')) out.type = [...types, 'null'];
        }
        if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    }
    return out;
}

function collectFormats(node, acc) {
    if (Array.isArray(node)) node.forEach((n) => collectFormats(n, acc));
    else if (node && typeof node === 'object') {
        if (typeof node.format === 'string') acc.add(node.format);
        for (const v of Object.values(node)) collectFormats(v, acc);
    }
    return acc;
}

const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
addFormats(ajv);
for (const f of collectFormats(spec.components, new Set())) {
    if (!ajv.formats[f]) ajv.addFormat(f, true); // e.g. "emoji", "icon": not checked
}
const convertedComponents = { schemas: {}, responses: {} };
for (const [name, s] of Object.entries(spec.components.schemas)) {
    convertedComponents.schemas[name] = convertSchema(s);
}
ajv.addSchema({ $id: SPEC_ID, components: convertedComponents });

const operations = new Map();
for (const [path, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
        if (op && typeof op === 'object' && op.operationId) operations.set(op.operationId, { ...op, method, path });
    }
}
for (const [id, op] of Object.entries(EXTRA_OPERATIONS)) if (!operations.has(id)) operations.set(id, op);

export function getOperation(operationId) {
    const op = operations.get(operationId);
    if (!op) throw new Error(`unknown operationId ${operationId}`);
    return op;
}

function resolveResponse(resp) {
    let r = resp;
    let guard = 0;
    while (r && r.$ref && guard++ < 10) {
        const name = r.$ref.replace('#/components/responses/', '');
        r = spec.components.responses[name];
    }
    return r;
}

const compiled = new Map();

/** Returns the compiled ajv validator for a response of an operation. */
export function responseValidator(operationId, status) {
    const key = `${operationId} ${status}`;
    if (compiled.has(key)) return compiled.get(key);
    const op = getOperation(operationId);
    const resp = resolveResponse(op.responses[String(status)] ?? op.responses.default);
    if (!resp) throw new Error(`operation ${operationId} documents no response ${status}`);
    const schema = resp.content?.['application/json']?.schema;
    if (!schema) throw new Error(`operation ${operationId} response ${status} has no JSON body`);
    const fn = ajv.compile(convertSchema(schema));
    compiled.set(key, fn);
    return fn;
}

function describe(errors, body) {
    const text = ajv.errorsText(errors, { separator: '\n  ', dataVar: 'body' });
    let json = JSON.stringify(body);
    if (json && json.length > 2000) json = json.slice(0, 2000) + '…';
    return `${text}\nbody: ${json}`;
}

/** Throws if body does not match the response schema of operationId for status. Returns body. */
export function validate(operationId, status, body) {
    const fn = responseValidator(operationId, status);
    if (!fn(body)) {
        throw new assert.AssertionError({
            message: `response of ${operationId} (${status}) does not match the schema:\n  ${describe(fn.errors, body)}`,
        });
    }
    return body;
}

/** Validates a component schema by name (e.g. 'User'). */
export function validateComponent(name, value) {
    const fn = ajv.getSchema(`${SPEC_ID}#/components/schemas/${name}`);
    if (!fn) throw new Error(`unknown schema ${name}`);
    if (!fn(value)) {
        throw new assert.AssertionError({ message: `value does not match schema ${name}:\n  ${describe(fn.errors, value)}` });
    }
    return value;
}

const errorEnvelope = ajv.compile({
    type: 'object',
    required: ['error'],
    properties: {
        error: {
            type: 'object',
            required: ['code', 'message'],
            properties: { code: { type: 'integer' }, message: { type: 'string', minLength: 1 } },
        },
    },
});

/** Checks the error envelope {"error":{"code":status,"message":string}}. */
export function validateError(body, status) {
    if (!errorEnvelope(body)) {
        throw new assert.AssertionError({ message: `not an error envelope:\n  ${describe(errorEnvelope.errors, body)}` });
    }
    if (status !== undefined) assert.equal(body.error.code, status, `error.code should be ${status}: ${JSON.stringify(body)}`);
    return body;
}

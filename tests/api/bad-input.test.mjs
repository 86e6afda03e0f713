// Bad input generated from GitBook's request schemas (issue 32): for every operation of
// src/api/routes.c that has a JSON body or query parameters in @gitbook/api 0.143.2's
// spec/openapi.json (and, for the bodies, docsd's own operations too: generic cases), cases are
// built at test time: a body that is not an object, missing required fields, each property with
// a value of the wrong type, strings past maxLength (or past --max-body when the schema sets no
// length), arrays past maxItems (or past --max-body), invalid UTF-8 sent as raw bytes, nesting
// 100,000 deep, huge, fractional and overflowing numbers, unknown enum values; each query
// parameter with the wrong type, an unknown enum value, 5,000 characters, bad percent-encoding,
// 1,000 repetitions (and a query of too many parameters: libmicrohttpd's pool);
// and every path parameter of every route with %00, %2F, .., 5,000 characters.
// Every answer must be a 4xx in the error envelope ({"error":{"code":N,"message":"..."}}, N the
// status), never a 5xx, a crash or a hang (per-request timeout); the organization's state is
// compared before and after; the server must still answer /healthz and exit 0 on SIGTERM (under
// DOCSD_ASAN=1 its log must hold no sanitizer report: scripts/test.sh runs this file in its ASan
// API stage with every other). The case list is deterministic; when it passes MAX_CASES it is
// sampled by a fixed stride so that the file stays well under two minutes under the sanitizers.
// A DELETE of a path that names nothing may answer 204 (docsd's "nothing to delete").
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import http from 'node:http';
import { raw } from './lib/api.mjs';
import { repoRoot } from './lib/server.mjs';
import { buildOrg, must } from './lib/matrix-fixtures.mjs';
import { HTML, setPassword, signIn, PASSWORD } from './lib/app.mjs';
import { apiRoutes, appRoutes } from './lib/routes.mjs';

const MAX_BODY = 262144; // --max-body for this file: "past the body limit" stays cheap
const MAX_CASES = Number(process.env.BAD_INPUT_MAX_CASES || 6000);
const TIMEOUT_MS = 20_000;
const spec = JSON.parse(readFileSync(join(repoRoot, 'tests/api/node_modules/@gitbook/api/spec/openapi.json'), 'utf8'));

// operationId -> the spec's operation (parameters merged with the path item's).
const OPS = new Map();
for (const [, item] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(item)) {
        if (!op || typeof op !== 'object' || !op.operationId) continue;
        OPS.set(op.operationId, { ...op, parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])] });
    }
}

function deref(x, depth = 0) {
    if (!x || typeof x !== 'object' || depth > 20) return x;
    if (x.$ref) {
        const parts = x.$ref.replace(/^#\//, '').split('/');
        let v = spec;
        for (const p of parts) v = v?.[p];
        return deref(v, depth + 1);
    }
    return x;
}

/** The object schema of a body: allOf merged; {properties, required}. */
function objectShape(schema, depth = 0) {
    const s = deref(schema);
    const out = { properties: {}, required: [] };
    if (!s || depth > 10) return out;
    for (const part of s.allOf ?? []) {
        const o = objectShape(part, depth + 1);
        Object.assign(out.properties, o.properties);
        out.required.push(...o.required);
    }
    Object.assign(out.properties, s.properties ?? {});
    out.required.push(...(s.required ?? []));
    return out;
}

/** The JSON types a schema accepts (null when it cannot say: anything may be valid). */
function typesOf(schema, depth = 0) {
    const s = deref(schema);
    if (!s || depth > 10) return null;
    if (s.type) {
        const t = new Set(Array.isArray(s.type) ? s.type : [s.type]);
        if (s.nullable) t.add('null');
        if (t.has('integer')) t.add('number');
        return t;
    }
    const alts = s.oneOf ?? s.anyOf;
    if (alts) {
        const t = new Set();
        for (const a of alts) {
            const x = typesOf(a, depth + 1);
            if (!x) return null;
            for (const y of x) t.add(y);
        }
        if (s.nullable) t.add('null');
        return t;
    }
    if (s.allOf) {
        for (const a of s.allOf) {
            const x = typesOf(a, depth + 1);
            if (x) return x;
        }
    }
    if (s.enum) return new Set(s.enum.map((v) => (v === null ? 'null' : typeof v)));
    if (s.properties) return new Set(['object']);
    return null;
}

function enumOf(schema) {
    const s = deref(schema);
    if (!s) return null;
    if (s.enum) return s.enum;
    const alts = s.oneOf ?? s.anyOf;
    if (alts) {
        const all = [];
        for (const a of alts) {
            const e = enumOf(a);
            if (!e) return null;
            all.push(...e);
        }
        return all;
    }
    return null;
}

const first = (schema, key) => {
    const s = deref(schema);
    if (!s) return undefined;
    if (s[key] !== undefined) return s[key];
    for (const a of s.allOf ?? []) {
        const v = first(a, key);
        if (v !== undefined) return v;
    }
    return undefined;
};

const WRONG = { string: 12345, number: 'twelve', integer: 'twelve', boolean: 'yes', array: 'not-an-array', object: 'not-an-object' };

/** Cases of one body operation: [{name, body (string|Buffer)}]. */
function bodyCases(op) {
    const out = [];
    const add = (name, v) => out.push({ name, body: typeof v === 'string' || Buffer.isBuffer(v) ? v : JSON.stringify(v) });
    // Generic: not an object, truncated, nested 100,000 deep, invalid UTF-8, past the limit.
    add('body: an array', '[]');
    add('body: a string', '"text"');
    add('body: a number', '12');
    add('body: null', 'null');
    add('body: truncated', '{"a":');
    add('body: nested 100,000 deep', '['.repeat(100_000) + ']'.repeat(100_000));
    add('body: an object nested 100,000 deep', '{"a":'.repeat(100_000) + '1' + '}'.repeat(100_000));
    add('body: invalid UTF-8 in a key', Buffer.concat([Buffer.from('{"'), Buffer.from([0xff, 0xfe]), Buffer.from('":1}')]));
    add('body: past --max-body', `{"x":"${'a'.repeat(MAX_BODY + 16)}"}`);
    if (!op) return out;
    const rb = deref(op.requestBody);
    const schema = rb?.content?.['application/json']?.schema;
    if (!schema) return out;
    const { properties, required } = objectShape(schema);
    if (required.length) add('missing every required field', {});
    for (const [k, p] of Object.entries(properties)) {
        const t = typesOf(p);
        if (t) {
            for (const [type, wrong] of Object.entries(WRONG)) {
                if (t.has(type) || (type === 'integer' && t.has('number'))) continue;
                // A wrong type for this property: the first the schema does not take.
                const valueType = wrong === 12345 ? 'number' : typeof wrong === 'string' ? 'string' : type;
                if (t.has(valueType)) continue;
                add(`${k}: ${JSON.stringify(wrong)} (the schema takes ${[...t].join('|')})`, { [k]: wrong });
                break;
            }
            // null for a property the schema does not make nullable is not sent: docsd reads null
            // as "absent" for optional fields (a leniency, not a hazard; see the README).
            if (t.has('string') && t.size <= 2) {
                add(`${k}: invalid UTF-8 (raw bytes)`, Buffer.concat([Buffer.from(`{"${k}":"`), Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 0xed, 0xa0, 0x80]), Buffer.from('"}')]));
                const max = first(p, 'maxLength');
                add(`${k}: ${max ? `maxLength ${max} + 1` : 'past --max-body'}`, { [k]: 'x'.repeat(max ? max + 1 : MAX_BODY + 16) });
                add(`${k}: nested 100,000 deep where a string goes`, `{"${k}":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
            }
            if (t.has('number') && !t.has('string')) {
                add(`${k}: 1e999 (overflows a double)`, `{"${k}":1e999}`);
                add(`${k}: 2^64`, `{"${k}":18446744073709551616}`);
                add(`${k}: -9.5e307`, `{"${k}":-9.5e307}`);
                if (deref(p)?.type === 'integer' || first(p, 'type') === 'integer') add(`${k}: 1.5 (an integer)`, `{"${k}":1.5}`);
            }
            if (t.has('array') && !t.has('string')) {
                const max = first(p, 'maxItems');
                add(`${k}: ${max ? `maxItems ${max} + 1 of the wrong type` : 'past --max-body'}`, `{"${k}":[${Array(max ? max + 1 : MAX_BODY / 2 + 8).fill('0').join(',')}]}`);
            }
        }
        const e = enumOf(p);
        if (e && e.every((v) => typeof v === 'string')) add(`${k}: an unknown enum value`, { [k]: 'not-one-of-them' });
        // One level down: an object property's own properties, and an array's object items.
        const items = deref(p)?.items;
        const inner = t && t.has('object') && !t.has('array') ? objectShape(p) : t && t.has('array') && items ? objectShape(items) : null;
        const wrap = (v) => (t && t.has('object') && !t.has('array') ? { [k]: v } : { [k]: [v] });
        for (const [k2, p2] of Object.entries(inner?.properties ?? {})) {
            const t2 = typesOf(p2);
            if (t2) {
                const [type, wrong] = Object.entries(WRONG).find(([ty, w]) => !t2.has(ty) && !t2.has(typeof w === 'string' ? 'string' : 'number')) ?? [];
                if (type) add(`${k}.${k2}: ${JSON.stringify(wrong)} (the schema takes ${[...t2].join('|')})`, wrap({ [k2]: wrong }));
                const max = first(p2, 'maxLength');
                if (t2.has('string') && max) add(`${k}.${k2}: maxLength ${max} + 1`, wrap({ [k2]: 'x'.repeat(max + 1) }));
                if (t2.has('number') && !t2.has('string')) add(`${k}.${k2}: 1e999`, JSON.stringify(wrap({ [k2]: 0 })).replace(/:0([}\]])/, ':1e999$1'));
            }
            const e2 = enumOf(p2);
            if (e2 && e2.every((v) => typeof v === 'string')) add(`${k}.${k2}: an unknown enum value`, wrap({ [k2]: 'not-one-of-them' }));
        }
    }
    return out;
}

/** Cases of one operation's query parameters: [{name, query}]. */
function queryCases(op) {
    const out = [];
    for (const p0 of op?.parameters ?? []) {
        const p = deref(p0);
        if (p?.in !== 'query') continue;
        const t = typesOf(p.schema);
        const q = (v) => `${encodeURIComponent(p.name)}=${v}`;
        if (t && (t.has('number') || t.has('integer')) && !t.has('string')) {
            out.push({ name: `${p.name}=abc`, query: q('abc') });
            out.push({ name: `${p.name}=1.5`, query: q('1.5') });
            out.push({ name: `${p.name}=99999999999999999999999`, query: q('99999999999999999999999') });
            out.push({ name: `${p.name}=-1`, query: q('-1') });
        }
        if (t && t.has('boolean') && !t.has('string')) out.push({ name: `${p.name}=maybe`, query: q('maybe') });
        const e = enumOf(p.schema);
        if (e && e.every((v) => typeof v === 'string')) out.push({ name: `${p.name}: unknown enum value`, query: q('not-one-of-them') });
        // A free string (or a list of them) takes any text: a search for "%ZZ", NUL or 5,000
        // characters may match nothing (200); only a 5xx, a hang or a bad envelope fail there.
        const free = !e && (!t || t.has('string') || t.has('array'));
        out.push({ name: `${p.name}: %ZZ (bad percent-encoding)`, query: q('%ZZ'), lenient: free });
        out.push({ name: `${p.name}: %FF (invalid UTF-8)`, query: q('%FF%FE') });
        out.push({ name: `${p.name}: %00`, query: q('%00'), lenient: free });
        out.push({ name: `${p.name}: 5,000 characters`, query: q('x'.repeat(5000)), lenient: free });
        // An oversized list: the parameter 1,000 times (GitBook's arrays in a query repeat it).
        out.push({ name: `${p.name} repeated 1,000 times`, query: Array(1000).fill(q('a')).join('&') });
    }
    return out;
}

/**
 * A request with the path sent as written (raw() goes through URL, which would resolve `..`):
 * resolves to {status, text, json}; rejects on a timeout.
 */
function send(base, method, path, { token, body, headers = {}, timeout }) {
    const u = new URL(base);
    const payload = body === undefined ? null : Buffer.isBuffer(body) ? body : Buffer.from(body);
    const h = { ...headers, ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    if (payload) h['Content-Length'] = String(payload.length);
    return new Promise((resolve, reject) => {
        let settled = false;
        const req = http.request({ host: u.hostname, port: u.port, method, path, headers: h, timeout }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let json;
                try {
                    json = JSON.parse(text);
                } catch {}
                settled = true;
                resolve({ status: res.statusCode, text, json });
            });
            res.on('error', (e) => !settled && ((settled = true), reject(e)));
        });
        req.on('timeout', () => req.destroy(new Error(`timed out after ${timeout} ms`)));
        // The server may answer (413) before the whole body is sent and close.
        req.on('error', (e) => setTimeout(() => !settled && ((settled = true), reject(e)), 200));
        if (payload) req.write(payload);
        req.end();
    });
}

const PATH_VALUES = [['%00', '%00'], ['%2F', '%2F'], ['..', '..'], ['5,000 characters', 'x'.repeat(5000)]];

describe('bad input from GitBook\'s request schemas', () => {
    let ctx, admin, A, session;
    const failures = [];

    before(async () => {
        ctx = await setup({ extraArgs: ['--max-body', String(MAX_BODY)] });
        admin = await ctx.user('admin');
        A = await buildOrg(ctx.url, admin, 'A', `BAD${ctx.run}`);
        const name = `bad-${ctx.run}`;
        await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}`, {
            organization: A.org.id, title: 'Bad input', description: 'bad input', scopes: ['space:content:read'],
            script: 'export default { async fetch() { return new Response("ok"); } };',
        }, 200);
        const inst = await must(ctx.url, admin.token, 'POST', `/v1/integrations/${name}/installations`, { organization: A.org.id }, [200, 201]);
        Object.assign(A.ids, { integrationName: name, installationId: inst.id, eventId: 'noevent', n: '0', blob: 'x.y.z', pdf: 'x.y.z', tokenId: 'notoken' });
        await setPassword(ctx.server, admin.email, PASSWORD);
        session = await signIn(ctx.url, admin.email, PASSWORD);
    });

    after(async () => {
        await ctx?.server.stop();
    });

    function fill(path, ids, override) {
        return path.replace(/\{(\w+)\*?\}/g, (_, k) => (override && override.k === k ? override.v : ids[k].split('/').map(encodeURIComponent).join('/')));
    }

    // What must not move: the lists of the organization and the fixtures themselves.
    async function snapshot() {
        const O = `/v1/orgs/${A.org.id}`, S = `/v1/spaces/${A.ids.spaceId}`, SI = `${O}/sites/${A.ids.siteId}`;
        const paths = [O, `${O}/spaces`, `${O}/collections`, `${O}/members`, `${O}/teams`, `${O}/sites`, `${O}/link-invites`, `${O}/saml`,
            `${O}/openapi`, `${O}/translations`, S, `${S}/change-requests?status=draft`, `${S}/comments`, `${S}/content/pages`,
            `${S}/permissions/users`, `/v1/collections/${A.ids.collectionId}`, SI, `${SI}/site-spaces`, `${SI}/sections`,
            `${SI}/section-groups`, `${SI}/share-links`, `${SI}/redirects`, `${SI}/customization`,
            `${S}/change-requests/${A.ids.changeRequestId}`, `${S}/change-requests/${A.ids.changeRequestId}/comments`,
            `/v1/integrations/${A.ids.integrationName}/installations/${A.ids.installationId}`];
        const out = {};
        for (const p of paths) {
            const j = await must(ctx.url, admin.token, 'GET', p, undefined, 200);
            out[p] = JSON.stringify(j, (k, v) => (['lastSeenAt'].includes(k) ? undefined : v));
        }
        return out;
    }

    function allCases() {
        const cases = [];
        for (const rt of apiRoutes()) {
            const op = OPS.get(rt.op);
            const hasBody = /\bB\b|\bBO\b|ROUTE_BODY/.test(rt.flags);
            const ids = { ...A.ids };
            if (rt.path.includes('change-requests/{changeRequestId}/comments')) Object.assign(ids, { commentId: A.ids.crCommentId, commentReplyId: A.ids.crReplyId });
            const good = fill(rt.path, ids);
            if (hasBody) {
                for (const c of bodyCases(op)) {
                    // GitBook's SiteCustomizationSettings requires every section; docsd's PUT lays
                    // what it is sent over the defaults (README, "Docs sites"), so {} is valid.
                    if (rt.op === 'updateSiteCustomizationById' && c.name === 'missing every required field') continue;
                    cases.push({ rt, path: good, body: c.body, name: c.name });
                }
            }
            if (rt.method === 'GET') for (const c of queryCases(op)) cases.push({ rt, path: `${good}?${c.query}`, name: `query ${c.name}`, lenient: c.lenient });
            for (const m of rt.path.matchAll(/\{(\w+)\*?\}/g)) {
                for (const [label, v] of PATH_VALUES) {
                    cases.push({ rt, path: fill(rt.path, ids, { k: m[1], v }), name: `{${m[1]}} = ${label}`, body: hasBody ? '{}' : undefined, pathCase: true });
                }
            }
        }
        if (cases.length <= MAX_CASES) return cases;
        // A fixed stride: the same sample on every run.
        const stride = cases.length / MAX_CASES;
        return Array.from({ length: MAX_CASES }, (_, i) => cases[Math.floor(i * stride)]);
    }

    function checkAnswer(c, r) {
        const tag = `${c.rt.op} ${c.rt.method} ${c.path.slice(0, 160)} [${c.name}]`;
        if (r.status >= 500) return failures.push(`${tag}: ${r.status}: ${r.text.slice(0, 200)}`);
        if (c.lenient) return;
        if (c.pathCase && c.rt.method === 'DELETE' && r.status === 204) return;
        // Public routes that serve bytes (files, PDFs, icons, scripts) answer their own 404s.
        if (r.status < 400 || r.status >= 500) return failures.push(`${tag}: expected a 4xx, got ${r.status}: ${r.text.slice(0, 200)}`);
        const e = r.json?.error;
        if (!e || e.code !== r.status || typeof e.message !== 'string' || Object.keys(r.json).length !== 1)
            failures.push(`${tag}: ${r.status} without the error envelope: ${r.text.slice(0, 200)}`);
    }

    // The web interface's pages with each path parameter broken the same ways, as the admin: an
    // HTML error page (4xx), never a 5xx or a hang. (Its forms are the app-*.test.mjs files'.)
    it('web interface: every page with a broken path parameter is a 4xx', async () => {
        const bad = [];
        const calls = [];
        for (const rt of appRoutes()) {
            // The join page is the same confirmation for any link (it looks nothing up, so it
            // tells nothing); its POST checks the link.
            if (rt.method !== 'GET' || rt.path === '/o/{organizationId}/join/{inviteId}') continue;
            for (const m of rt.path.matchAll(/\{(\w+)\*?\}/g)) {
                for (const [label, v] of PATH_VALUES) calls.push({ path: fill(rt.path, A.ids, { k: m[1], v }), name: `${rt.path} {${m[1]}} = ${label}` });
            }
        }
        assert.ok(calls.length > 100);
        let next = 0;
        await Promise.all(Array.from({ length: 8 }, async () => {
            while (next < calls.length) {
                const c = calls[next++];
                try {
                    const r = await send(ctx.url, 'GET', c.path, { headers: { ...HTML, Cookie: session.cookie }, timeout: TIMEOUT_MS });
                    if (r.status < 400 || r.status >= 500) bad.push(`${c.name}: ${r.status} ${r.text.slice(0, 160)}`);
                } catch (e) {
                    bad.push(`${c.name}: no answer (${e.message})`);
                }
            }
        }));
        assert.deepEqual(bad, []);
    });

    // libmicrohttpd keeps every query parameter in the connection's 32 KiB pool; ~500 of them
    // ("?a&a&...": 1 KB) used to fill it, and the connection closed with no answer at all.
    it('a query with too many parameters is a 400 in the envelope, for the API, the app and the sites', async () => {
        const many = Array(129).fill('a').join('&');
        const long = Array(64).fill(`p=${'x'.repeat(400)}`).join('&'); // 26 KB: fewer records fit
        for (const path of [`/v1/orgs?${many}`, `/v1/orgs?${long}`, `/o/${A.org.id}?${many}`, `/sites/${A.ids.siteId}?${many}`, `/v1/orgs?${Array(5000).fill('a').join('&')}`]) {
            const r = await send(ctx.url, 'GET', path, { token: admin.token, headers: { Cookie: session.cookie }, timeout: TIMEOUT_MS });
            assert.equal(r.status, 400, `${path.slice(0, 60)}: ${r.status} ${r.text.slice(0, 200)}`);
            assert.deepEqual(r.json, { error: { code: 400, message: 'the query has too many parameters (at most 128, fewer in a long URL)' } });
        }
        // 128 short ones, or one long one, are still read.
        const ok = await send(ctx.url, 'GET', `/v1/orgs?${Array(128).fill('a').join('&')}`, { token: admin.token, timeout: TIMEOUT_MS });
        assert.equal(ok.status, 200, ok.text.slice(0, 200));
        const one = await send(ctx.url, 'GET', `/v1/orgs?page=${'x'.repeat(20000)}`, { token: admin.token, timeout: TIMEOUT_MS });
        assert.equal(one.status, 400);
        assert.match(one.json.error.message, /page/);
    });

    it('every case answers a 4xx in the error envelope, changes nothing, and the server lives', async () => {
        const cases = allCases();
        assert.ok(cases.length > 1000, `only ${cases.length} cases`);
        if (process.env.BAD_INPUT_PRINT === '1') for (const c of cases) console.log(`${c.rt.op} ${c.rt.method} [${c.name}]`);
        const before = await snapshot();
        let next = 0;
        await Promise.all(Array.from({ length: 8 }, async () => {
            while (next < cases.length) {
                const c = cases[next++];
                const headers = c.body !== undefined ? { 'Content-Type': 'application/json' } : {};
                try {
                    // script.js is served on the site origin (README, "Two origins"): the
                    // main origin only redirects it there.
                    const base = c.rt.op === 'getIntegrationSiteScript' ? ctx.siteUrl : ctx.url;
                    const r = await send(base, c.rt.method, c.path, { token: admin.token, body: c.body, headers, timeout: TIMEOUT_MS });
                    checkAnswer(c, r);
                } catch (e) {
                    failures.push(`${c.rt.op} ${c.rt.method} ${c.path.slice(0, 160)} [${c.name}]: no answer (${e.message})`);
                }
            }
        }));
        const after = await snapshot();
        for (const k of Object.keys(before)) if (before[k] !== after[k]) failures.push(`state changed: ${k}: ${before[k].slice(0, 300)} -> ${after[k].slice(0, 300)}`);
        const h = await raw(ctx.url, 'GET', '/healthz');
        assert.equal(h.status, 200, 'the server still answers /healthz');
        assert.deepEqual(failures.slice(0, 400), [], `${failures.length} failing cases of ${cases.length}`);
    });
});

// Client helpers: the official @gitbook/api client pointed at a docsd server, response
// validation, error assertions, raw requests and list walking.
import assert from 'node:assert/strict';
import http from 'node:http';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { validate, validateError } from './schema.mjs';

export { validate, validateError, GitBookAPIError };

// Bodies of non-2xx responses, keyed by the Response the client hands to GitBookAPIError
// (the client consumes the body itself to build its message).
const errorBodies = new WeakMap();

async function recordingFetch(input, init) {
    const res = await fetch(input, init);
    if (!res.ok) errorBodies.set(res, await res.clone().text());
    return res;
}

/**
 * The official client for a token. GitBookAPI appends /v1 to the endpoint itself
 * (baseUrl = `${endpoint}/v1`), so the endpoint is the bare server URL.
 */
export function client(url, token) {
    return new GitBookAPI({ endpoint: url, authToken: token, serviceBinding: { fetch: recordingFetch } });
}

/** Awaits a client call; a GitBookAPIError becomes an assertion naming the status and body. */
async function settle(promise, status, what) {
    try {
        return await promise;
    } catch (e) {
        if (e instanceof GitBookAPIError) {
            const body = errorBodies.get(e.response);
            throw new assert.AssertionError({ message: `${what}: expected ${status}, got ${e.code} ${e.response.url}: ${body}` });
        }
        throw e;
    }
}

/** Awaits a client call, asserts the status, validates the JSON body against operationId's schema. */
export async function ok(promise, operationId, status = 200) {
    const res = await settle(promise, status, operationId);
    assert.equal(res.status, status, `${operationId}: expected status ${status}, got ${res.status}`);
    validate(operationId, status, res.data);
    return res.data;
}

/** Awaits a client call that returns no body (204/205) and asserts the status and an empty body. */
export async function empty(promise, status, what = 'request') {
    const res = await settle(promise, status, what);
    assert.equal(res.status, status, `${what}: expected status ${status}, got ${res.status}`);
    if (res.body && !res.bodyUsed) {
        const text = await res.text();
        assert.equal(text, '', `${what}: a ${status} response should have no body`);
    }
    return res;
}

/**
 * Asserts that a client call (promise of a client response) or a raw request (promise of a
 * {status, json} result from raw()) fails with `status` and the error envelope. Returns the body.
 */
export async function expectError(promise, status, what = 'request') {
    let result;
    try {
        result = await promise;
    } catch (e) {
        if (!(e instanceof GitBookAPIError)) throw e;
        assert.equal(e.code, status, `${what}: expected ${status}, got ${e.code} (${e.response.url}): ${errorBodies.get(e.response)}`);
        const text = errorBodies.get(e.response);
        let body;
        try {
            body = JSON.parse(text);
        } catch {
            assert.fail(`${what}: error body is not JSON: ${JSON.stringify(text)}`);
        }
        const ct = e.response.headers.get('content-type') || '';
        assert.match(ct, /application\/json/, `${what}: error Content-Type should be JSON, got ${ct}`);
        return validateError(body, status);
    }
    if (result && typeof result.status === 'number' && 'text' in result && 'headers' in result && !('data' in result)) {
        // raw() result
        assert.equal(result.status, status, `${what}: expected ${status}, got ${result.status}: ${result.text}`);
        assert.ok(result.json !== undefined, `${what}: error body is not JSON: ${JSON.stringify(result.text)}`);
        return validateError(result.json, status);
    }
    assert.fail(`${what}: expected an error ${status}, but the request succeeded with ${result?.status}`);
}

/**
 * A raw HTTP request with node:http (so that malformed bodies, odd headers and early
 * responses to large bodies can be tested). Resolves to {status, headers, text, json}.
 * json is undefined when the body is not JSON.
 */
export function raw(baseUrl, method, path, { token, body, json, headers = {}, timeout = 10_000 } = {}) {
    const u = new URL(path, baseUrl);
    const h = { ...headers };
    let payload = null;
    if (json !== undefined) {
        payload = Buffer.from(JSON.stringify(json));
        if (!Object.keys(h).some((k) => k.toLowerCase() === 'content-type')) h['Content-Type'] = 'application/json';
    } else if (body !== undefined) {
        payload = Buffer.isBuffer(body) ? body : Buffer.from(body);
    }
    if (payload) h['Content-Length'] = String(payload.length);
    if (token !== undefined && token !== null) h.Authorization = `Bearer ${token}`;
    return new Promise((resolve, reject) => {
        let settled = false;
        const req = http.request(
            { host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: h, timeout },
            (res) => {
                const chunks = [];
                res.on('data', (c) => chunks.push(c));
                res.on('error', (e) => {
                    if (!settled) {
                        settled = true;
                        reject(e);
                    }
                });
                res.on('end', () => {
                    const text = Buffer.concat(chunks).toString('utf8');
                    let parsed;
                    try {
                        parsed = text.length ? JSON.parse(text) : undefined;
                    } catch {
                        parsed = undefined;
                    }
                    settled = true;
                    resolve({ status: res.statusCode, headers: res.headers, text, json: parsed });
                });
            },
        );
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out after ${timeout} ms`)));
        req.on('error', (e) => {
            // A server may answer (e.g. 413) and close before the whole body was sent; the
            // response event has then already fired.
            if (!settled) {
                setTimeout(() => {
                    if (!settled) {
                        settled = true;
                        reject(e);
                    }
                }, 200);
            }
        });
        if (payload) req.write(payload);
        req.end();
    });
}

/** A raw request that must succeed with `status`; validates the body against operationId. */
export async function rawOk(baseUrl, method, path, opts, operationId, status = 200) {
    const r = await raw(baseUrl, method, path, opts);
    assert.equal(r.status, status, `${method} ${path}: expected ${status}, got ${r.status}: ${r.text}`);
    if (operationId) validate(operationId, status, r.json);
    return r;
}

/**
 * Walks a list page by page (limit `limit`), following next.page, and returns all items.
 * fetchPage(query) must return a promise of a client response. Checks each page against
 * the operation's schema, no page larger than the limit, no empty page but the first,
 * no duplicates, and a bounded number of pages.
 */
// Lists whose count is still the number of items on the page (GitBook's List.count is the
// total): remove an operation from here when it answers its total.
const PAGE_SIZE_COUNT = new Set([
    'searchSpaceContent',
    'searchOrganizationContent',
]);

export async function walk(fetchPage, operationId, { limit = 1, query = {}, key = (x) => x.id, maxPages = 1000 } = {}) {
    const items = [];
    const seen = new Set();
    const counts = [];
    let page;
    for (let i = 0; ; i++) {
        assert.ok(i < maxPages, `${operationId}: more than ${maxPages} pages (cursor loop?)`);
        const q = { ...query, limit };
        if (page !== undefined) q.page = page;
        const body = await ok(fetchPage(q), operationId);
        assert.ok(body.items.length <= limit, `${operationId}: page of ${body.items.length} items exceeds limit ${limit}`);
        if (typeof body.count === 'number') assert.ok(body.count >= body.items.length, `${operationId}: count < items.length`);
        counts.push(body.count);
        if (i > 0) assert.ok(body.items.length > 0, `${operationId}: page ${i} is empty although the previous page had a next cursor`);
        for (const it of body.items) {
            const k = key(it);
            assert.ok(!seen.has(k), `${operationId}: item ${k} appears twice while paginating`);
            seen.add(k);
            items.push(it);
        }
        if (!body.next) break;
        assert.equal(typeof body.next.page, 'string');
        assert.ok(body.next.page.length > 0, 'next.page should not be empty');
        page = body.next.page;
    }
    // List.count is the total across pages, the same on every page (the list does not
    // change while it is walked).
    if (!PAGE_SIZE_COUNT.has(operationId)) {
        assert.deepEqual(counts, counts.map(() => items.length), `${operationId}: count is not the list's total on every page`);
    }
    return items;
}

/**
 * Fetches the full list in one page (limit 1000), asserting it is complete (no next), then
 * walks it with limit=1 and asserts both give the same items in the same order.
 */
export async function checkPagination(fetchPage, operationId, { query = {}, key = (x) => x.id } = {}) {
    const full = await ok(fetchPage({ ...query, limit: 1000 }), operationId);
    assert.equal(full.next, undefined, `${operationId}: next must be absent on the last page`);
    const walked = await walk(fetchPage, operationId, { limit: 1, query, key });
    assert.deepEqual(walked.map(key), full.items.map(key), `${operationId}: walking with limit=1 differs from the full list`);
    if (full.items.length >= 2) {
        const two = await walk(fetchPage, operationId, { limit: 2, query, key });
        assert.deepEqual(two.map(key), full.items.map(key), `${operationId}: walking with limit=2 differs from the full list`);
    }
    return full.items;
}

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'];
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Creates an organization with raw fetch (the 0.143.2 client has no createOrganization). */
export async function createOrg(baseUrl, token, title, extra = {}) {
    const r = await raw(baseUrl, 'POST', '/v1/orgs', { token, json: { title, ...extra } });
    assert.equal(r.status, 201, `POST /v1/orgs: expected 201, got ${r.status}: ${r.text}`);
    validate('createOrganization', 201, r.json);
    return { org: r.json, res: r };
}

/** Makes `email` a member of org with `role` through the invite endpoint (as an admin). */
export async function addMember(api, orgId, email, role) {
    const body = await ok(api.orgs.inviteUsersToOrganization(orgId, { emails: [{ email, role }] }), 'inviteUsersToOrganization');
    assert.equal(body.users.length, 1);
    return body.users[0];
}

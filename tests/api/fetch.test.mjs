// insert_files with `url`: the URLs are fetched before the write transaction begins, so a slow
// URL holds no writer of any organization; the fetches of one request are limited together
// (20 distinct URLs, 8 MB, 20 s); a request without a valid token fetches nothing; the fetched
// response's Content-Type is kept only when it is a valid media type.
// The server runs with --allow-private-network so that it may fetch from this test's own
// HTTP server on 127.0.0.1. The fetches run on fetch threads of their own, not on the HTTP
// worker that received the batch: with one worker, its other keep-alive connections are
// answered while a URL is fetched.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http, { createServer } from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { ok, expectError, raw, rawOk, createOrg, validate, validateError } from './lib/api.mjs';

// A 2x2 PNG.
const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
    'base64',
);
const SLOW_MS = 5000;

describe('content batches fetch their URLs outside the write transaction', () => {
    let ctx, alice, bob, api, orgA, orgB, files, filesUrl;
    const hits = new Map(); // path -> count
    const arrived = []; // resolvers waiting for a request to reach the file server
    const pending = new Set(); // responses the file server still holds

    const contentPath = (spaceId, crId, query = '') => `/v1/spaces/${spaceId}/change-requests/${crId}/content${query}`;
    const newSpaceCR = async (orgId, title) => {
        const s = await ok(api.orgs.createSpace(orgId, { title }), 'createSpace', 201);
        const cr = await ok(api.spaces.createChangeRequest(s.id, { subject: title }), 'createChangeRequest', 201);
        return { s, cr };
    };
    const fileServerHit = () => new Promise((r) => arrived.push(r));

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        api = alice.api;
        ({ org: orgA } = await createOrg(ctx.url, alice.token, `Fetch A ${ctx.run}`));
        ({ org: orgB } = await createOrg(ctx.url, bob.token, `Fetch B ${ctx.run}`));
        files = createServer((req, res) => {
            const u = new URL(req.url, 'http://x');
            hits.set(u.pathname, (hits.get(u.pathname) ?? 0) + 1);
            while (arrived.length) arrived.shift()();
            const delay = Number(u.searchParams.get('delay') ?? 0);
            const answer = () => {
                pending.delete(res);
                if (res.destroyed) return;
                if (u.pathname === '/png') {
                    res.writeHead(200, { 'Content-Type': 'image/png' });
                    res.end(PNG);
                } else if (u.pathname === '/odd-type') {
                    // not a media type: the file gets the sniffed type (or octet-stream) instead
                    res.writeHead(200, { 'Content-Type': u.searchParams.get('ct') });
                    res.end(u.searchParams.get('body') === 'png' ? PNG : Buffer.from('plain bytes'));
                } else if (u.pathname === '/bytes') {
                    res.writeHead(200, { 'Content-Type': 'application/octet-stream' });
                    res.end(Buffer.alloc(Number(u.searchParams.get('n')), 0x61));
                } else {
                    res.writeHead(404);
                    res.end();
                }
            };
            pending.add(res);
            if (delay) setTimeout(answer, delay);
            else answer();
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesUrl = `http://127.0.0.1:${files.address().port}`;
    });
    after(async () => {
        for (const res of pending) res.destroy();
        files?.closeAllConnections?.();
        await new Promise((r) => (files ? files.close(r) : r()));
        await ctx?.server.stop();
    });

    it('a URL that takes 5 s holds no write: of another organization, or of its own space (< 100 ms)', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'Slow');
        const reached = fileServerHit();
        const started = Date.now();
        const batch = raw(ctx.url, 'POST', contentPath(s.id, cr.id, '?compat=false'), {
            token: alice.token,
            json: {
                changes: [
                    { operation: 'insert_page', title: 'Slow logo', document: { markdown: '# Slow logo\n\n![Logo](./logo)\n' } },
                    { operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', url: `${filesUrl}/png?delay=${SLOW_MS}&slow=1` }] },
                ],
            },
            timeout: 30_000,
        });
        let done = false;
        batch.then(() => (done = true), () => (done = true));
        await reached; // docsd is now waiting for the slow URL
        // Writes of another organization, one after another, while the fetch waits, one in the
        // same organization (another space) and one of the batch's space. Each on a new connection: what is measured is
        // the write lock, not which HTTP worker thread a kept-alive connection happens to share
        // with the batch (that thread is busy with the fetch).
        const writes = [
            [bob, 'POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'Meanwhile 1' }, 'createSpace', 201],
            [bob, 'PUT', `/v1/orgs/${orgB.id}/teams`, { title: 'Team 1' }, 'createOrganizationTeam', 201],
            [bob, 'POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'Meanwhile 2' }, 'createSpace', 201],
            [bob, 'PUT', `/v1/orgs/${orgB.id}/teams`, { title: 'Team 2' }, 'createOrganizationTeam', 201],
            [bob, 'POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'Meanwhile 3' }, 'createSpace', 201],
            [alice, 'POST', `/v1/orgs/${orgA.id}/spaces`, { title: 'Same org meanwhile' }, 'createSpace', 201],
            // The batch's own space: its row is not locked while the URL is fetched (PostgreSQL).
            [alice, 'PATCH', `/v1/spaces/${s.id}`, { title: 'Slow (renamed)' }, 'updateSpaceById', 200],
        ];
        const times = [];
        for (const [who, method, path, json, op, status] of writes) {
            const t0 = performance.now();
            await rawOk(ctx.url, method, path, { token: who.token, json }, op, status);
            times.push(performance.now() - t0);
        }
        const stillWaiting = !done;
        const sorted = [...times].sort((a, b) => a - b);
        const median = sorted[Math.floor(sorted.length / 2)];
        assert.ok(times[0] < 100 && median < 100, `writes took ${times.map((t) => t.toFixed(1)).join(', ')} ms while a URL was being fetched`);
        assert.ok(sorted[sorted.length - 1] < 1000, `no write waited for the fetch: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
        assert.ok(stillWaiting, 'the writes completed while the batch was still waiting for its URL');
        console.log(`writes while a URL was being fetched: ${times.map((t) => t.toFixed(1)).join(', ')} ms`);
        // The batch itself completes once its URL answers, with the fetched file.
        const res = await batch;
        assert.equal(res.status, 200, res.text);
        assert.ok(Date.now() - started >= SLOW_MS - 100);
        validate('updateChangeRequestContent', 200, res.json.changeRequest);
        assert.equal(res.json.insertedFiles.length, 1);
        const f = res.json.insertedFiles[0];
        validate('getFileById', 200, f);
        assert.equal(f.contentType, 'image/png');
        assert.equal(f.size, PNG.length);
        assert.deepEqual(f.dimensions, { width: 2, height: 2 });
        const dl = await fetch(f.downloadURL);
        assert.equal(dl.status, 200);
        assert.deepEqual(Buffer.from(await dl.arrayBuffer()), PNG);
    });

    it('a request without a valid token fetches nothing', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'No token');
        const before = hits.get('/png') ?? 0;
        const body = { changes: [{ operation: 'insert_files', files: [{ name: 'a.png', url: `${filesUrl}/png?who=anon` }] }] };
        await expectError(raw(ctx.url, 'POST', contentPath(s.id, cr.id), { json: body }), 401, 'no token');
        await expectError(raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: 'gb_api_nottoken', json: body }), 401, 'a bad token');
        assert.equal(hits.get('/png') ?? 0, before, 'the URL was not fetched');
        // A valid token (here, a member of another organization) is needed for the fetch; the
        // batch is then refused by the access check as usual, and writes nothing.
        await expectError(raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: bob.token, json: body }), 404, 'a non-member');
        const list = await ok(api.spaces.listFilesInChangeRequestById(s.id, cr.id), 'listFilesInChangeRequestById');
        assert.equal(list.items.length, 0);
    });

    it('each distinct URL is fetched once; more than 20 distinct URLs is 400 before any fetch', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'Many');
        const u = (i) => `${filesUrl}/png?i=${i}&many=1`;
        const before = hits.get('/png') ?? 0;
        const tooMany = Array.from({ length: 21 }, (_, i) => ({ operation: 'insert_files', files: [{ name: `f${i}.png`, url: u(i) }] }));
        const e = await expectError(raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: alice.token, json: { changes: tooMany } }), 400, '21 URLs');
        assert.match(e.error.message, /^changes: at most 20 distinct file URLs in one request \(21 given\)$/);
        assert.equal(hits.get('/png') ?? 0, before, 'nothing was fetched');
        // 20 distinct URLs, one of them given twice: 20 fetches, 21 files.
        const twenty = Array.from({ length: 20 }, (_, i) => ({ name: `f${i}.png`, url: u(i) }));
        const changes = [{ operation: 'insert_files', files: twenty }, { operation: 'insert_files', files: [{ name: 'again.png', url: u(3) }] }];
        const res = await rawOk(ctx.url, 'POST', contentPath(s.id, cr.id, '?compat=false'), { token: alice.token, json: { changes }, timeout: 30_000 });
        assert.equal(res.json.insertedFiles.length, 21);
        assert.equal((hits.get('/png') ?? 0) - before, 20);
    });

    it('the fetched files of one request are limited to 8 MB in all', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'Bytes');
        const n = 1000 * 1000; // under the 1 MB of one file
        const files9 = Array.from({ length: 9 }, (_, i) => ({ name: `b${i}`, url: `${filesUrl}/bytes?n=${n}&i=${i}` }));
        const e = await expectError(
            raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: alice.token, json: { changes: [{ operation: 'insert_files', files: files9 }] }, timeout: 30_000 }),
            400,
            '9 MB',
        );
        assert.equal(e.error.message, 'changes[0].files[8].url: the files fetched by URL in this request pass 8 MB in all');
        // one file over 1 MB is the file's own limit
        const big = await expectError(
            raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: alice.token, json: { changes: [{ operation: 'insert_files', files: [{ name: 'big', url: `${filesUrl}/bytes?n=${(1 << 20) + 1}` }] }] } }),
            400,
            'over 1 MB',
        );
        assert.equal(big.error.message, 'changes[0].files[0].url: larger than 1048576 bytes');
        const list = await ok(api.spaces.listFilesInChangeRequestById(s.id, cr.id), 'listFilesInChangeRequestById');
        assert.equal(list.items.length, 0, 'refused batches write nothing');
        // 8 files of 1,000,000 bytes fit
        const res = await rawOk(ctx.url, 'POST', contentPath(s.id, cr.id, '?compat=false'), {
            token: alice.token,
            json: { changes: [{ operation: 'insert_files', files: files9.slice(0, 8) }] },
            timeout: 30_000,
        });
        assert.deepEqual(res.json.insertedFiles.map((f) => f.size), Array(8).fill(n));
    });

    it('a fetch error names the file; the fetched Content-Type is kept only when valid', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'Types');
        const e = await expectError(
            raw(ctx.url, 'POST', contentPath(s.id, cr.id), {
                token: alice.token,
                json: { changes: [{ operation: 'insert_files', files: [{ name: 'ok.png', url: `${filesUrl}/png` }, { name: 'gone', url: `${filesUrl}/gone` }] }] },
            }),
            400,
            'a 404 URL',
        );
        assert.equal(e.error.message, 'changes[0].files[1].url: HTTP 404');
        for (const [url, msg] of [
            ['', 'must be an http or https URL of 1 to 2048 characters'],
            [`${filesUrl}/${'x'.repeat(2048)}`, 'must be an http or https URL of 1 to 2048 characters'],
            ['ftp://127.0.0.1/x', 'only http and https are allowed'],
            ['http://', 'malformed'],
        ]) {
            const bad = await expectError(
                raw(ctx.url, 'POST', contentPath(s.id, cr.id), { token: alice.token, json: { changes: [{ operation: 'insert_files', files: [{ name: 'x', url }] }] } }),
                400,
                JSON.stringify(url.slice(0, 40)),
            );
            assert.equal(bad.error.message, `changes[0].files[0].url: ${msg}`);
        }
        const res = await rawOk(ctx.url, 'POST', contentPath(s.id, cr.id, '?compat=false'), {
            token: alice.token,
            json: {
                changes: [
                    {
                        operation: 'insert_files',
                        files: [
                            { name: 'a', url: `${filesUrl}/odd-type?ct=nonsense&body=png` },
                            { name: 'b', url: `${filesUrl}/odd-type?ct=nonsense` },
                            { name: 'c', url: `${filesUrl}/odd-type?ct=${encodeURIComponent('Text/Plain; charset=utf-8')}` },
                            { name: 'd', url: `${filesUrl}/odd-type?ct=nonsense`, contentType: 'text/markdown' },
                        ],
                    },
                ],
            },
        });
        assert.deepEqual(
            res.json.insertedFiles.map((f) => f.contentType),
            ['image/png', 'application/octet-stream', 'text/plain', 'text/markdown'],
        );
    });

    it('the fetches of one request share a 20 s budget', async () => {
        const { s, cr } = await newSpaceCR(orgA.id, 'Budget');
        // Each answers after 8 s (under the 10 s of one URL): the third has 4 s left and runs out.
        const slow = (i) => ({ name: `s${i}.png`, url: `${filesUrl}/png?delay=8000&budget=${i}` });
        const t0 = Date.now();
        const e = await expectError(
            raw(ctx.url, 'POST', contentPath(s.id, cr.id), {
                token: alice.token,
                json: { changes: [{ operation: 'insert_files', files: [slow(0), slow(1), slow(2)] }] },
                timeout: 40_000,
            }),
            400,
            'over the budget',
        );
        const took = Date.now() - t0;
        assert.equal(e.error.message, "changes[0].files[2].url: the time for fetching this request's URLs (20 s in all) ran out");
        assert.ok(took >= 19_000 && took < 25_000, `took ${took} ms`);
    });
});

// One request on a keep-alive agent (one socket per agent): {status, json, socket, reused}.
function onAgent(baseUrl, agent, method, path, { token, json, timeout = 10_000 } = {}) {
    const u = new URL(path, baseUrl);
    const payload = json === undefined ? null : Buffer.from(JSON.stringify(json));
    const headers = { Authorization: `Bearer ${token}` };
    if (payload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) });
    return new Promise((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers, agent, timeout }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('error', reject);
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                resolve({ status: res.statusCode, text, json: text ? JSON.parse(text) : undefined, socket: req.socket, reused: req.reusedSocket });
            });
        });
        req.on('timeout', () => req.destroy(new Error(`${method} ${path}: timed out after ${timeout} ms`)));
        req.on('error', reject);
        if (payload) req.write(payload);
        req.end();
    });
}

describe('a URL being fetched holds no other connection of the worker thread that received it', () => {
    let ctx, alice, org, slowFiles, slowUrl;
    const held = new Set();
    const arrived = [];

    before(async () => {
        // One worker: every connection shares the thread that received the batch. Short head
        // and idle timeouts: neither may cut the batch's connection while its URL is fetched.
        ctx = await setup({ extraArgs: ['--allow-private-network', '--threads', '1', '--head-timeout', '1', '--connection-timeout', '3'] });
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Fetch worker ${ctx.run}`));
        slowFiles = createServer((req, res) => {
            const delay = Number(new URL(req.url, 'http://x').searchParams.get('delay') ?? 0);
            while (arrived.length) arrived.shift()();
            held.add(res);
            setTimeout(() => {
                held.delete(res);
                if (res.destroyed) return;
                res.writeHead(200, { 'Content-Type': 'image/png' });
                res.end(PNG);
            }, delay);
        });
        await new Promise((r) => slowFiles.listen(0, '127.0.0.1', r));
        slowUrl = `http://127.0.0.1:${slowFiles.address().port}/png?delay=${SLOW_MS}`;
    });
    after(async () => {
        for (const res of held) res.destroy();
        slowFiles?.closeAllConnections?.();
        await new Promise((r) => (slowFiles ? slowFiles.close(r) : r()));
        await ctx?.server.stop();
    });

    it('GET /v1/user on 8 keep-alive connections of the one worker: p99 < 100 ms while a batch waits 5 s for its URL', async () => {
        const s = await ok(alice.api.orgs.createSpace(org.id, { title: 'Worker' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(s.id, { subject: 'Worker' }), 'createChangeRequest', 201);
        const agents = Array.from({ length: 9 }, () => new http.Agent({ keepAlive: true, maxSockets: 1 }));
        const [batchAgent, ...getAgents] = agents;
        const sockets = getAgents.map(() => new Set());
        try {
            // Open the 8 connections (and the batch's) before the batch starts.
            for (const a of agents) assert.equal((await onAgent(ctx.url, a, 'GET', '/v1/user', { token: alice.token })).status, 200);
            const reached = new Promise((r) => arrived.push(r));
            const started = Date.now();
            let done = false;
            const batch = onAgent(ctx.url, batchAgent, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content?compat=false`, {
                token: alice.token,
                json: { changes: [{ operation: 'insert_files', files: [{ ref: 'logo', name: 'logo.png', url: slowUrl }] }] },
                timeout: 30_000,
            });
            batch.then(() => (done = true), () => (done = true));
            await reached; // the batch's URL is being fetched
            const times = [];
            const failed = [];
            const until = Date.now() + SLOW_MS - 1500;
            await Promise.all(
                getAgents.map(async (agent, i) => {
                    while (Date.now() < until) {
                        const t0 = performance.now();
                        const r = await onAgent(ctx.url, agent, 'GET', '/v1/user', { token: alice.token }).catch((e) => e);
                        times.push(performance.now() - t0);
                        if (r instanceof Error) {
                            failed.push(r.message);
                            return;
                        }
                        assert.equal(r.status, 200, r.text);
                        validate('getAuthenticatedUser', 200, r.json);
                        assert.ok(r.reused, 'the kept-alive connection answered');
                        sockets[i].add(r.socket);
                        await new Promise((res) => setTimeout(res, 20));
                    }
                }),
            );
            const stillWaiting = !done;
            const sorted = [...times].sort((a, b) => a - b);
            const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))];
            console.log(`GET /v1/user while a URL was fetched: ${times.length} requests (${failed.length} failed), median ${sorted[sorted.length >> 1].toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${sorted[sorted.length - 1].toFixed(1)} ms`);
            assert.deepEqual(failed, [], 'no connection was cut');
            assert.ok(times.length >= 8 * 20, `only ${times.length} requests were answered in ${SLOW_MS - 1500} ms`);
            assert.ok(p99 < 100, `p99 ${p99.toFixed(1)} ms (max ${sorted[sorted.length - 1].toFixed(1)} ms)`);
            assert.deepEqual(sockets.map((x) => x.size), Array(8).fill(1), 'each client kept its one connection');
            assert.ok(stillWaiting, 'the GETs completed while the batch was still waiting for its URL');
            // The batch completes once its URL answers, with its file, on its kept-alive connection.
            const res = await batch;
            assert.equal(res.status, 200, res.text);
            assert.ok(res.reused);
            assert.ok(Date.now() - started >= SLOW_MS - 100);
            validate('updateChangeRequestContent', 200, res.json.changeRequest);
            assert.equal(res.json.insertedFiles.length, 1);
            validate('getFileById', 200, res.json.insertedFiles[0]);
            assert.equal(res.json.insertedFiles[0].size, PNG.length);
            const dl = await fetch(res.json.insertedFiles[0].downloadURL);
            assert.deepEqual(Buffer.from(await dl.arrayBuffer()), PNG);
            // ... and that connection still serves the next request (keep-alive after the fetch).
            const after = await onAgent(ctx.url, batchAgent, 'GET', '/v1/user', { token: alice.token });
            assert.equal(after.status, 200);
            assert.equal(after.socket, res.socket, 'the batch connection is kept alive');
        } finally {
            for (const a of agents) a.destroy();
        }
    });
});

describe('the fetch threads: a client that leaves, a bounded queue, and shutdown', () => {
    let ctx, alice, org, slowFiles, base;
    const hits = [];
    const held = new Set();
    let arrived = () => {};

    before(async () => {
        // No per-address limit: the test holds 69 requests at once.
        ctx = await setup({ extraArgs: ['--allow-private-network', '--threads', '2', '--max-connections-per-ip', '0'] });
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Fetch pool ${ctx.run}`));
        slowFiles = createServer((req, res) => {
            const u = new URL(req.url, 'http://x');
            hits.push(u.searchParams.get('id'));
            arrived();
            held.add(res);
            setTimeout(() => {
                held.delete(res);
                if (res.destroyed) return;
                res.writeHead(200, { 'Content-Type': 'image/png' });
                res.end(PNG);
            }, Number(u.searchParams.get('delay')));
        });
        await new Promise((r) => slowFiles.listen(0, '127.0.0.1', r));
        base = `http://127.0.0.1:${slowFiles.address().port}/png`;
    });
    after(async () => {
        for (const res of held) res.destroy();
        slowFiles?.closeAllConnections?.();
        await new Promise((r) => (slowFiles ? slowFiles.close(r) : r()));
        if (!ctx?.server.exited) await ctx?.server.stop();
    });

    const batchOf = (id, delay) => ({ changes: [{ operation: 'insert_files', files: [{ name: `${id}.png`, url: `${base}?id=${id}&delay=${delay}` }] }] });
    const hitOf = (id) =>
        new Promise((resolve) => {
            const prev = arrived;
            arrived = () => {
                prev();
                if (hits.includes(id)) resolve();
            };
        });
    const newCR = async (title) => {
        const s = await ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(s.id, { subject: title }), 'createChangeRequest', 201);
        return `/v1/spaces/${s.id}/change-requests/${cr.id}/content?compat=false`;
    };

    it('a client that leaves while its URL is fetched: the server goes on (and frees it, under ASan)', async () => {
        const path = await newCR('Leaves');
        const reached = hitOf('gone');
        const req = http.request(new URL(path, ctx.url), { method: 'POST', headers: { Authorization: `Bearer ${alice.token}`, 'Content-Type': 'application/json' } });
        req.on('error', () => {});
        req.end(JSON.stringify(batchOf('gone', 1000)));
        await reached;
        req.destroy();
        await new Promise((r) => setTimeout(r, 1500)); // the URL answered, the connection was resumed
        await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
    });

    it('4 fetch at once and 64 wait; one more is 503; SIGTERM answers the waiting 503 and finishes the running', async () => {
        const DELAY = 4000;
        const running = [];
        for (let i = 0; i < 4; i++) {
            const path = await newCR(`Running ${i}`);
            const reached = hitOf(`run${i}`);
            running.push(raw(ctx.url, 'POST', path, { token: alice.token, json: batchOf(`run${i}`, DELAY), timeout: 30_000 }));
            await reached; // a fetch thread is on it
        }
        const waitingPath = await newCR('Waiting');
        const waiting = Array.from({ length: 64 }, (_, i) =>
            raw(ctx.url, 'POST', waitingPath, { token: alice.token, json: batchOf(`wait${i}`, 0), timeout: 30_000 }),
        );
        await new Promise((r) => setTimeout(r, 1000)); // all 64 are queued
        const full = await raw(ctx.url, 'POST', waitingPath, { token: alice.token, json: batchOf('full', 0), timeout: 5000 });
        assert.equal(full.status, 503, full.text);
        validateError(full.json, 503);
        assert.equal(full.json.error.message, 'service unavailable, try again');
        // Other requests are still served meanwhile, batches without URLs included (they take no
        // fetch thread).
        await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        const plainPath = await newCR('No URLs');
        const t1 = Date.now();
        const plain = await raw(ctx.url, 'POST', plainPath, {
            token: alice.token,
            json: { changes: [{ operation: 'insert_page', title: 'Plain', document: { markdown: '# Plain\n' } }] },
            timeout: 5000,
        });
        assert.equal(plain.status, 200, plain.text);
        assert.ok(Date.now() - t1 < 1000, `a batch without URLs waited ${Date.now() - t1} ms`);
        assert.deepEqual(hits.filter((h) => !h.startsWith('run') && h !== 'gone'), [], 'no waiting batch was fetched');
        const t0 = Date.now();
        const stopped = ctx.server.stop();
        const waited = await Promise.all(waiting);
        assert.deepEqual(waited.map((r) => r.status), Array(64).fill(503), 'the waiting batches are refused at shutdown');
        for (const r of waited) validateError(r.json, 503);
        const done = await Promise.all(running);
        for (const r of done) {
            assert.equal(r.status, 200, r.text);
            validate('updateChangeRequestContent', 200, r.json.changeRequest);
            assert.equal(r.json.insertedFiles.length, 1);
            assert.equal(r.json.insertedFiles[0].size, PNG.length);
        }
        await stopped; // exit 0 (and a clean ASan log)
        const took = Date.now() - t0;
        assert.ok(took < DELAY + 1500, `shutdown took ${took} ms`);
        assert.deepEqual(hits.filter((h) => !h.startsWith('run') && h !== 'gone'), [], 'no waiting batch was fetched');
    });
});

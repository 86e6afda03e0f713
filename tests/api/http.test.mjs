// HTTP-level behaviour: error envelope, 401/404/405/413/415, invalid JSON, list limits and
// cursors, rate limiting, /healthz and /metrics, the command line, clean shutdown.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup, uniq } from './lib/fixtures.mjs';
import { ok, expectError, raw, rawOk, createOrg, validate, validateError } from './lib/api.mjs';
import { runCli, DOCSD_BIN, DATABASE_URL } from './lib/server.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

describe('http', () => {
    let ctx, alice, org;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Http ${ctx.run}`));
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('GET /healthz is 200 without a token', async () => {
        const r = await raw(ctx.url, 'GET', '/healthz');
        assert.equal(r.status, 200);
    });

    it('GET /metrics exposes Prometheus counters', async () => {
        await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        const r = await raw(ctx.url, 'GET', '/metrics');
        assert.equal(r.status, 200);
        assert.match(r.headers['content-type'] || '', /text\/plain/);
        assert.match(r.text, /^docsd_http_requests_total/m);
        assert.match(r.text, /^docsd_open_connections/m);
        assert.match(r.text, /# TYPE docsd_http_requests_total counter/);
        const sum = (text) =>
            text
                .split('\n')
                .filter((l) => l.startsWith('docsd_http_requests_total'))
                .reduce((a, l) => a + Number(l.trim().split(/\s+/).pop()), 0);
        const before = sum(r.text);
        assert.ok(before >= 1, 'requests were counted');
        for (let i = 0; i < 3; i++) await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        const r2 = await raw(ctx.url, 'GET', '/metrics');
        assert.ok(sum(r2.text) >= before + 3, 'the counter grows');
    });

    it('successful responses are JSON', async () => {
        const r = await rawOk(ctx.url, 'GET', '/v1/user', { token: alice.token }, 'getAuthenticatedUser');
        assert.match(r.headers['content-type'], /^application\/json/);
        const info = await rawOk(ctx.url, 'GET', '/v1/', { token: alice.token }, 'getApiInformation');
        assert.equal(typeof info.json.version, 'string');
    });

    it('unknown paths are 404 in the error envelope', async () => {
        for (const p of ['/v1/nope', '/v1/orgs/x/unknown-thing', '/v1/orgs/' + org.id + '/members/u/teams/extra', '/nope']) {
            await expectError(raw(ctx.url, 'GET', p, { token: alice.token }), 404, `GET ${p}`);
        }
    });

    it('known paths with the wrong method are 405', async () => {
        const cases = [
            ['DELETE', '/v1/orgs'],
            ['POST', '/v1/user'],
            ['PUT', `/v1/orgs/${org.id}`],
            ['POST', `/v1/orgs/${org.id}/members`],
            ['GET', `/v1/orgs/${org.id}/ping`],
            ['POST', `/v1/orgs/${org.id}/teams`],
        ];
        for (const [m, p] of cases) await expectError(raw(ctx.url, m, p, { token: alice.token }), 405, `${m} ${p}`);
    });

    it('missing, malformed or unknown tokens are 401', async () => {
        await expectError(raw(ctx.url, 'GET', '/v1/user'), 401, 'no Authorization');
        await expectError(raw(ctx.url, 'GET', '/v1/user', { headers: { Authorization: `Basic ${Buffer.from('a:b').toString('base64')}` } }), 401, 'Basic');
        await expectError(raw(ctx.url, 'GET', '/v1/user', { headers: { Authorization: 'Bearer' } }), 401, 'Bearer without token');
        await expectError(raw(ctx.url, 'GET', '/v1/user', { headers: { Authorization: 'Bearer ' } }), 401, 'empty token');
        await expectError(raw(ctx.url, 'GET', '/v1/user', { token: 'not-a-real-token' }), 401, 'unknown token');
        await expectError(raw(ctx.url, 'GET', '/v1/user', { token: alice.token + 'x' }), 401, 'altered token');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}`, { token: 'nope' }), 401, 'unknown token on an org');
        await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { json: { title: 'Anon' } }), 401, 'anonymous write');
        await expectError(ctx.client('garbage').user.getAuthenticatedUser(), 401, 'client with a bad token');
        const o = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o.title, org.title);
    });

    it('invalid JSON is 400 naming JSON and the position', async () => {
        const bodies = ['{"title": "Broken",}', '{"title": ', 'not json at all', '{"title": "a"}\n}', '\n\n  {"title": "x" "y"}'];
        for (const body of bodies) {
            const e = await expectError(
                raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body, headers: { 'Content-Type': 'application/json' } }),
                400,
                `POST ${JSON.stringify(body)}`,
            );
            assert.match(e.error.message, /JSON/, e.error.message);
            assert.match(e.error.message, /line|column/i, e.error.message);
        }
        const e = await expectError(
            raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, body: '{"title":', headers: { 'Content-Type': 'application/json' } }),
            400,
            'PATCH with broken JSON',
        );
        assert.match(e.error.message, /JSON/);
        const o = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o.title, org.title);
    });

    it('a JSON body with the wrong Content-Type is 415', async () => {
        const body = JSON.stringify({ title: 'Plain text' });
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body, headers: { 'Content-Type': 'text/plain' } }), 415, 'text/plain');
        await expectError(
            raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, body, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } }),
            415,
            'form',
        );
        // parameters on application/json are fine
        const r = await raw(ctx.url, 'POST', '/v1/orgs', {
            token: alice.token,
            body: JSON.stringify({ title: `Charset ${ctx.run}` }),
            headers: { 'Content-Type': 'application/json; charset=utf-8' },
        });
        assert.equal(r.status, 201, r.text);
        validate('createOrganization', 201, r.json);
    });

    it('a body over 8 MiB (the default --max-body) is 413', async () => {
        const big = JSON.stringify({ title: 'x'.repeat(8 * 1024 * 1024 + 10) });
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body: big, headers: { 'Content-Type': 'application/json' } }), 413, 'POST 1 MiB');
        await expectError(
            raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, body: big, headers: { 'Content-Type': 'application/json' } }),
            413,
            'PATCH 1 MiB',
        );
        // the server is still fine afterwards, and a body just under the limit is no 413
        await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        const under = JSON.stringify({ title: `Under ${ctx.run}`, padding: 'p'.repeat(8 * 1024 * 1024 - 200) });
        const r = await raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, body: under, headers: { 'Content-Type': 'application/json' } });
        assert.equal(r.status, 200, `just under the limit: ${r.status} ${r.text.slice(0, 200)}`);
        validate('updateOrganizationById', 200, r.json);
        org = r.json;
    });

    it('wrong field types are 400 naming the field; unknown fields are ignored', async () => {
        const e = await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, json: { inviteLinks: 'true' } }), 400, 'string boolean');
        assert.match(e.error.message, /inviteLinks/);
        const e2 = await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, json: { title: ['a', 'b'] } }), 400, 'array title');
        assert.match(e2.error.message, /title/);
        await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, json: 'just a string' }), 400, 'string body');
        await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, json: null }), 400, 'null body');
        const r = await rawOk(ctx.url, 'PATCH', `/v1/orgs/${org.id}`, { token: alice.token, json: { whatever: 1, title: `Ignored ${ctx.run}` } }, 'updateOrganizationById');
        assert.equal(r.json.title, `Ignored ${ctx.run}`);
        assert.equal(r.json.whatever, undefined);
    });

    it('list limit and cursor validation', async () => {
        for (const bad of ['1001', '0', 'abc', '-1', '1.5', '']) {
            await expectError(raw(ctx.url, 'GET', `/v1/orgs?limit=${bad}`, { token: alice.token }), 400, `limit=${bad}`);
        }
        for (const good of ['1', '1000']) {
            await rawOk(ctx.url, 'GET', `/v1/orgs?limit=${good}`, { token: alice.token }, 'listOrganizationsForAuthenticatedUser');
        }
        for (const bad of ['garbage', '!!!', 'eyJub3QiOiJhIGN1cnNvciJ9', 'x'.repeat(500)]) {
            await expectError(raw(ctx.url, 'GET', `/v1/orgs?page=${encodeURIComponent(bad)}`, { token: alice.token }), 400, `page=${bad}`);
        }
        // a cursor from one list is not accepted by another, or at least does not crash it
        await createOrg(ctx.url, alice.token, `Another ${ctx.run}`);
        const first = await ok(alice.api.orgs.listOrganizationsForAuthenticatedUser({ limit: 1 }), 'listOrganizationsForAuthenticatedUser');
        assert.ok(first.next, 'alice has more than one org, so page 1 of limit=1 has next');
        const r = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/members?page=${encodeURIComponent(first.next.page)}`, { token: alice.token });
        assert.ok([200, 400].includes(r.status), `foreign cursor: ${r.status} ${r.text}`);
        if (r.status === 200) validate('listMembersInOrganizationById', 200, r.json);
        else validateError(r.json, 400);
    });

    it('default page size is 100', async () => {
        // 101 teams in a fresh org
        const { org: big } = await createOrg(ctx.url, alice.token, `Big ${ctx.run}`);
        const ids = [];
        for (let i = 0; i < 101; i++) {
            const t = await ok(alice.api.orgs.createOrganizationTeam(big.id, { title: `T${i}` }), 'createOrganizationTeam', 201);
            ids.push(t.id);
        }
        const first = await ok(alice.api.orgs.listTeamsInOrganizationById(big.id), 'listTeamsInOrganizationById');
        assert.equal(first.items.length, 100);
        assert.ok(first.next, 'a second page exists');
        const second = await ok(alice.api.orgs.listTeamsInOrganizationById(big.id, { page: first.next.page }), 'listTeamsInOrganizationById');
        assert.equal(second.items.length, 1);
        assert.equal(second.next, undefined);
        assert.deepEqual([...first.items, ...second.items].map((t) => t.id).sort(), ids.sort());
    });

    it('lengths count characters, not bytes', async () => {
        const t255 = 'é'.repeat(255);
        const { org: o } = await createOrg(ctx.url, alice.token, t255);
        assert.equal(o.title, t255);
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: { title: 'é'.repeat(256) } }), 400, '256 two-byte chars');
        const emoji = '😀'.repeat(64); // 64 code points, 4 bytes each
        const t = await ok(alice.api.orgs.createOrganizationTeam(o.id, { title: emoji }), 'createOrganizationTeam', 201);
        assert.equal(t.title, emoji);
        await expectError(alice.api.orgs.createOrganizationTeam(o.id, { title: '😀'.repeat(65) }), 400, '65 emoji');
        // escaped and raw UTF-8 decode to the same text
        const r = await raw(ctx.url, 'PATCH', `/v1/orgs/${o.id}`, {
            token: alice.token,
            body: '{"title": "Caf\\u00e9 \\ud83d\\ude00 \\"quoted\\" \\\\ back"}',
            headers: { 'Content-Type': 'application/json' },
        });
        assert.equal(r.status, 200, r.text);
        validate('updateOrganizationById', 200, r.json);
        assert.equal(r.json.title, 'Café 😀 "quoted" \\ back');
    });

    it('hostile bodies are rejected without harm', async () => {
        const json = { 'Content-Type': 'application/json' };
        const nul = await raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body: '{"title": "ab\\u0000cd"}', headers: json });
        assert.ok([201, 400].includes(nul.status), `NUL in a string: ${nul.status} ${nul.text}`);
        if (nul.status === 201) assert.equal(nul.json.title, 'ab\u0000cd', 'a NUL must not truncate the string');
        else validateError(nul.json, 400);
        const deep = '['.repeat(100000) + ']'.repeat(100000);
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body: deep, headers: json }), 400, 'deeply nested');
        const badUtf8 = Buffer.concat([Buffer.from('{"title": "ab'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body: badUtf8, headers: json }), 400, 'invalid UTF-8');
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, body: '', headers: json }), 400, 'empty body');
        const me = await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.id, alice.id);
    });

    it('encoded path bytes stay inside their segment', async () => {
        // Path parameters are opaque: an encoded '/' or NUL is part of the id (so no such
        // organization), never a separator or the end of the path.
        const probes = [
            '/v1/orgs/..%2F..%2Fetc%2Fpasswd',
            '/v1/orgs/%00',
            `/v1/orgs/${org.id}%00/members`,
            `/v1/orgs/${org.id}%2Fmembers`,
            '/v1/user%00garbage',
            `/v1/orgs/${'a'.repeat(3000)}`,
            '/v1/orgs/%ZZ',
        ];
        const wrong = [];
        for (const p of probes) {
            const r = await raw(ctx.url, 'GET', p, { token: alice.token });
            if (![400, 404, 414].includes(r.status)) wrong.push(`GET ${p.slice(0, 60)} -> ${r.status} ${r.text.slice(0, 60)}`);
            else validateError(r.json, r.status);
        }
        assert.deepEqual(wrong, [], 'expected 400/404/414 for each probe');
        const me = await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.id, alice.id);
    });

    it('serves many concurrent requests', async () => {
        const results = await Promise.all(Array.from({ length: 40 }, () => raw(ctx.url, 'GET', '/v1/user', { token: alice.token })));
        for (const r of results) {
            assert.equal(r.status, 200);
            validate('getAuthenticatedUser', 200, r.json);
        }
    });
});

describe('rate limiting', () => {
    let ctx, a, b;
    before(async () => {
        ctx = await setup({ rateLimit: 5 });
        a = await ctx.user('ratea');
        b = await ctx.user('rateb');
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('the 6th request within a minute is 429; another token is unaffected', async () => {
        const remaining = [];
        let reset0;
        for (let i = 0; i < 5; i++) {
            const r = await rawOk(ctx.url, 'GET', '/v1/user', { token: a.token }, 'getAuthenticatedUser');
            assert.equal(r.headers['x-ratelimit-limit'], '5', `request ${i + 1}: X-RateLimit-Limit`);
            assert.match(r.headers['x-ratelimit-remaining'] ?? '', /^\d+$/, 'X-RateLimit-Remaining');
            assert.match(r.headers['x-ratelimit-reset'] ?? '', /^\d+$/, 'X-RateLimit-Reset');
            remaining.push(Number(r.headers['x-ratelimit-remaining']));
            reset0 ??= Number(r.headers['x-ratelimit-reset']);
        }
        assert.deepEqual(remaining, [4, 3, 2, 1, 0]);
        const limited = await raw(ctx.url, 'GET', '/v1/user', { token: a.token });
        await expectError(Promise.resolve(limited), 429, '6th request');
        assert.equal(limited.headers['x-ratelimit-limit'], '5');
        assert.equal(limited.headers['x-ratelimit-remaining'], '0');
        assert.match(limited.headers['x-ratelimit-reset'] ?? '', /^\d+$/);
        // the client sees it too
        await expectError(a.api.user.getAuthenticatedUser(), 429, 'client, 7th request');

        const other = await rawOk(ctx.url, 'GET', '/v1/user', { token: b.token }, 'getAuthenticatedUser');
        assert.equal(other.json.id, b.id);
        assert.equal(other.headers['x-ratelimit-remaining'], '4');
        // health checks are not rate limited
        for (let i = 0; i < 7; i++) assert.equal((await raw(ctx.url, 'GET', '/healthz')).status, 200);
    });

    it('concurrent requests are counted exactly', async () => {
        const c = await ctx.user('ratec');
        const results = await Promise.all(Array.from({ length: 12 }, () => raw(ctx.url, 'GET', '/v1/user', { token: c.token })));
        const statuses = results.map((r) => r.status).sort();
        assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
        for (const r of results) {
            if (r.status === 200) validate('getAuthenticatedUser', 200, r.json);
            else validateError(r.json, 429);
        }
        const remaining = results.filter((r) => r.status === 200).map((r) => Number(r.headers['x-ratelimit-remaining'])).sort();
        assert.deepEqual(remaining, [0, 1, 2, 3, 4], 'each allowed request saw its own remaining count');
    });
});

describe('rate limiting keeps one count per token', () => {
    let ctx, a, b;
    before(async () => {
        ctx = await setup({ rateLimit: 5 });
        a = await ctx.user('ratekeya');
        b = await ctx.user('ratekeyb');
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    // The slot docsd's first limiter kept a token's count in: FNV-1a over the hex SHA-256,
    // modulo 16384. Two tokens in one slot reset each other's count.
    const oldSlot = (token) => {
        const hex = createHash('sha256').update(token).digest('hex');
        let h = 2166136261;
        for (const c of hex) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
        return h % 16384;
    };

    async function interleave(tokens, rounds) {
        const statuses = tokens.map(() => []);
        for (let i = 0; i < rounds; i++) {
            for (let k = 0; k < tokens.length; k++) {
                const r = await raw(ctx.url, 'GET', '/v1/user', { token: tokens[k] });
                statuses[k].push(r.status);
                if (r.status === 429) validateError(r.json, 429);
            }
        }
        return statuses;
    }

    it('a token sharing the old slot of another does not reset its count', async () => {
        const slot = oldSlot(a.token);
        let other = null;
        for (let i = 0; i < 1_000_000 && !other; i++) if (oldSlot(`collide-${i}`) === slot) other = `collide-${i}`;
        assert.ok(other, 'found a token for the same old slot');
        const [sa, so] = await interleave([a.token, other], 20);
        assert.deepEqual(sa, [...Array(5).fill(200), ...Array(15).fill(429)], `the real token: ${sa}`);
        assert.deepEqual(so, [...Array(5).fill(401), ...Array(15).fill(429)], `the unknown token: ${so}`);
    });

    it('two tokens interleaved 20 times each get exactly 5 requests each', async () => {
        const [sb, sx] = await interleave([b.token, `unknown-${ctx.run}`], 20);
        assert.deepEqual(sb, [...Array(5).fill(200), ...Array(15).fill(429)]);
        assert.deepEqual(sx, [...Array(5).fill(401), ...Array(15).fill(429)]);
        const many = Array.from({ length: 40 }, (_, i) => `many-${ctx.run}-${i}`);
        const st = await interleave(many, 6);
        for (const s of st) assert.deepEqual(s, [401, 401, 401, 401, 401, 429]);
    });
});

describe('command line', () => {
    let ctx;
    before(async () => {
        ctx = await setup();
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('--help and --version exit 0', async () => {
        const h = await runCli(['--help']);
        assert.equal(h.code, 0, h.stderr);
        assert.match(h.stdout + h.stderr, /serve/);
        assert.match(h.stdout + h.stderr, /--rate-limit/);
        const v = await runCli(['--version']);
        assert.equal(v.code, 0, v.stderr);
        assert.ok((v.stdout + v.stderr).trim().length > 0, 'prints a version');
    });

    it('an unknown command or flag exits non-zero', async () => {
        const r = await runCli(['frobnicate']);
        assert.notEqual(r.code, 0);
        const dir = mkdtempSync(join(tmpdir(), 'docsd-flag-'));
        try {
            const f = await runCli(['serve', '--no-such-flag', '--listen', '127.0.0.1:0', '--data', dir], { timeout: 5000 });
            assert.equal(f.signal, null, 'exits by itself instead of serving');
            assert.notEqual(f.code, 0);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('user create prints {user, token}; token create prints a working token', async () => {
        const email = `cli-${uniq(6)}@${ctx.domain}`;
        const u = await ctx.server.createUser(email, 'Cli User');
        const t1 = await ok(ctx.client(u.token).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(t1.id, u.id);
        assert.equal(t1.displayName, 'Cli User');
        const token2 = await ctx.server.createToken(email);
        assert.notEqual(token2, u.token, 'a new token');
        const t2 = await ok(ctx.client(token2).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(t2.id, u.id);
        // the first token still works
        await ok(ctx.client(u.token).user.getAuthenticatedUser(), 'getAuthenticatedUser');
    });

    it('user create without --name still makes a user', async () => {
        const email = `noname-${uniq(6)}@${ctx.domain}`;
        const u = await ctx.server.createUser(email);
        assert.equal(typeof u.user.displayName, 'string');
        const me = await ok(ctx.client(u.token).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.email, email);
    });

    it('token create for an unknown email exits non-zero', async () => {
        const r = await runCli(['token', 'create', ...ctx.server.storageArgs(), '--email', `ghost-${uniq(6)}@${ctx.domain}`]);
        assert.notEqual(r.code, 0);
        assert.equal(r.stdout.trim(), '', 'prints no token');
    });

    it('user create a second time: an error, or with --if-exists the same user and a new working token', async () => {
        const email = `again-${uniq(6)}@${ctx.domain}`;
        const first = await runCli(['user', 'create', ...ctx.server.storageArgs(), '--email', email]);
        assert.equal(first.code, 0, first.stderr);
        const again = await runCli(['user', 'create', ...ctx.server.storageArgs(), '--email', email]);
        assert.notEqual(again.code, 0);
        assert.equal(again.stdout.trim(), '', 'prints no token');
        const reuse = await runCli(['user', 'create', ...ctx.server.storageArgs(), '--email', email, '--if-exists']);
        assert.equal(reuse.code, 0, reuse.stderr);
        const a = JSON.parse(first.stdout), b = JSON.parse(reuse.stdout);
        assert.equal(b.user.id, a.user.id);
        assert.notEqual(b.token, a.token);
        const me = await ok(ctx.client(b.token).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.id, a.user.id);
        await ok(ctx.client(a.token).user.getAuthenticatedUser(), 'getAuthenticatedUser'); // the first still works
    });

    it('user create without --email exits non-zero', async () => {
        const r = await runCli(['user', 'create', ...ctx.server.storageArgs(), '--name', 'Nobody']);
        assert.notEqual(r.code, 0);
    });

    it('serve on an unusable data directory fails fast', { skip: !!DATABASE_URL }, async () => {
        // a path below a regular file can never be a directory
        const r = await runCli(['serve', '--listen', '127.0.0.1:0', '--data', join(DOCSD_BIN, 'sub')], { timeout: 5000 });
        assert.equal(r.signal, null, 'exits by itself instead of serving');
        assert.notEqual(r.code, 0, 'exits with an error');
    });
});

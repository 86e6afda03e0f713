// Every response body is GitBook's JSON (valid UTF-8, ending with a newline), including the
// errors libmicrohttpd produces itself; query integers are decimal digits only; a 401 says
// how to get a token.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { expectError, raw, rawOk, createOrg, validateError } from './lib/api.mjs';
import { rawExchange } from './lib/rawsock.mjs';

const strict = new TextDecoder('utf-8', { fatal: true });

/** Asserts a raw-socket response is `status` with a JSON error envelope; returns the body. */
function assertJsonError(r, status, what, { newline = true } = {}) {
    assert.equal(r.status, status, `${what}: expected ${status}, got ${r.status} ${JSON.stringify(r.raw?.toString('latin1') ?? r.text)}`);
    assert.match(r.headers['content-type'] ?? '', /^application\/json/, `${what}: Content-Type ${r.headers['content-type']}`);
    let text;
    assert.doesNotThrow(() => {
        text = strict.decode(r.body);
    }, `${what}: body is not valid UTF-8`);
    if (newline) assert.ok(text.endsWith('\n'), `${what}: body should end with a newline: ${JSON.stringify(text)}`);
    let body;
    assert.doesNotThrow(() => {
        body = JSON.parse(text);
    }, `${what}: body is not JSON: ${JSON.stringify(text)}`);
    return validateError(body, status);
}

describe('errors libmicrohttpd answers itself are JSON', () => {
    let ctx, alice;
    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const head = (line, headers = ['Host: 127.0.0.1']) => Buffer.from(`${line}\r\n${headers.map((h) => h + '\r\n').join('')}\r\n`);

    it('a 40 KB query string is 414', async () => {
        const r = await rawExchange(ctx.server.port, head(`GET /v1/user?q=${'a'.repeat(40 * 1024)} HTTP/1.1`));
        const e = assertJsonError(r, 414, '40 KB query');
        assert.match(e.error.message, /URI/);
    });

    it('too large and too many headers are 431', async () => {
        const big = await rawExchange(ctx.server.port, head('GET /v1/user HTTP/1.1', ['Host: 127.0.0.1', `X-Big: ${'b'.repeat(40 * 1024)}`]));
        assertJsonError(big, 431, 'one 40 KB header');
        const many = Array.from({ length: 2000 }, (_, i) => `X-H${i}: v`);
        const r = await rawExchange(ctx.server.port, head('GET /v1/user HTTP/1.1', ['Host: 127.0.0.1', ...many]));
        assertJsonError(r, 431, '2000 headers');
    });

    it('a malformed request line is 400, an unknown HTTP version 505', async () => {
        for (const line of ['GET /v1/user HTTX/1.1', 'GET /v1/user HTTP/1.1 extra', 'GET  HTTP/1.1', 'GET /v1/user HTTP/1']) {
            const r = await rawExchange(ctx.server.port, head(line));
            assertJsonError(r, 400, JSON.stringify(line));
        }
        const r = await rawExchange(ctx.server.port, head('GET /v1/user HTTP/9.9'));
        assertJsonError(r, 505, 'HTTP/9.9');
        const bad = await rawExchange(ctx.server.port, head('GET /v1/user HTTP/1.1', ['Host: 127.0.0.1', 'no colon in this header']));
        assertJsonError(bad, 400, 'a header line without a colon');
    });

    it('a malformed chunked body is 400; too large bodies are 413', async () => {
        const chunked = Buffer.from('POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
        assertJsonError(await rawExchange(ctx.server.port, chunked), 400, 'chunk size zz');
        // (A Content-Length beyond 64 bits is libmicrohttpd 0.9.75's 413 too, but that path
        // writes its response head twice, whatever the body: not something docsd can fix.)
        const hugeChunk = Buffer.from('POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n');
        assertJsonError(await rawExchange(ctx.server.port, hugeChunk), 413, 'chunk size beyond 64 bits');
        const big = head('POST /v1/orgs HTTP/1.1', [
            'Host: 127.0.0.1',
            `Authorization: Bearer ${alice.token}`,
            'Content-Type: application/json',
            'Content-Length: 9000000',
            'Expect: 100-continue',
        ]);
        assertJsonError(await rawExchange(ctx.server.port, big), 413, 'Content-Length over --max-body');
    });

    it('the server still answers afterwards', async () => {
        const r = await raw(ctx.url, 'GET', '/healthz');
        assert.equal(r.status, 200);
    });
});

describe('query integers, UTF-8, newlines and 401 messages', () => {
    let ctx, alice, org;
    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Errors ${ctx.run}`));
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('limit is decimal digits only', async () => {
        for (const bad of ['0x10', '1e3', '%205', '+5', '1e300', '5.0', '%2B5', '5%20', '-0', '1_0', '%D9%A3', '99999999999999999999999']) {
            const e = await expectError(raw(ctx.url, 'GET', `/v1/orgs?limit=${bad}`, { token: alice.token }), 400, `limit=${bad}`);
            assert.match(e.error.message, /limit/);
            await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/members?limit=${bad}`, { token: alice.token }), 400, `members limit=${bad}`);
        }
        for (const good of ['1', '010', '1000']) {
            await rawOk(ctx.url, 'GET', `/v1/orgs?limit=${good}`, { token: alice.token }, 'listOrganizationsForAuthenticatedUser');
        }
    });

    it('a 404 that echoes invalid UTF-8 path bytes is still valid UTF-8 JSON', async () => {
        for (const path of ['/v1/spaces/%FF%FE', '/v1/nope%FF%FE', `/v1/orgs/${org.id}/%C0%AF/x`, '/v1/%ED%A0%80', '/%F4%90%80%80']) {
            const r = await rawExchange(ctx.server.port, Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nConnection: close\r\n\r\n`));
            assertJsonError(r, 404, path, { newline: false }); // (newlines: the next test)
        }
        // query values reach the store as text: bytes that are not UTF-8 are a 400, on both engines
        for (const q of ['query=%FF%FE', 'query=%ED%A0%80', 'q%FF=1']) {
            const path = `/v1/orgs/${org.id}/search?${q}`;
            const r = await rawExchange(ctx.server.port, Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nConnection: close\r\n\r\n`));
            assertJsonError(r, 400, path, { newline: false });
        }
    });

    it('JSON bodies end with a newline; cached pages and their length stay right', async () => {
        for (let i = 0; i < 2; i++) {
            // the second list is served from the page cache
            const r = await rawExchange(ctx.server.port, Buffer.from(`GET /v1/orgs/${org.id}/members HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nConnection: close\r\n\r\n`));
            assert.equal(r.status, 200);
            assert.equal(Number(r.headers['content-length']), r.body.length);
            assert.ok(r.text.endsWith('}\n'), JSON.stringify(r.text.slice(-20)));
            assert.equal(r.text.indexOf('\n'), r.text.length - 1, 'one newline, at the end');
            JSON.parse(r.text);
        }
        const me = await raw(ctx.url, 'GET', '/v1/user', { token: alice.token });
        assert.equal(me.status, 200);
        assert.ok(me.text.endsWith('}\n'));
        const e = await raw(ctx.url, 'GET', '/v1/nope', { token: alice.token });
        assert.equal(e.status, 404);
        assert.ok(e.text.endsWith('}\n'));
        const h = await raw(ctx.url, 'GET', '/healthz');
        assert.ok(h.text.endsWith('\n'));
    });

    it('a 401 says how to get a token', async () => {
        const cases = [
            raw(ctx.url, 'GET', '/v1/user'),
            raw(ctx.url, 'GET', '/v1/user', { headers: { Authorization: 'Basic YTpi' } }),
            raw(ctx.url, 'GET', '/v1/user', { token: 'not-a-real-token' }),
            raw(ctx.url, 'GET', `/v1/orgs/${org.id}`, { token: alice.token + 'x' }),
        ];
        for (const p of cases) {
            const e = await expectError(p, 401, '401');
            assert.match(e.error.message, /Authorization: Bearer <token>/, e.error.message);
            // It names the store this server reads tokens from (a token made with another
            // --data is a newcomer's usual mistake), never a PostgreSQL URL (it may hold a password).
            if (process.env.DOCSD_TEST_DATABASE) {
                assert.match(e.error.message, /docsd token create --database <its URL> --email/, e.error.message);
                assert.ok(!e.error.message.includes(process.env.DOCSD_TEST_DATABASE), e.error.message);
            } else {
                assert.ok(e.error.message.includes(`docsd token create --data ${ctx.server.dataDir} --email`), e.error.message);
            }
            assert.match(e.error.message, /docsd user create .*--if-exists/, e.error.message);
        }
    });

    it('GET / names the API, the health endpoint and the docs', async () => {
        const r = await raw(ctx.url, 'GET', '/');
        assert.equal(r.status, 200);
        assert.match(r.headers['content-type'] || '', /application\/json/);
        const home = JSON.parse(r.text);
        assert.equal(home.name, 'docsd');
        assert.equal(home.api, `${ctx.url}/v1`);
        assert.equal(home.health, `${ctx.url}/healthz`);
        assert.match(home.docs, /README/);
        assert.match(home.webInterface, /signin/);
    });

    it('urls.app links open the web interface: signed out, they go to the sign-in page', async () => {
        const { org } = await createOrg(ctx.url, alice.token, `App ${ctx.run}`);
        assert.match(org.urls.app, /\/o\//);
        // A path under the app's prefixes that names no page is the app's own HTML 404.
        const nf = await raw(ctx.url, 'GET', '/c/abc/def', { token: alice.token });
        assert.equal(nf.status, 404);
        assert.match(nf.headers['content-type'] || '', /text\/html/);
        for (const path of [new URL(org.urls.app).pathname, '/s/abc', '/c/abc']) {
            // An API token is not a session: the app asks to sign in, with the path to come back to.
            const r = await raw(ctx.url, 'GET', path, { token: alice.token });
            assert.equal(r.status, 303, `GET ${path}: ${r.text.slice(0, 200)}`);
            assert.equal(decodeURIComponent(r.headers.location), `/signin?next=${path}`);
        }
        // Any other unknown path keeps the plain answer.
        const e = await expectError(raw(ctx.url, 'GET', '/nope'), 404, 'GET /nope');
        assert.match(e.error.message, /no such endpoint/, e.error.message);
    });

    it('user create for an existing email says to use --if-exists or token create', async () => {
        const r = await ctx.server.cli(['user', 'create', ...ctx.server.storageArgs(), '--email', alice.email]);
        assert.equal(r.code, 1, r.stderr);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /already exists: add --if-exists .* or use `docsd token create --email /, r.stderr);
        const again = await ctx.server.cli(['user', 'create', ...ctx.server.storageArgs(), '--email', alice.email, '--if-exists']);
        assert.equal(again.code, 0, again.stderr);
        const { token } = JSON.parse(again.stdout);
        const me = await raw(ctx.url, 'GET', '/v1/user', { token });
        assert.equal(me.status, 200);
        assert.equal(JSON.parse(me.text).id, alice.id);
    });
});

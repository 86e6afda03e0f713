// The web interface's personal API tokens (issue 25, src/app/pages_tokens.c, domain/tokens.c):
// /settings/tokens lists the signed-in user's tokens (name, created, an identifier that is the
// first 16 hex digits of the token's hash), creates one (the secret shown once, on the answer to
// the POST, never on the list) and revokes one. A created token works against the API at once; a
// revoked one fails at its next request even though the token cache had it (http/tokens.c's
// epoch flush). Hostile cases: no CSRF token or a wrong one (403, nothing created or revoked),
// another user's token id (404, still working), a malformed id, an empty, oversized or
// control-character name and malformed form data (400 page naming the field), signed out (303 to
// /signin).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { setup } from './lib/fixtures.mjs';
import { DOCSD_BIN } from './lib/server.mjs';
import { raw, validate } from './lib/api.mjs';

const HTML = { Accept: 'text/html,application/xhtml+xml' };
const FORM = { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded' };
const PASSWORD = 'correct horse battery staple';

function setPassword(server, email, password) {
    return new Promise((resolve, reject) => {
        const child = execFile(DOCSD_BIN, ['user', 'password', ...server.storageArgs(), '--email', email], { timeout: 20_000 },
            (err, stdout, stderr) => (err ? reject(new Error(`user password: ${err.message}: ${stderr}`)) : resolve(stdout)));
        child.stdin.end(`${password}\n`);
    });
}

function cookiesOf(res) {
    const set = res.headers['set-cookie'] ?? [];
    return Object.fromEntries(set.map((c) => c.split(';')[0].split('=')).map(([k, ...v]) => [k, v.join('=')]));
}

async function signIn(url, email, password) {
    const form = await raw(url, 'GET', '/signin', { headers: HTML });
    assert.equal(form.status, 200, form.text);
    const pre = cookiesOf(form).docsd_signin;
    const csrf = form.text.match(/name="csrf" value="([0-9a-f]+)"/)?.[1];
    const body = new URLSearchParams({ csrf, email, password, next: '/' }).toString();
    const r = await raw(url, 'POST', '/signin', { body, headers: { ...FORM, Cookie: `docsd_signin=${pre}` } });
    assert.equal(r.status, 303, `POST /signin: ${r.status} ${r.text.slice(0, 300)}`);
    const cookie = `docsd_session=${cookiesOf(r).docsd_session}`;
    const home = await raw(url, 'GET', '/', { headers: { ...HTML, Cookie: cookie } });
    assert.equal(home.status, 200, home.text.slice(0, 300));
    return { cookie, csrf: home.text.match(/name="csrf" value="([^"]+)"/)?.[1] };
}

describe('web interface: personal API tokens', () => {
    let ctx, alice, bob, aliceS, bobS;

    const get = async (who, status = 200) => {
        const r = await raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET /settings/tokens: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = (who, path, fields, csrf = who.csrf) => raw(ctx.url, 'POST', path, {
        body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
    });
    const create = async (who, name) => {
        const r = await post(who, '/settings/tokens', { name });
        assert.equal(r.status, 201, `create: ${r.status}: ${r.text.slice(0, 400)}`);
        const secret = r.text.match(/id="new-token"[^>]*value="(gb_api_[A-Za-z0-9]+)"/)?.[1];
        assert.ok(secret, 'the answer shows the new token');
        return { secret, page: r.text };
    };
    const ids = (html) => [...html.matchAll(/action="\/settings\/tokens\/([0-9a-f]{16})\/revoke"/g)].map((m) => m[1]);
    const whoami = (token) => raw(ctx.url, 'GET', '/v1/user', { token });

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        for (const u of [alice, bob]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
    });
    after(() => ctx?.server.stop());

    it('signed out: the page and its forms redirect to /signin; the header links the page', async () => {
        const r = await raw(ctx.url, 'GET', '/settings/tokens', { headers: HTML });
        assert.equal(r.status, 303);
        assert.equal(r.headers.location, '/signin?next=/settings/tokens');
        const p = await raw(ctx.url, 'POST', '/settings/tokens', { body: 'name=x', headers: FORM });
        assert.equal(p.status, 303);
        const home = await raw(ctx.url, 'GET', '/', { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.match(home.text, /href="\/settings\/tokens"/);
        const unknown = await raw(ctx.url, 'GET', '/settings/nothing', { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(unknown.status, 404);
        assert.match(unknown.headers['content-type'], /^text\/html/);
    });

    it('lists the tokens by name (the one docsd token made has none), creates one shown once, which works at once', async () => {
        const before = await get(aliceS);
        assert.match(before.headers['cache-control'], /no-store/);
        assert.equal(ids(before.text).length, 1, 'the token the fixture made');
        assert.match(before.text, /no name: made by docsd token/);
        assert.doesNotMatch(before.text, /gb_api_/);

        const { secret, page } = await create(aliceS, '  CI <publishing> & "docs"  ');
        assert.match(page, /not be shown again/);
        assert.match(page, /CI &lt;publishing&gt; &amp; &quot;docs&quot;/, 'the name is escaped, trimmed');
        const me = await whoami(secret);
        assert.equal(me.status, 200, me.text);
        validate('getAuthenticatedUser', 200, me.json);
        assert.equal(me.json.id, alice.id);

        const after = await get(aliceS);
        assert.equal(ids(after.text).length, 2);
        assert.ok(!after.text.includes(secret), 'the list never shows a token');
        assert.match(after.text, /<td>CI &lt;publishing&gt; &amp; &quot;docs&quot;<\/td>/);
        // nor does any other page, nor the store as is (only its hash)
        assert.ok(!(await get(aliceS)).text.includes(secret.slice(7)));
    });

    it('revoking stops the token at its next request, although the token cache had it', async () => {
        const { secret } = await create(aliceS, 'to revoke');
        // used twice: the second answer comes from the token cache
        for (let i = 0; i < 2; i++) assert.equal((await whoami(secret)).status, 200);
        const list = await get(aliceS);
        const id = ids(list.text)[0]; // newest first
        const r = await post(aliceS, `/settings/tokens/${id}/revoke`, {});
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, '/settings/tokens');
        const me = await whoami(secret);
        assert.equal(me.status, 401, 'a revoked token fails at once');
        assert.ok(!ids((await get(aliceS)).text).includes(id));
        // revoking again: the 404 page
        assert.equal((await post(aliceS, `/settings/tokens/${id}/revoke`, {})).status, 404);
        // the fixture's own token still works (a flush is not a revocation)
        assert.equal((await whoami(alice.token)).status, 200);
    });

    it('another user cannot see or revoke a token (404, it keeps working); malformed ids are 404', async () => {
        const { secret } = await create(aliceS, 'mine');
        const id = ids((await get(aliceS)).text)[0];
        assert.ok(!(await get(bobS)).text.includes(id), "bob's list has only his tokens");
        const r = await post(bobS, `/settings/tokens/${id}/revoke`, {});
        assert.equal(r.status, 404);
        assert.match(r.text, /Not found/);
        assert.equal((await whoami(secret)).status, 200);
        for (const bad of ['zzzz', id.toUpperCase(), `${id}0`, '%00', '..']) {
            const b = await post(aliceS, `/settings/tokens/${bad}/revoke`, {});
            assert.equal(b.status, 404, `${bad}: ${b.status}`);
        }
    });

    it('CSRF: missing or wrong token is a 403 page, nothing created or revoked', async () => {
        const n = ids((await get(aliceS)).text).length;
        const missing = await post(aliceS, '/settings/tokens', { name: "x" }, null);
        assert.equal(missing.status, 403);
        assert.match(missing.headers['content-type'], /^text\/html/);
        const wrong = await post(aliceS, '/settings/tokens', { name: 'x' }, 'f'.repeat(64));
        assert.equal(wrong.status, 403);
        // bob's token in alice's session
        assert.equal((await post(aliceS, '/settings/tokens', { name: 'x' }, bobS.csrf)).status, 403);
        const id = ids((await get(aliceS)).text)[0];
        assert.equal((await post(aliceS, `/settings/tokens/${id}/revoke`, {}, null)).status, 403);
        assert.equal(ids((await get(aliceS)).text).length, n);
        // a JSON body is not a form: no CSRF field read, 403
        const json = await raw(ctx.url, 'POST', '/settings/tokens', {
            body: JSON.stringify({ csrf: aliceS.csrf, name: 'x' }),
            headers: { ...HTML, 'Content-Type': 'application/json', Cookie: aliceS.cookie },
        });
        assert.equal(json.status, 403);
    });

    it('bad names are the form again with a 400 naming the field; nothing is created', async () => {
        const n = ids((await get(aliceS)).text).length;
        for (const name of ['', '   ', 'x'.repeat(65), 'a\u0007b', 'é'.repeat(65)]) {
            const r = await post(aliceS, '/settings/tokens', { name });
            assert.equal(r.status, 400, `${JSON.stringify(name)}: ${r.status}`);
            assert.match(r.text, /role="alert"><p>name: /);
            assert.match(r.text, /id="token-name"/, 'the form is shown again');
            assert.doesNotMatch(r.text, /gb_api_/);
        }
        assert.equal((await post(aliceS, '/settings/tokens', {})).status, 400, 'no name field');
        const malformed = await post(aliceS, '/settings/tokens', `csrf=${aliceS.csrf}&name=%zz`);
        assert.equal(malformed.status, 400);
        assert.match(malformed.text, /malformed/);
        const huge = await post(aliceS, '/settings/tokens', { name: 'y'.repeat(200_000) });
        assert.ok([400, 413].includes(huge.status), `${huge.status}`);
        // exactly 64 characters is fine
        await create(aliceS, 'é'.repeat(64));
        assert.equal(ids((await get(aliceS)).text).length, n + 1);
    });
});

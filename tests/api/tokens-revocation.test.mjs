// Revocation takes effect on every docsd process at once (issue 30 items 6b and 7c). Two docsd
// processes share one store (the PostgreSQL database, or the SQLite file): each has its own token
// cache, whose entries are believed only while the user's token generation in the store, read by
// the request's own transaction, is the one the entry was filled under (http/tokens.c). The old
// cache answered for up to 60 s after a revocation through another process. A password reset
// (`docsd user password`, the set-password link) revokes the user's API tokens too, unless
// --keep-tokens (the CLI) or "keep my API tokens" (the link's form) says otherwise; the first
// password revokes nothing. A removed member and a signed-out session fail at once on the other
// process as well (neither is cached). Hostile: the other process had the token cached, a revoked
// token's next request is a 401 in the error envelope, another user's tokens keep working.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { setup } from './lib/fixtures.mjs';
import { startServer, runCli, DOCSD_BIN, DATABASE_URL } from './lib/server.mjs';
import { raw, validateError, createOrg, addMember, empty } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn, cookiesOf, appClient } from './lib/app.mjs';

/** `docsd user password --email E [extra...]` with the password on stdin: the JSON it prints. */
function userPassword(server, email, password, extra = []) {
    return new Promise((resolve, reject) => {
        const child = spawn(DOCSD_BIN, ['user', 'password', ...server.storageArgs(), '--email', email, ...extra], { stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '', errText = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (errText += d));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`user password exited ${code}: ${errText}`))));
        child.stdin.end(`${password}\n`);
    });
}

/** GET /v1/user with token on url: the status (a 401 checked against the error envelope). */
async function whoStatus(url, token) {
    const r = await raw(url, 'GET', '/v1/user', { token });
    if (r.status === 401) validateError(r.json, 401);
    return r.status;
}

describe('revocation across two docsd processes on one store', () => {
    let ctx, s1, s2, alice, bob, carol, dave, erin, frank;

    before(async () => {
        ctx = await setup();
        s1 = ctx.server;
        s2 = await startServer({ dataDir: s1.dataDir });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        erin = await ctx.user('erin');
        frank = await ctx.user('frank');
    });
    after(async () => {
        if (s2) await s2.stop({ keepData: true });
        if (s1) await s1.stop();
    });

    it('a token revoked in the web interface of process 1 fails at the very next request on process 2', async () => {
        await setPassword(s1, alice.email, PASSWORD);
        const aliceS = await signIn(s1.url, alice.email, PASSWORD);
        const app = appClient({ url: s1.url });
        const made = await app.post(aliceS, '/settings/tokens', { name: 'two processes' });
        assert.equal(made.status, 201, made.text.slice(0, 300));
        const secret = made.text.match(/id="new-token"[^>]*value="(gb_api_[A-Za-z0-9]+)"/)?.[1];
        assert.ok(secret);
        // process 2 has it cached (the second answer is the cache's), on a route outside an
        // organization and on one inside (there the membership's read carries the check)
        const { org } = await createOrg(s1.url, alice.token, `Revocation ${ctx.run}`);
        const orgGet = (token) => raw(s2.url, 'GET', `/v1/orgs/${org.id}`, { token });
        assert.equal(await whoStatus(s2.url, secret), 200);
        assert.equal(await whoStatus(s2.url, secret), 200);
        assert.equal((await orgGet(secret)).status, 200);
        assert.equal((await orgGet(secret)).status, 200);
        assert.equal(await whoStatus(s2.url, alice.token), 200);
        assert.equal((await orgGet(alice.token)).status, 200);
        const list = await app.page(aliceS, '/settings/tokens');
        const id = list.text.match(/action="\/settings\/tokens\/([0-9a-f]{16})\/revoke"/)?.[1]; // newest first
        const rev = await app.post(aliceS, `/settings/tokens/${id}/revoke`, {});
        assert.equal(rev.status, 303, rev.text.slice(0, 300));
        // the very next request on process 2 (and on 1): refused, a 401 (not the organization's 404)
        const inOrg = await orgGet(secret);
        assert.equal(inOrg.status, 401, 'process 2 still let a revoked token into the organization');
        validateError(inOrg.json, 401);
        assert.equal(await whoStatus(s2.url, secret), 401, 'process 2 still accepted a revoked token');
        assert.equal(await whoStatus(s1.url, secret), 401);
        // her other token, cached by process 2 under the old generation, still works (looked up again)
        assert.equal((await orgGet(alice.token)).status, 200);
        assert.equal((await orgGet(alice.token)).status, 200);
        assert.equal(await whoStatus(s2.url, alice.token), 200);
        assert.equal(await whoStatus(s2.url, alice.token), 200);
        // and another user's is untouched
        assert.equal(await whoStatus(s2.url, bob.token), 200);
    });

    it('a password reset (`docsd user password`) revokes the user\'s API tokens on every process; --keep-tokens keeps them', async () => {
        const second = await s1.createToken(carol.email);
        for (const t of [carol.token, second]) assert.equal(await whoStatus(s2.url, t), 200);
        // the first password replaces nothing: nothing revoked
        assert.deepEqual(await userPassword(s1, carol.email, PASSWORD), { user: carol.id, password: 'set', tokensRevoked: 0 });
        for (const t of [carol.token, second]) assert.equal(await whoStatus(s2.url, t), 200);
        // a reset: both tokens revoked, at once on process 2 whose cache had them
        assert.deepEqual(await userPassword(s1, carol.email, `${PASSWORD} 2`), { user: carol.id, password: 'set', tokensRevoked: 2 });
        for (const t of [carol.token, second]) {
            assert.equal(await whoStatus(s2.url, t), 401, 'process 2 still accepted a token revoked by a reset');
            assert.equal(await whoStatus(s1.url, t), 401);
        }
        // the new password signs in; a new token works
        await signIn(s1.url, carol.email, `${PASSWORD} 2`);
        assert.equal(await whoStatus(s2.url, await s1.createToken(carol.email)), 200);

        // --keep-tokens: a reset that keeps them
        await userPassword(s1, dave.email, PASSWORD);
        assert.equal(await whoStatus(s2.url, dave.token), 200);
        assert.deepEqual(await userPassword(s1, dave.email, `${PASSWORD} 2`, ['--keep-tokens']), { user: dave.id, password: 'set', tokensRevoked: 0 });
        assert.equal(await whoStatus(s2.url, dave.token), 200);
        assert.equal(await whoStatus(s1.url, dave.token), 200);
    });

    it('the set-password link revokes the tokens unless "keep my API tokens" is checked', async () => {
        await setPassword(s1, erin.email, PASSWORD); // a first password: the link is a reset
        const useLink = async (password, extra) => {
            const r = await runCli(['user', 'password', ...s1.storageArgs(), '--email', erin.email, '--link']);
            assert.equal(r.code, 0, r.stderr);
            const u = new URL(JSON.parse(r.stdout).link);
            const page = await raw(s1.url, 'GET', u.pathname + u.search, { headers: HTML });
            assert.equal(page.status, 200);
            assert.match(page.text, /name="keep_tokens"/);
            assert.doesNotMatch(page.text, /name="keep_tokens"[^>]*checked/, 'unchecked by default: a reset revokes');
            const pre = cookiesOf(page).docsd_signin;
            const body = new URLSearchParams({ csrf: pre, token: u.searchParams.get('token'), password, confirm: password, ...extra }).toString();
            const post = await raw(s1.url, 'POST', '/signin/password', { body, headers: { ...FORM, Cookie: `docsd_signin=${pre}` } });
            assert.equal(post.status, 303, post.text.slice(0, 300));
        };
        assert.equal(await whoStatus(s2.url, erin.token), 200);
        await useLink(`${PASSWORD} kept`, { keep_tokens: '1' });
        assert.equal(await whoStatus(s2.url, erin.token), 200, 'kept when asked');
        await useLink(`${PASSWORD} reset`, {});
        assert.equal(await whoStatus(s2.url, erin.token), 401, 'revoked by default, at once on process 2');
    });

    it('a member removed through process 1 is refused by process 2 at once (the token itself stays valid)', async () => {
        const { org } = await createOrg(s1.url, bob.token, `Two processes ${ctx.run}`);
        await addMember(ctx.client(bob.token), org.id, frank.email, 'read');
        const get = () => raw(s2.url, 'GET', `/v1/orgs/${org.id}`, { token: frank.token });
        assert.equal((await get()).status, 200);
        assert.equal((await get()).status, 200);
        await empty(ctx.client(bob.token).orgs.removeMemberFromOrganizationById(org.id, frank.id), 205, 'removeMemberFromOrganizationById');
        const r = await get();
        assert.equal(r.status, 404, 'process 2 still let a removed member in');
        validateError(r.json, 404);
        assert.equal(await whoStatus(s2.url, frank.token), 200);
    });

    it('a web session signed out on process 1 is refused by process 2 at once', async () => {
        await setPassword(s1, frank.email, PASSWORD);
        const s = await signIn(s1.url, frank.email, PASSWORD);
        const app2 = appClient({ url: s2.url });
        await app2.page(s, '/settings/tokens', 200);
        await app2.page(s, '/settings/tokens', 200);
        const out = await appClient({ url: s1.url }).post(s, '/signout', {});
        assert.equal(out.status, 303, out.text.slice(0, 300));
        const r = await app2.page(s, '/settings/tokens', 303);
        assert.equal(r.headers.location, '/signin?next=/settings/tokens');
    });
});

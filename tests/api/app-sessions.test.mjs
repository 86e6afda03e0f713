// The web interface's sessions (issue 25, "Signing in"): passwords set with `docsd user password`
// (stdin), GET/POST /signin and POST /signout over plain HTTP (no browser). Cookie flags, the
// signed-in state, identical answers for an unknown email and a wrong password, the rate limits
// per account and per address (requests sent from distinct loopback addresses), CSRF refusals
// (the session's token on /signout, the pre-session token on /signin), the one-time password link
// of an invited user, expiry and the rate-limit
// window (a server restarted with its clock ahead), revocation by a new password and by removal
// from the organization, and no session token in the server's log. Runs on both engines.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import { setup, uniq } from './lib/fixtures.mjs';
import { startServer, DOCSD_BIN, DATABASE_URL } from './lib/server.mjs';
import { ok, empty, createOrg, addMember } from './lib/api.mjs';

const storage = (dataDir) => (DATABASE_URL ? ['--database', DATABASE_URL] : ['--data', dataDir]);

/** `docsd user password --email EMAIL` with the password on stdin: {code, stdout, stderr}. */
function setPassword(dataDir, email, password) {
    return new Promise((res, rej) => {
        const child = spawn(DOCSD_BIN, ['user', 'password', ...storage(dataDir), '--email', email], { stdio: ['pipe', 'pipe', 'pipe'] });
        let stdout = '', stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', rej);
        child.on('close', (code) => res({ code, stdout, stderr }));
        child.stdin.end(`${password}\n`);
    });
}

/** `docsd user password --email EMAIL --link`: the link's path and query (/signin/password?token=...). */
async function passwordLink(dataDir, email) {
    const r = await new Promise((res, rej) => {
        const child = spawn(DOCSD_BIN, ['user', 'password', ...storage(dataDir), '--email', email, '--link'], { stdio: ['ignore', 'pipe', 'pipe'] });
        let stdout = '', stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', rej);
        child.on('close', (code) => res({ code, stdout, stderr }));
    });
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout);
    const u = new URL(out.link);
    assert.equal(u.pathname, '/signin/password');
    assert.match(u.searchParams.get('token'), /^[A-Za-z0-9]+\.\d+\.[0-9a-f]{64}$/);
    assert.ok(out.expiresAt > Date.now() + 6 * 24 * 3600 * 1000);
    return { path: u.pathname + u.search, token: u.searchParams.get('token'), user: out.user };
}

/** A random loopback address other than 127.0.0.1 (Linux routes all of 127/8 to lo). */
const someAddress = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** One HTTP request from `from` (a local address): {status, headers, cookies: {name: raw Set-Cookie}, text}. */
function http(base, method, path, { cookies = {}, form, headers = {}, from } = {}) {
    const u = new URL(path, base);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const h = { ...headers };
    const jar = Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    if (jar) h.cookie = jar;
    if (body !== undefined) {
        h['content-type'] ??= 'application/x-www-form-urlencoded';
        h['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((res, rej) => {
        const req = request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: h, localAddress: from }, (resp) => {
            let text = '';
            resp.setEncoding('utf8');
            resp.on('data', (d) => (text += d));
            resp.on('end', () => {
                const set = {};
                for (const c of resp.headers['set-cookie'] ?? []) set[c.slice(0, c.indexOf('='))] = c;
                res({ status: resp.statusCode, headers: resp.headers, cookies: set, text });
            });
        });
        req.on('error', rej);
        req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
        if (body !== undefined) req.write(body);
        req.end();
    });
}

const cookieValue = (setCookie) => setCookie.slice(setCookie.indexOf('=') + 1).split(';')[0];

describe('web interface sessions', () => {
    let ctx, server, url;
    let alice, bob, carol, dave;
    const pw = {};
    const tokensSeen = [];

    before(async () => {
        ctx = await setup();
        server = ctx.server;
        url = ctx.url;
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        for (const u of [alice, bob, carol, dave]) {
            pw[u.email] = `pw ${uniq(12)} ✓`;
            const r = await setPassword(server.dataDir, u.email, pw[u.email]);
            assert.equal(r.code, 0, `user password: ${r.stderr}`);
            assert.deepEqual(JSON.parse(r.stdout), { user: u.id, password: 'set', tokensRevoked: 0 });
        }
    });
    after(async () => {
        if (server) await server.stop();
    });

    /** GET /signin from `from`: the pre-session cookie's value (the form's csrf). */
    async function signinForm(from, next) {
        const r = await http(url, 'GET', next ? `/signin?next=${encodeURIComponent(next)}` : '/signin', { from });
        assert.equal(r.status, 200);
        assert.match(r.headers['content-type'], /^text\/html/);
        const c = r.cookies.docsd_signin;
        assert.ok(c, 'GET /signin sets the pre-session cookie');
        assert.match(c, /HttpOnly/);
        assert.match(c, /SameSite=Strict/);
        const token = cookieValue(c);
        assert.ok(r.text.includes(`name="csrf" value="${token}"`), 'the form carries the cookie\'s token');
        assert.match(r.text, /<label for="email">/);
        assert.match(r.text, /<label for="password">/);
        return token;
    }

    /** POST /signin; returns the response (and the session token when one was set). */
    async function signIn(email, password, { from, next } = {}) {
        const pre = await signinForm(from);
        const r = await http(url, 'POST', '/signin', {
            from,
            cookies: { docsd_signin: pre },
            form: { csrf: pre, email, password, ...(next ? { next } : {}) },
        });
        if (r.cookies.docsd_session) {
            r.session = cookieValue(r.cookies.docsd_session);
            tokensSeen.push(r.session);
        }
        return r;
    }

    /** Who GET /signin says is signed in with session token s (null: the form). */
    async function whoami(s) {
        const r = await http(url, 'GET', '/signin', { cookies: { docsd_session: s } });
        assert.equal(r.status, 200);
        const m = r.text.match(/signed in as <strong>([^<]*)<\/strong>/);
        if (!m) return null;
        const csrf = r.text.match(/action="\/signout"><input type="hidden" name="csrf" value="([0-9a-f]{64})"/);
        assert.ok(csrf, 'the signed-in page has a sign-out form with the session\'s CSRF token');
        return { email: m[1], csrf: csrf[1] };
    }

    it('`docsd user password` refuses a short password and an unknown email', async () => {
        let r = await setPassword(server.dataDir, alice.email, 'short');
        assert.equal(r.code, 2);
        assert.match(r.stderr, /password/);
        r = await setPassword(server.dataDir, `nobody-${uniq(6)}@${ctx.domain}`, 'long enough password');
        assert.equal(r.code, 1);
        assert.match(r.stderr, /no user/);
    });

    it('signing in sets an HttpOnly, SameSite=Lax, Path=/ session cookie (not Secure over http) and redirects to next', async () => {
        const r = await signIn(alice.email, pw[alice.email], { next: '/o/somewhere?x=1' });
        assert.equal(r.status, 303, r.text);
        assert.equal(r.headers.location, '/o/somewhere?x=1');
        const c = r.cookies.docsd_session;
        assert.ok(c, 'a session cookie');
        assert.match(c, /; Path=\/(;|$)/);
        assert.match(c, /; HttpOnly/);
        assert.match(c, /; SameSite=Lax/);
        assert.match(c, /; Max-Age=1209600/);
        assert.doesNotMatch(c, /Secure/);
        assert.match(r.session, /^[0-9a-f]{64}$/);
        assert.match(r.cookies.docsd_signin, /Max-Age=0/, 'the pre-session cookie is cleared');
        const who = await whoami(r.session);
        assert.equal(who.email, alice.email);
    });

    it('next is only ever a path on this site', async () => {
        for (const next of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'relative']) {
            const r = await signIn(alice.email, pw[alice.email], { next });
            assert.equal(r.status, 303);
            assert.equal(r.headers.location, '/', next);
        }
    });

    it('a page that needs a session sends a visitor without one to /signin, and shows it to the signed-in user', async () => {
        // "/" is the app's home for a browser (Accept: text/html), the API's description otherwise
        const html = { accept: 'text/html,application/xhtml+xml' };
        const anon = await http(url, 'GET', '/', { headers: html });
        assert.equal(anon.status, 303);
        assert.match(anon.headers.location, /^\/signin(\?next=.*)?$/);
        const { session } = await signIn(alice.email, pw[alice.email]);
        const home = await http(url, 'GET', '/', { headers: html, cookies: { docsd_session: session } });
        assert.equal(home.status, 200, home.text.slice(0, 300));
        assert.match(home.headers['content-type'], /^text\/html/);
        // the pages' own sign-out form carries the session's token and works
        const m = home.text.match(/action="\/signout"><input type="hidden" name="csrf" value="([0-9a-f]{64})"/);
        assert.ok(m, 'the page has a sign-out form with the CSRF token');
        assert.equal(m[1], (await whoami(session)).csrf);
        // a forged or unknown cookie is nobody
        const forged = await http(url, 'GET', '/', { headers: html, cookies: { docsd_session: 'f'.repeat(64) } });
        assert.equal(forged.status, 303);
        assert.equal(await whoami('0'.repeat(64)), null);
        assert.equal(await whoami('not-hex'), null);
    });

    it('a wrong password and an unknown email get the same answer, after the same password work', async () => {
        const from = someAddress();
        const unknown = `nobody-${uniq(6)}@${ctx.domain}`;
        let t = Date.now();
        const wrong = await signIn(bob.email, 'not the password', { from });
        const tWrong = Date.now() - t;
        t = Date.now();
        const none = await signIn(unknown, 'not the password', { from });
        const tNone = Date.now() - t;
        assert.equal(wrong.status, 401);
        assert.equal(none.status, 401);
        assert.equal(wrong.cookies.docsd_session, undefined);
        assert.equal(none.cookies.docsd_session, undefined);
        // the same page but for the email typed, which the form keeps, and each form's own
        // pre-session token (each attempt began with a fresh GET /signin)
        const norm = (text, email) => text.replaceAll(email, 'E').replace(/value="[0-9a-f]{64}"/, 'value="T"');
        assert.equal(norm(wrong.text, bob.email), norm(none.text, unknown));
        assert.match(wrong.text, /The email or the password is not right/);
        // both ran an argon2id check (~100 ms here; GET /signin alone takes a few ms)
        assert.ok(tWrong > 30 && tNone > 30, `wrong ${tWrong} ms, unknown ${tNone} ms`);
        assert.ok(Math.max(tWrong, tNone) < 5 * Math.min(tWrong, tNone) + 50, `wrong ${tWrong} ms, unknown ${tNone} ms`);
    });

    it('login CSRF: a sign-in without the pre-session cookie, or with another token, is refused (403)', async () => {
        const pre = await signinForm();
        let r = await http(url, 'POST', '/signin', { form: { csrf: pre, email: bob.email, password: pw[bob.email] } });
        assert.equal(r.status, 403);
        assert.equal(r.cookies.docsd_session, undefined);
        r = await http(url, 'POST', '/signin', {
            cookies: { docsd_signin: pre },
            form: { csrf: 'a'.repeat(64), email: bob.email, password: pw[bob.email] },
        });
        assert.equal(r.status, 403);
        assert.equal(r.cookies.docsd_session, undefined);
        r = await http(url, 'POST', '/signin', { cookies: { docsd_signin: pre }, form: { email: bob.email, password: pw[bob.email] } });
        assert.equal(r.status, 403);
        // a JSON body is not the form
        r = await http(url, 'POST', '/signin', {
            cookies: { docsd_signin: pre },
            headers: { 'content-type': 'application/json' },
            form: { csrf: pre, email: bob.email, password: pw[bob.email] },
        });
        assert.equal(r.status, 415);
        assert.equal(r.cookies.docsd_session, undefined);
    });

    it('sign-out needs the session\'s CSRF token (403 without or with a wrong one) and then ends the session', async () => {
        const { session } = await signIn(bob.email, pw[bob.email]);
        const { csrf } = await whoami(session);
        let r = await http(url, 'POST', '/signout', { cookies: { docsd_session: session }, form: {} });
        assert.equal(r.status, 403);
        r = await http(url, 'POST', '/signout', { cookies: { docsd_session: session }, form: { csrf: 'b'.repeat(64) } });
        assert.equal(r.status, 403);
        // another session's token is not this one's
        const other = await signIn(bob.email, pw[bob.email]);
        r = await http(url, 'POST', '/signout', { cookies: { docsd_session: session }, form: { csrf: (await whoami(other.session)).csrf } });
        assert.equal(r.status, 403);
        assert.equal((await whoami(session)).email, bob.email, 'still signed in after the refusals');
        r = await http(url, 'POST', '/signout', { cookies: { docsd_session: session }, form: { csrf } });
        assert.equal(r.status, 303);
        assert.equal(r.headers.location, '/signin');
        assert.match(r.cookies.docsd_session, /Max-Age=0/);
        assert.equal(await whoami(session), null, 'the session is gone');
        // the header form works too
        r = await http(url, 'POST', '/signout', { cookies: { docsd_session: other.session }, headers: { 'x-csrf-token': (await whoami(other.session)).csrf } });
        assert.equal(r.status, 303);
        assert.equal(await whoami(other.session), null);
        // GET /signout is not a way to sign out
        r = await http(url, 'GET', '/signout');
        assert.equal(r.status, 405);
    });

    it('an invited user sets their first password through a one-time link (`user password --link`), then is signed in', async () => {
        const { org } = await createOrg(url, alice.token, `Invited ${ctx.run}`);
        const email = `invited-${uniq(6)}@${ctx.domain}`;
        const inv = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [{ email, role: 'read' }] }), 'inviteUsersToOrganization');
        assert.equal(inv.users.length, 1);
        // no password yet: signing in fails like any wrong password
        assert.equal((await signIn(email, 'anything at all', { from: someAddress() })).status, 401);
        const link = await passwordLink(server.dataDir, email);
        assert.equal(link.user, inv.users[0]);
        const page = await http(url, 'GET', link.path);
        assert.equal(page.status, 200);
        assert.ok(page.text.includes(email));
        assert.match(page.text, /<label for="password">/);
        assert.match(page.text, /<label for="confirm">/);
        const pre = cookieValue(page.cookies.docsd_signin);
        const post = (form, cookies = { docsd_signin: pre }) => http(url, 'POST', '/signin/password', { cookies, form: { csrf: pre, token: link.token, ...form } });
        let r = await post({ password: 'a new password', confirm: 'another one' });
        assert.equal(r.status, 400);
        r = await post({ password: 'short', confirm: 'short' });
        assert.equal(r.status, 400);
        r = await post({ password: 'a new password', confirm: 'a new password' }, {});
        assert.equal(r.status, 403, 'no pre-session cookie: refused');
        const forged = link.token.slice(0, -1) + (link.token.endsWith('0') ? '1' : '0');
        r = await http(url, 'POST', '/signin/password', { cookies: { docsd_signin: pre }, form: { csrf: pre, token: forged, password: 'a new password', confirm: 'a new password' } });
        assert.equal(r.status, 404);
        assert.equal((await http(url, 'GET', `/signin/password?token=${encodeURIComponent(forged)}`)).status, 404);
        r = await post({ password: 'a new password', confirm: 'a new password' });
        assert.equal(r.status, 303, r.text);
        assert.equal(r.headers.location, '/');
        const session = cookieValue(r.cookies.docsd_session);
        tokensSeen.push(session);
        assert.equal((await whoami(session)).email, email);
        // the link worked once
        assert.equal((await http(url, 'GET', link.path)).status, 404);
        r = await post({ password: 'a third password', confirm: 'a third password' });
        assert.equal(r.status, 404);
        assert.equal((await signIn(email, 'a new password')).status, 303);
    });

    it('throttle per account: 10 failures (5 from one address, 5 from 5 others) never lock the owner out; the failing addresses wait', async () => {
        const x = someAddress();
        for (let i = 0; i < 5; i++) assert.equal((await signIn(carol.email, 'wrong password', { from: x })).status, 401);
        // addresses that have not failed on the account are evaluated, the account under attack or not
        const addrs = Array.from({ length: 5 }, someAddress);
        for (const from of addrs) assert.equal((await signIn(carol.email, 'wrong password', { from })).status, 401);
        // the owner, from an address that has not failed on the account: in at once (issue 30 item 5;
        // it was a 429 for 15 minutes)
        const r = await signIn(carol.email, pw[carol.email], { from: someAddress() });
        assert.equal(r.status, 303);
        assert.ok(r.session);
        // the address that failed 5 times on an account under attack waits 16 s (its back-off counts
        // from its first failure), the right password and another spelling of the email alike
        const late = await signIn(carol.email.toUpperCase(), pw[carol.email], { from: x });
        assert.equal(late.status, 429);
        assert.equal(late.cookies.docsd_session, undefined);
        assert.match(late.text, /Too many failed attempts/);
        assert.ok(Number(late.headers['retry-after']) > 10 && Number(late.headers['retry-after']) <= 16, late.headers['retry-after']);
        // those addresses are not delayed for other accounts
        assert.equal((await signIn(dave.email, pw[dave.email], { from: x })).status, 303);
        assert.equal((await signIn(dave.email, pw[dave.email], { from: addrs[0] })).status, 303);
    });

    it('throttle per address: 10 failures on 10 emails delay that address for every account, not others', async () => {
        const from = someAddress();
        for (let i = 0; i < 10; i++) assert.equal((await signIn(`guess-${uniq(6)}@${ctx.domain}`, 'guess', { from })).status, 401);
        // the 10th started a 1 s delay; one more failure after it doubles it (room for a slow machine)
        await new Promise((res) => setTimeout(res, 1100));
        assert.equal((await signIn(`guess-${uniq(6)}@${ctx.domain}`, 'guess', { from })).status, 401);
        const r = await signIn(dave.email, pw[dave.email], { from });
        assert.equal(r.status, 429);
        assert.match(r.headers['retry-after'], /^[12]$/);
        assert.equal(r.cookies.docsd_session, undefined);
        assert.equal((await signIn(dave.email, pw[dave.email], { from: someAddress() })).status, 303);
    });

    it('a new password ends every session of the user', async () => {
        const a = await signIn(dave.email, pw[dave.email]);
        const b = await signIn(dave.email, pw[dave.email]);
        assert.equal((await whoami(a.session)).email, dave.email);
        pw[dave.email] = `new ${uniq(10)}`;
        const r = await setPassword(server.dataDir, dave.email, pw[dave.email]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(await whoami(a.session), null);
        assert.equal(await whoami(b.session), null);
        const c = await signIn(dave.email, pw[dave.email]);
        assert.equal(c.status, 303);
        assert.equal((await whoami(c.session)).email, dave.email);
    });

    it('removal from the organization (the last one) ends the member\'s sessions', async () => {
        const { org } = await createOrg(url, alice.token, `Sessions ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'edit');
        const s = await signIn(bob.email, pw[bob.email]);
        assert.equal((await whoami(s.session)).email, bob.email);
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, bob.id), 205, 'removeMemberFromOrganizationById');
        assert.equal(await whoami(s.session), null, 'revoked');
        // alice, still a member, stays signed in
        const a = await signIn(alice.email, pw[alice.email]);
        assert.equal((await whoami(a.session)).email, alice.email);
    });

    it('sessions expire after 14 days, password links after 7 (a server restarted with its clock ahead)', async () => {
        const s = await signIn(alice.email, pw[alice.email]);
        assert.equal((await whoami(s.session)).email, alice.email);
        const link = await passwordLink(server.dataDir, carol.email);
        assert.equal((await http(url, 'GET', link.path)).status, 200);
        const dataDir = server.dataDir;
        await server.stop({ keepData: true });
        server = null;
        server = await startServer({ dataDir, extraArgs: ['--clock-offset-ms', String(16 * 60 * 1000)] });
        url = server.url;
        assert.equal((await whoami(s.session)).email, alice.email, 'still valid 16 minutes later');
        const c = await signIn(carol.email, pw[carol.email], { from: someAddress() });
        assert.equal(c.status, 303, 'the owner signs in 16 minutes later');
        await server.stop({ keepData: true });
        server = null;
        server = await startServer({ dataDir, extraArgs: ['--clock-offset-ms', String(14 * 24 * 3600 * 1000 + 60_000)] });
        url = server.url;
        assert.equal(await whoami(s.session), null, 'expired after 14 days');
        assert.equal((await http(url, 'GET', link.path)).status, 404, 'a password link expires after 7 days');
    });

    it('no session token or password is ever written to the server log (nor, as is, to the store)', async () => {
        assert.ok(tokensSeen.length > 10);
        const log = readFileSync(server.logFile, 'utf8');
        for (const t of tokensSeen) assert.ok(!log.includes(t), 'a session token is in the log');
        for (const p of Object.values(pw)) assert.ok(!log.includes(p), 'a password is in the log');
        // the store keeps the tokens' SHA-256 only (SQLite: the database file and its WAL)
        if (!DATABASE_URL) {
            const db = Buffer.concat(['docsd.db', 'docsd.db-wal'].map((f) => { try { return readFileSync(`${server.dataDir}/${f}`); } catch { return Buffer.alloc(0); } }));
            assert.ok(db.length > 0);
            for (const t of tokensSeen) assert.ok(!db.includes(Buffer.from(t)), 'a session token is stored as is');
            for (const p of Object.values(pw)) assert.ok(!db.includes(Buffer.from(p)), 'a password is stored as is');
        }
    });
});

describe('web interface sessions under an https public URL', () => {
    let ctx;
    before(async () => {
        ctx = await setup({ extraArgs: ['--public-url', 'https://docs.example.test'] });
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('the session cookie is Secure', async () => {
        const u = await ctx.user('sec');
        const pass = `pw ${uniq(10)}`;
        assert.equal((await setPassword(ctx.server.dataDir, u.email, pass)).code, 0);
        const form = await http(ctx.url, 'GET', '/signin');
        assert.equal(form.status, 200);
        assert.match(form.cookies.docsd_signin, /; Secure/);
        const pre = cookieValue(form.cookies.docsd_signin);
        const r = await http(ctx.url, 'POST', '/signin', { cookies: { docsd_signin: pre }, form: { csrf: pre, email: u.email, password: pass } });
        assert.equal(r.status, 303, r.text);
        assert.match(r.cookies.docsd_session, /; HttpOnly; SameSite=Lax; Secure/);
    });
});

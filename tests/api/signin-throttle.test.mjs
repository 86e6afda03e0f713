// The sign-in throttle (issue 30 item 5, domain/sessions.c's DESIGN block): failures delay the
// next attempt of an address on an account, and of an address across accounts, with back-off
// (429 and Retry-After, the password not checked); they never lock the owner out: the right
// password from an address that has not failed on the account is accepted at once, however many
// failures the account has from elsewhere. The old rule answered 429 to the right password
// after 10 failures from anywhere, for 15 minutes, and behind a proxy every client shared one
// address. --trusted-proxy CIDR names the peers whose X-Forwarded-For gives the client (the
// right-most entry not itself trusted); without it, or from another peer, the header is ignored.
// Time is moved by restarting the server on the same data with --clock-offset-ms. Hostile cases:
// a spoofed left part of X-Forwarded-For, a trusted proxy's own entry, a malformed and an
// oversized header, an unknown email, a malformed --trusted-proxy (docsd refuses to start).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { randomInt } from 'node:crypto';
import { setup, uniq } from './lib/fixtures.mjs';
import { startServer, runCli, DATABASE_URL } from './lib/server.mjs';
import { setPassword } from './lib/app.mjs';
import { sleep } from './lib/api.mjs';

/** A random private address (16M of them: rows of earlier runs on a shared database stay apart). */
const someClient = () => `10.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
/** A random loopback address other than 127.0.0.1 (Linux routes all of 127/8 to lo). */
const somePeer = () => `127.${randomInt(1, 255)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;

/** One request; {status, headers, cookies: {name: value}, text}. */
function http(base, method, path, { cookies = {}, form, headers = {}, from } = {}) {
    const u = new URL(path, base);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const h = { ...headers };
    const jar = Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    if (jar) h.cookie = jar;
    if (body !== undefined) {
        h['content-type'] = 'application/x-www-form-urlencoded';
        h['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((res, rej) => {
        const req = request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: h, localAddress: from }, (resp) => {
            let text = '';
            resp.setEncoding('utf8');
            resp.on('data', (d) => (text += d));
            resp.on('end', () => {
                const set = {};
                for (const c of resp.headers['set-cookie'] ?? []) set[c.slice(0, c.indexOf('='))] = c.slice(c.indexOf('=') + 1).split(';')[0];
                res({ status: resp.statusCode, headers: resp.headers, cookies: set, text });
            });
        });
        req.on('error', rej);
        req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
        if (body !== undefined) req.write(body);
        req.end();
    });
}

/** GET /signin then POST it: the response. xff: an X-Forwarded-For header; from: the local address. */
async function signIn(url, email, password, { xff, from } = {}) {
    const headers = xff === undefined ? {} : { 'x-forwarded-for': xff };
    const form = await http(url, 'GET', '/signin', { headers, from });
    assert.equal(form.status, 200);
    const pre = form.cookies.docsd_signin;
    assert.match(pre, /^[0-9a-f]{64}$/);
    return http(url, 'POST', '/signin', { headers, from, cookies: { docsd_signin: pre }, form: { csrf: pre, email, password } });
}

/** Who the session s is signed in as (GET /signin), or null. */
async function whoami(url, s) {
    const r = await http(url, 'GET', '/signin', { cookies: { docsd_session: s } });
    return r.text.match(/signed in as <strong>([^<]*)<\/strong>/)?.[1] ?? null;
}

function assertDelayed(r, maxSeconds) {
    assert.equal(r.status, 429, r.text.slice(0, 300));
    assert.equal(r.cookies.docsd_session, undefined, 'no session while delayed');
    assert.match(r.text, /Too many failed attempts/);
    const s = Number(r.headers['retry-after']);
    assert.ok(Number.isInteger(s) && s >= 1 && s <= maxSeconds, `Retry-After ${r.headers['retry-after']} in 1..${maxSeconds}`);
    return s;
}

describe('sign-in throttle behind a trusted proxy (--trusted-proxy 127.0.0.1/32)', () => {
    let ctx, server, url, victim, other, target;
    const PW = `pw ${uniq(12)}`;
    const args = ['--trusted-proxy', '127.0.0.1/32'];

    before(async () => {
        ctx = await setup({ extraArgs: args });
        server = ctx.server;
        url = ctx.url;
        victim = await ctx.user('victim');
        other = await ctx.user('other');
        target = await ctx.user('target');
        for (const u of [victim, other, target]) await setPassword(server, u.email, PW);
    });
    after(async () => {
        if (server) await server.stop();
    });

    it('30 wrong passwords from A: A is delayed (429, Retry-After); the owner from B is in at once; A after the delay too', async () => {
        const A = someClient(), B = someClient();
        const statuses = [];
        let retry = 0;
        for (let i = 0; i < 30; i++) {
            const r = await signIn(url, victim.email, `wrong ${i}`, { xff: A });
            statuses.push(r.status);
            if (r.status === 429) retry = assertDelayed(r, 16);
        }
        // five evaluated (401), then delayed without the password being checked
        assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(25).fill(429)]);
        assert.ok(retry > 10, `A waits ~16 s after 5 failures on an account under attack, Retry-After ${retry}`);
        // the right password from A is delayed too: the throttle does not look at it
        assertDelayed(await signIn(url, victim.email, PW, { xff: A }), 16);
        // the owner, from B (no failure on the account): in at once, on the old code a 429
        const ownB = await signIn(url, victim.email, PW, { xff: B });
        assert.equal(ownB.status, 303, ownB.text.slice(0, 300));
        assert.equal(await whoami(url, ownB.cookies.docsd_session), victim.email);
        // another account from A: A's 5 failures are below the per-address allowance
        assert.equal((await signIn(url, other.email, PW, { xff: A })).status, 303);

        // 20 s later (the server restarted with its clock ahead), A is evaluated again: the right
        // password signs in
        const dataDir = server.dataDir;
        await server.stop({ keepData: true });
        server = null;
        server = await startServer({ dataDir, extraArgs: [...args, '--clock-offset-ms', '20000'] });
        url = server.url;
        const ownA = await signIn(url, victim.email, PW, { xff: A });
        assert.equal(ownA.status, 303, ownA.text.slice(0, 300));
        assert.equal(await whoami(url, ownA.cookies.docsd_session), victim.email);
        // and that success forgot A's own failures on the account: a typo now is evaluated (401)
        assert.equal((await signIn(url, victim.email, 'typo', { xff: A })).status, 401);
    });

    it('password spraying: one address failing on many accounts is delayed for every account, other addresses are not', async () => {
        const S = someClient();
        for (let i = 0; i < 10; i++) assert.equal((await signIn(url, `spray-${i}-${uniq(6)}@${ctx.domain}`, 'Summer2026!', { xff: S })).status, 401);
        // the 10th failure started a 1 s delay; after it one more attempt is evaluated and doubles
        // it, and the next after 2 s doubles it again (4 s: room for a slow machine)
        await sleep(1100);
        assert.equal((await signIn(url, `spray-x-${uniq(6)}@${ctx.domain}`, 'Summer2026!', { xff: S })).status, 401);
        assertDelayed(await signIn(url, `spray-y-${uniq(6)}@${ctx.domain}`, 'Summer2026!', { xff: S }), 2);
        await sleep(2100);
        assert.equal((await signIn(url, `spray-z-${uniq(6)}@${ctx.domain}`, 'Summer2026!', { xff: S })).status, 401);
        assertDelayed(await signIn(url, victim.email, PW, { xff: S }), 4);
        assertDelayed(await signIn(url, `never-seen-${uniq(6)}@${ctx.domain}`, 'x', { xff: S }), 4);
        assert.equal((await signIn(url, victim.email, PW, { xff: someClient() })).status, 303);
    });

    it('X-Forwarded-For: the right-most entry not itself trusted; a spoofed left part, a malformed or oversized header change nothing', async () => {
        const P = someClient();
        for (let i = 0; i < 5; i++) assert.equal((await signIn(url, target.email, `wrong ${i}`, { xff: P })).status, 401);
        // what a client writes before the proxy's entry is not the address
        assertDelayed(await signIn(url, target.email, PW, { xff: `${someClient()}, ${P}` }), 16);
        // an entry of a trusted proxy (127.0.0.1) hands on to the one before it
        assertDelayed(await signIn(url, target.email, PW, { xff: `${P}, 127.0.0.1` }), 16);
        // the mapped IPv6 spelling is the same client
        assertDelayed(await signIn(url, target.email, PW, { xff: `::ffff:${P}` }), 16);
        // a long header (past docsd's 2 KiB buffer): its tail, which the proxy wrote, still counts
        assertDelayed(await signIn(url, target.email, PW, { xff: `${'9.9.9.9, '.repeat(400)}${P}` }), 16);
        // P is not delayed just by appearing on the left
        assert.equal((await signIn(url, target.email, PW, { xff: `${P}, ${someClient()}` })).status, 303);
        // malformed: the proxy's own address is all we know (not a 500, and not P)
        for (const bad of ['not an address', '', ',,,', '10.0.0.1:80', '[::1]', `${P}%00`]) {
            const r = await signIn(url, target.email, PW, { xff: bad });
            assert.equal(r.status, 303, `X-Forwarded-For ${JSON.stringify(bad)}: ${r.status}`);
        }
    });
});

describe('sign-in throttle without --trusted-proxy: X-Forwarded-For is ignored', () => {
    let ctx, victim;
    const PW = `pw ${uniq(12)}`;

    before(async () => {
        ctx = await setup();
        victim = await ctx.user('victim');
        await setPassword(ctx.server, victim.email, PW);
    });
    after(() => ctx?.server.stop());

    it('failures from one peer count for that peer whatever the header says; the header does not borrow another peer\'s delay', async () => {
        const peer = somePeer(), A = someClient();
        for (let i = 0; i < 5; i++) assert.equal((await signIn(ctx.url, victim.email, 'wrong', { from: peer, xff: someClient() })).status, 401);
        // a fresh X-Forwarded-For does not make the peer a new client
        assertDelayed(await signIn(ctx.url, victim.email, PW, { from: peer, xff: A }), 16);
        assertDelayed(await signIn(ctx.url, victim.email, PW, { from: peer }), 16);
        // another peer naming the delayed one in the header is not delayed: the header is not read
        const r = await signIn(ctx.url, victim.email, PW, { from: somePeer(), xff: peer });
        assert.equal(r.status, 303, r.text.slice(0, 300));
    });

    it('a malformed --trusted-proxy stops the start with a message', async () => {
        for (const bad of ['10.0.0.1/8', 'proxy.example', '10.0.0.0/33', '10.0.0.0/8,']) {
            const r = await runCli(['serve', '--listen', '127.0.0.1:1', ...(DATABASE_URL ? ['--database', DATABASE_URL] : ['--data', ctx.server.dataDir]), '--trusted-proxy', bad]);
            assert.notEqual(r.code, 0, `--trusted-proxy ${bad} accepted`);
            assert.match(r.stderr, /--trusted-proxy/);
        }
    });
});

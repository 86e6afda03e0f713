// Slow clients: 2,000 idle and 200 trickling connections from 127.0.0.1 do not stop normal
// requests (p99 under 100 ms); the tricklers are cut at --head-timeout, a slow body at
// --body-min-rate, idle connections stay; --max-connections-per-ip refuses one connection
// too many from one address and serves the next one after they close.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { raw } from './lib/api.mjs';
import { openSocket, rawExchange } from './lib/rawsock.mjs';
const ASAN = process.env.DOCSD_ASAN === '1';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const HEAD_TIMEOUT_S = 2;
const IDLE = 2000;
const TRICKLERS = 200;
const NORMAL = 100;
const P99_LIMIT_MS = ASAN ? 400 : 100; // the sanitizer build is several times slower

/** Opens n connections, `batch` at a time; each gets `onClose` tracking. */
async function openMany(port, n, { batch = 200, localAddress } = {}) {
    const socks = [];
    for (let i = 0; i < n; i += batch) {
        const part = await Promise.all(Array.from({ length: Math.min(batch, n - i) }, () => openSocket(port, { localAddress })));
        for (const s of part) {
            s.closedAt = null;
            s.on('close', () => {
                s.closedAt = Date.now();
            });
            socks.push(s);
        }
    }
    return socks;
}

/** One GET /v1/user on a new connection; resolves to its latency in ms, or Infinity. */
function timedGet(port, token, timeout = 1000) {
    return new Promise((resolve) => {
        const t0 = process.hrtime.bigint();
        const req = http.request(
            { host: '127.0.0.1', port, path: '/v1/user', headers: { Authorization: `Bearer ${token}` }, agent: false, timeout },
            (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode === 200 ? Number(process.hrtime.bigint() - t0) / 1e6 : Infinity));
                res.on('error', () => resolve(Infinity));
            },
        );
        req.on('timeout', () => req.destroy(new Error('timeout')));
        req.on('error', () => resolve(Infinity));
        req.end();
    });
}

describe('slow clients', () => {
    let ctx, alice;
    const all = [];
    before(async () => {
        ctx = await setup({
            extraArgs: ['--head-timeout', String(HEAD_TIMEOUT_S), '--body-min-rate', '100000', '--max-connections-per-ip', '0', '--log-level', 'error'],
        });
        alice = await ctx.user('alice');
    });
    after(async () => {
        for (const s of all) s.destroy();
        if (ctx) await ctx.server.stop();
    });

    it('2,000 idle and 200 trickling connections: normal requests are served, tricklers cut, idle kept', async (t) => {
        const port = ctx.server.port;
        const idle = await openMany(port, IDLE);
        all.push(...idle);
        const tricklers = await openMany(port, TRICKLERS);
        all.push(...tricklers);
        // Three slow bodies: a complete head announcing 100,000 bytes, then one byte a
        // second. At --body-min-rate 100000 the body is due 2 + 1 s after the head.
        const bodies = await openMany(port, 3);
        all.push(...bodies);
        const started = Date.now();
        for (const s of bodies) {
            s.write(`POST /v1/orgs HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${alice.token}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`);
        }
        const slowHead = Buffer.from(`GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(200)}`);
        let sent = 0;
        const trickle = setInterval(() => {
            for (const s of tricklers) if (!s.closedAt && !s.destroyed) s.write(slowHead.subarray(sent, sent + 1));
            for (const s of bodies) if (!s.closedAt && !s.destroyed) s.write(' ');
            sent++;
        }, 1000);
        for (const s of tricklers) s.write(slowHead.subarray(0, 1));
        sent = 1;

        // 100 normal requests while they trickle, each on a new connection, ~40 ms apart.
        const latencies = [];
        let failures = 0;
        try {
            for (let i = 0; i < NORMAL && failures < 5; i++) {
                const ms = await timedGet(port, alice.token);
                if (!Number.isFinite(ms)) failures++;
                latencies.push(ms);
                await sleep(40);
            }
            // every trickler (and slow body) is cut a little after the deadline
            const deadline = started + (HEAD_TIMEOUT_S + 1 + 4) * 1000;
            while (Date.now() < deadline && [...tricklers, ...bodies].some((s) => !s.closedAt)) await sleep(100);
        } finally {
            clearInterval(trickle);
        }
        assert.equal(failures, 0, `normal requests failed or timed out (latencies: ${latencies.slice(0, 10).join(', ')} ...)`);
        latencies.sort((x, y) => x - y);
        const p99 = latencies[Math.ceil(latencies.length * 0.99) - 1];
        assert.equal(latencies.length, NORMAL);
        assert.ok(p99 < P99_LIMIT_MS, `p99 of ${NORMAL} GET /v1/user: ${p99.toFixed(1)} ms (median ${latencies[50].toFixed(1)} ms)`);

        const cutAt = tricklers.filter((s) => s.closedAt).map((s) => (s.closedAt - started) / 1000);
        t.diagnostic(`GET /v1/user p50 ${latencies[49].toFixed(1)} ms, p99 ${p99.toFixed(1)} ms; tricklers cut after ${Math.min(...cutAt)}..${Math.max(...cutAt)} s`);
        const open = tricklers.filter((s) => !s.closedAt).length;
        assert.equal(open, 0, `${open} of ${TRICKLERS} trickling connections still open ${((Date.now() - started) / 1000).toFixed(1)} s later`);
        const cut = tricklers.map((s) => (s.closedAt - started) / 1000).sort((x, y) => x - y);
        assert.ok(cut[0] >= HEAD_TIMEOUT_S - 0.5, `a trickler was cut after ${cut[0]} s, before the head timeout`);
        assert.ok(cut[cut.length - 1] <= HEAD_TIMEOUT_S + 3, `a trickler was cut only after ${cut[cut.length - 1]} s`);
        for (const s of bodies) {
            assert.ok(s.closedAt, 'a slow body is cut');
            const at = (s.closedAt - started) / 1000;
            assert.ok(at >= HEAD_TIMEOUT_S + 1 - 0.5 && at <= HEAD_TIMEOUT_S + 1 + 3, `slow body cut after ${at} s`);
        }
        // idle connections are no slow clients: all still open
        assert.equal(idle.filter((s) => s.closedAt).length, 0, 'idle connections were closed');
        const m = await raw(ctx.url, 'GET', '/metrics');
        const gauge = Number(/^docsd_open_connections (\d+)/m.exec(m.text)?.[1]);
        assert.ok(gauge >= IDLE, `docsd_open_connections ${gauge}`);
        const reaped = Number(/^docsd_slow_connections_closed_total (\d+)/m.exec(m.text)?.[1]);
        assert.ok(reaped >= TRICKLERS + bodies.length, `docsd_slow_connections_closed_total ${reaped}`);
        for (const s of all) s.destroy();
    });

    it('a head sent at once and a body at speed are not cut', async () => {
        const r = await raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: { title: 'Fast enough', pad: 'x'.repeat(200_000) } });
        assert.equal(r.status, 201, r.text);
    });
});

describe('per-address connection limit', () => {
    const LIMIT = 20;
    let ctx, alice;
    const all = [];
    before(async () => {
        ctx = await setup({ extraArgs: ['--max-connections-per-ip', String(LIMIT)] });
        alice = await ctx.user('alice');
    });
    after(async () => {
        for (const s of all) s.destroy();
        if (ctx) await ctx.server.stop();
    });

    // 127.0.0.2 is loopback too, and no other connection of this test comes from it.
    const from = '127.0.0.2';
    const get = (token) => Buffer.from(`GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n\r\n`);

    it(`connection ${LIMIT + 1} from one address is refused; other addresses are served; closing frees room`, async () => {
        const port = ctx.server.port;
        const socks = await openMany(port, LIMIT, { batch: LIMIT, localAddress: from });
        all.push(...socks);
        // each is accepted: one request answered on each (kept alive)
        await Promise.all(
            socks.map(
                (s) =>
                    new Promise((resolve, reject) => {
                        const t = setTimeout(() => reject(new Error('no answer on an accepted connection')), 5000);
                        s.once('data', (d) => {
                            clearTimeout(t);
                            assert.match(d.toString('latin1'), /^HTTP\/1\.1 200/);
                            resolve();
                        });
                        s.write(get(alice.token));
                    }),
            ),
        );
        const refused = await rawExchange(port, get(alice.token), { localAddress: from, timeout: 3000 });
        assert.equal(refused.status, 0, `connection ${LIMIT + 1} should be closed without an answer, got ${refused.status}`);
        assert.ok(refused.closed);
        // another address is not limited by this one
        const other = await rawExchange(port, get(alice.token));
        assert.equal(other.status, 200);
        for (const s of socks) s.destroy();
        let ok = null;
        for (let i = 0; i < 50 && ok?.status !== 200; i++) {
            await sleep(50);
            ok = await rawExchange(port, get(alice.token), { localAddress: from, timeout: 3000 });
        }
        assert.equal(ok.status, 200, 'after closing its connections the address is served again');
    });
});

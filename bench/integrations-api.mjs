// bench/integrations.sh's end-to-end part: docsd itself (--integration-runtime) runs the
// fixture integration; each of N events is an installation_setup recorded by
// PATCH /v1/integrations/{name}/installations/{id} and delivered by the job queue to workerd.
// Per event: from its createdAt (recorded in the PATCH's transaction) to the timestamp of the
// delivery's "HTTP 200" trace line (written when the script's answer came back), both docsd's
// clock. The events are made one after another (the next once the previous is delivered), so the
// queue's pick-up is in the figure, but no queueing behind other events.
//
//   node bench/integrations-api.mjs DOCSD WORKERD SCRIPT.js EVENTS  -> one JSON line
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [docsd, workerd, scriptPath, eventsArg] = process.argv.slice(2);
const N = Number(eventsArg);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'docsd-bench-intg-api-'));
const freePort = () =>
    new Promise((res) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => res(port));
        });
    });

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const log = openSync(join(dir, 'docsd.log'), 'a');
const child = spawn(
    docsd,
    ['serve', '--listen', `127.0.0.1:${port}`, '--data', dir, '--public-url', url, '--integration-runtime', workerd],
    { stdio: ['ignore', log, log] },
);
let result;
try {
    for (let i = 0; ; i++) {
        try {
            if ((await fetch(`${url}/healthz`)).status === 200) break;
        } catch {}
        if (i > 200) throw new Error('docsd did not start');
        await sleep(50);
    }
    const created = JSON.parse(
        execFileSync(docsd, ['user', 'create', '--data', dir, '--email', 'bench@bench.example.com', '--name', 'Bench'], {
            encoding: 'utf8',
        }),
    );
    const token = created.token;
    const api = async (method, path, body) => {
        const r = await fetch(`${url}${path}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
        });
        const text = await r.text();
        if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
        return text ? JSON.parse(text) : undefined;
    };
    const org = await api('POST', '/v1/orgs', { title: 'Bench integrations' });
    const name = 'bench-hello';
    await api('POST', `/v1/integrations/${name}`, {
        runtime: 'v2',
        organization: org.id,
        title: 'Bench',
        description: 'bench',
        scopes: [],
        script: readFileSync(scriptPath, 'utf8'),
    });
    const inst = await api('POST', `/v1/integrations/${name}/installations`, { organization: org.id });
    const seen = new Set();
    /** The newest event not seen yet, once success (polled every 2 ms). */
    const nextDelivered = async () => {
        for (let i = 0; ; i++) {
            const { items } = await api('GET', `/v1/integrations/${name}/events?limit=5`);
            const ev = items.find((e) => !seen.has(e.id));
            if (ev && ev.status !== 'success') throw new Error(`event ${ev.id}: ${ev.status}`);
            if (ev) {
                seen.add(ev.id);
                return ev;
            }
            if (i > 15000) throw new Error('no event delivered within 30 s');
            await sleep(2);
        }
    };
    const latency = async (ev) => {
        const { trace } = await api('GET', `/v1/integrations/${name}/events/${ev.id}`);
        const answered = trace.logs.find((l) => /delivery attempt \d+ .*HTTP 200/.test(l.message));
        if (!answered) throw new Error(`no answer in ${JSON.stringify(trace)}`);
        return Date.parse(answered.timestamp) - Date.parse(ev.createdAt);
    };
    // The install's own event: the cold start (the process of this version starts). Its handler
    // marks the installation (a PATCH: one more installation_setup, delivered warm); later
    // events find the mark and make no other event.
    const first = await nextDelivered();
    const second = await nextDelivered();
    const [installEvent] = [first, second].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt));
    const cold = await latency(installEvent);
    const lat = [];
    for (let i = 0; i < N; i++) {
        await api('PATCH', `/v1/integrations/${name}/installations/${inst.id}`, { externalIds: ['hello-setup-done', `n-${i}`] });
        lat.push(await latency(await nextDelivered()));
    }
    lat.sort((a, b) => a - b);
    const pct = (p) => lat[Math.min(lat.length - 1, Math.ceil((p / 100) * lat.length) - 1)];
    result = { events: N, cold_ms: cold, p50_ms: pct(50), p99_ms: pct(99), max_ms: lat[lat.length - 1] };
} finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    if (!result) process.stderr.write(readFileSync(join(dir, 'docsd.log'), 'utf8').slice(-3000));
    rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

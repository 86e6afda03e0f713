// bench/integrations-throughput.sh's measurement (issue 31, item 12): how fast the job queue
// delivers a backlog of integration events to a development tunnel that answers at once, in order
// per installation, and whether another job kind waits behind the backlog.
//
// docsd runs with --allow-private-network (the tunnel is a Node server on 127.0.0.1) and
// DOCSD_TEST_JOBS=1 (the test-only kind stands for "another kind"). I installations each get E
// installation_setup events (PATCH .../installations/{id}, recorded with their jobs). The clock
// starts when the last PATCH answered and stops when the tunnel received the last event; the
// figure is events received per second. Meanwhile one job of the test kind is queued; its wait
// (queued -> done) is reported. The tunnel checks the order per installation (eventId sequence
// against the events list, oldest first) and that no two deliveries of one installation overlap.
//
//   node bench/integrations-throughput.mjs DOCSD INSTALLATIONS EVENTS WORKERS  -> one JSON line
import { spawn, execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, readFileSync, rmSync, openSync } from 'node:fs';
import { createServer } from 'node:net';
import http from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [docsd, instArg, eventsArg, workersArg] = process.argv.slice(2);
const I = Number(instArg), E = Number(eventsArg), W = Number(workersArg);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const dir = mkdtempSync(join(tmpdir(), 'docsd-bench-intg-tp-'));
const freePort = () =>
    new Promise((res) => {
        const s = createServer();
        s.listen(0, '127.0.0.1', () => {
            const { port } = s.address();
            s.close(() => res(port));
        });
    });

// The tunnel: parses only the event's id and installation (a regex over the multipart body:
// docsd writes the event part first, eventId first).
const seen = new Map();
const busy = new Map();
let overlap = 0, received = 0, lastAt = 0;
const tunnel = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const id = /"eventId":"([^"]+)"/.exec(body)?.[1];
        const inst = /"installationId":"([^"]+)"/.exec(body)?.[1];
        if (busy.get(inst)) overlap++;
        busy.set(inst, true);
        if (!seen.has(inst)) seen.set(inst, []);
        seen.get(inst).push(id);
        received++;
        lastAt = performance.now();
        busy.set(inst, false);
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('OK');
    });
});
await new Promise((r) => tunnel.listen(0, '127.0.0.1', r));

const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const log = openSync(join(dir, 'docsd.log'), 'a');
const child = spawn(docsd, ['serve', '--listen', `127.0.0.1:${port}`, '--data', dir, '--public-url', url,
    '--allow-private-network', '--job-workers', String(W)], { stdio: ['ignore', log, log], env: { ...process.env, DOCSD_TEST_JOBS: '1' } });
let result;
try {
    for (let i = 0; ; i++) {
        try {
            if ((await fetch(`${url}/healthz`)).status === 200) break;
        } catch {}
        if (i > 200) throw new Error('docsd did not start');
        await sleep(50);
    }
    const { token } = JSON.parse(execFileSync(docsd, ['user', 'create', '--data', dir, '--email', 'bench@bench.example.com', '--name', 'Bench'], { encoding: 'utf8' }));
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
    const org = await api('POST', '/v1/orgs', { title: 'Bench throughput' });
    const inst = [];
    for (let k = 0; k < I; k++) {
        const name = `bench-tp-${k}`;
        await api('POST', `/v1/integrations/${name}`, { organization: org.id, title: 'Bench', description: 'bench', scopes: [], script: 'export default {}' });
        await api('PUT', `/v1/integrations/${name}/dev`, { tunnelUrl: `http://127.0.0.1:${tunnel.address().port}/` });
        inst.push({ name, id: (await api('POST', `/v1/integrations/${name}/installations`, { organization: org.id })).id });
    }
    // The backlog: E events per installation, interleaved, four requests at a time.
    const todo = [];
    for (let i = 0; i < E; i++) for (const x of inst) todo.push([x, i]);
    await Promise.all([0, 1, 2, 3].map(async () => {
        for (let t; (t = todo.shift());)
            await api('PATCH', `/v1/integrations/${t[0].name}/installations/${t[0].id}`, { externalIds: [`n-${t[1]}`] });
    }));
    const start = performance.now();
    const startReceived = received;
    // Another kind, queued now, behind the backlog.
    // (Asynchronous: a synchronous child would stall the tunnel in this same process.)
    const run = promisify(execFile);
    const enq = JSON.parse((await run(docsd, ['job', 'enqueue', '--data', dir, '--kind', 'test.sleep-then-write', '--subject', 'bench', '--payload', '{"ms":1}'])).stdout);
    const queuedWall = Date.now();
    let otherMs = null;
    const total = I * (E + 1);
    for (let i = 0; received < total; i++) {
        if (otherMs === null && i % 10 === 0) {
            const { stdout } = await run(docsd, ['job', 'list', '--data', dir, '--kind', 'test.sleep-then-write']);
            const j = stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((x) => x.id === enq.id);
            // Seen done by this poll (every ~50 ms plus the CLI's own time).
            if (j && j.state === 'done') otherMs = Math.round(Date.now() - queuedWall);
        }
        if (performance.now() - start > 600_000) throw new Error(`only ${received} of ${total} events in 600 s`);
        await sleep(5);
    }
    const secs = (lastAt - start) / 1000;
    let inOrder = true;
    for (const x of inst) {
        const items = [];
        let page;
        do {
            const r = await api('GET', `/v1/integrations/${x.name}/events?limit=1000${page ? `&page=${page}` : ''}`);
            items.push(...r.items);
            page = r.next?.page;
        } while (page);
        const expected = items.map((e) => e.payload.eventId).reverse();
        if (JSON.stringify(expected) !== JSON.stringify(seen.get(x.id))) inOrder = false;
    }
    result = {
        installations: I, events: total, workers: W, backlog_events: total - startReceived, seconds: Number(secs.toFixed(2)),
        events_per_s: Math.round((total - startReceived) / secs), in_order: inOrder, overlapping: overlap, other_kind_wait_ms: otherMs,
    };
} finally {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    tunnel.close();
    if (!result) process.stderr.write(readFileSync(join(dir, 'docsd.log'), 'utf8').slice(-3000));
    rmSync(dir, { recursive: true, force: true });
}
console.log(JSON.stringify(result));

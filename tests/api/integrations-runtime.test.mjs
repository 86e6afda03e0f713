// Integration events delivered to the published script running in workerd (issue 22): docsd with
// --integration-runtime (tests/cli's pinned workerd, or DOCSD_TEST_WORKERD) and
// --integration-timeout 2. The scripts are raw ES modules published through the API (what
// `gitbook publish` sends in `script`), reading GitBook's multipart body themselves:
//   - a script that loops forever is killed at the timeout (the attempt's trace line says so),
//     and the retry, served by a new process, is answered;
//   - a script that throws answers 500 and is retried; one without a handler answers 406 and the
//     event fails at once (final);
//   - a script reaches docsd's API (its apiEndpoint, with the installation token) but not another
//     loopback port (a server of this test, which sees no request);
//   - a delivery in flight in workerd at docsd's kill -9 is delivered after the restart, and the
//     restarted docsd killed the workerd process the dead one left.
// The tests/cli package (npm ci --ignore-scripts there) brings workerd; scripts/test.sh installs it
// and sets DOCSD_TEST_REQUIRE_WORKERD, so that the suite never skips there.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import { startServer, repoRoot } from './lib/server.mjs';
import { client, ok, createOrg, sleep, raw } from './lib/api.mjs';
import { validate } from './lib/schema.mjs';

const WORKERD =
    process.env.DOCSD_TEST_WORKERD ||
    join(repoRoot, 'tests', 'cli', 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
const HAVE_WORKERD = existsSync(WORKERD);
if (!HAVE_WORKERD && process.env.DOCSD_TEST_REQUIRE_WORKERD)
    throw new Error(`workerd not found at ${WORKERD} (npm ci --ignore-scripts in tests/cli)`);
const SERVER_ARGS = ['--integration-runtime', WORKERD, '--integration-timeout', '2', '--job-workers', '2'];

/** The start of every script: GitBook's multipart body read, the installation token at hand. */
const PRELUDE = `
const read = async (request) => {
  const form = await request.formData();
  return { event: JSON.parse(form.get('event')), env: JSON.parse(form.get('environment')) };
};
const call = (env, method, path, body) =>
  fetch(env.apiEndpoint + '/v1' + path, {
    method,
    headers: { Authorization: 'Bearer ' + env.apiTokens.installation, ...(body ? { 'Content-Type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
/* Once per installation: mark it (its externalIds, through docsd's API), so that the retry,
 * whose environment carries the mark, behaves. */
const firstTime = async (env, mark) => {
  const inst = env.installation;
  const ids = inst.externalIds || [];
  if (ids.includes(mark)) return false;
  const r = await call(env, 'PATCH', '/integrations/' + env.integration.name + '/installations/' + inst.id, { externalIds: [...ids, mark] });
  if (!r.ok) throw new Error('PATCH of the installation: ' + r.status);
  return true;
};
`;

function processGone(pid) {
    try {
        const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
        return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
    } catch {
        return true;
    }
}

async function waitFor(what, fn, ms = 90_000) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(200);
    }
}

describe('integration scripts in workerd', { skip: !HAVE_WORKERD && `workerd not found at ${WORKERD}` }, () => {
    let ctx, alice, api, org, other, hits = 0;

    const publish = async (name, script) =>
        ok(
            api.integrations.publishIntegration(name, {
                runtime: 'v2',
                organization: org.id,
                title: name,
                description: 'A script of the runtime tests',
                scopes: ['space:content:read'],
                script,
            }),
            'publishIntegration',
        );
    const install = async (name) => {
        const res = await api.integrations.installIntegration(name, { organization: org.id });
        assert.equal(res.status, 200);
        validate('installIntegration', 201, res.data);
        return res.data;
    };
    /** The first installation_setup event of the installation, once it left pending, with its trace. */
    const setupEvent = async (name, installationId, ms) => {
        const ev = await waitFor(
            `installation_setup of ${name}`,
            async () => {
                const items = (await ok(api.integrations.listIntegrationEvents(name, { limit: 100 }), 'listIntegrationEvents')).items;
                const mine = items.filter((e) => e.installationId === installationId && e.payload.type === 'installation_setup');
                return mine.length ? mine[mine.length - 1] : null;
            },
            ms,
        );
        return ok(api.integrations.getIntegrationEvent(name, ev.id), 'getIntegrationEvent');
    };
    const messages = (full) => full.trace.logs.map((l) => `[${l.level}] ${l.message}`);

    before(async () => {
        other = http.createServer((req, res) => {
            hits++;
            res.end('other');
        });
        await new Promise((r) => other.listen(0, '127.0.0.1', r));
        ctx = await setup({ extraArgs: SERVER_ARGS });
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Runtime ${ctx.run}`));
    });
    after(async () => {
        await ctx?.server.stop();
        other?.close();
    });

    it('a script that loops forever is killed at the timeout; the retry, in a new process, is answered', async () => {
        const name = `spin-${ctx.run}`;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { event, env } = await read(request);
  if (event.type === 'installation_setup' && (await firstTime(env, 'spun'))) { for (;;) {} }
  console.log('answered ' + event.type);
  return new Response('OK');
} };`,
        );
        const inst = await install(name);
        const full = await setupEvent(name, inst.id);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.some((l) => /^\[warn\] delivery attempt 1 .*failed: timed out after 2 s, will retry$/.test(l)), lines.join('\n'));
        assert.ok(lines.some((l) => /^\[info\] delivery attempt 2 .*HTTP 200/.test(l)), lines.join('\n'));
        assert.ok(lines.includes('[info] answered installation_setup'), lines.join('\n'));
    });

    it('a script that throws answers 500 and is retried; without a handler, 406 fails the event at once', async () => {
        const name = `throw-${ctx.run}`;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { event, env } = await read(request);
  if (event.type === 'installation_setup' && (await firstTime(env, 'threw'))) throw new Error('boom in the script');
  console.debug('fine now');
  return new Response('OK');
} };`,
        );
        let inst = await install(name);
        let full = await setupEvent(name, inst.id);
        let lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.some((l) => /^\[warn\] delivery attempt 1 .*HTTP 500, will retry$/.test(l)), lines.join('\n'));
        assert.ok(lines.some((l) => l.startsWith('[error] Error: boom in the script')), lines.join('\n'));
        assert.ok(lines.includes('[debug] fine now'), lines.join('\n'));

        const none = `nohandler-${ctx.run}`;
        await publish(
            none,
            `export default { async fetch() {
  console.log('no handler here');
  return new Response(JSON.stringify({ error: 'Integration does not handle this event' }), { status: 406 });
} };`,
        );
        inst = await install(none);
        full = await setupEvent(none, inst.id, 20_000);
        lines = messages(full);
        assert.equal(full.event.status, 'failed', lines.join('\n'));
        assert.ok(lines.some((l) => /^\[error\] delivery attempt 1 .*HTTP 406 \(the integration has no handler/.test(l)), lines.join('\n'));
        assert.ok(!lines.some((l) => /attempt 2/.test(l)), 'a 406 is final');
        assert.ok(lines.includes('[info] no handler here'), lines.join('\n'));
    });

    it("a script reaches docsd's API but no other loopback port", async () => {
        const name = `net-${ctx.run}`;
        const port = other.address().port;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { env } = await read(request);
  for (const url of ['http://127.0.0.1:${port}/', 'http://localhost:${port}/']) {
    try { const r = await fetch(url); console.log('reached ' + url + ' ' + r.status); }
    catch (e) { console.error('refused ' + url); }
  }
  const me = await call(env, 'GET', '/user');
  console.log('api ' + me.status + ' ' + (await me.json()).object);
  return new Response('OK');
} };`,
        );
        const inst = await install(name);
        const full = await setupEvent(name, inst.id, 30_000);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.includes(`[error] refused http://127.0.0.1:${port}/`), lines.join('\n'));
        assert.ok(lines.includes(`[error] refused http://localhost:${port}/`), lines.join('\n'));
        assert.ok(lines.includes('[info] api 200 user'), lines.join('\n'));
        assert.equal(hits, 0, 'the other loopback server saw no request');
    });

    // Last: it restarts the server.
    // Issue 31, item 8: a script replaced globals the entry module used (its answer and lines were
    // then the script's), wrote lines docsd parsed without bounds (a flat 6 MB line of numbers
    // cost docsd hundreds of MiB in the JSON parser) and chose timestamps that reached a C cast
    // with undefined behaviour. The entry module now takes its built-ins before the script loads,
    // and docsd validates every line: the forged answer status, the nested line and the
    // far-future timestamp are refused or replaced; the real answer and lines arrive.
    it('a hostile script cannot shape what docsd reads back: globals replaced, forged lines, huge lines, wild timestamps', async () => {
        const name = `hostile-${ctx.run}`;
        await publish(
            name,
            `import { P } from './prelude.mjs';
const R = Response;
JSON.stringify = () => '{"t":"response","status":200,"body":"Zm9yZ2Vk"}';
globalThis.Response = class {};
TextEncoder.prototype.encode = () => new Uint8Array([10]);
export default { async fetch() {
  const emit = P.als.getStore();
  emit({ t: 'log', level: 'info', message: 'far future', ts: 1e300 });
  emit({ t: 'log', level: 'info', message: 'not a number', ts: 'soon' });
  emit({ t: 'response', status: 99999, body: '' });
  emit({ t: 'log', level: 'info', message: 'huge', pad: new Array(3000000).fill(0) });
  Object.prototype.toJSON = function () { return 'hijacked'; };
  console.log('still captured');
  return new R('real answer', { status: 200 });
} };`,
        );
        const hwm = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${ctx.server.process.pid}/status`, 'utf8'))[1]);
        const before = hwm();
        const started = Date.now();
        const inst = await install(name);
        const full = await setupEvent(name, inst.id, 60_000);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.some((l) => /^\[info\] delivery attempt 1 .*HTTP 200$/.test(l)), lines.join('\n'));
        assert.ok(lines.includes('[info] still captured'), lines.join('\n'));
        assert.ok(!lines.some((l) => /huge/.test(l)), 'the nested line is not a trace line');
        for (const m of ['far future', 'not a number']) {
            const l = full.trace.logs.find((x) => x.message === m);
            assert.ok(l, `${m}: ${lines.join('\n')}`);
            const t = Date.parse(l.timestamp);
            assert.ok(t >= started - 5000 && t <= Date.now() + 5000, `${m}: docsd's clock, not the script's (${l.timestamp})`);
        }
        // The 6 MB line is skipped without building its 3,000,000 values.
        const grown = (hwm() - before) / 1024;
        assert.ok(grown < 64, `docsd's peak memory grew ${grown.toFixed(0)} MiB in one delivery`);
    });

    // Issue 31, item 9: an event kept every line of every attempt (5 x 1,000 lines of 8 KiB: 40 MB)
    // and the trace API showed only the first 1,000, hiding the later attempts. An event now keeps
    // at most 1,000 lines and 256 KiB over all its attempts, says how many were not kept, and every
    // attempt's own line is in the trace.
    it("an event's trace is bounded over its attempts, and every attempt shows", async () => {
        const name = `chatty-${ctx.run}`;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { event, env } = await read(request);
  const line = 'x'.repeat(4000);
  for (let i = 0; i < 900; i++) console.log(i + ' ' + line);
  if (event.type === 'installation_setup' && (await firstTime(env, 'chatted'))) throw new Error('first attempt fails');
  return new Response('OK');
} };`,
        );
        const inst = await install(name);
        const full = await setupEvent(name, inst.id);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.slice(-5).join('\n'));
        assert.ok(full.trace.logs.length <= 1000, `${full.trace.logs.length} lines`);
        const bytes = full.trace.logs.reduce((n, l) => n + l.message.length, 0);
        assert.ok(bytes <= 256 * 1024 + 16 * 1024, `${bytes} bytes kept`);
        assert.ok(lines.some((l) => /^\[warn\] delivery attempt 1 .*HTTP 500, will retry$/.test(l)), 'attempt 1 shows');
        assert.ok(lines.some((l) => /^\[info\] delivery attempt 2 .*HTTP 200$/.test(l)), 'attempt 2 shows');
        assert.ok(lines.some((l) => /^\[warn\] \d+ more lines of this attempt were not kept/.test(l)), 'the cut is said');
    });

    // Issue 31, item 6: every visitor's script.js was a delivery (the shared fetch pool stalled
    // behind a slow integration) minting two tokens. Now the answer is kept per installation,
    // site and version for 60 s, a miss waits for at most 2 deliveries of its integration (past
    // that: 503 at once), and no token is minted for an anonymous request.
    it('site script.js: answered from a cache, bounded per integration, no token minted', async () => {
        const site = async (title) => {
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites`, { token: alice.token, json: { title } });
            assert.equal(r.status, 201, r.text);
            return r.json;
        };
        const scriptOf = async (name, slow) => {
            await ok(api.integrations.publishIntegration(name, {
                runtime: 'v2', organization: org.id, title: name, description: 'A site script', scopes: ['site:script:inject'], target: 'site',
                script: `let n = 0;
export default { async fetch(request) {
  const form = await request.formData();
  const env = JSON.parse(form.get('environment'));
  if (JSON.parse(form.get('event')).type !== 'fetch_published_script') return new Response('OK');
  n++;
  ${slow ? "await new Promise((r) => setTimeout(r, 1500));" : ''}
  return new Response('/* delivery ' + n + ' tokens ' + env.apiTokens.integration.length + '+' + env.apiTokens.installation.length + ' */', { headers: { 'content-type': 'application/javascript' } });
} };`,
            }), 'publishIntegration');
            const inst = await install(name);
            const s = await site(`Scripted ${name}`);
            await ok(api.integrations.installIntegrationOnSite(name, inst.id, { siteId: s.id }), 'installIntegrationOnSite', 201);
            const scripts = await ok(api.orgs.listSiteIntegrationScripts(org.id, s.id), 'listSiteIntegrationScripts');
            assert.equal(scripts.length, 1);
            return scripts[0].script;
        };

        const url = await scriptOf(`cached-${ctx.run}`, false);
        const first = await fetch(url);
        assert.equal(first.status, 200);
        const body = await first.text();
        assert.equal(body, '/* delivery 1 tokens 0+0 */', 'no token minted for a visitor');
        const again = await Promise.all(Array.from({ length: 20 }, () => fetch(url).then(async (r) => [r.status, await r.text()])));
        for (const [status, text] of again) {
            assert.equal(status, 200);
            assert.equal(text, body, 'answered from the cache: the script ran once');
        }

        // A slow integration: 10 visitors at once; at most 2 deliveries run (half of the shared
        // fetch pool), the others are refused at once (503 in the error envelope) or, once an
        // answer came, served from the cache.
        const slowUrl = await scriptOf(`slow-${ctx.run}`, true);
        const t0 = Date.now();
        const many = await Promise.all(Array.from({ length: 10 }, () => fetch(slowUrl).then(async (r) => [r.status, await r.text(), Date.now() - t0])));
        const served = many.filter(([st]) => st === 200), refused = many.filter(([st]) => st === 503);
        assert.ok(served.length >= 1 && refused.length >= 1, JSON.stringify(many));
        assert.ok(new Set(served.map(([, text]) => text)).size <= 2, 'at most 2 deliveries ran');
        assert.equal(served.length + refused.length, 10, JSON.stringify(many));
        for (const [, text, ms] of refused) {
            assert.equal(JSON.parse(text).error.code, 503);
            assert.ok(ms < 1400, `refused at once (${ms} ms)`);
        }
        // Once one answered, the cached answer serves everyone.
        const after = await fetch(slowUrl);
        assert.equal(after.status, 200);
        assert.match(await after.text(), /^\/\* delivery \d tokens 0\+0 \*\/$/);
    });

    // Issue 31, Low: scripts reached /metrics and the web interface through the API origin, and
    // NAT64 addresses (64:ff9b::/96, which embed IPv4 ones such as 127.0.0.1) that docsd's own
    // guard refuses. The router now passes only /v1 of docsd's origin; NAT64 is denied.
    it("a script reaches only docsd's /v1, and no NAT64 address", async () => {
        const name = `routes-${ctx.run}`;
        const port = other.address().port;
        const before = hits;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { env } = await read(request);
  for (const path of ['/metrics', '/healthz', '/', '/v1x']) {
    const r = await fetch(env.apiEndpoint + path);
    console.log('path ' + path + ' ' + r.status);
  }
  try { const r = await fetch('http://[64:ff9b::7f00:1]:${port}/'); console.log('nat64 reached ' + r.status); }
  catch (e) { console.log('nat64 refused'); }
  const me = await call(env, 'GET', '/user');
  console.log('api ' + me.status);
  return new Response('OK');
} };`,
        );
        const inst = await install(name);
        const full = await setupEvent(name, inst.id);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        for (const p of ['/metrics', '/healthz', '/', '/v1x']) assert.ok(lines.includes(`[info] path ${p} 403`), lines.join('\n'));
        assert.ok(lines.includes('[info] nat64 refused'), lines.join('\n'));
        assert.ok(lines.includes('[info] api 200'), lines.join('\n'));
        assert.equal(hits, before);
    });

    // Issue 31, item 11: a workerd process answered anyone on 127.0.0.1, so a script (with
    // --allow-private-network) could deliver forged events to another integration's process.
    // Each process now takes deliveries only with its own secret, which only docsd knows.
    it("a process refuses a delivery without its secret: no forged event reaches another integration's script", async () => {
        const name = `victim-${ctx.run}`;
        const marker = `victim-marker-${ctx.run}`;
        await publish(name, `// ${marker}
export default { async fetch() { console.log('ran'); return new Response('handled by the victim'); } };`);
        const inst = await install(name);
        const full = await setupEvent(name, inst.id);
        assert.equal(full.event.status, 'success', messages(full).join('\n'));
        const procDir = join(ctx.server.dataDir, 'runtime', `p-${ctx.server.process.pid}`);
        const dir = readdirSync(procDir).find((d) => {
            try {
                return readFileSync(join(procDir, d, 'script.mjs'), 'utf8').includes(marker);
            } catch {
                return false;
            }
        });
        assert.ok(dir, 'the victim process is running');
        const pid = Number(readFileSync(join(procDir, dir, 'pid'), 'utf8'));
        // Low item: workerd gets an empty environment, not docsd's (translation engines' API keys).
        assert.equal(readFileSync(`/proc/${pid}/environ`, 'utf8'), '', 'workerd inherits nothing of docsd\'s environment');
        // Its listening port: the socket inodes of its descriptors, in /proc/net/tcp (state 0A).
        const inodes = new Set();
        for (const fd of readdirSync(`/proc/${pid}/fd`)) {
            try {
                const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
                if (m) inodes.add(m[1]);
            } catch {}
        }
        const ports = readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1).map((l) => l.trim().split(/\s+/))
            .filter((f) => f.length > 9 && f[3] === '0A' && inodes.has(f[9])).map((f) => parseInt(f[1].split(':')[1], 16));
        assert.ok(ports.length >= 1, 'found the process\'s port');
        for (const port of ports) {
            const forged = new FormData();
            forged.set('event', JSON.stringify({ type: 'installation_setup', installationId: inst.id }));
            forged.set('environment', JSON.stringify({ apiEndpoint: ctx.url }));
            const r = await fetch(`http://127.0.0.1:${port}/v1`, { method: 'POST', body: forged });
            assert.equal(r.status, 403);
            assert.equal(await r.text(), 'not docsd');
            const wrong = await fetch(`http://127.0.0.1:${port}/v1`, { method: 'POST', body: forged, headers: { 'X-Docsd-Runtime-Secret': 'x'.repeat(32) } });
            assert.equal(wrong.status, 403);
        }
        // docsd's own deliveries still go through.
        await ok(api.integrations.updateIntegrationInstallation(name, inst.id, { externalIds: ['again'] }), 'updateIntegrationInstallation');
        const both = await waitFor('the second event', async () => {
            const items = (await ok(api.integrations.listIntegrationEvents(name), 'listIntegrationEvents')).items;
            return items.length === 2 ? items : null;
        });
        assert.ok(both.every((e) => e.status === 'success'));
    });

    it('a delivery in flight in workerd at kill -9 is delivered after the restart; the old process is killed', async () => {
        const name = `crash-${ctx.run}`;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { event } = await read(request);
  console.log('working on ' + event.type);
  await new Promise((r) => setTimeout(r, 1500));
  return new Response('OK');
} };`,
        );
        const dataDir = ctx.server.dataDir;
        const procDir = join(dataDir, 'runtime', `p-${ctx.server.process.pid}`);
        const inst = await install(name);
        // The process of this version is running: the delivery is in flight.
        const pidFile = await waitFor('the workerd process of the delivery', async () => {
            if (!existsSync(procDir)) return null;
            for (const d of readdirSync(procDir)) {
                const f = join(procDir, d, 'pid');
                if (existsSync(f) && readFileSync(join(procDir, d, 'script.mjs'), 'utf8').includes('working on')) return f;
            }
            return null;
        }, 30_000);
        await sleep(500);
        const workerPid = Number(readFileSync(pidFile, 'utf8'));
        assert.ok(workerPid > 1 && !processGone(workerPid));
        ctx.server.process.kill('SIGKILL');
        await sleep(300);
        assert.ok(!processGone(workerPid), 'workerd outlives a docsd killed with -9');
        // Restart past the dead worker's lease (30 s).
        ctx.server = await startServer({ dataDir, extraArgs: [...SERVER_ARGS, '--clock-offset-ms', '60000'] });
        api = client(ctx.server.url, alice.token);
        await waitFor('the old workerd process to be killed', async () => processGone(workerPid), 10_000);
        assert.ok(!existsSync(procDir), 'the dead docsd\'s runtime directory is removed');
        const full = await setupEvent(name, inst.id, 60_000);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.includes('[info] working on installation_setup'), lines.join('\n'));
    });
});

// Issue 31, item 7, with a server of its own: a wall clock of 15 s, so that the memory bound (not
// the timeout) is what stops the script on a loaded machine.
describe('integration scripts in workerd: the memory bound', { skip: !HAVE_WORKERD && `workerd not found at ${WORKERD}` }, () => {
    let c2, api, org;
    const publish = async (name, script) =>
        ok(api.integrations.publishIntegration(name, { runtime: 'v2', organization: org.id, title: name, description: 'A memory hog', scopes: ['space:content:read'], script }), 'publishIntegration');
    const install = async (name) => {
        const res = await api.integrations.installIntegration(name, { organization: org.id });
        assert.equal(res.status, 200);
        return res.data;
    };
    const setupEvent = async (name, installationId) => {
        const ev = await waitFor(`installation_setup of ${name}`, async () => {
            const items = (await ok(api.integrations.listIntegrationEvents(name, { limit: 100 }), 'listIntegrationEvents')).items;
            const mine = items.filter((e) => e.installationId === installationId && e.payload.type === 'installation_setup');
            return mine.length ? mine[mine.length - 1] : null;
        });
        return ok(api.integrations.getIntegrationEvent(name, ev.id), 'getIntegrationEvent');
    };
    const messages = (full) => full.trace.logs.map((l) => `[${l.level}] ${l.message}`);
    before(async () => {
        c2 = await setup({ extraArgs: ['--integration-runtime', WORKERD, '--integration-timeout', '15', '--job-workers', '2'] });
        const u = await c2.user('hog');
        api = u.api;
        ({ org } = await createOrg(c2.url, u.token, `Hog ${c2.run}`));
    });
    after(async () => {
        await c2?.server.stop();
    });

    // Issue 31, item 7: only the V8 heap was bounded; ArrayBuffers grew past 1.5 GB in seconds.
    // docsd now watches each process's resident memory and kills it past max(4 x heap, 512 MiB):
    // the delivery fails with the reason and the retry, in a new process, is answered.
    it('a script allocating ArrayBuffers without end is killed at the memory bound; the next delivery works', async () => {
        const name = `hog-${c2.run}`;
        await publish(
            name,
            `${PRELUDE}
export default { async fetch(request) {
  const { event, env } = await read(request);
  if (event.type === 'installation_setup' && (await firstTime(env, 'hogged'))) {
    const keep = [];
    for (let i = 0; i < 96; i++) { const b = new Uint8Array(32 << 20); b.fill(i + 1); keep.push(b); }
    console.log('allocated ' + keep.length * 32 + ' MiB and was not stopped');
  }
  console.log('answered ' + event.type);
  return new Response('OK');
} };`,
        );
        const inst = await install(name);
        const full = await setupEvent(name, inst.id);
        const lines = messages(full);
        assert.equal(full.event.status, 'success', lines.join('\n'));
        assert.ok(lines.some((l) => /^\[warn\] delivery attempt 1 .*resident memory passed 512 MiB.*, will retry$/.test(l)), lines.join('\n'));
        assert.ok(!lines.some((l) => /was not stopped/.test(l)), lines.join('\n'));
        assert.ok(lines.some((l) => /^\[info\] delivery attempt 2 .*HTTP 200/.test(l)), lines.join('\n'));
        const m = await (await fetch(`${c2.url}/metrics`)).text();
        assert.match(m, /^docsd_runtime_memory_kills_total [1-9]\d*$/m);
    });

});

// Issue 31, "Out of the box": scripts/deps.sh run installs the pinned workerd into tools/workerd/,
// and docsd's --integration-runtime auto (the default) finds it beside build/. Runs when that
// install is there (after scripts/serve.sh or scripts/deps.sh run).
const TOOLS_WORKERD = join(repoRoot, 'tools', 'workerd', 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
describe('integration runtime out of the box: --integration-runtime auto', { skip: !existsSync(TOOLS_WORKERD) && 'tools/workerd is not installed (scripts/deps.sh run)' }, () => {
    let c3;
    after(async () => {
        await c3?.server.stop();
    });
    it('finds the workerd scripts/deps.sh installed and runs a published script with it', async () => {
        c3 = await setup({ extraArgs: ['--integration-runtime', 'auto', '--job-workers', '2'] });
        const u = await c3.user('auto');
        const { org } = await createOrg(c3.url, u.token, `Auto ${c3.run}`);
        const name = `auto-${c3.run}`;
        await ok(u.api.integrations.publishIntegration(name, {
            runtime: 'v2', organization: org.id, title: name, description: 'Out of the box', scopes: ['space:content:read'],
            script: "export default { async fetch() { console.log('ran in the installed workerd'); return new Response('OK'); } };",
        }), 'publishIntegration');
        const res = await u.api.integrations.installIntegration(name, { organization: org.id });
        assert.equal(res.status, 200);
        const ev = await waitFor('the event', async () => {
            const items = (await ok(u.api.integrations.listIntegrationEvents(name), 'listIntegrationEvents')).items;
            return items.length ? items[0] : null;
        });
        assert.equal(ev.status, 'success');
        const full = await ok(u.api.integrations.getIntegrationEvent(name, ev.id), 'getIntegrationEvent');
        assert.ok(full.trace.logs.some((l) => l.message === 'ran in the installed workerd'), JSON.stringify(full.trace.logs));
        assert.match(readFileSync(join(c3.server.dataDir, 'server.log'), 'utf8'), /integrations run in .*tools\/workerd\/node_modules\/@cloudflare\/workerd-linux-64\/bin\/workerd \(--integration-runtime auto\)/);
    });
});

// Issue 31, "Script callbacks share 127.0.0.1's per-address connection limit": libmicrohttpd
// counts --max-connections-per-ip at accept, and workerd connects from 127.0.0.1 like any local
// client, so a script with many fetches in flight took the address's whole budget (its own
// callbacks were refused past it, and so were local clients). Callbacks now reach a listener of
// their own (127.0.0.1, an ephemeral port, --runtime-callback-connections), which serves only the
// API and only with the secret the runtime's router adds. A server of its own, with a per-address
// limit of 8: the script runs 20 callbacks at a time for 1.5 s while a local client keeps 4
// requests in flight on the main listener (and the test polls through its own connection).
describe('integration scripts in workerd: callbacks have their own connection budget', { skip: !HAVE_WORKERD && `workerd not found at ${WORKERD}` }, () => {
    let c4, u, org;
    before(async () => {
        c4 = await setup({
            extraArgs: ['--integration-runtime', WORKERD, '--integration-timeout', '20', '--job-workers', '2', '--max-connections-per-ip', '8'],
        });
        u = await c4.user('budget');
        ({ org } = await createOrg(c4.url, u.token, `Budget ${c4.run}`));
    });
    after(async () => {
        await c4?.server.stop();
    });

    const callbackPort = () => {
        const m = /runtime callbacks listen on 127\.0\.0\.1:(\d+)/.exec(readFileSync(join(c4.server.dataDir, 'server.log'), 'utf8'));
        assert.ok(m, 'the server logs its callback listener');
        return Number(m[1]);
    };

    it("a script's 20 parallel callbacks and a local client's 4 requests all succeed", async () => {
        const name = `budget-${c4.run}`;
        await ok(
            u.api.integrations.publishIntegration(name, {
                runtime: 'v2', organization: org.id, title: name, description: 'Many callbacks at once', scopes: ['space:content:read'],
                script: `${PRELUDE}
export default { async fetch(request) {
  const { env } = await read(request);
  let good = 0, bad = 0;
  const errors = new Set();
  const until = Date.now() + 1500;
  while (Date.now() < until) {
    await Promise.all(Array.from({ length: 20 }, async () => {
      try {
        const r = await call(env, 'GET', '/user');
        const j = await r.json();
        if (r.status === 200 && j.object === 'user') good++; else { bad++; errors.add('HTTP ' + r.status); }
      } catch (e) { bad++; errors.add(String(e && e.message)); }
    }));
  }
  console.log('callbacks ' + good + ' ok, ' + bad + ' failed ' + [...errors].join('; '));
  return new Response('OK');
} };`,
            }),
            'publishIntegration',
        );
        // The local client: 4 keep-alive connections of its own, 4 requests at a time, until the
        // event is delivered.
        const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
        const port = new URL(c4.url).port;
        const local = () =>
            new Promise((resolve) => {
                const req = http.get({ host: '127.0.0.1', port, path: '/v1/user', agent, headers: { Authorization: `Bearer ${u.token}` } }, (res) => {
                    const chunks = [];
                    res.on('data', (c) => chunks.push(c));
                    res.on('end', () => resolve(res.statusCode === 200 && JSON.parse(Buffer.concat(chunks).toString()).object === 'user' ? 'ok' : `HTTP ${res.statusCode}`));
                    res.on('error', (e) => resolve(e.code || e.message));
                });
                req.on('error', (e) => resolve(e.code || e.message));
            });
        const res = await u.api.integrations.installIntegration(name, { organization: org.id });
        assert.equal(res.status, 200);
        let done = false;
        const outcomes = [];
        const client = (async () => {
            while (!done) outcomes.push(...(await Promise.all([local(), local(), local(), local()])));
        })();
        let ev;
        try {
            ev = await waitFor('the event', async () => {
                const items = (await ok(u.api.integrations.listIntegrationEvents(name), 'listIntegrationEvents')).items;
                return items.length && items[0].status !== 'pending' ? items[0] : null;
            });
        } finally {
            done = true;
            await client;
            agent.destroy();
        }
        const full = await ok(u.api.integrations.getIntegrationEvent(name, ev.id), 'getIntegrationEvent');
        const lines = full.trace.logs.map((l) => l.message);
        assert.equal(ev.status, 'success', lines.join('\n'));
        const m = lines.map((l) => /^callbacks (\d+) ok, (\d+) failed/.exec(l)).find(Boolean);
        assert.ok(m, lines.join('\n'));
        assert.ok(Number(m[1]) >= 20, lines.join('\n'));
        assert.equal(Number(m[2]), 0, `the script's callbacks failed: ${lines.join('\n')}`);
        const failed = outcomes.filter((o) => o !== 'ok');
        assert.ok(outcomes.length >= 8, `the local client made ${outcomes.length} requests`);
        assert.deepEqual(failed, [], `local requests failed while the script ran: ${failed.slice(0, 5).join(', ')}`);
    });

    it('the callback listener refuses anyone without the runtime secret, and serves only /v1', async () => {
        const port = callbackPort();
        const base = `http://127.0.0.1:${port}`;
        assert.notEqual(port, Number(new URL(c4.url).port));
        for (const [path, headers] of [
            ['/v1/user', {}],
            ['/v1/user', { 'X-Docsd-Callback-Secret': 'guessed-secret-guessed-secret-xx' }],
            ['/v1/user', { 'X-Docsd-Callback-Secret': '' }],
            ['/metrics', {}],
            ['/healthz', {}],
            ['/', {}],
        ]) {
            const r = await raw(base, 'GET', path, { token: u.token, headers });
            assert.equal(r.status, 403, `${path} ${JSON.stringify(headers)}: ${r.text}`);
            assert.equal(r.json?.error?.code, 403, r.text);
            assert.match(r.json.error.message, /integrations' runtime only/);
        }
        // The main listener is unchanged.
        const me = await raw(c4.url, 'GET', '/v1/user', { token: u.token });
        assert.equal(me.status, 200, me.text);
    });
});

// A server without a runtime starts no callback listener.
describe('no integration runtime: no callback listener', () => {
    let c5;
    after(async () => {
        await c5?.server.stop();
    });
    it('logs no callback listener with --integration-runtime none', async () => {
        c5 = await setup({ extraArgs: ['--integration-runtime', 'none'] });
        const me = await raw(c5.url, 'GET', '/v1/user', { token: (await c5.user('none')).token });
        assert.equal(me.status, 200, me.text);
        assert.doesNotMatch(readFileSync(join(c5.server.dataDir, 'server.log'), 'utf8'), /runtime callbacks listen/);
    });
});

// Crash safety (issue 32): several concurrent clients drive a mixed load of writes and jobs
// (spaces, change-request content, merges, comments, site writes, web-interface form posts, Git
// imports and exports against local bare repositories, OpenAPI processing, translation runs,
// integration deliveries to a fake tunnel), every acknowledged 2xx recorded; docsd is killed with
// SIGKILL at a random moment and restarted on the same data. Then:
//   - every acknowledged write is there (0 lost);
//   - nothing is half-applied: a merged change request has its merged revision and that revision
//     is the space's (or an ancestor of it), and holds the page the change request wrote;
//   - every job completes (or is retried until it does) and is applied once (0 doubled): one Git
//     import revision per import, one result revision per translation run, one processed
//     version per OpenAPI specification;
//   - integration events are delivered at least once (README, Integrations: "at least once"): a
//     repeat of an event id is counted and reported, never a failure; a lost event is.
// CRASH_ROUNDS rounds (2 in the test command; bench/crash.sh runs 10 per engine). Each round is
// bounded: about 2-4 s of load, a restart, and at most ~20 s for the jobs to settle.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, runCli, uniq } from './lib/server.mjs';
import { raw, rawOk, createOrg, sleep } from './lib/api.mjs';
import { setPassword, signIn, FORM, PASSWORD } from './lib/app.mjs';
import { git, workTree, bare } from './lib/git.mjs';
import { openSocket, parseResponse } from './lib/rawsock.mjs';

const ROUNDS = Number(process.env.CRASH_ROUNDS || 2);
const CLIENTS = Number(process.env.CRASH_CLIENTS || 4);
// The sanitizer build is several times slower and SIGKILL tests the same code paths: the test
// command runs this file on the normal build of both engines only.
const ASAN = process.env.DOCSD_ASAN === '1';
// Past the dead process's job lease (30 s, src/jobs/jobs.h): its running jobs are claimed again.
const LEASE_SKIP_MS = 60_000;

const FIXTURE = {
    'README.md': '# Welcome\n\nThe house is red.\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
    'guide.md': '# Guide\n\nThe dog runs in the garden.\n',
};
const PETSTORE = JSON.stringify({
    openapi: '3.0.0',
    info: { title: 'Pets', version: '1.0.0' },
    paths: { '/pets': { get: { summary: 'List pets', responses: { 200: { description: 'ok' } } } } },
});

/** The fake development tunnel: counts every delivery per event id; always answers 200. */
async function tunnel() {
    const t = { byEvent: new Map(), types: new Map() };
    t.server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', async () => {
            try {
                const r = new Request(`http://x${req.url}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body: Buffer.concat(chunks) });
                const fd = await r.formData();
                const ev = JSON.parse(await fd.get('event'));
                t.byEvent.set(ev.eventId, (t.byEvent.get(ev.eventId) ?? 0) + 1);
                t.types.set(ev.eventId, ev.type);
            } catch {
                // a body we cannot read is not counted; the event then shows as lost
            }
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('OK');
        });
    });
    await new Promise((r) => t.server.listen(0, '127.0.0.1', r));
    t.url = `http://127.0.0.1:${t.server.address().port}`;
    return t;
}

async function waitFor(what, fn, ms) {
    const deadline = Date.now() + ms;
    let last;
    for (;;) {
        last = await fn();
        if (last && last.done) return last;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}: ${JSON.stringify(last?.why ?? last)}`);
        await sleep(200);
    }
}

const pick = (a) => a[Math.floor(Math.random() * a.length)];

/** Flattens a revision's page tree to titles, depth first. */
const titles = (pages) => (pages ?? []).flatMap((p) => [p.title, ...titles(p.pages)]);

/**
 * One round: setup, load, SIGKILL, restart, checks. Returns the counts
 * {acknowledged, lost, doubled, duplicateDeliveries, problems}.
 */
async function round(n) {
    const root = mkdtempSync(join(tmpdir(), 'docsd-crash-'));
    const tun = await tunnel();
    const args = ['--allow-private-network', '--job-workers', '2', '--log-level', process.env.CRASH_LOG_LEVEL || 'error'];
    let server = await startServer({ extraArgs: args });
    const dataDir = server.dataDir;
    const problems = [];
    let acknowledged = 0;
    let duplicateDeliveries = 0;
    try {
        const email = `crash-${uniq(8)}@c${uniq(8)}.example.com`;
        const u = await server.createUser(email, 'Crash Tester');
        const token = u.token;
        const { org } = await createOrg(server.url, token, `Crash ${n} ${uniq(6)}`);
        await setPassword(server, email, PASSWORD);
        const session = await signIn(server.url, email, PASSWORD);
        const srcRepo = bare(root, 'src', workTree(root, 'src-tree', FIXTURE, 'Docs'));
        const srcOid = git(srcRepo, 'rev-parse', 'refs/heads/main');

        // The integration: published, in development mode to the tunnel, installed.
        const integ = `crash-${uniq(8)}`;
        await rawOk(server.url, 'POST', `/v1/integrations/${integ}`, {
            token,
            // target organization: its own installation events only. (An integration that targets
            // spaces also gets every merge's and import's events; after a crash such a backlog
            // drains at about one event per 2 s, in order per installation: reported in
            // src/jobs/integration_delivery.c's area, not checked here.)
            json: { organization: org.id, title: 'Crash', description: 'Counts deliveries', script: 'export default {}', scopes: ['space:content:read'], target: 'organization' },
        }, 'publishIntegration');
        const dev = await raw(server.url, 'PUT', `/v1/integrations/${integ}/dev`, { token, json: { tunnelUrl: `${tun.url}/` } });
        assert.equal(dev.status, 204, dev.text);
        const inst = await rawOk(server.url, 'POST', `/v1/integrations/${integ}/installations`, { token, json: { organization: org.id } }, 'installIntegration', 201)
            .catch(async () => raw(server.url, 'POST', `/v1/integrations/${integ}/installations`, { token, json: { organization: org.id } }));
        assert.ok([200, 201].includes(inst.status), inst.text);
        const installationId = inst.json.id;

        // What each client writes, recorded when acknowledged; `inflight` what was sent and not
        // answered when the server died (it may or may not be there).
        const acked = { spaces: [], crs: [], comments: [], sites: new Map(), forms: [], imports: [], exports: [], specs: [], translations: [], events: 0 };
        const inflightSites = new Map(); // site id -> titles sent, unanswered
        let deliveriesSent = 0;
        let dead = false;
        const call = async (method, path, opts) => {
            if (dead) return null;
            try {
                return await raw(server.url, method, path, { token, timeout: 15_000, ...opts });
            } catch {
                dead = true; // connection refused or reset: the server is gone
                return null;
            }
        };
        const space = async (title) => {
            const r = await call('POST', `/v1/orgs/${org.id}/spaces`, { json: { title } });
            if (r?.status !== 201) return null;
            acked.spaces.push({ id: r.json.id, title });
            acknowledged++;
            return r.json;
        };

        // The operations of the load, each as a short sequence; every 2xx is recorded.
        const ops = {
            async space() {
                await space(`Space ${uniq(6)}`);
            },
            async merge(c) {
                const cr = await call('POST', `/v1/spaces/${c.space.id}/change-requests`, { json: { subject: `CR ${uniq(4)}` } });
                if (cr?.status !== 201) return;
                acknowledged++;
                const title = `Page ${uniq(8)}`;
                const rec = { space: c.space.id, id: cr.json.id, title: null, merged: false };
                acked.crs.push(rec);
                const w = await call('POST', `/v1/spaces/${c.space.id}/change-requests/${cr.json.id}/content`, {
                    json: { changes: [{ operation: 'insert_page', title, document: { markdown: `Text of ${title}.\n` } }] },
                });
                if (w?.status !== 200) return;
                acknowledged++;
                rec.title = title;
                const m = await call('POST', `/v1/spaces/${c.space.id}/change-requests/${cr.json.id}/merge`, { json: {} });
                if (m?.status === 200 && m.json?.result === 'merge') {
                    acknowledged++;
                    rec.merged = true;
                    rec.revision = m.json.revision;
                }
            },
            async comment(c) {
                const markdown = `Comment ${uniq(8)}`;
                const r = await call('POST', `/v1/spaces/${c.space.id}/comments`, { json: { body: { markdown } } });
                if (r?.status === 201) {
                    acknowledged++;
                    acked.comments.push({ space: c.space.id, id: r.json.id, markdown });
                }
            },
            async site(c) {
                if (!c.site) {
                    const r = await call('POST', `/v1/orgs/${org.id}/sites`, { json: { title: `Site ${uniq(6)}` } });
                    if (r?.status !== 201) return;
                    acknowledged++;
                    c.site = r.json.id;
                    acked.sites.set(c.site, r.json.title);
                    return;
                }
                const title = `Site ${uniq(6)}`;
                const sent = inflightSites.get(c.site) ?? new Set();
                sent.add(title);
                inflightSites.set(c.site, sent);
                const r = await call('PATCH', `/v1/orgs/${org.id}/sites/${c.site}`, { json: { title } });
                if (r?.status === 200) {
                    acknowledged++;
                    acked.sites.set(c.site, title);
                    sent.clear(); // an older unanswered title cannot win over this one
                }
            },
            async form(c) {
                const subject = `Form ${uniq(8)}`;
                const r = await call('POST', `/s/${c.space.id}/~/changes/new`, {
                    token: null,
                    body: new URLSearchParams({ csrf: session.csrf, subject }).toString(),
                    headers: { ...FORM, Cookie: session.cookie },
                });
                if (r?.status === 303) {
                    acknowledged++;
                    acked.forms.push({ space: c.space.id, subject });
                }
            },
            async gitImport() {
                const s = await space(`Import ${uniq(6)}`);
                if (!s) return;
                const r = await call('POST', `/v1/spaces/${s.id}/git/import`, { json: { url: `file://${srcRepo}`, ref: 'refs/heads/main' } });
                if (r?.status === 204) {
                    acknowledged++;
                    acked.imports.push(s.id);
                }
            },
            async gitExport(c) {
                const out = bare(root, `out-${uniq(8)}`);
                const message = `Export ${uniq(8)}`;
                const r = await call('POST', `/v1/spaces/${c.space.id}/git/export`, { json: { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: message } });
                if (r?.status === 204) {
                    acknowledged++;
                    acked.exports.push({ space: c.space.id, repo: out, message });
                }
            },
            async openapi() {
                const slug = `spec-${uniq(8)}`;
                const r = await call('POST', `/v1/orgs/${org.id}/openapi`, { json: { slug, source: { text: PETSTORE } } });
                if (r?.status === 201) {
                    acknowledged++;
                    acked.specs.push(slug);
                }
            },
            async translation(c) {
                const t = await call('POST', `/v1/orgs/${org.id}/translations`, { json: { source: { space: c.seeded, language: 'en' }, language: 'es' } });
                if (t?.status !== 201) return;
                acknowledged++;
                const rec = { id: t.json.id, runs: 0 };
                acked.translations.push(rec);
                const r = await call('POST', `/v1/orgs/${org.id}/translations/${t.json.id}/run`, { json: {} });
                if (r?.status === 204) {
                    acknowledged++;
                    rec.runs = 1;
                }
            },
            async delivery() {
                // a few per round: events of one installation are delivered in order, and a
                // backlog drains at about one event per 2 s (the deferral of
                // src/jobs/integration_delivery.c), longer than a round may take
                if (deliveriesSent >= 6) return;
                deliveriesSent++;
                const r = await call('PATCH', `/v1/integrations/${integ}/installations/${installationId}`, { json: { externalIds: [uniq(6)] } });
                if (r?.status === 200) {
                    acknowledged++;
                    acked.events++;
                }
            },
        };
        // Weighted: cheap writes often, jobs less often (each a few hundred ms of work).
        const mix = ['space', 'merge', 'merge', 'comment', 'comment', 'site', 'site', 'form', 'form', 'gitImport', 'gitExport', 'openapi', 'translation', 'delivery', 'delivery'];

        // Each client: its own space with one merged page (a comment's place, an export's
        // content), and a source space for its translations that nothing merges into (a merge
        // into a source runs its translations again: domain/translations.c).
        const clients = [];
        for (let i = 0; i < CLIENTS; i++) {
            const s = await space(`Client ${i}`);
            const src = await space(`Source ${i}`);
            assert.ok(s && src, 'the setup spaces');
            const c = { space: s, seeded: src.id, site: null };
            await ops.merge(c);
            await ops.merge({ space: src });
            clients.push(c);
        }
        assert.ok(acked.crs.every((x) => x.merged), 'the setup merges');

        const killAfter = 1500 + Math.floor(Math.random() * 2500);
        const loops = clients.map(async (c) => {
            while (!dead) await ops[pick(mix)](c);
        });
        await sleep(killAfter);
        server.process.kill('SIGKILL');
        dead = true;
        await Promise.all(loops);
        await waitFor('docsd to die', async () => ({ done: !!server.exited }), 5_000);

        // Restart on the same data (PostgreSQL: the same database), past the lease.
        server = await startServer({ dataDir, extraArgs: [...args, '--clock-offset-ms', String(LEASE_SKIP_MS)] });
        const get = async (path, op) => (await rawOk(server.url, 'GET', path, { token }, op)).json;
        let lost = 0;
        let doubled = 0;
        const lose = (what) => {
            lost++;
            problems.push(`lost: ${what}`);
        };
        const double = (what) => {
            doubled++;
            problems.push(`doubled: ${what}`);
        };

        // Plain writes.
        for (const s of acked.spaces) {
            const r = await raw(server.url, 'GET', `/v1/spaces/${s.id}`, { token });
            if (r.status !== 200 || r.json.title !== s.title) lose(`space ${s.id} (${r.status})`);
        }
        for (const c of acked.comments) {
            const r = await raw(server.url, 'GET', `/v1/spaces/${c.space}/comments/${c.id}`, { token });
            if (r.status !== 200 || r.json.body?.markdown?.trim() !== c.markdown) {
                if (r.status !== 200 || !JSON.stringify(r.json.body).includes(c.markdown)) lose(`comment ${c.id} (${r.status})`);
            }
        }
        for (const [id, title] of acked.sites) {
            const r = await raw(server.url, 'GET', `/v1/orgs/${org.id}/sites/${id}`, { token });
            const allowed = new Set([title, ...(inflightSites.get(id) ?? [])]);
            if (r.status !== 200 || !allowed.has(r.json.title)) lose(`site ${id}: title ${r.json?.title}, expected ${[...allowed].join(' or ')}`);
        }
        // Change requests: every acknowledged one and its content; a merged one has its revision
        // and that revision holds its page, once, and is the space's or an ancestor of it.
        const crsBySpace = new Map();
        for (const cr of acked.crs) {
            const r = await raw(server.url, 'GET', `/v1/spaces/${cr.space}/change-requests/${cr.id}`, { token });
            if (r.status !== 200) {
                lose(`change request ${cr.id} (${r.status})`);
                continue;
            }
            const got = r.json;
            if (got.status === 'merged' && !got.revisionMerged) problems.push(`partial: change request ${cr.id} merged without revisionMerged`);
            if (cr.merged && got.status !== 'merged') lose(`the merge of ${cr.id} (status ${got.status})`);
            if (got.status === 'merged') {
                const rev = await raw(server.url, 'GET', `/v1/spaces/${cr.space}/revisions/${got.revisionMerged}`, { token });
                if (rev.status !== 200) problems.push(`partial: merged revision ${got.revisionMerged} of ${cr.id} missing (${rev.status})`);
                else if (cr.title) {
                    const k = titles(rev.json.pages).filter((t) => t === cr.title).length;
                    if (k === 0) lose(`page ${cr.title} in the merge of ${cr.id}`);
                    if (k > 1) double(`page ${cr.title} in the merge of ${cr.id} (${k} times)`);
                }
            } else if (cr.title) {
                const content = await raw(server.url, 'GET', `/v1/spaces/${cr.space}/change-requests/${cr.id}/content`, { token });
                if (content.status !== 200 || !titles(content.json.pages).includes(cr.title)) lose(`content of change request ${cr.id}`);
            }
            if (!crsBySpace.has(cr.space)) crsBySpace.set(cr.space, []);
            crsBySpace.get(cr.space).push({ ...cr, status: got.status });
        }
        // The space's current content holds each merged page exactly once.
        for (const [spaceId, crs] of crsBySpace) {
            const cur = await raw(server.url, 'GET', `/v1/spaces/${spaceId}/content`, { token });
            if (cur.status !== 200) {
                problems.push(`space ${spaceId} content: ${cur.status}`);
                continue;
            }
            const all = titles(cur.json.pages);
            for (const cr of crs.filter((x) => x.status === 'merged' && x.title)) {
                const k = all.filter((t) => t === cr.title).length;
                if (k === 0) lose(`merged page ${cr.title} in space ${spaceId}'s content`);
                if (k > 1) double(`merged page ${cr.title} in space ${spaceId}'s content (${k} times)`);
            }
        }
        // Form posts: the change request with that subject, once.
        for (const f of acked.forms) {
            // (a change request started in the web interface is a draft; the list shows open ones
            // unless asked)
            let k = 0;
            for (const status of ['draft', 'open']) {
                const list = await get(`/v1/spaces/${f.space}/change-requests?limit=1000&status=${status}`, 'listChangeRequestsForSpace');
                k += list.items.filter((x) => x.subject === f.subject).length;
            }
            if (k === 0) lose(`form change request ${f.subject}`);
            if (k > 1) double(`form change request ${f.subject} (${k})`);
        }

        // Jobs: wait (bounded) until each has finished, then check it applied once.
        const importDone = async (id) => {
            const s = await raw(server.url, 'GET', `/v1/spaces/${id}`, { token });
            return s.json?.gitSync?.operation?.state && s.json.gitSync.operation.state !== 'running' ? s.json : null;
        };
        const settled = await waitFor('the jobs to finish after the restart', async () => {
            const why = [];
            for (const id of acked.imports) if (!(await importDone(id))) why.push(`import ${id}`);
            for (const e of acked.exports) if (!(await importDone(e.space))) why.push(`export ${e.space}`);
            for (const slug of acked.specs) {
                const s = await raw(server.url, 'GET', `/v1/orgs/${org.id}/openapi/${slug}`, { token });
                if (s.json?.processingState !== 'complete') why.push(`spec ${slug}: ${s.status} ${s.json?.processingState}`);
            }
            for (const t of acked.translations.filter((x) => x.runs)) {
                const s = await raw(server.url, 'GET', `/v1/orgs/${org.id}/translations/${t.id}`, { token });
                if (s.json?.status !== 'completed') why.push(`translation ${t.id}: ${s.json?.status}`);
            }
            const items = [];
            for (let page = '', n = 0; n < 50; n++) {
                const ev = await raw(server.url, 'GET', `/v1/integrations/${integ}/events?limit=100${page ? `&page=${encodeURIComponent(page)}` : ''}`, { token });
                items.push(...(ev.json?.items ?? []));
                if (!ev.json?.next?.page) break;
                page = ev.json.next.page;
            }
            // the installation's setup event and one per acknowledged update (besides the
            // content and Git events of the org's spaces, which the integration also gets)
            const listed = items.filter((e) => (e.type ?? e.payload?.type) === 'installation_setup').length;
            const delivered = [...tun.types.values()].filter((x) => x === 'installation_setup').length;
            if (delivered < acked.events + 1) why.push(`installation_setup events: ${delivered} delivered, ${listed} listed, ${acked.events + 1} acknowledged`);
            const pending = items.filter((e) => e.status !== 'success' || !tun.byEvent.has(e.payload?.eventId));
            if (pending.length) why.push(`${pending.length} events undelivered`);
            return { done: why.length === 0, why, events: items };
        }, 25_000).catch((e) => ({ error: e }));
        if (settled.error) problems.push(`jobs did not settle: ${settled.error.message}`);

        for (const id of acked.imports) {
            const s = await importDone(id);
            const op = s?.gitSync?.operation;
            if (!op || op.state !== 'success' || op.commit !== srcOid) {
                lose(`git import into ${id}: ${JSON.stringify(op)}`);
                continue;
            }
            const rev = await get(`/v1/spaces/${id}/content`, 'getCurrentRevision');
            const got = titles(rev.pages);
            if (got.length > 2) double(`git import into ${id}: pages ${got.join(', ')}`);
            else if (got.join('|') !== 'Welcome|Guide') lose(`git import into ${id}: pages ${got.join(', ')}`);
            // applied once: the import's revision sits on the space's first, empty revision
            if (rev.parents?.length === 1) {
                const parent = await raw(server.url, 'GET', `/v1/spaces/${id}/revisions/${rev.parents[0]}`, { token });
                if (parent.status === 200 && parent.json.pages.length !== 0) double(`git import into ${id}: two import revisions`);
            }
        }
        // Exports: each to its own empty repository with its own message. The space's earlier
        // exports may sit below it (an export continues the space's Git history), so count the
        // commits carrying this export's message: one, never two.
        for (const e of acked.exports) {
            let msgs = [];
            try {
                msgs = git(e.repo, 'log', '--format=%s', 'refs/heads/main').split('\n');
            } catch {}
            const k = msgs.filter((m) => m === e.message).length;
            if (k === 0) lose(`git export of ${e.space} to ${e.repo}`);
            if (k > 1) double(`git export to ${e.repo}: ${k} commits "${e.message}"`);
        }
        for (const slug of acked.specs) {
            const v = await raw(server.url, 'GET', `/v1/orgs/${org.id}/openapi/${slug}/versions`, { token });
            if (v.status !== 200) {
                lose(`openapi ${slug} versions (${v.status})`);
                continue;
            }
            if (v.json.items.length === 0) lose(`openapi ${slug}: no version`);
            if (v.json.items.length > 1) double(`openapi ${slug}: ${v.json.items.length} versions`);
        }
        const spaces = (await get(`/v1/orgs/${org.id}/spaces?limit=1000`, 'listSpacesInOrganizationById')).items;
        for (const t of acked.translations) {
            const s = await raw(server.url, 'GET', `/v1/orgs/${org.id}/translations/${t.id}`, { token });
            if (s.status !== 200) {
                lose(`translation ${t.id} (${s.status})`);
                continue;
            }
            if (!t.runs) continue;
            if (s.json.status !== 'completed' || !s.json.result) {
                lose(`translation run ${t.id}: ${s.json.status}`);
                continue;
            }
            if (s.json.stats?.runs > 1) double(`translation run ${t.id}: ${s.json.stats.runs} runs`);
            const rs = spaces.find((x) => x.id === s.json.result.space);
            if (!rs) lose(`translation ${t.id}'s result space`);
            else if (rs.revision !== s.json.result.revision) problems.push(`partial: translation ${t.id}'s result is not its space's revision`);
            else {
                const rev = await get(`/v1/spaces/${rs.id}/revisions/${rs.revision}`, 'getRevisionById');
                if (rev.parents.length === 1) {
                    const first = await get(`/v1/spaces/${rs.id}/revisions/${rev.parents[0]}`, 'getRevisionById');
                    if (first.pages.length !== 0) double(`translation ${t.id}: two result revisions`);
                }
            }
        }
        // Integration events: at least once. A lost one fails; a repeat is counted.
        for (const e of settled.events ?? []) {
            const k = tun.byEvent.get(e.payload?.eventId) ?? 0;
            if (k === 0) lose(`integration event ${e.id} (${e.status})`);
            if (k > 1) duplicateDeliveries += k - 1;
        }
        console.log(`crash round ${n}: killed after ${killAfter} ms; acknowledged ${acknowledged}, lost ${lost}, doubled ${doubled}, ` +
            `repeated deliveries ${duplicateDeliveries} (at least once); imports ${acked.imports.length}, exports ${acked.exports.length}, ` +
            `specs ${acked.specs.length}, translation runs ${acked.translations.filter((x) => x.runs).length}, events ${acked.events + 1}`);
        return { acknowledged, lost, doubled, duplicateDeliveries, problems };
    } finally {
        if (server && !server.exited) await server.stop().catch((e) => problems.push(`stop: ${e.message}`));
        tun.server.close();
        rmSync(root, { recursive: true, force: true });
    }
}

describe('crash safety: kill -9 under a mixed load', { skip: ASAN && 'not under the sanitizer build (the normal build of both engines runs it)' }, () => {
    for (let n = 1; n <= ROUNDS; n++) {
        it(`round ${n}: every acknowledged write is there, no job applied twice`, async () => {
            const r = await round(n);
            assert.deepEqual(r.problems, [], `round ${n}: ${r.problems.length} problems`);
            assert.equal(r.lost, 0);
            assert.equal(r.doubled, 0);
            assert.ok(r.acknowledged > 20, `the load did something (${r.acknowledged} acknowledged writes)`);
        });
    }
});

// The defect the rounds found first (PostgreSQL, round 3): docsd killed while libgit2 wrote a ref
// of a Git mirror left "<ref>.lock" behind, and every later import of that remote by the
// organization failed ("internal error ... it is retried") until it failed for good. Made
// deterministic here: the lock file a kill between libgit2's lock and rename leaves.
describe('crash safety: a Git mirror after a kill', { skip: ASAN && 'not under the sanitizer build' }, () => {
    it('a stale ref lock in the mirror does not fail the next import, and is removed', async () => {
        const root = mkdtempSync(join(tmpdir(), 'docsd-crash-lock-'));
        const server = await startServer({ extraArgs: ['--allow-private-network', '--log-level', 'error'] });
        try {
            const u = await server.createUser(`lock-${uniq(8)}@l${uniq(8)}.example.com`, 'Locker');
            const { org } = await createOrg(server.url, u.token, `Lock ${uniq(6)}`);
            const tree = workTree(root, 'src-tree', FIXTURE, 'Docs');
            const repo = bare(root, 'src', tree);
            const imported = async (title) => {
                const s = await rawOk(server.url, 'POST', `/v1/orgs/${org.id}/spaces`, { token: u.token, json: { title } }, 'createSpace', 201);
                const r = await raw(server.url, 'POST', `/v1/spaces/${s.json.id}/git/import`, { token: u.token, json: { url: `file://${repo}`, ref: 'refs/heads/main' } });
                assert.equal(r.status, 204, r.text);
                const done = await waitFor('the import', async () => {
                    const g = await rawOk(server.url, 'GET', `/v1/spaces/${s.json.id}`, { token: u.token }, 'getSpaceById');
                    const op = g.json.gitSync?.operation;
                    return { done: op && op.state !== 'running', op };
                }, 20_000);
                return done.op;
            };
            const first = await imported('First');
            assert.equal(first.state, 'success', JSON.stringify(first));
            // the organization's mirror of this remote: <data>/git/<org>/<key>.git
            const orgDir = join(server.dataDir, 'git', org.id);
            const mirrors = readdirSync(orgDir).filter((f) => f.endsWith('.git'));
            assert.equal(mirrors.length, 1, `one mirror in ${orgDir}: ${mirrors}`);
            const lock = join(orgDir, mirrors[0], 'refs', 'docsd', 'heads', 'main.lock');
            writeFileSync(lock, '0'.repeat(40) + '\n');
            // a new commit, so that the import must write the mirror's ref
            writeFileSync(join(tree, 'guide.md'), '# Guide\n\nChanged.\n');
            git(tree, 'commit', '-q', '-am', 'Change');
            git(tree, 'push', '-q', repo, 'main');
            const second = await imported('Second');
            assert.equal(second.state, 'success', `the import after a kill: ${JSON.stringify(second)}`);
            assert.equal(second.commit, git(repo, 'rev-parse', 'refs/heads/main'));
            assert.equal(existsSync(lock), false, 'the stale lock is gone');
        } finally {
            await server.stop();
            rmSync(root, { recursive: true, force: true });
        }
    });
});

/** Collects what arrives on sock; `response()` resolves with the first complete response. */
function reader(sock) {
    const chunks = [];
    let ended = false;
    const waiters = [];
    const poke = () => {
        for (const w of waiters.splice(0)) w();
    };
    sock.on('data', (d) => {
        chunks.push(d);
        poke();
    });
    sock.on('close', () => {
        ended = true;
        poke();
    });
    return {
        async response(ms = 10_000) {
            const deadline = Date.now() + ms;
            for (;;) {
                const r = parseResponse(Buffer.concat(chunks), { ended });
                if (r) return { ...r, text: r.body.toString('utf8') };
                if (ended) return { status: 0, closed: true };
                if (Date.now() > deadline) throw new Error('no response');
                await new Promise((res) => {
                    waiters.push(res);
                    setTimeout(res, 100);
                });
            }
        },
        get ended() {
            return ended;
        },
    };
}

// SIGTERM drains (the defect multiprocess.test.mjs's rolling restart found; here on both
// engines): a request in flight when SIGTERM arrives is answered and its write kept; while the
// process drains, /healthz answers 503 on an open connection and new connections are refused.
describe('SIGTERM: requests in flight are answered before the process exits', { skip: ASAN && 'not under the sanitizer build' }, () => {
    it('a body still arriving at SIGTERM is answered 201 and kept; /healthz 503 while draining', async () => {
        let server = await startServer({ extraArgs: ['--log-level', 'error', '--head-timeout', '30'] });
        const dataDir = server.dataDir;
        try {
            const u = await server.createUser(`drain-${uniq(8)}@d${uniq(8)}.example.com`, 'Drainer');
            const { org } = await createOrg(server.url, u.token, `Drain ${uniq(6)}`);
            const title = `Drained ${uniq(6)}`;
            const body = JSON.stringify({ title });
            // a keep-alive connection, idle, opened before the stop
            const idle = await openSocket(server.port);
            const idleR = reader(idle);
            // a request whose head and half its body arrived before SIGTERM
            const slow = await openSocket(server.port);
            const slowR = reader(slow);
            slow.write(`POST /v1/orgs/${org.id}/spaces HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${u.token}\r\n` +
                `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`);
            await sleep(300);
            const exited = new Promise((res) => server.process.once('exit', (code, signal) => res({ code, signal })));
            server.process.kill('SIGTERM');
            await sleep(300);
            // draining: the health check says so on the open connection, which is then closed
            idle.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
            const h = await idleR.response();
            assert.equal(h.status, 503, `healthz while draining: ${h.status} ${h.text}`);
            assert.equal(h.headers.connection, 'close');
            // no new connection is taken
            await assert.rejects(openSocket(server.port, { timeout: 2000 }), /ECONNREFUSED|timed out/);
            // the rest of the body: the request is answered, then the process exits
            slow.write(body.slice(5));
            const r = await slowR.response();
            assert.equal(r.status, 201, `the request in flight at SIGTERM: ${r.status} ${r.text}`);
            const created = JSON.parse(r.text);
            assert.equal(created.title, title);
            assert.deepEqual(await exited, { code: 0, signal: null }, 'a clean exit after the drain');
            idle.destroy();
            slow.destroy();
            await server.stop({ keepData: true });
            // and the write is there after the restart
            server = await startServer({ dataDir, extraArgs: ['--log-level', 'error'] });
            const g = await rawOk(server.url, 'GET', `/v1/spaces/${created.id}`, { token: u.token }, 'getSpaceById');
            assert.equal(g.json.title, title);
        } finally {
            if (server && !server.exited) await server.stop();
        }
    });
});

// The second defect the rounds found (both engines, about one round in three): an export killed
// after its push and before the job's commit ran again on the space's newer content and pushed
// a second commit with the same message for one request. Made deterministic with the test-only
// pause after the push (DOCSD_TEST_GIT_PAUSE), and content merged during the pause.
describe('crash safety: a Git export killed after its push', { skip: ASAN && 'not under the sanitizer build' }, () => {
    it('runs again without a second commit: one commit of its message, the content asked for', async () => {
        const root = mkdtempSync(join(tmpdir(), 'docsd-crash-export-'));
        process.env.DOCSD_TEST_GIT_PAUSE = 'after-push:30000';
        let server;
        try {
            server = await startServer({ extraArgs: ['--allow-private-network'] });
        } finally {
            delete process.env.DOCSD_TEST_GIT_PAUSE;
        }
        const dataDir = server.dataDir;
        try {
            const u = await server.createUser(`exp-${uniq(8)}@e${uniq(8)}.example.com`, 'Exporter');
            const token = u.token;
            const { org } = await createOrg(server.url, token, `Export ${uniq(6)}`);
            const s = (await rawOk(server.url, 'POST', `/v1/orgs/${org.id}/spaces`, { token, json: { title: 'Exported' } }, 'createSpace', 201)).json;
            const merge = async (title) => {
                const cr = await rawOk(server.url, 'POST', `/v1/spaces/${s.id}/change-requests`, { token, json: { subject: title } }, 'createChangeRequest', 201);
                const w = await raw(server.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.json.id}/content`, {
                    token, json: { changes: [{ operation: 'insert_page', title, document: { markdown: `Text of ${title}.\n` } }] },
                });
                assert.equal(w.status, 200, w.text);
                const m = await rawOk(server.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.json.id}/merge`, { token, json: {} }, 'mergeChangeRequest');
                assert.equal(m.json.result, 'merge');
            };
            await merge('Before');
            const out = bare(root, 'out');
            const message = `Export ${uniq(8)}`;
            const r = await raw(server.url, 'POST', `/v1/spaces/${s.id}/git/export`, { token, json: { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: message } });
            assert.equal(r.status, 204, r.text);
            await waitFor('the export to pause after its push', async () => ({ done: readFileSync(server.logFile, 'utf8').includes('pausing') }), 20_000);
            assert.equal(git(out, 'log', '-1', '--format=%s', 'refs/heads/main'), message, 'pushed before the kill');
            // new content while the export's job is not yet done (its merge queues an export of its own)
            await merge('After');
            server.process.kill('SIGKILL');
            await waitFor('docsd to die', async () => ({ done: !!server.exited }), 5_000);
            server = await startServer({ dataDir, extraArgs: ['--allow-private-network', '--clock-offset-ms', String(LEASE_SKIP_MS)] });
            // both exports (the request's, run again, and the merge's) done
            await waitFor('the exports to finish', async () => {
                const l = await runCli(['job', 'list', ...server.storageArgs(), '--kind', 'git.export']);
                const jobs = l.stdout.trim().split('\n').filter(Boolean).map((x) => JSON.parse(x)).filter((j) => j.subject === s.id);
                return { done: jobs.length === 2 && jobs.every((j) => j.state === 'done'), why: jobs };
            }, 30_000);
            const subjects = git(out, 'log', '--format=%s', 'refs/heads/main').split('\n');
            assert.equal(subjects.filter((x) => x === message).length, 1, `one commit "${message}": ${subjects.join(' | ')}`);
            // the export's commit holds the content asked for; the merge's export the later page
            const files = (ref) => git(out, 'ls-tree', '-r', '--name-only', ref).split('\n').sort();
            const mine = git(out, 'log', '--format=%H %s', 'refs/heads/main').split('\n').find((l) => l.endsWith(` ${message}`)).split(' ')[0];
            assert.ok(!files(mine).some((f) => /after/i.test(f)), `the export's commit has only the content asked for: ${files(mine)}`);
            assert.ok(files('refs/heads/main').some((f) => /after/i.test(f)), 'the merge\'s own export carries the later page');
        } finally {
            if (server && !server.exited) await server.stop();
            rmSync(root, { recursive: true, force: true });
        }
    });
});

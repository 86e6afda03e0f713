// Several docsd processes on one PostgreSQL database (issue 32), behind the test's own round-robin
// balancer, as a team runs docsd behind a load balancer (README, "Running several processes"):
//   - the shared job queue: jobs enqueued through every process each run once (none lost, none
//     run twice), and work queued by a request (OpenAPI processing) is done once;
//   - the caches of one process never serve what another changed: write on A, read on B at once
//     (the organization's list pages, a space's revision, a page's rendering, a published site's
//     page, a session signed out, a token revoked);
//   - a rolling restart of each process while the others serve: the balancer takes the process
//     out of rotation, then SIGTERM drains what it has in flight; 0 failed requests.
// MP_PROCS processes (2 in the test command; bench/multiprocess.sh measures 1, 2 and 4). PostgreSQL
// only: SQLite is one process's file (the file is skipped on SQLite).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, runCli, uniq, DATABASE_URL } from './lib/server.mjs';
import { raw, rawOk, createOrg, sleep } from './lib/api.mjs';
import { setPassword, signIn, FORM, HTML, PASSWORD } from './lib/app.mjs';

const PROCS = Number(process.env.MP_PROCS || 2);
process.env.DOCSD_TEST_JOBS = '1'; // the test-only job kind (jobs.test.mjs)
const KIND = 'test.sleep-then-write';
const ARGS = ['--job-workers', '2', '--log-level', 'error'];

/**
 * The balancer: round robin over the processes in rotation. `out(i)` takes one out (a real
 * balancer stops sending new requests there before the process is stopped), `in(i)` puts it back.
 */
function balancer(servers) {
    let next = 0;
    const rotation = new Set(servers.map((_, i) => i));
    return {
        rotation,
        out: (i) => rotation.delete(i),
        in: (i) => rotation.add(i),
        /** The next process in rotation (its index). */
        pick() {
            const live = [...rotation].sort();
            assert.ok(live.length > 0, 'a process in rotation');
            return live[next++ % live.length];
        },
        request(method, path, opts) {
            const i = this.pick();
            return raw(servers[i].url, method, path, opts).then((r) => ({ ...r, proc: i }));
        },
    };
}

async function waitFor(what, fn, ms) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(150);
    }
}

const titles = (pages) => (pages ?? []).flatMap((p) => [p.title, ...titles(p.pages)]);

describe('several docsd processes on one PostgreSQL', () => {
    if (!DATABASE_URL) {
        // shown as skipped in the SQLite stage; the PostgreSQL stage runs it
        it('runs on PostgreSQL only (DOCSD_TEST_DATABASE)', { skip: 'SQLite is one process\'s file' }, () => {});
        return;
    }
    const servers = [];
    let lb, u, token, org, space;

    before(async () => {
        for (let i = 0; i < PROCS; i++) servers.push(await startServer({ extraArgs: ARGS }));
        lb = balancer(servers);
        const email = `mp-${uniq(8)}@m${uniq(8)}.example.com`;
        u = await servers[0].createUser(email, 'Multi Process');
        token = u.token;
        ({ org } = await createOrg(servers[0].url, token, `Multi ${uniq(6)}`));
        space = (await rawOk(servers[0].url, 'POST', `/v1/orgs/${org.id}/spaces`, { token, json: { title: 'Shared' } }, 'createSpace', 201)).json;
        await setPassword(servers[0], email, PASSWORD);
    });
    after(async () => {
        for (const s of servers) if (s && !s.exited) await s.stop();
    });

    /** A change request on `on` that inserts a page titled `title`, merged. */
    async function merged(on, spaceId, title, markdown = `Text of ${title}.\n`) {
        const url = servers[on].url;
        const cr = await rawOk(url, 'POST', `/v1/spaces/${spaceId}/change-requests`, { token, json: { subject: title } }, 'createChangeRequest', 201);
        const w = await raw(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.json.id}/content`, {
            token, json: { changes: [{ operation: 'insert_page', title, document: { markdown } }] },
        });
        assert.equal(w.status, 200, w.text);
        const m = await rawOk(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.json.id}/merge`, { token, json: {} }, 'mergeChangeRequest');
        assert.equal(m.json.result, 'merge');
        return m.json.revision;
    }

    it('the shared job queue: every job runs once, on some process, none lost, none twice', async () => {
        // enqueued through every process's CLI view of the one database, while all of them work
        const subjects = Array.from({ length: 24 }, (_, i) => `mp-${uniq(10)}-${i}`);
        const ids = [];
        for (const subject of subjects) {
            const r = await runCli(['job', 'enqueue', ...servers[ids.length % PROCS].storageArgs(), '--kind', KIND, '--subject', subject, '--payload', '{"ms":50}']);
            assert.equal(r.code, 0, r.stderr);
            ids.push(JSON.parse(r.stdout).id);
        }
        // OpenAPI processing queued by requests spread over the processes
        const slugs = Array.from({ length: 6 }, () => `mp-${uniq(8)}`);
        const petstore = JSON.stringify({ openapi: '3.0.0', info: { title: 'Pets', version: '1' }, paths: {} });
        for (const slug of slugs) {
            const r = await lb.request('POST', `/v1/orgs/${org.id}/openapi`, { token, json: { slug, source: { text: petstore } } });
            assert.equal(r.status, 201, r.text);
        }
        const jobs = await waitFor('the jobs to finish', async () => {
            const r = await runCli(['job', 'list', ...servers[0].storageArgs(), '--kind', KIND]);
            assert.equal(r.code, 0, r.stderr);
            const mine = r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((j) => ids.includes(j.id));
            return mine.length === ids.length && mine.every((j) => j.state === 'done') ? mine : null;
        }, 30_000);
        for (const j of jobs) {
            assert.equal(j.attempts, 1, `job ${j.id} ran once: ${JSON.stringify(j)}`);
            assert.deepEqual(j.result, { count: 1 }, `job ${j.id}'s effect applied once`);
        }
        for (const slug of slugs) {
            await waitFor(`spec ${slug} processed`, async () => {
                const s = await lb.request('GET', `/v1/orgs/${org.id}/openapi/${slug}`, { token });
                return s.json?.processingState === 'complete';
            }, 20_000);
            const v = await lb.request('GET', `/v1/orgs/${org.id}/openapi/${slug}/versions`, { token });
            assert.equal(v.status, 200, v.text);
            assert.equal(v.json.items.length, 1, `spec ${slug}: one processed version`);
        }
    });

    it('caches: what A changed, B serves at once (lists, revisions, renderings, published pages)', async () => {
        const [A, B] = [0, PROCS - 1];
        const get = (i, path, op) => rawOk(servers[i].url, 'GET', path, { token }, op).then((r) => r.json);
        // the organization's space list (the page cache, validated by the shared generation)
        const before = await get(B, `/v1/orgs/${org.id}/spaces`, 'listSpacesInOrganizationById');
        await get(B, `/v1/orgs/${org.id}/spaces`, 'listSpacesInOrganizationById'); // cached now
        const s2 = (await rawOk(servers[A].url, 'POST', `/v1/orgs/${org.id}/spaces`, { token, json: { title: `New ${uniq(4)}` } }, 'createSpace', 201)).json;
        const after1 = await get(B, `/v1/orgs/${org.id}/spaces`, 'listSpacesInOrganizationById');
        assert.ok(after1.items.some((x) => x.id === s2.id), 'B lists the space A created');
        assert.equal(after1.items.length, before.items.length + 1);
        // a title changed on A
        await rawOk(servers[A].url, 'PATCH', `/v1/spaces/${s2.id}`, { token, json: { title: 'Renamed on A' } }, 'updateSpaceById');
        assert.equal((await get(B, `/v1/spaces/${s2.id}`, 'getSpaceById')).title, 'Renamed on A');

        // a space's current revision and a page's rendering (the revision cache on B)
        const r1 = await merged(A, space.id, 'First page');
        const seen = await get(B, `/v1/spaces/${space.id}/content`, 'getCurrentRevision');
        assert.equal(seen.id, r1);
        const page = seen.pages.find((p) => p.title === 'First page');
        const md1 = await get(B, `/v1/spaces/${space.id}/content/page/${page.id}?format=markdown`, 'getPageById');
        assert.match(md1.markdown, /Text of First page/);
        const r2 = await merged(A, space.id, 'Second page');
        const seen2 = await get(B, `/v1/spaces/${space.id}/content`, 'getCurrentRevision');
        assert.equal(seen2.id, r2, 'B serves the revision A merged, at once');
        assert.deepEqual(titles(seen2.pages), ['First page', 'Second page']);

        // a published site's page (the site cache on B)
        const basename = `mp-${uniq(8)}`;
        const site = (await rawOk(servers[A].url, 'POST', `/v1/orgs/${org.id}/sites`, { token, json: { title: 'Multi site' } }, 'createSite', 201)).json;
        await rawOk(servers[A].url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces`, { token, json: { spaceId: space.id } }, 'addSpaceToSite', 201);
        await rawOk(servers[A].url, 'PATCH', `/v1/orgs/${org.id}/sites/${site.id}`, { token, json: { basename } }, 'updateSiteById');
        await rawOk(servers[A].url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, { token, json: {} }, 'publishSite');
        const html = (i, path) => raw(servers[i].siteUrl, 'GET', `/sites/${basename}${path}`, { headers: HTML });
        let p = await html(B, '/');
        assert.equal(p.status, 200, p.text.slice(0, 300));
        assert.match(p.text, /Text of First page/);
        assert.equal((await html(B, '/')).status, 200); // rendered and kept on B
        await merged(A, space.id, 'Third page', 'Quokka on the third page.\n');
        // the first page is still the site's landing page; its navigation lists the new one
        p = await html(B, '/');
        assert.match(p.text, /Third page/, 'B renders the navigation of the revision A merged');
        const third = await html(B, '/third-page');
        assert.equal(third.status, 200);
        assert.match(third.text, /Quokka on the third page/);
        // unpublished on A: B stops serving it at once
        await rawOk(servers[A].url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/unpublish`, { token, json: {} }, 'unpublishSite');
        assert.equal((await html(B, '/')).status, 404, 'B does not serve a site A unpublished');
    });

    it('sessions: signed out on A, the cookie is refused on B at once', async () => {
        const [A, B] = [0, PROCS - 1];
        const s = await signIn(servers[A].url, u.email, PASSWORD);
        const home = await raw(servers[B].url, 'GET', '/', { headers: { ...HTML, Cookie: s.cookie } });
        assert.equal(home.status, 200, 'the session works on B');
        const out = await raw(servers[A].url, 'POST', '/signout', { body: new URLSearchParams({ csrf: s.csrf }).toString(), headers: { ...FORM, Cookie: s.cookie } });
        assert.equal(out.status, 303, out.text.slice(0, 200));
        const after2 = await raw(servers[B].url, 'GET', '/', { headers: { ...HTML, Cookie: s.cookie } });
        assert.notEqual(after2.status, 200, 'B does not serve the signed-out session');
        assert.doesNotMatch(after2.text, new RegExp(u.email.replace(/[.]/g, '\\.')));
    });

    it('tokens: revoked on A, refused on B at once', async () => {
        const [A, B] = [0, PROCS - 1];
        const s = await signIn(servers[A].url, u.email, PASSWORD);
        const fresh = await servers[A].createToken(u.email);
        assert.equal((await raw(servers[B].url, 'GET', '/v1/user', { token: fresh })).status, 200); // cached on B now
        const list = await raw(servers[A].url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: s.cookie } });
        assert.equal(list.status, 200);
        const ids = [...list.text.matchAll(/\/settings\/tokens\/([A-Za-z0-9]+)\/revoke/g)].map((m) => m[1]);
        assert.ok(ids.length >= 1, 'the tokens page lists the tokens');
        for (const id of ids) {
            const r = await raw(servers[A].url, 'POST', `/settings/tokens/${id}/revoke`, { body: new URLSearchParams({ csrf: s.csrf }).toString(), headers: { ...FORM, Cookie: s.cookie } });
            assert.ok([200, 303].includes(r.status), `revoke: ${r.status}`);
        }
        assert.equal((await raw(servers[A].url, 'GET', '/v1/user', { token: fresh })).status, 401, 'A refuses the revoked token');
        // Each process's token cache checks the user's token generation in the store
        // (src/http/tokens.c): B refuses the revoked token at its very next request.
        const onB = await raw(servers[B].url, 'GET', '/v1/user', { token: fresh });
        assert.equal(onB.status, 401, 'B refuses the token revoked on A');
        // the tokens were all revoked: a new one for the rest of the file
        token = await servers[A].createToken(u.email);
    });

    it('a rolling restart of each process while the others serve: 0 failed requests', async () => {
        token = await servers[0].createToken(u.email);
        let stop = false;
        let sent = 0;
        const failed = [];
        const byProc = new Map();
        // A mixed load: reads of lists, revisions and spaces; writes (spaces, comments).
        const load = async () => {
            while (!stop) {
                const k = sent++ % 4;
                const req = k === 0 ? ['POST', `/v1/orgs/${org.id}/spaces`, { token, json: { title: `Roll ${uniq(4)}` } }, 201]
                    : k === 1 ? ['POST', `/v1/spaces/${space.id}/comments`, { token, json: { body: { markdown: 'During the restart' } } }, 201]
                        : k === 2 ? ['GET', `/v1/spaces/${space.id}/content`, { token }, 200]
                            : ['GET', `/v1/orgs/${org.id}/spaces`, { token }, 200];
                try {
                    const r = await lb.request(req[0], req[1], req[2]);
                    byProc.set(r.proc, (byProc.get(r.proc) ?? 0) + 1);
                    if (r.status !== req[3]) failed.push(`${req[0]} ${req[1]}: ${r.status} ${r.text.slice(0, 200)}`);
                } catch (e) {
                    failed.push(`${req[0]} ${req[1]}: ${e.message}`);
                }
            }
        };
        const loops = Array.from({ length: 6 }, load);
        try {
            await sleep(500);
            for (let i = 0; i < PROCS; i++) {
                // out of rotation, then SIGTERM right away: the requests it has in flight drain
                lb.out(i);
                const old = servers[i];
                await old.stop({ keepData: true });
                servers[i] = await startServer({ dataDir: old.dataDir, extraArgs: ARGS });
                lb.in(i);
                await sleep(500);
            }
        } finally {
            stop = true;
            await Promise.all(loops);
        }
        assert.deepEqual(failed, [], `${failed.length} of ${sent} requests failed`);
        assert.ok(sent > 100, `the load ran (${sent} requests)`);
        for (let i = 0; i < PROCS; i++) assert.ok((byProc.get(i) ?? 0) > 0, `process ${i} served`);
    });
});

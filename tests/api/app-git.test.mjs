// The web interface's Git sync page (issue 25, src/app/pages_git.c): /s/{spaceId}/~/git shows the
// space's link and last operation (dom_git_info), and its Import / Export forms and Unlink button
// call the API's domain functions (dom_git_sync_start, dom_git_link_remove). An import over HTTP
// with user:token in the URL, held by the Git server: the page shows "running" and reloads
// itself (<meta http-equiv="refresh">); released, it shows success without the reload and the
// space has the pages (read back with the official client); the token appears in no page and
// not in the log. An export to a bare repository on disk; a failing import's error on the page.
// Hostile cases: another organization's member (404 page, nothing queued), no or a wrong CSRF
// token (403, nothing queued), a reader (no forms; POSTs refused with 403, nothing queued),
// malformed or oversized fields (400 page naming the field, the typed URL not echoed). The optional
// repoTreeURL and repoCommitURL fields: the tree URL becomes GitSyncState.url, the commit URL the
// revision's git.url (read back with the client); not http(s) or too long: 400 naming the field.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { DATABASE_URL } from './lib/server.mjs';
import { raw, ok, createOrg, addMember, sleep } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';
import { git, workTree, bare, gitHttpBackend } from './lib/git.mjs';

const FIXTURE = {
    'README.md': '# Welcome\n\nStart with the [guide](guide/README.md).\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n',
    'guide/README.md': '# Guide\n\nRead on.\n',
};
const REFRESH = '<meta http-equiv="refresh" content="2">';

/** git http-backend over root behind basic auth; while `gate` is set, requests wait for it. */
function gitHttpServer(root, auth) {
    const s = { gate: null, seen: 0 };
    const server = http.createServer(async (req, res) => {
        s.seen++;
        if (s.gate) await s.gate;
        const want = `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}`;
        if (req.headers.authorization !== want) {
            res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
            res.end();
            return;
        }
        gitHttpBackend(root, req, res, auth.user);
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(Object.assign(s, { server, port: server.address().port }))));
}

describe('web interface: a space\'s Git sync', () => {
    let ctx, alice, bob, eve, org, root, gh, aliceS, bobS, eveS;
    const SECRET = `tok-${Date.now().toString(36)}-app-s3cret`;
    const bodies = []; // every page body seen, checked for SECRET at the end

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        bodies.push(r.text);
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = async (who, path, fields, csrf = who.csrf) => {
        const r = await raw(ctx.url, 'POST', path, {
            body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
            headers: { ...FORM, Cookie: who.cookie },
        });
        bodies.push(r.text);
        return r;
    };
    const gitSync = async (spaceId) => (await ok(alice.api.spaces.getSpaceById(spaceId), 'getSpaceById')).gitSync;
    const newSpace = (title) => ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    /** The page once the last operation is no longer running. */
    async function settled(spaceId, ms = 30_000) {
        const deadline = Date.now() + ms;
        for (;;) {
            const r = await page(aliceS, `/s/${spaceId}/~/git`);
            if (!/id="git-state">running</.test(r.text)) return r.text;
            if (Date.now() > deadline) assert.fail(`the Git sync of ${spaceId} did not finish`);
            await sleep(100);
        }
    }

    before(async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-app-git-'));
        ctx = await setup({ extraArgs: ['--allow-private-network', ...(DATABASE_URL ? ['--data', join(root, 'data')] : [])] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `App Git ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await createOrg(ctx.url, eve.token, `Eve Git ${ctx.run}`);
        for (const u of [alice, bob, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        eveS = await signIn(ctx.url, eve.email, PASSWORD);
        const httpRoot = join(root, 'http');
        mkdirSync(httpRoot);
        bare(httpRoot, 'docs', workTree(root, 'docs-src', FIXTURE));
        gh = await gitHttpServer(httpRoot, { user: 'bot', pass: SECRET });
    });
    after(async () => {
        gh?.server.close();
        await ctx?.server.stop();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('not linked: the settings page links the Git page; an editor gets the forms, a reader none; signed out: /signin', async () => {
        const s = await newSpace('Unlinked');
        const settings = await page(aliceS, `/s/${s.id}/~/settings`);
        assert.ok(settings.text.includes(`href="/s/${s.id}/~/git"`), 'the settings page links the Git page');
        const a = await page(aliceS, `/s/${s.id}/~/git`);
        assert.match(a.text, /not linked to a Git repository/);
        assert.ok(a.text.includes(`action="/s/${s.id}/~/git/import"`) && a.text.includes(`action="/s/${s.id}/~/git/export"`));
        assert.ok(!a.text.includes('/~/git/unlink'), 'nothing to unlink');
        assert.ok(!a.text.includes(REFRESH));
        assert.match(a.text, /<label for="imp-url">/);
        const b = await page(bobS, `/s/${s.id}/~/git`);
        assert.match(b.text, /not linked/);
        assert.ok(!b.text.includes('<form method="post" action="/s/'), 'a reader has no Git form');
        const out = await raw(ctx.url, 'GET', `/s/${s.id}/~/git`, { headers: HTML });
        assert.equal(out.status, 303);
        assert.equal(out.headers.location, `/signin?next=/s/${s.id}/~/git`);
    });

    let imported;
    it('imports over HTTP with a token in the URL: running and reloading while the server holds, then success with the pages', async () => {
        imported = await newSpace('Imported');
        let release;
        gh.gate = new Promise((r) => (release = r));
        try {
            const r = await post(aliceS, `/s/${imported.id}/~/git/import`, { url: `http://bot:${SECRET}@127.0.0.1:${gh.port}/docs.git`, ref: 'main' });
            assert.equal(r.status, 303, r.text.slice(0, 400));
            assert.equal(r.headers.location, `/s/${imported.id}/~/git`);
            const during = await page(aliceS, `/s/${imported.id}/~/git`);
            assert.match(during.text, /id="git-state">running</);
            assert.ok(during.text.includes(REFRESH), 'the page reloads itself while the import runs');
            assert.ok(during.text.indexOf(REFRESH) < during.text.indexOf('</head>'), 'in the head');
            assert.match(during.text, /reloads itself until it is done/);
            const op = (await gitSync(imported.id)).operation;
            assert.equal(op.state, 'running');
            assert.equal(op.direction, 'import');
        } finally {
            gh.gate = null;
            release();
        }
        const text = await settled(imported.id);
        assert.match(text, /id="git-state">success</);
        assert.ok(!text.includes(REFRESH), 'no reload once done');
        assert.ok(!text.includes('id="git-error"'));
        assert.ok(text.includes(`http://127.0.0.1:${gh.port}/docs.git`), 'the repository without its credentials');
        assert.ok(gh.seen > 0);
        const gs = await gitSync(imported.id);
        assert.equal(gs.operation.state, 'success');
        const rev = await ok(alice.api.spaces.getCurrentRevision(imported.id), 'getCurrentRevision');
        assert.deepEqual(rev.pages.map((p) => p.title), ['Welcome', 'Guide']);
        assert.ok(text.includes(`action="/s/${imported.id}/~/git/unlink"`), 'an admin may unlink');
        // a reader sees the state, no form
        const b = await page(bobS, `/s/${imported.id}/~/git`);
        assert.match(b.text, /id="git-state">success</);
        assert.ok(!b.text.includes('/~/git/import"') && !b.text.includes('/~/git/unlink"'));
    });

    it('exports through the form to a bare repository', async () => {
        const target = bare(root, 'target');
        const form = (await page(aliceS, `/s/${imported.id}/~/git`)).text;
        assert.match(form, /<label for="exp-tree">Tree URL[^<]*<\/label><br><input id="exp-tree" name="repoTreeURL" type="url"/);
        assert.match(form, /<label for="imp-commit">Commit URL[^<]*<\/label><br><input id="imp-commit" name="repoCommitURL" type="url"/);
        const tree = 'https://git.example.com/o/docs/tree/main', commitUrl = 'https://git.example.com/o/docs/commit/';
        const r = await post(aliceS, `/s/${imported.id}/~/git/export`, {
            url: `file://${target}`, ref: 'refs/heads/main', commitMessage: 'From the web <interface>', repoTreeURL: tree, repoCommitURL: commitUrl,
        });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        const text = await settled(imported.id);
        assert.match(text, /<dt>Direction<\/dt><dd>export</);
        assert.match(text, /id="git-state">success</);
        assert.equal(git(target, 'log', '-1', '--format=%s', 'main'), 'From the web <interface>');
        assert.ok(git(target, 'ls-tree', '-r', '--name-only', 'main').split('\n').includes('README.md'));
        // the tree URL is the link people see (GitSyncState.url), on the page and through the API
        assert.equal((await gitSync(imported.id)).url, tree);
        assert.match(text, new RegExp(`<dt>Repository</dt><dd>${tree}</dd>`));
        // an import with a commit URL: the revision's commit links to it
        const copy = await newSpace('Copy');
        assert.equal((await post(aliceS, `/s/${copy.id}/~/git/import`, { url: `file://${target}`, ref: 'main', repoCommitURL: commitUrl })).status, 303);
        assert.match(await settled(copy.id), /id="git-state">success</);
        const rev = await ok(alice.api.spaces.getCurrentRevision(copy.id), 'getCurrentRevision');
        const oid = git(target, 'rev-parse', 'main');
        assert.equal(rev.git?.url, `${commitUrl}${oid}`, JSON.stringify(rev.git));
        assert.equal((await gitSync(copy.id)).url, `file://${target}`, 'no tree URL: the remote');
    });

    it('a failing import (an address that does not resolve) shows its error, without reloading', async () => {
        const s = await newSpace('Failing');
        const r = await post(aliceS, `/s/${s.id}/~/git/import`, { url: `https://nonexistent-${ctx.run}.invalid/repo.git`, ref: 'main', dir: 'docs' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        const text = await settled(s.id);
        assert.match(text, /id="git-state">failure</);
        assert.match(text, /id="git-error"><p><strong>Error:<\/strong> [^<]+</);
        assert.ok(!text.includes(REFRESH));
        const op = (await gitSync(s.id)).operation;
        assert.equal(op.state, 'failure');
        assert.ok(text.includes(op.error.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'))
            || text.includes(op.error), 'the domain\'s error is on the page');
        assert.equal((await ok(alice.api.spaces.getCurrentRevision(s.id), 'getCurrentRevision')).pages.length, 0, 'no content changed');
    });

    it('hostile: another organization, no or a wrong CSRF token, a reader: refused and nothing queued', async () => {
        const before = JSON.stringify(await gitSync(imported.id));
        const body = { url: `file://${join(root, 'target.git')}`, ref: 'main' };
        await page(eveS, `/s/${imported.id}/~/git`, 404);
        for (const path of ['import', 'export', 'unlink']) {
            const e = await post(eveS, `/s/${imported.id}/~/git/${path}`, { ...body, commitMessage: 'x' });
            assert.equal(e.status, 404, `eve ${path}: ${e.status}`);
            assert.match(e.text, /There is nothing here/);
            const none = await post(aliceS, `/s/${imported.id}/~/git/${path}`, { ...body, commitMessage: 'x' }, null);
            assert.equal(none.status, 403, `no token ${path}`);
            const wrong = await post(aliceS, `/s/${imported.id}/~/git/${path}`, { ...body, commitMessage: 'x' }, 'f'.repeat(64));
            assert.equal(wrong.status, 403, `wrong token ${path}`);
            const reader = await post(bobS, `/s/${imported.id}/~/git/${path}`, { ...body, commitMessage: 'x' });
            assert.equal(reader.status, 403, `reader ${path}: ${reader.status} ${reader.text.slice(0, 300)}`);
            assert.match(reader.text, /role="alert"/);
            assert.ok(!reader.text.includes('/~/git/import"'), 'still no form for the reader');
        }
        await page(eveS, `/s/nosuchspace/~/git`, 404);
        assert.equal(JSON.stringify(await gitSync(imported.id)), before, 'nothing was queued or changed');
    });

    it('malformed or oversized fields: 400 naming the field, the typed URL (and its token) not echoed', async () => {
        const s = await newSpace('Malformed');
        const url = `http://bot:${SECRET}@127.0.0.1:${gh.port}/docs.git`;
        const cases = [
            [`/s/${s.id}/~/git/import`, { url, ref: 'a..b' }, /ref: /],
            [`/s/${s.id}/~/git/import`, { url, ref: '' }, /ref: required/],
            [`/s/${s.id}/~/git/import`, { url: 'ssh://git@example.com/a.git', ref: 'main' }, /url: /],
            [`/s/${s.id}/~/git/import`, { ref: 'main' }, /url: required/],
            [`/s/${s.id}/~/git/import`, { url: `https://example.com/${'a'.repeat(3000)}.git`, ref: 'main' }, /url: at most 2048/],
            [`/s/${s.id}/~/git/import`, { url, ref: 'main', dir: '../etc' }, /repoProjectDirectory: /],
            [`/s/${s.id}/~/git/export`, { url, ref: 'main', commitMessage: '' }, /commitMessage: required/],
            [`/s/${s.id}/~/git/export`, { url, ref: `main${'x'.repeat(300)}`, commitMessage: 'm' }, /ref: at most 255/],
            [`/s/${s.id}/~/git/import`, { url, ref: 'main', repoTreeURL: 'javascript:alert(1)' }, /repoTreeURL: must be an http or https URL/],
            [`/s/${s.id}/~/git/export`, { url, ref: 'main', commitMessage: 'm', repoCommitURL: 'ftp://x/' }, /repoCommitURL: must be an http or https URL/],
            [`/s/${s.id}/~/git/import`, { url, ref: 'main', repoCommitURL: `https://e.com/${'c'.repeat(2048)}` }, /repoCommitURL: at most 2048/],
            [`/s/${s.id}/~/git/import`, { url, ref: 'main', repoTreeURL: `https://e.com/${'t'.repeat(2048)}` }, /repoTreeURL: at most 2048/],
        ];
        for (const [path, fields, message] of cases) {
            const r = await post(aliceS, path, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields).slice(0, 100)}: ${r.status} ${r.text.slice(0, 300)}`);
            assert.match(r.text, message);
            assert.match(r.text, /role="alert"/);
            assert.ok(r.text.includes('name="url"') && r.text.includes('value=""'), 'the form again, its URL empty');
        }
        const echoed = await post(aliceS, `/s/${s.id}/~/git/import`, { url, ref: 'main', repoTreeURL: 'javascript:<x>' });
        assert.match(echoed.text, /<details open><summary>[^]*name="repoTreeURL" [^>]*value="javascript:&lt;x&gt;"/, 'what was typed comes back, escaped');
        const bad = await post(aliceS, `/s/${s.id}/~/git/import`, `csrf=${aliceS.csrf}&url=%ZZ&ref=main`, null);
        assert.equal(bad.status, 400);
        assert.match(bad.text, /url: malformed form data/);
        assert.equal(await gitSync(s.id), undefined, 'nothing was linked');
    });

    it('unlinks: the page says not linked and git/info is 404; the token is in no page and not in the log', async () => {
        const r = await post(aliceS, `/s/${imported.id}/~/git/unlink`, {});
        assert.equal(r.status, 303);
        assert.match((await page(aliceS, `/s/${imported.id}/~/git`)).text, /not linked to a Git repository/);
        const info = await raw(ctx.url, 'GET', `/v1/spaces/${imported.id}/git/info`, { token: alice.token });
        assert.equal(info.status, 404);
        const again = await post(aliceS, `/s/${imported.id}/~/git/unlink`, {});
        assert.equal(again.status, 303, 'unlinking what is not linked changes nothing');
        assert.ok(bodies.length > 20);
        for (const t of bodies) assert.ok(!t.includes(SECRET), 'the token never appears in a page');
        assert.ok(!readFileSync(ctx.server.logFile, 'utf8').includes(SECRET), 'nor in the log');
    });
});

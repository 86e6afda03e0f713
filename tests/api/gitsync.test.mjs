// Git sync (issue 13): the four operations (import, export, info, legacy installation) against
// bare repositories made with the git CLI in a temporary directory, served from disk (file://,
// accepted with --allow-private-network) and over HTTP by a small Node server running
// `git http-backend` on 127.0.0.1. Every answer is validated against GitBook's schemas; the state
// after each job is read back through Space.gitSync, git/info and the content.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { startServer, runCli, DATABASE_URL } from './lib/server.mjs';
import { ok, empty, raw, rawOk, createOrg, addMember, expectError, sleep, client } from './lib/api.mjs';
import { validateComponent } from './lib/schema.mjs';
import { git, workTree, bare, gitHttpBackend } from './lib/git.mjs';

/** On PostgreSQL the store needs no data directory, but Git sync keeps its mirrors under
 * --data: give it one in the test's temporary directory (on SQLite the harness passes --data). */
const mirrorArgs = (dir) => (DATABASE_URL ? ['--data', dir] : []);

// A 1x1 PNG.
const PNG = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a1d3f1a40000000049454e44ae426082',
    'hex',
);

// The fixture in GitBook's layout: nested pages, a group, an image, links, front matter.
const FIXTURE = {
    'README.md': '# Welcome\n\nStart with the [guide](guide/README.md) or the [API](reference/api.md).\n\n![Logo](.gitbook/assets/logo.png)\n',
    'SUMMARY.md':
        '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n    * [On Linux](guide/install/linux.md)\n  * [Configure](guide/configure.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [Changelog](https://example.com/changelog)\n',
    'guide/README.md': '# Guide\n\nRead [Install](install.md) first.\n',
    'guide/install.md': '---\ndescription: Getting docsd running\nhidden: true\n---\n\n# Install\n\nSteps.\n\n![Logo again](../.gitbook/assets/logo.png)\n',
    'guide/install/linux.md': '# On Linux\n\n```sh\napt-get install docsd\n```\n',
    'guide/configure.md': '---\ndescription: Flags and variables\n---\n\n# Configure\n\n| flag | meaning |\n| --- | --- |\n| `--data` | where |\n',
    'reference/api.md': '# API\n\nSee [the guide](../guide/README.md).\n',
    '.gitbook/assets/logo.png': PNG,
};

/** Pages as comparable plain data: titles, kinds, slugs, what front matter holds, and markdown
 * whose /pages/<id> and /files/<id> links are replaced by the target's path or file name. */
function normalize(rev) {
    const byId = new Map();
    const walkIds = (pages) => pages.forEach((p) => {
        byId.set(p.id, p.path ?? p.slug);
        if (p.pages) walkIds(p.pages);
    });
    walkIds(rev.pages);
    const fileName = new Map(rev.files.map((f) => [f.id, f.name]));
    const md = (s) => s && s.replace(/\/pages\/([A-Za-z0-9]+)/g, (_, id) => `/pages/${byId.get(id) ?? '?'}`)
        .replace(/\/files\/([A-Za-z0-9]+)/g, (_, id) => `/files/${fileName.get(id) ?? '?'}`);
    const one = (p) => ({
        title: p.title, type: p.type, slug: p.slug, description: p.description ?? null, hidden: p.hidden ?? false,
        href: p.href ?? null, markdown: md(p.markdown) ?? null, pages: (p.pages ?? []).map(one),
    });
    return { pages: rev.pages.map(one), files: rev.files.map((f) => f.name).sort() };
}

function titles(pages, depth = 0) {
    return pages.flatMap((p) => [`${'  '.repeat(depth)}${p.title}`, ...titles(p.pages ?? [], depth + 1)]);
}

/** A Node HTTP server running `git http-backend` (CGI) over root; with auth, it wants those
 * basic credentials on every request (and enables pushes, as REMOTE_USER does). */
function gitHttpServer(root, auth) {
    const seen = [];
    const server = http.createServer((req, res) => {
        seen.push({ url: req.url, authorization: req.headers.authorization ?? null });
        if (auth) {
            const want = `Basic ${Buffer.from(`${auth.user}:${auth.pass}`).toString('base64')}`;
            if (req.headers.authorization !== want) {
                res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="git"' });
                res.end();
                return;
            }
        }
        gitHttpBackend(root, req, res, auth ? auth.user : '');
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, seen })));
}

describe('git sync', () => {
    let ctx, alice, bob, org, root, api;
    const SECRET = `tok-${Date.now().toString(36)}-s3cret`;

    const getSpace = (id, who = alice) => ok(who.api.spaces.getSpaceById(id), 'getSpaceById');
    const info = (id) => ok(api.spaces.getSpaceGitInfo(id), 'getSpaceGitInfo');
    const revision = (id) => ok(api.spaces.getCurrentRevision(id), 'getCurrentRevision');
    const newSpace = async (title) => ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    const startImport = (id, body) => empty(api.spaces.importGitRepository(id, body), 204, 'importGitRepository');
    const startExport = (id, body) => empty(api.spaces.exportToGitRepository(id, body), 204, 'exportToGitRepository');

    /** Waits for the space's last Git operation to finish; returns it (validated). */
    async function finished(spaceId, ms = 30_000) {
        const deadline = Date.now() + ms;
        for (;;) {
            const s = await getSpace(spaceId);
            const op = s.gitSync?.operation;
            assert.ok(op, 'Space.gitSync.operation is there once a sync was requested');
            validateComponent('GitSyncOperation', op);
            if (op.state !== 'running') {
                validateComponent('GitSyncState', s.gitSync);
                assert.deepEqual(await info(spaceId), s.gitSync, 'git/info is Space.gitSync');
                return op;
            }
            if (Date.now() > deadline) assert.fail(`the Git sync of ${spaceId} did not finish: ${JSON.stringify(op)}`);
            await sleep(100);
        }
    }
    const succeeded = async (spaceId) => {
        const op = await finished(spaceId);
        assert.equal(op.state, 'success', `the sync succeeded: ${JSON.stringify(op)}`);
        assert.ok(op.completedAt);
        return op;
    };

    before(async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-gitsync-'));
        ctx = await setup({ extraArgs: ['--allow-private-network', ...mirrorArgs(join(root, 'data'))] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        ({ org } = await createOrg(ctx.url, alice.token, `Git ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        api = alice.api;
    });
    after(async () => {
        await ctx?.server.stop();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('checks every field (400 naming it), refuses readers, and has no info before a sync (404)', async () => {
        const s = await newSpace('Checks');
        const repo = bare(root, 'checks', workTree(root, 'checks-src', FIXTURE));
        const url = `file://${repo}`;
        assert.equal(s.permissions.triggerGitSync, true, 'an admin may trigger a Git sync');
        assert.equal(s.gitSync, undefined, 'no gitSync before a sync');
        const asBob = await getSpace(s.id, bob);
        assert.equal(asBob.permissions.triggerGitSync, false, 'a reader may not');
        const body = await expectError(api.spaces.getSpaceGitInfo(s.id), 404, 'getSpaceGitInfo before any sync');
        assert.match(body.error.message, /no Git provider/i);

        const bad = async (path, json, field) => {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/git/${path}`, { token: alice.token, json });
            assert.equal(r.status, 400, `${path} ${JSON.stringify(json)}: ${r.text}`);
            assert.ok(r.json.error.message.startsWith(field), `the message names ${field}: ${r.json.error.message}`);
        };
        await bad('import', { ref: 'refs/heads/main' }, 'url');
        await bad('import', { url }, 'ref');
        await bad('import', { url, ref: 'main' }, 'ref');
        await bad('import', { url, ref: 'refs/heads/a..b' }, 'ref');
        await bad('import', { url, ref: 'refs/tags/v1' }, 'ref');
        await bad('import', { url: 42, ref: 'refs/heads/main' }, 'url');
        await bad('import', { url: 'ssh://git@example.com/a.git', ref: 'refs/heads/main' }, 'url');
        await bad('import', { url: 'git@example.com:a/b.git', ref: 'refs/heads/main' }, 'url');
        await bad('import', { url, ref: 'refs/heads/main', timestamp: 'yesterday' }, 'timestamp');
        await bad('import', { url, ref: 'refs/heads/main', force: 'yes' }, 'force');
        await bad('import', { url, ref: 'refs/heads/main', standalone: 1 }, 'standalone');
        await bad('import', { url, ref: 'refs/heads/main', repoCacheID: '' }, 'repoCacheID');
        await bad('import', { url, ref: 'refs/heads/main', repoTreeURL: 'javascript:alert(1)' }, 'repoTreeURL');
        await bad('import', { url, ref: 'refs/heads/main', repoCommitURL: 7 }, 'repoCommitURL');
        await bad('import', { url, ref: 'refs/heads/main', repoProjectDirectory: '../etc' }, 'repoProjectDirectory');
        await bad('import', { url, ref: 'refs/heads/main', gitInfo: { provider: 'bitbucket' } }, 'gitInfo.provider');
        await bad('import', { url, ref: 'refs/heads/main', gitInfo: 'github' }, 'gitInfo');
        await bad('export', { url, ref: 'refs/heads/main' }, 'commitMessage');
        await bad('export', { url, ref: 'refs/heads/main', commitMessage: '' }, 'commitMessage');
        await bad('export', { ref: 'refs/heads/main', commitMessage: 'm' }, 'url');
        await bad('export', { url, commitMessage: 'm' }, 'ref');
        await expectError(bob.api.spaces.importGitRepository(s.id, { url, ref: 'refs/heads/main' }), 403, 'a reader imports');
        await expectError(bob.api.spaces.exportToGitRepository(s.id, { url, ref: 'refs/heads/main', commitMessage: 'm' }), 403, 'a reader exports');
        await expectError(api.spaces.importGitRepository('nosuchspace', { url, ref: 'refs/heads/main' }), 404, 'an unknown space');
        // nothing was linked by the refused requests
        assert.equal((await getSpace(s.id)).gitSync, undefined);
    });

    let s1, out, fixtureRepo;

    it('imports a repository in GitBook\'s layout: nested pages, a group, an image, links, front matter', async () => {
        s1 = await newSpace('Imported');
        const src = workTree(root, 'fixture-src', FIXTURE, 'Initial docs');
        fixtureRepo = bare(root, 'fixture', src);
        const oid = git(fixtureRepo, 'rev-parse', 'refs/heads/main');
        await startImport(s1.id, {
            url: `file://${fixtureRepo}`, ref: 'refs/heads/main', repoCommitURL: 'https://git.example.com/acme/docs/commit/',
            repoTreeURL: 'https://git.example.com/acme/docs/tree/main/', timestamp: '2024-05-01T10:00:00Z',
            gitInfo: { provider: 'github', url: 'https://github.com/acme/docs' },
        });
        const during = await getSpace(s1.id);
        assert.ok(['running', 'success'].includes(during.gitSync.operation.state));
        assert.equal(during.gitSync.operation.direction, 'import');
        const op = await succeeded(s1.id);
        assert.equal(op.commit, oid);
        const s = await getSpace(s1.id);
        assert.equal(s.revision, op.revision, 'the import is the space\'s content');
        assert.deepEqual(
            { repoName: s.gitSync.repoName, installationProvider: s.gitSync.installationProvider, integration: s.gitSync.integration, url: s.gitSync.url },
            { repoName: 'fixture', installationProvider: 'github', integration: 'docsd', url: 'https://github.com/acme/docs' },
        );
        const rev = await revision(s1.id);
        assert.deepEqual(rev.git, { oid, message: 'Initial docs\n', createdByGitBook: false, url: `https://git.example.com/acme/docs/commit/${oid}`, ref: 'refs/heads/main' });
        assert.deepEqual(titles(rev.pages), ['Welcome', 'Guide', '  Install', '    On Linux', '  Configure', 'Reference', '  API', '  Changelog']);
        const [welcome, guide, group] = rev.pages;
        assert.equal(group.type, 'group');
        assert.equal(group.pages[1].type, 'link');
        assert.equal(group.pages[1].href, 'https://example.com/changelog');
        const install = guide.pages[0];
        assert.equal(install.description, 'Getting docsd running');
        assert.equal(install.hidden, true);
        assert.deepEqual(install.git, { oid: git(fixtureRepo, 'rev-parse', 'main:guide/install.md'), path: 'guide/install.md' });
        assert.equal(rev.files.length, 1, 'the image, once');
        assert.equal(rev.files[0].name, 'logo.png');
        assert.equal(rev.files[0].contentType, 'image/png');
        assert.match(welcome.markdown, new RegExp(`\\[guide\\]\\(/pages/${guide.id}\\)`));
        assert.match(welcome.markdown, new RegExp(`!\\[Logo\\]\\(/files/${rev.files[0].id}\\)`));
        assert.match(install.markdown, new RegExp(`/files/${rev.files[0].id}`));
    });

    it('exports to a second bare repository; importing that again gives the same tree, and a second export is an empty diff', async () => {
        out = bare(root, 'out');
        await startExport(s1.id, { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: 'Export from docsd' });
        const op = await succeeded(s1.id);
        assert.equal(op.direction, 'export');
        const head = git(out, 'rev-parse', 'refs/heads/main');
        assert.equal(op.commit, head);
        assert.equal(git(out, 'log', '-1', '--format=%s%n%an', 'main'), `Export from docsd\n${alice.name}`);
        const listed = git(out, 'ls-tree', '-r', '--name-only', 'main').split('\n').sort();
        assert.deepEqual(listed, ['.gitbook/assets/logo.png', 'README.md', 'SUMMARY.md', 'guide/README.md', 'guide/configure.md',
            'guide/install.md', 'guide/install/linux.md', 'reference/api.md'].sort());
        // unchanged pages are their original blobs, byte for byte
        assert.equal(git(out, 'rev-parse', 'main:guide/install.md'), git(fixtureRepo, 'rev-parse', 'main:guide/install.md'));

        const s2 = await newSpace('Round trip');
        await startImport(s2.id, { url: `file://${out}`, ref: 'refs/heads/main' });
        await succeeded(s2.id);
        assert.deepEqual(normalize(await revision(s2.id)), normalize(await revision(s1.id)), 'page trees and bodies identical');

        await startExport(s2.id, { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: 'Nothing new' });
        const again = await succeeded(s2.id);
        assert.equal(git(out, 'rev-parse', 'refs/heads/main'), head, 'the second export made no commit');
        assert.equal(again.commit, head);
        assert.match(again.note, /nothing to export/);

        // re-importing the same commit does nothing
        const before = (await getSpace(s2.id)).revision;
        await startImport(s2.id, { url: `file://${out}`, ref: 'refs/heads/main' });
        const same = await succeeded(s2.id);
        assert.match(same.note, /nothing to import/);
        assert.equal((await getSpace(s2.id)).revision, before, 'no new revision');
    });

    it('imports a repository without SUMMARY.md (folders) and one with a file SUMMARY.md does not list', async () => {
        const noSummary = bare(root, 'nosummary', workTree(root, 'nosummary-src', {
            'README.md': '# Home\n',
            'alpha.md': '# Alpha\n',
            'tools/README.md': '# Tools\n',
            'tools/hammer.md': '# Hammer\n',
            'misc/note.md': '# Note\n',
        }));
        const s = await newSpace('No summary');
        await startImport(s.id, { url: `file://${noSummary}`, ref: 'refs/heads/main' });
        await succeeded(s.id);
        const t = titles((await revision(s.id)).pages);
        assert.equal(t[0], 'Home', 'README.md first');
        assert.ok(t.includes('Tools') && t.includes('  Hammer'), `a folder with a README is that page: ${t}`);
        assert.ok(t.includes('  Note'), `a folder without one is a group of its pages: ${t}`);

        const unlisted = bare(root, 'unlisted', workTree(root, 'unlisted-src', {
            'README.md': '# Home\n',
            'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Listed](listed.md)\n',
            'listed.md': '# Listed\n',
            'extra.md': '# Extra\n',
        }));
        const u = await newSpace('Unlisted');
        await startImport(u.id, { url: `file://${unlisted}`, ref: 'refs/heads/main' });
        await succeeded(u.id);
        assert.deepEqual(titles((await revision(u.id)).pages), ['Home', 'Listed', 'Extra'], 'the unlisted file comes after the listed ones');
    });

    it('a malformed .gitbook.yaml or front matter fails the job with a readable reason and changes nothing', async () => {
        const s = await newSpace('Malformed');
        const before = (await getSpace(s.id)).revision;
        const yaml = bare(root, 'badyaml', workTree(root, 'badyaml-src', { '.gitbook.yaml': 'root: [unclosed\nstructure: {\n', 'README.md': '# Hi\n' }));
        await startImport(s.id, { url: `file://${yaml}`, ref: 'refs/heads/main' });
        let op = await finished(s.id);
        assert.equal(op.state, 'failure');
        assert.match(op.error, /\.gitbook\.yaml/);
        assert.equal((await getSpace(s.id)).revision, before, 'the space is unchanged');

        const fm = bare(root, 'badfm', workTree(root, 'badfm-src', { 'README.md': '---\ntitle: [oops\n---\n\n# Hi\n' }));
        await startImport(s.id, { url: `file://${fm}`, ref: 'refs/heads/main' });
        op = await finished(s.id);
        assert.equal(op.state, 'failure');
        assert.match(op.error, /README\.md/);
        assert.match(op.error, /front matter/);
        assert.equal((await getSpace(s.id)).revision, before);

        await startImport(s.id, { url: `file://${fm}`, ref: 'refs/heads/nosuchbranch' });
        op = await finished(s.id);
        assert.equal(op.state, 'failure');
        assert.match(op.error, /^ref: .*nosuchbranch/);
    });

    it('standalone: a new revision without changing the space\'s content', async () => {
        const s = await newSpace('Standalone');
        await startImport(s.id, { url: `file://${fixtureRepo}`, ref: 'refs/heads/main' });
        await succeeded(s.id);
        const current = (await getSpace(s.id)).revision;
        const other = bare(root, 'standalone', workTree(root, 'standalone-src', { 'README.md': '# Elsewhere\n' }));
        await startImport(s.id, { url: `file://${other}`, ref: 'refs/heads/main', standalone: true });
        const op = await succeeded(s.id);
        assert.equal((await getSpace(s.id)).revision, current, 'the primary content did not move');
        assert.notEqual(op.revision, current);
        const rev = await ok(api.spaces.getRevisionById(s.id, op.revision), 'getRevisionById');
        assert.deepEqual(titles(rev.pages), ['Elsewhere']);
    });

    it('an import older than the last applied one (timestamp) is skipped', async () => {
        const src = workTree(root, 'ordered-src', { 'README.md': '# Old\n' }, 'old');
        git(src, 'branch', 'old');
        writeFileSync(join(src, 'README.md'), '# New\n');
        git(src, 'commit', '-q', '-am', 'new');
        const repo = bare(root, 'ordered', src);
        const s = await newSpace('Ordered');
        await startImport(s.id, { url: `file://${repo}`, ref: 'refs/heads/main', timestamp: '2024-06-01T12:00:00Z' });
        await succeeded(s.id);
        const rev = (await getSpace(s.id)).revision;
        await startImport(s.id, { url: `file://${repo}`, ref: 'refs/heads/old', timestamp: '2024-06-01T11:59:59.999Z' });
        const op = await succeeded(s.id);
        assert.match(op.note, /skipped/);
        assert.equal((await getSpace(s.id)).revision, rev, 'the older import changed nothing');
        assert.deepEqual(titles((await revision(s.id)).pages), ['New']);
        // a newer one applies
        await startImport(s.id, { url: `file://${repo}`, ref: 'refs/heads/old', timestamp: '2024-06-02T00:00:00+02:00' });
        await succeeded(s.id);
        assert.deepEqual(titles((await revision(s.id)).pages), ['Old']);
    });

    it('a merged change request is exported as "GITBOOK-{number}: {subject}"', async () => {
        // s1's link now points at `out` (its last sync was the export)
        const cr = await ok(api.spaces.createChangeRequest(s1.id, { subject: 'Add FAQ' }), 'createChangeRequest', 201);
        await rawOk(ctx.url, 'POST', `/v1/spaces/${s1.id}/change-requests/${cr.id}/content`, {
            token: alice.token, json: { changes: [{ operation: 'insert_page', title: 'FAQ', document: { markdown: '# FAQ\n\nAsk.\n' } }] },
        });
        const m = await ok(api.spaces.mergeChangeRequest(s1.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        const op = await succeeded(s1.id);
        assert.equal(op.direction, 'export');
        assert.equal(git(out, 'log', '-1', '--format=%s%n%an', 'main'), `GITBOOK-${cr.number}: Add FAQ\ndocsd`);
        assert.equal(op.commit, git(out, 'rev-parse', 'main'));
        const summary = git(out, 'show', 'main:SUMMARY.md');
        assert.match(summary, /\[FAQ\]\(faq\.md\)/);
        assert.match(git(out, 'show', 'main:faq.md'), /Ask\./);
    });

    it('over HTTP (git http-backend): credentials in the URL are used and never shown', async () => {
        const httpRoot = join(root, 'http');
        mkdirSync(httpRoot);
        bare(httpRoot, 'docs', workTree(root, 'http-src', FIXTURE));
        bare(httpRoot, 'target');
        const auth = { user: 'bot', pass: SECRET };
        const gh = await gitHttpServer(httpRoot, auth);
        try {
            const s = await newSpace('Over HTTP');
            const url = `http://bot:${SECRET}@127.0.0.1:${gh.port}/docs.git`;
            await startImport(s.id, { url, ref: 'refs/heads/main' });
            await succeeded(s.id);
            assert.deepEqual(titles((await revision(s.id)).pages).slice(0, 2), ['Welcome', 'Guide']);
            assert.ok(gh.seen.some((x) => x.url.startsWith('/docs.git/info/refs?service=git-upload-pack') && x.authorization));
            // a push over HTTP, with the same credentials
            await startExport(s.id, { url: `http://bot:${SECRET}@127.0.0.1:${gh.port}/target.git`, ref: 'refs/heads/main', commitMessage: 'over http' });
            await succeeded(s.id);
            assert.equal(git(join(httpRoot, 'target.git'), 'log', '-1', '--format=%s', 'main'), 'over http');
            // wrong credentials: a readable reason
            await startImport(s.id, { url: `http://bot:wrong@127.0.0.1:${gh.port}/docs.git`, ref: 'refs/heads/main', force: true });
            const denied = await finished(s.id);
            assert.equal(denied.state, 'failure');
            assert.match(denied.error, /authentication failed/);

            // the secret appears nowhere: responses, job rows, the log
            const texts = [];
            for (const path of [`/v1/spaces/${s.id}`, `/v1/spaces/${s.id}/git/info`, `/v1/spaces/${s.id}/content`, `/v1/orgs/${org.id}/spaces`]) {
                texts.push((await raw(ctx.url, 'GET', path, { token: alice.token })).text);
            }
            for (const kind of ['git.import', 'git.export']) {
                const r = await runCli(['job', 'list', ...ctx.server.storageArgs(), '--kind', kind]);
                assert.equal(r.code, 0, r.stderr);
                assert.ok(r.stdout.trim().split('\n').length >= 2, 'the jobs are listed');
                texts.push(r.stdout);
            }
            texts.push(readFileSync(ctx.server.logFile, 'utf8'));
            // the rows themselves: job payloads and the link hold the credentials sealed
            if (DATABASE_URL) {
                texts.push(execFileSync('psql', [DATABASE_URL, '-At', '-c',
                    "SELECT payload || coalesce(last_error, '') || coalesce(result, '') FROM jobs; SELECT url || coalesce(credentials, '') || coalesce(op_error, '') FROM git_syncs"],
                { encoding: 'utf8' }));
            } else {
                for (const f of ['docsd.db', 'docsd.db-wal']) {
                    try {
                        texts.push(readFileSync(join(ctx.server.dataDir, f)).toString('latin1'));
                    } catch {
                        // no WAL file right now
                    }
                }
            }
            assert.ok(texts.at(-1).includes(`http://127.0.0.1:${gh.port}/`), 'the rows hold the URL without its credentials');
            for (const t of texts) assert.ok(!t.includes(SECRET), 'the credentials never appear in clear');
            assert.ok(texts[1].includes(`http://127.0.0.1:${gh.port}/docs.git`), 'the URL shows without its credentials');

        } finally {
            gh.server.close();
        }
    });

    it('retries a remote that is unavailable for now (HTTP 503) instead of failing for good', async () => {
        const s = await newSpace('Unavailable');
        let hits = 0;
        const down = http.createServer((req, res) => { hits++; res.writeHead(503); res.end('down'); });
        await new Promise((resolve) => down.listen(0, '127.0.0.1', resolve));
        try {
            await startImport(s.id, { url: `http://127.0.0.1:${down.address().port}/docs.git`, ref: 'refs/heads/main' });
            const deadline = Date.now() + 20_000;
            let op;
            for (;;) {
                op = (await getSpace(s.id)).gitSync?.operation;
                if ((op && op.state !== 'running') || Date.now() > deadline) break;
                await sleep(100);
            }
            assert.equal(op.state, 'failure', JSON.stringify(op));
            assert.match(op.error, /HTTP 503 \(retried\)$/);
            assert.ok(hits >= 1, 'the remote was asked');
            // the job waits for its next attempt (backoff), it did not fail for good
            const r = await runCli(['job', 'list', ...ctx.server.storageArgs(), '--kind', 'git.import']);
            assert.equal(r.code, 0, r.stderr);
            const job = r.stdout.trim().split('\n').map((l) => JSON.parse(l)).find((j) => j.subject === s.id || JSON.stringify(j).includes(s.id));
            assert.ok(job, r.stdout);
            assert.equal(job.state, 'queued', JSON.stringify(job));
            assert.equal(job.attempts, 1);
            // Removing the link ends the retries (the next attempt fails for good): nothing of
            // this test is left to run on the servers of later test files (on PostgreSQL they
            // share the queue).
            await empty(api.spaces.deleteLegacyGitInstallation(s.id), 205, 'deleteLegacyGitInstallation');
        } finally {
            down.close();
        }
    });

    it('removes the legacy installation: 205, then 204; the link is gone', async () => {
        const s = await newSpace('Legacy');
        await startImport(s.id, { url: `file://${fixtureRepo}`, ref: 'refs/heads/main' });
        await succeeded(s.id);
        await expectError(bob.api.spaces.deleteLegacyGitInstallation(s.id), 403, 'a reader removes the link');
        await empty(api.spaces.deleteLegacyGitInstallation(s.id), 205, 'deleteLegacyGitInstallation');
        await empty(api.spaces.deleteLegacyGitInstallation(s.id), 204, 'deleteLegacyGitInstallation again');
        assert.equal((await getSpace(s.id)).gitSync, undefined);
        await expectError(api.spaces.getSpaceGitInfo(s.id), 404, 'getSpaceGitInfo after the removal');
        assert.ok((await revision(s.id)).pages.length > 0, 'the content stays');
    });
});

// Alone on its database (on PostgreSQL every docsd process shares the job queue, so a lenient
// server would run this one's jobs): a server without --allow-private-network.
describe('git sync: without --allow-private-network', () => {
    let strict = null;
    let root, gh;
    after(async () => {
        if (strict && !strict.exited) await strict.stop();
        gh?.server.close();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('refuses file:// at the request (400 naming url) and a loopback remote in the job (the address reason)', async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-gitsync-strict-'));
        const httpRoot = join(root, 'http');
        mkdirSync(httpRoot);
        const fixtureRepo = bare(httpRoot, 'docs', workTree(root, 'src', FIXTURE));
        const SECRET = `tok-${Date.now().toString(36)}-strict`;
        gh = await gitHttpServer(httpRoot, { user: 'bot', pass: SECRET });
        const url = `http://bot:${SECRET}@127.0.0.1:${gh.port}/docs.git`;
        strict = await startServer({ extraArgs: mirrorArgs(join(root, 'data')) });
        const carol = await strict.createUser(`carol-${Date.now()}@example.com`, 'Carol');
        const capi = client(strict.url, carol.token);
        const { org: o2 } = await createOrg(strict.url, carol.token, 'Strict');
        const s2 = await ok(capi.orgs.createSpace(o2.id, { title: 'Strict' }), 'createSpace', 201);
        const r = await raw(strict.url, 'POST', `/v1/spaces/${s2.id}/git/import`, { token: carol.token, json: { url: `file://${fixtureRepo}`, ref: 'refs/heads/main' } });
        assert.equal(r.status, 400);
        assert.match(r.json.error.message, /^url: .*--allow-private-network/);
        const r2 = await raw(strict.url, 'POST', `/v1/spaces/${s2.id}/git/import`, { token: carol.token, json: { url, ref: 'refs/heads/main' } });
        assert.equal(r2.status, 204, r2.text);
        const deadline = Date.now() + 20_000;
        let op;
        for (;;) {
            op = (await ok(capi.spaces.getSpaceById(s2.id), 'getSpaceById')).gitSync.operation;
            if (op.state !== 'running' || Date.now() > deadline) break;
            await sleep(100);
        }
        assert.equal(op.state, 'failure');
        assert.equal(op.stage, 'repo_fetch');
        assert.match(op.error, /not allowed \(private, loopback or reserved address\)/);
        assert.ok(!JSON.stringify(op).includes(SECRET));
        assert.equal(gh.seen.length, 0, 'no request reached the remote');
    });
});

describe('git sync: kill -9 during an import', () => {
    let server = null;
    let root;
    after(async () => {
        if (server && !server.exited) await server.stop();
        delete process.env.DOCSD_TEST_GIT_SLOW_MS;
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('the import completes after the restart, with one revision', async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-gitsync-kill-'));
        const repo = bare(root, 'docs', workTree(root, 'docs-src', FIXTURE));
        process.env.DOCSD_TEST_GIT_SLOW_MS = '4000';
        server = await startServer({ extraArgs: ['--allow-private-network', '--job-workers', '1', ...mirrorArgs(join(root, 'data'))] });
        const u = await server.createUser(`killer-${Date.now()}@example.com`, 'Killer');
        const capi = client(server.url, u.token);
        const { org } = await createOrg(server.url, u.token, 'Kill');
        const s = await ok(capi.orgs.createSpace(org.id, { title: 'Kill' }), 'createSpace', 201);
        const start = s.revision;
        await empty(capi.spaces.importGitRepository(s.id, { url: `file://${repo}`, ref: 'refs/heads/main' }), 204);
        // wait until the job is past its fetch (the pause is before the finalize)
        const deadline = Date.now() + 15_000;
        for (;;) {
            const op = (await ok(capi.spaces.getSpaceById(s.id), 'getSpaceById')).gitSync.operation;
            if (op.stage === 'finalize' || op.stage === 'content_process') break;
            assert.ok(Date.now() < deadline, 'the import started');
            await sleep(50);
        }
        const dataDir = server.dataDir;
        server.process.kill('SIGKILL');
        for (let i = 0; i < 100 && !server.exited; i++) await sleep(50);
        assert.ok(server.exited);
        delete process.env.DOCSD_TEST_GIT_SLOW_MS;
        server = await startServer({ dataDir, extraArgs: ['--allow-private-network', '--clock-offset-ms', '60000', ...mirrorArgs(join(root, 'data'))] });
        const capi2 = client(server.url, u.token);
        let op;
        const until = Date.now() + 30_000;
        for (;;) {
            op = (await ok(capi2.spaces.getSpaceById(s.id), 'getSpaceById')).gitSync.operation;
            if (op.state !== 'running') break;
            assert.ok(Date.now() < until, `the import finished after the restart: ${JSON.stringify(op)}`);
            await sleep(100);
        }
        assert.equal(op.state, 'success', JSON.stringify(op));
        const rev = await ok(capi2.spaces.getCurrentRevision(s.id), 'getCurrentRevision');
        assert.deepEqual(rev.parents, [start], 'one revision on top of the space\'s first: the import applied once');
        assert.equal(titles(rev.pages)[0], 'Welcome');
        const jobs = await runCli(['job', 'list', ...server.storageArgs(), '--kind', 'git.import']);
        const j = jobs.stdout.trim().split('\n').map((l) => JSON.parse(l))[0];
        assert.equal(j.state, 'done');
        assert.equal(j.attempts, 2, 'run twice: killed, then after the restart');
        await server.stop();
        server = null;
    });
});

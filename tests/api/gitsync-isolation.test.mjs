// Git sync's mirrors belong to one organization and one remote (issue 19, item 1). Organization
// A imports its private repository with repoCacheID "acme-docs"; organization B then names the
// same cache with a remote that only advertises A's commit id (a fake smart-HTTP server whose
// /info/refs names it and that serves nothing else, or a file:// repository whose branch names
// the missing object). Before the fix libgit2 found the object in the shared mirror, downloaded
// nothing, and B's space got A's pages. Now B's import fails (the remote does not send the
// commit) and nothing of A's reaches B. Two spaces of A with the same remote still share one
// mirror. Inside one organization too, a commit the mirror holds but the remote never served
// (an export whose push was refused) is not read on the remote's word.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, readdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, createOrg, sleep } from './lib/api.mjs';
import { validateComponent } from './lib/schema.mjs';
import { GIT_ENV, git, workTree, bare, gitHttpBackend } from './lib/git.mjs';

/** A bare repository whose refs/heads/main names oid, an object it does not have. */
function liar(root, name, oid) {
    const dir = bare(root, name);
    writeFileSync(join(dir, 'refs', 'heads', 'main'), `${oid}\n`);
    return dir;
}

const pkt = (s) => `${(s.length + 4).toString(16).padStart(4, '0')}${s}`;

/**
 * A smart-HTTP remote on 127.0.0.1. mode.advertise = oid: GET /info/refs names that commit as
 * refs/heads/main, and every other request gets 404 (it serves no object). Otherwise it runs
 * `git http-backend` over root (pushes refused: no REMOTE_USER). mode can change between syncs.
 */
function gitHttpServer(root, mode) {
    const seen = [];
    const server = http.createServer((req, res) => {
        seen.push(`${req.method} ${req.url}`);
        const u = new URL(req.url, 'http://localhost');
        if (mode.advertise) {
            if (req.method === 'GET' && u.pathname.endsWith('/info/refs') && u.searchParams.get('service') === 'git-upload-pack') {
                res.writeHead(200, { 'Content-Type': 'application/x-git-upload-pack-advertisement', 'Cache-Control': 'no-cache' });
                res.end(`${pkt('# service=git-upload-pack\n')}0000${pkt(`${mode.advertise} refs/heads/main\0multi_ack_detailed side-band-64k ofs-delta no-progress\n`)}0000`);
            } else {
                req.resume();
                res.writeHead(404);
                res.end();
            }
            return;
        }
        gitHttpBackend(root, req, res);
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port, seen })));
}

/** Every page's markdown of a revision, as one text. */
function allText(rev) {
    const out = [];
    const walk = (pages) => pages.forEach((p) => {
        out.push(p.title ?? '', p.markdown ?? '');
        if (p.pages) walk(p.pages);
    });
    walk(rev.pages ?? []);
    return out.join('\n');
}

/** The bare mirrors (directories ending in .git) under dir, [] when none. */
const mirrors = (dir) => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.git')).map((f) => join(dir, f)) : []);
const hasObject = (repo, oid) => {
    try {
        execFileSync('git', ['--git-dir', repo, 'cat-file', '-e', `${oid}^{commit}`], { env: GIT_ENV, stdio: 'ignore' });
        return true;
    } catch {
        return false;
    }
};

describe('git sync: mirrors per organization', () => {
    let ctx, root, alice, mallory, orgA, orgB, http1, gitData;
    const SECRET = `acme-private-roadmap-${Date.now().toString(36)}`;
    const mode = {};

    before(async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-gitiso-'));
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        gitData = join(ctx.server.dataDir, 'git');
        alice = await ctx.user('alice');
        mallory = await ctx.user('mallory');
        ({ org: orgA } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        ({ org: orgB } = await createOrg(ctx.url, mallory.token, `Other ${ctx.run}`));
        http1 = await gitHttpServer(root, mode);
    });
    after(async () => {
        http1?.server.close();
        await ctx?.server.stop();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    const getSpace = (who, id) => ok(who.api.spaces.getSpaceById(id), 'getSpaceById');
    const revision = (who, id) => ok(who.api.spaces.getCurrentRevision(id), 'getCurrentRevision');
    const newSpace = (who, org, title) => ok(who.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
    const startImport = (who, id, body) => empty(who.api.spaces.importGitRepository(id, body), 204, 'importGitRepository');
    const startExport = (who, id, body) => empty(who.api.spaces.exportToGitRepository(id, body), 204, 'exportToGitRepository');

    async function finished(who, spaceId, ms = 30_000) {
        const deadline = Date.now() + ms;
        for (;;) {
            const op = (await getSpace(who, spaceId)).gitSync?.operation;
            assert.ok(op, 'a sync was requested');
            validateComponent('GitSyncOperation', op);
            if (op.state !== 'running') return op;
            if (Date.now() > deadline) assert.fail(`the Git sync of ${spaceId} did not finish: ${JSON.stringify(op)}`);
            await sleep(100);
        }
    }

    let victimOid, victimUrl;

    it('organization A imports its private repository with repoCacheID "acme-docs"', async () => {
        const repo = bare(root, 'acme', workTree(root, 'acme-src', {
            'README.md': `# Acme internal\n\n${SECRET}\n`,
            'SUMMARY.md': '# Table of contents\n\n* [Acme internal](README.md)\n* [Plans](plans.md)\n',
            'plans.md': `# Plans\n\nThe ${SECRET} in detail.\n`,
        }));
        victimOid = git(repo, 'rev-parse', 'refs/heads/main');
        victimUrl = `file://${repo}`;
        const s = await newSpace(alice, orgA, 'Acme private');
        await startImport(alice, s.id, { url: victimUrl, ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
        const op = await finished(alice, s.id);
        assert.equal(op.state, 'success', JSON.stringify(op));
        assert.ok(allText(await revision(alice, s.id)).includes(SECRET));
        const own = mirrors(join(gitData, orgA.id));
        assert.equal(own.length, 1, `one mirror, under the organization's directory: ${own}`);
        assert.ok(hasObject(own[0], victimOid));
    });

    it('a remote of organization B that only advertises A\'s commit (smart HTTP) imports nothing of A\'s', async () => {
        mode.advertise = victimOid;
        const s = await newSpace(mallory, orgB, 'Probe over HTTP');
        await startImport(mallory, s.id, {
            url: `http://127.0.0.1:${http1.port}/evil.git`, ref: 'refs/heads/main', repoCacheID: 'acme-docs',
        });
        const op = await finished(mallory, s.id);
        assert.equal(op.state, 'failure', `the remote never sent the commit: ${JSON.stringify(op)}`);
        assert.ok(!JSON.stringify(op).includes(SECRET));
        const text = allText(await revision(mallory, s.id));
        assert.ok(!text.includes(SECRET), 'B\'s space has none of A\'s pages');
        assert.ok(http1.seen.some((r) => r.startsWith('POST ')), `the commit was asked for: ${http1.seen}`);
        for (const m of mirrors(join(gitData, orgB.id))) assert.ok(!hasObject(m, victimOid), `${m} has A's commit`);
        delete mode.advertise;
    });

    it('a file:// remote of organization B whose branch names A\'s commit imports nothing of A\'s', async () => {
        const repo = liar(root, 'liar', victimOid);
        const s = await newSpace(mallory, orgB, 'Probe over file');
        await startImport(mallory, s.id, { url: `file://${repo}`, ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
        const op = await finished(mallory, s.id);
        assert.equal(op.state, 'failure', JSON.stringify(op));
        assert.ok(!allText(await revision(mallory, s.id)).includes(SECRET));
        // the very URL A used does not open A's mirror to B either: B's copy is B's own download
        const s2 = await newSpace(mallory, orgB, 'Same URL');
        await startImport(mallory, s2.id, { url: victimUrl, ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
        assert.equal((await finished(mallory, s2.id)).state, 'success');
        assert.equal(mirrors(join(gitData, orgA.id)).length, 1, 'A\'s directory has A\'s mirror only');
    });

    it('two spaces of organization A with the same remote and cache share one mirror', async () => {
        const s = await newSpace(alice, orgA, 'Acme second');
        await startImport(alice, s.id, { url: victimUrl, ref: 'refs/heads/main', repoCacheID: 'acme-docs' });
        const op = await finished(alice, s.id);
        assert.equal(op.state, 'success', JSON.stringify(op));
        assert.equal(op.commit, victimOid);
        assert.ok(allText(await revision(alice, s.id)).includes(SECRET));
        assert.equal(mirrors(join(gitData, orgA.id)).length, 1, 'still one mirror');
    });

    it('inside one organization, a commit the mirror made but the remote refused is not read on the remote\'s word', async () => {
        // The remote (git http-backend) serves fetches and refuses pushes.
        const remote = bare(root, 'shared', workTree(root, 'shared-src', { 'README.md': '# Shared\n\nPublic text.\n' }));
        const url = `http://127.0.0.1:${http1.port}/shared.git`;
        const secretSpace = await newSpace(alice, orgA, 'Restricted');
        const restricted = bare(root, 'restricted', workTree(root, 'restricted-src', { 'README.md': `# Restricted\n\n${SECRET}\n` }));
        await startImport(alice, secretSpace.id, { url: `file://${restricted}`, ref: 'refs/heads/main' });
        assert.equal((await finished(alice, secretSpace.id)).state, 'success');
        // exported to the shared remote: the commit is made in that remote's mirror, the push refused
        await startExport(alice, secretSpace.id, { url, ref: 'refs/heads/main', commitMessage: `Add ${SECRET}` });
        const ex = await finished(alice, secretSpace.id);
        assert.equal(ex.state, 'failure', `the push is refused: ${JSON.stringify(ex)}`);
        const mine = mirrors(join(gitData, orgA.id)).filter((m) => {
            try {
                execFileSync('git', ['--git-dir', m, 'rev-parse', '--verify', '-q', 'refs/docsd/push'], { env: GIT_ENV, stdio: 'ignore' });
                return true;
            } catch {
                return false;
            }
        });
        assert.equal(mine.length, 1, 'the export\'s mirror');
        const made = execFileSync('git', ['--git-dir', mine[0], 'rev-parse', 'refs/docsd/push'], { env: GIT_ENV, encoding: 'utf8' }).trim();
        assert.notEqual(made, git(remote, 'rev-parse', 'refs/heads/main'), 'the remote never got it');
        assert.match(execFileSync('git', ['--git-dir', mine[0], 'log', '-1', '--format=%s', made], { env: GIT_ENV, encoding: 'utf8' }), new RegExp(SECRET));
        // now the same URL only advertises that commit: another space of the organization imports it
        mode.advertise = made;
        try {
            const other = await newSpace(alice, orgA, 'Reader');
            await startImport(alice, other.id, { url, ref: 'refs/heads/main' });
            const op = await finished(alice, other.id);
            assert.equal(op.state, 'failure', `the remote never served ${made}: ${JSON.stringify(op)}`);
        } finally {
            delete mode.advertise;
        }
    });
    it('a commit the remote served before and serves again after a history rewrite is checked with a fresh download, then imported', async () => {
        const first = workTree(root, 'rewrite-a', { 'README.md': '# First history\n' });
        const remote = bare(root, 'rewrite', first);
        const t1 = git(remote, 'rev-parse', 'refs/heads/main');
        const second = workTree(root, 'rewrite-b', { 'README.md': '# Second history\n' });
        const s = await newSpace(alice, orgA, 'Rewritten');
        const url = `file://${remote}`;
        await startImport(alice, s.id, { url, ref: 'refs/heads/main' });
        assert.equal((await finished(alice, s.id)).state, 'success');
        git(second, 'push', '-q', '--force', remote, 'main:main'); // unrelated history: t1 unreachable
        await startImport(alice, s.id, { url, ref: 'refs/heads/main' });
        assert.equal((await finished(alice, s.id)).state, 'success');
        git(first, 'push', '-q', '--force', remote, 'main:main'); // back to t1, which the mirror still holds
        await startImport(alice, s.id, { url, ref: 'refs/heads/main' });
        const op = await finished(alice, s.id);
        assert.equal(op.state, 'success', JSON.stringify(op));
        assert.equal(op.commit, t1);
        assert.match(allText(await revision(alice, s.id)), /First history/);
        const left = readdirSync(join(gitData, orgA.id)).filter((f) => f.includes('.verify-'));
        assert.deepEqual(left, [], 'the scratch repository is removed');
    });
    it('files that differ only in case keep the repository\'s own names through import and export (item 7c)', async () => {
        const files = {
            'README.md': '# Home\n',
            'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Upper](Case.md)\n* [Lower](case.md)\n',
            'Case.md': '# Upper\n\nSee [lower](case.md).\n',
            'case.md': '# Lower\n\nSee [upper](Case.md).\n',
        };
        const src = bare(root, 'cased', workTree(root, 'cased-src', files));
        const s = await newSpace(alice, orgA, 'Cased');
        await startImport(alice, s.id, { url: `file://${src}`, ref: 'refs/heads/main' });
        assert.equal((await finished(alice, s.id)).state, 'success');
        const out = bare(root, 'cased-out');
        await startExport(alice, s.id, { url: `file://${out}`, ref: 'refs/heads/main', commitMessage: 'Round trip' });
        const op = await finished(alice, s.id);
        assert.equal(op.state, 'success', JSON.stringify(op));
        const listed = git(out, 'ls-tree', '-r', '--name-only', 'main').split('\n').sort();
        assert.deepEqual(listed, Object.keys(files).sort(), 'Case.md and case.md, not case-2.md');
        for (const p of ['Case.md', 'case.md']) assert.equal(git(out, 'rev-parse', `main:${p}`), git(src, 'rev-parse', `main:${p}`), `${p} byte for byte`);
    });
});

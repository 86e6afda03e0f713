// Redirects of a published site (issue 24, section 3): one canonical URL per page (a space's
// first page at its root, no trailing slash, the stored case), the old URL of a renamed or
// moved page answering 301 to its new one, GitBook's site redirects API (listSiteRedirects,
// createSiteRedirect, updateSiteRedirectById, deleteSiteRedirectById, getSiteRedirectBySource:
// schema-validated, 400 naming the field, 409 for a taken source, a reader's 403, another
// organization's 404) applied by the site before its 404, .gitbook.yaml's redirects of a Git
// import, and no redirect ever leaving the site. Runs on SQLite and on PostgreSQL
// (DOCSD_TEST_DATABASE).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import { DATABASE_URL } from './lib/server.mjs';
import { ok, empty, raw, createOrg, addMember, expectError, sleep } from './lib/api.mjs';
import { workTree, bare } from './lib/git.mjs';

/** GET of a request target sent exactly as written (no URL normalization). */
function getExact(baseUrl, target) {
    const u = new URL(baseUrl);
    return new Promise((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, method: 'GET', path: target }, (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, headers: res.headers }));
        });
        req.on('error', reject);
        req.end();
    });
}

describe('published site redirects', () => {
    let ctx, alice, bob, carol, api, org, other, guide, site, ss, base, root;

    const get = (path) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path);
    /** GET path must answer 301 to `to` (a path on the same origin). */
    async function moved(path, to) {
        const r = await get(path);
        assert.equal(r.status, 301, `GET ${path}: expected 301, got ${r.status}: ${r.text.slice(0, 200)}`);
        assert.equal(r.headers.location, to, `GET ${path} redirects to ${to}`);
        return r;
    }
    async function page(path, status = 200) {
        const r = await get(path);
        assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 200)}`);
        return r;
    }
    async function merged(spaceId, changes) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        assert.equal(r.status, 200, r.text);
        const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
    }
    const pages = async (spaceId) => {
        const rev = await ok(api.spaces.getCurrentRevision(spaceId), 'getCurrentRevision');
        const out = {};
        const walk = (ps) => ps.forEach((p) => { out[p.title] = p; walk(p.pages ?? []); });
        walk(rev.pages);
        return out;
    };

    before(async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-redirects-'));
        ctx = await setup({ extraArgs: ['--allow-private-network', ...(DATABASE_URL ? ['--data', join(root, 'data')] : [])] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Redirects ${ctx.run}`));
        ({ org: other } = await createOrg(ctx.url, carol.token, `Other ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        guide = await ok(api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        await merged(guide.id, [
            { operation: 'insert_page', title: 'Intro', ref: 'intro', document: { markdown: 'Welcome.\n' } },
            { operation: 'insert_page', title: 'Setup', ref: 'setup', document: { markdown: 'Install it.\n' } },
            { operation: 'insert_page', title: 'Advanced', ref: 'adv', document: { markdown: 'More.\n' } },
            { operation: 'insert_page', title: 'Deep', into: 'adv', document: { markdown: 'Deeper.\n' } },
        ]);
        site = await ok(api.orgs.createSite(org.id, { title: `Redirects ${ctx.run}` }), 'createSite', 201);
        ss = await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: guide.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `redir-${ctx.run}` }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        base = `/sites/redir-${ctx.run}`;
    });
    after(async () => {
        await ctx?.server.stop();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('one URL per page: the first page at the root, no trailing slash, the stored case', async () => {
        await page(base);
        await page(`${base}/setup`);
        await moved(`${base}/intro`, base);
        await moved(`${base}/intro.md`, `${base}/index.md`);
        await moved(`${base}/setup/`, `${base}/setup`);
        await moved(`${base}/setup///`, `${base}/setup`);
        await moved(`${base}/SETUP`, `${base}/setup`);
        await moved(`${base}/Advanced/DEEP`, `${base}/advanced/deep`);
        await page(`${base}/advanced/deep`);
        await page(`${base}/nothing-here`, 404);
        // the same with the basename in another case: the site's own spelling
        await moved(`/sites/REDIR-${ctx.run}/setup/`, `${base}/setup`);
    });

    it('no redirect leaves the site, whatever the path', async () => {
        for (const target of [`${base}//evil.example/`, `${base}/\\evil.example/`, `${base}/%2F%2Fevil.example/`, `${base}////evil.example//`]) {
            const r = await getExact(ctx.siteUrl, target);
            assert.equal(r.status, 301, target);
            const loc = r.headers.location;
            assert.ok(loc.startsWith('/') && !loc.startsWith('//') && !loc.startsWith('/\\'), `${target} -> ${loc} stays on the site`);
            assert.ok(loc.startsWith(`${base}/`), `${target} -> ${loc} stays under the site's root`);
        }
    });

    it('a renamed page and a moved page keep their old URLs with a 301 to the new ones', async () => {
        const p = await pages(guide.id);
        await merged(guide.id, [{ operation: 'update_page', page: p.Setup.id, slug: 'installation' }]);
        await moved(`${base}/setup`, `${base}/installation`);
        await moved(`${base}/setup.md`, `${base}/installation.md`);
        await page(`${base}/installation`);
        await merged(guide.id, [{ operation: 'update_page', page: p.Deep.id, into: null }]);
        await moved(`${base}/advanced/deep`, `${base}/deep`);
        await page(`${base}/deep`);
        // renamed twice: both old paths lead to the current one
        await merged(guide.id, [{ operation: 'update_page', page: p.Setup.id, slug: 'install' }]);
        await moved(`${base}/setup`, `${base}/install`);
        await moved(`${base}/installation`, `${base}/install`);
        // a new page at an old path wins over the redirect
        await merged(guide.id, [{ operation: 'insert_page', title: 'Setup again', slug: 'setup', document: { markdown: 'New.\n' } }]);
        await page(`${base}/setup`);
        // a deleted page's old path is a 404, not a redirect to nowhere
        await merged(guide.id, [{ operation: 'delete_page', page: p.Deep.id }]);
        await page(`${base}/advanced/deep`, 404);
        await page(`${base}/deep`, 404);
    });

    it('the site redirects API: create, list, get by source, update, delete, applied by the site', async () => {
        const p = await pages(guide.id);
        const r1 = await ok(api.orgs.createSiteRedirect(org.id, site.id, {
            source: '/old/home', destination: { kind: 'site-page', siteSpaceId: ss.id, pageId: p.Advanced.id },
        }), 'createSiteRedirect', 201);
        assert.equal(r1.object, 'site-redirect');
        assert.equal(r1.source, '/old/home');
        assert.deepEqual(r1.destination, { kind: 'site-page', siteSpaceId: ss.id, pageId: p.Advanced.id });
        await moved(`${base}/old/home`, `${base}/advanced`);
        const r2 = await ok(api.orgs.createSiteRedirect(org.id, site.id, {
            source: '/legacy', destination: { kind: 'site-space', siteSpaceId: ss.id },
        }), 'createSiteRedirect', 201);
        await moved(`${base}/legacy`, base);

        const list = await ok(api.orgs.listSiteRedirects(org.id, site.id), 'listSiteRedirects');
        assert.deepEqual(list.items.map((x) => x.id), [r1.id, r2.id]);
        assert.equal(list.count, 2);
        const one = await ok(api.orgs.listSiteRedirects(org.id, site.id, { limit: 1 }), 'listSiteRedirects');
        assert.equal(one.items.length, 1);
        assert.ok(one.next?.page);
        const rest = await ok(api.orgs.listSiteRedirects(org.id, site.id, { limit: 1, page: one.next.page }), 'listSiteRedirects');
        assert.deepEqual(rest.items.map((x) => x.id), [r2.id]);
        const found = await ok(api.orgs.listSiteRedirects(org.id, site.id, { search: 'HOME' }), 'listSiteRedirects');
        assert.deepEqual(found.items.map((x) => x.id), [r1.id]);

        const published = (await ok(api.orgs.getSiteById(org.id, site.id), 'getSiteById')).urls.published;
        const by = await ok(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/old/home' }), 'getSiteRedirectBySource');
        assert.equal(by.redirect.id, r1.id);
        assert.equal(by.target, `${published}/advanced`);
        await expectError(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: '/nope' }), 404, 'an unknown source');
        await expectError(api.orgs.getSiteRedirectBySource(org.id, site.id, { source: 'nope' }), 400, 'a malformed source');

        // a reader reads, an admin writes
        await ok(bob.api.orgs.listSiteRedirects(org.id, site.id), 'listSiteRedirects');
        await expectError(bob.api.orgs.createSiteRedirect(org.id, site.id, { source: '/b', destination: { kind: 'site-space', siteSpaceId: ss.id } }), 403, 'a reader creates');
        await expectError(bob.api.orgs.deleteSiteRedirectById(org.id, site.id, r1.id), 403, 'a reader deletes');
        // another organization's site does not exist for carol
        await expectError(carol.api.orgs.listSiteRedirects(org.id, site.id), 404, 'an outsider lists');
        await expectError(carol.api.orgs.listSiteRedirects(other.id, site.id), 404, 'through her own organization');
        await expectError(carol.api.orgs.createSiteRedirect(other.id, site.id, { source: '/c', destination: { kind: 'site-space', siteSpaceId: ss.id } }), 404, 'an outsider creates');

        const upd = await ok(api.orgs.updateSiteRedirectById(org.id, site.id, r1.id, {
            source: '/old/start', destination: { kind: 'site-page', siteSpaceId: ss.id, pageId: p.Setup.id },
        }), 'updateSiteRedirectById');
        assert.equal(upd.source, '/old/start');
        await moved(`${base}/old/start`, `${base}/install`);
        await page(`${base}/old/home`, 404);

        await empty(api.orgs.deleteSiteRedirectById(org.id, site.id, r1.id), 205, 'deleteSiteRedirectById');
        await empty(api.orgs.deleteSiteRedirectById(org.id, site.id, r1.id), 204, 'deleteSiteRedirectById again');
        await page(`${base}/old/start`, 404);
        assert.equal((await ok(api.orgs.listSiteRedirects(org.id, site.id), 'listSiteRedirects')).count, 1);
        // an existing page is served, not redirected, even when a redirect names its path
        await ok(api.orgs.createSiteRedirect(org.id, site.id, { source: '/advanced', destination: { kind: 'site-space', siteSpaceId: ss.id } }), 'createSiteRedirect', 201);
        await page(`${base}/advanced`);
    });

    it('redirects to a section, through a share key, and to nothing once the destination is gone', async () => {
        const api2 = await ok(api.orgs.createSpace(org.id, { title: 'API' }), 'createSpace', 201);
        await merged(api2.id, [{ operation: 'insert_page', title: 'Reference', document: { markdown: 'Endpoints.\n' } }]);
        const s = await ok(api.orgs.createSite(org.id, { title: 'Sectioned' }), 'createSite', 201);
        await ok(api.orgs.addSectionToSite(org.id, s.id, { spaceId: guide.id, title: 'Guides' }), 'addSectionToSite', 201);
        const sec = await ok(api.orgs.addSectionToSite(org.id, s.id, { spaceId: api2.id, title: 'API' }), 'addSectionToSite', 201);
        await ok(api.orgs.publishSite(org.id, s.id), 'publishSite');
        const root = `/sites/${s.id}`;
        await ok(api.orgs.createSiteRedirect(org.id, s.id, { source: '/reference', destination: { kind: 'site-section', siteSectionId: sec.id } }), 'createSiteRedirect', 201);
        await moved(`${root}/reference`, `${root}/${sec.path}`);
        await page(`${root}/${sec.path}`);
        // resolved with an active share key: the target carries it
        const link = await ok(api.orgs.createSiteShareLink(org.id, s.id, { name: 'Partners' }), 'createSiteShareLink', 201);
        const key = new URL(link.urls.published).pathname.split('/~share/')[1];
        const by = await ok(api.orgs.getSiteRedirectBySource(org.id, s.id, { source: '/reference', shareKey: key }), 'getSiteRedirectBySource');
        assert.ok(by.target.endsWith(`${root}/~share/${key}/${sec.path}`), by.target);
        await expectError(api.orgs.getSiteRedirectBySource(org.id, s.id, { source: '/reference', shareKey: 'not-a-key' }), 404, 'a wrong share key');
        // a share-link site's redirect keeps the visitor under the share prefix
        await moved(`${root}/~share/${key}/reference`, `${root}/~share/${key}/${sec.path}`);
        // the section goes: the redirect leads nowhere (404 on the site and from the API)
        await empty(api.orgs.deleteSiteSectionById(org.id, s.id, sec.id), 204, 'deleteSiteSectionById');
        await page(`${root}/reference`, 404);
        await expectError(api.orgs.getSiteRedirectBySource(org.id, s.id, { source: '/reference' }), 404, 'a redirect to a deleted section');
    });

    it('refuses malformed redirects with a 400 naming the field, and a taken source with 409', async () => {
        const p = await pages(guide.id);
        const dest = { kind: 'site-space', siteSpaceId: ss.id };
        const bad = async (json, field, status = 400) => {
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/redirects`, { token: alice.token, json });
            assert.equal(r.status, status, `${JSON.stringify(json).slice(0, 100)}: ${r.text}`);
            assert.equal(r.json.error.code, status);
            assert.ok(r.json.error.message.startsWith(field), `the message names ${field}: ${r.json.error.message}`);
        };
        await bad({ destination: dest }, 'source');
        await bad({ source: 'relative', destination: dest }, 'source');
        await bad({ source: '/a//b', destination: dest }, 'source');
        await bad({ source: '/a/', destination: dest }, 'source');
        await bad({ source: '/a b', destination: dest }, 'source');
        await bad({ source: '/%zz', destination: dest }, 'source');
        await bad({ source: `/${'a'.repeat(600)}`, destination: dest }, 'source');
        await bad({ source: 42, destination: dest }, 'source');
        await bad({ source: '/x' }, 'destination');
        await bad({ source: '/x', destination: 'home' }, 'destination');
        await bad({ source: '/x', destination: { kind: 'url' } }, 'destination.kind');
        await bad({ source: '/x', destination: { kind: 'site-space' } }, 'destination.siteSpaceId');
        await bad({ source: '/x', destination: { kind: 'site-space', siteSpaceId: 'nosuch' } }, 'destination.siteSpaceId');
        await bad({ source: '/x', destination: { kind: 'site-page', siteSpaceId: ss.id } }, 'destination.pageId');
        await bad({ source: '/x', destination: { kind: 'site-page', siteSpaceId: ss.id, pageId: 'nosuch' } }, 'destination.pageId');
        await bad({ source: '/x', destination: { kind: 'site-section', siteSectionId: 'nosuch' } }, 'destination.siteSectionId');
        await bad({ source: '/x', destination: { kind: 'site-page', siteSpaceId: ss.id, pageId: p.Advanced.id.repeat(10) } }, 'destination.pageId');
        await ok(api.orgs.createSiteRedirect(org.id, site.id, { source: '/taken', destination: dest }), 'createSiteRedirect', 201);
        await bad({ source: '/taken', destination: dest }, 'source', 409);
        const r = await raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/sites/${site.id}/redirects/nosuch`, { token: alice.token, json: { source: '/y' } });
        assert.equal(r.status, 404);
        const e = await raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/sites/${site.id}/redirects/nosuch`, { token: alice.token, json: {} });
        assert.equal(e.status, 400);
    });

    it('.gitbook.yaml redirects of a Git import are applied by the site', async () => {
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Synced' }), 'createSpace', 201);
        const repo = bare(root, 'docs', workTree(root, 'docs-src', {
            '.gitbook.yaml': 'root: ./docs/\nredirects:\n  previous/page: guide/install.md\n  old-start: README.md\n',
            'docs/README.md': '# Start\n\nHello.\n',
            'docs/SUMMARY.md': '# Table of contents\n\n* [Start](README.md)\n* [Guide](guide/README.md)\n  * [Install](guide/install.md)\n',
            'docs/guide/README.md': '# Guide\n\nText.\n',
            'docs/guide/install.md': '# Install\n\nSteps.\n',
        }));
        await empty(api.spaces.importGitRepository(s.id, { url: `file://${repo}`, ref: 'refs/heads/main' }), 204, 'importGitRepository');
        const deadline = Date.now() + 30_000;
        for (;;) {
            const sp = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
            const op = sp.gitSync?.operation;
            if (op && op.state !== 'running') {
                assert.equal(op.state, 'success', JSON.stringify(op));
                break;
            }
            assert.ok(Date.now() < deadline, 'the import finished');
            await sleep(100);
        }
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: s.id }), 'addSpaceToSite', 201);
        const sspaces = await ok(api.orgs.listSiteSpaces(org.id, site.id), 'listSiteSpaces');
        const synced = sspaces.items.find((x) => x.space === s.id || x.space?.id === s.id);
        const at = `${base}/${synced.path}`;
        await page(`${at}/guide/install`);
        await moved(`${at}/previous/page`, `${at}/guide/install`);
        await moved(`${at}/old-start`, at);
        // an edit in docsd afterwards keeps them (they belong to the content until the next import)
        const p = await pages(s.id);
        await merged(s.id, [{ operation: 'update_page', page: p.Install.id, document: { markdown: '# Install\n\nNew steps.\n' } }]);
        await moved(`${at}/previous/page`, `${at}/guide/install`);
    });
});

// A site's structure: site spaces at the root, sections (the first takes the root's site
// spaces), section groups, the deprecated moves and sortSiteStructure, the structure and the
// published profile; the invariants after every change (one default section when there are
// sections, one default site space per section or at the root, no site space at the root of
// a site with sections, Site.siteSpaces equal to the site spaces listed), roles (create
// writes, edit and read only read, outsiders see nothing), 400s for bad paths, conditions and
// positions, 404s, idempotent deletes.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination } from './lib/api.mjs';

const NO_ID = 'nosuchid000000000000';

describe('site structure', () => {
    let ctx, alice, bob, erin, rita, oscar, org, otherOrg, foreignSpace;
    const spaces = [];

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        erin = await ctx.user('erin');
        rita = await ctx.user('rita');
        oscar = await ctx.user('oscar');
        ({ org } = await createOrg(ctx.url, alice.token, `Sites ${ctx.run}`));
        ({ org: otherOrg } = await createOrg(ctx.url, oscar.token, `Other ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'create');
        await addMember(alice.api, org.id, erin.email, 'edit');
        await addMember(alice.api, org.id, rita.email, 'read');
        for (const title of ['Getting Started', 'API Reference', 'Guides', 'Changelog', 'Getting Started', '!!!']) {
            spaces.push(await ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201));
        }
        foreignSpace = await ok(oscar.api.orgs.createSpace(otherOrg.id, { title: 'Foreign' }), 'createSpace', 201);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const newSite = async (title = 'Docs') => ok(alice.api.orgs.createSite(org.id, { title }), 'createSite', 201);
    const structure = (siteId, api = alice.api, query) =>
        ok(api.orgs.getSiteStructure(org.id, siteId, query), 'getSiteStructure');
    const addSpace = (siteId, body, api = alice.api) => ok(api.orgs.addSpaceToSite(org.id, siteId, body), 'addSpaceToSite', 201);
    const addSection = (siteId, body, api = alice.api) =>
        ok(api.orgs.addSectionToSite(org.id, siteId, body), 'addSectionToSite', 201);
    const listSpaces = async (siteId, query = {}, api = alice.api) =>
        (await ok(api.orgs.listSiteSpaces(org.id, siteId, { limit: 1000, ...query }), 'listSiteSpaces')).items;
    const listSections = async (siteId, api = alice.api) =>
        (await ok(api.orgs.listSiteSections(org.id, siteId, { limit: 1000 }), 'listSiteSections')).items;
    const listGroups = async (siteId) =>
        (await ok(alice.api.orgs.listSiteSectionGroups(org.id, siteId, { limit: 1000 }), 'listSiteSectionGroups')).items;
    const patchSection = (siteId, id, body) =>
        ok(alice.api.orgs.updateSiteSectionById(org.id, siteId, id, body), 'updateSiteSectionById');
    const patchSpace = (siteId, id, body) => ok(alice.api.orgs.updateSiteSpaceById(org.id, siteId, id, body), 'updateSiteSpaceById');
    const sectionsOf = (st) => st.structure.flatMap((x) => (x.object === 'site-section-group' ? x.children : [x]));

    /** Every invariant of a site's structure, read through four operations. */
    async function invariants(siteId) {
        const st = await structure(siteId);
        const site = await ok(alice.api.orgs.getSiteById(org.id, siteId), 'getSiteById');
        const all = await listSpaces(siteId);
        assert.equal(site.siteSpaces, all.length, 'Site.siteSpaces counts the site spaces');
        const defaults = await listSpaces(siteId, { default: true });
        const others = await listSpaces(siteId, { default: false });
        if (st.type === 'sections') {
            const secs = sectionsOf(st);
            assert.ok(secs.length > 0, 'type sections means at least one section');
            assert.equal(secs.filter((s) => s.default).length, 1, 'exactly one default section');
            for (const s of secs) {
                if (s.siteSpaces.length) assert.equal(s.siteSpaces.filter((x) => x.default).length, 1, `one default in ${s.path}`);
                for (const x of s.siteSpaces) assert.equal(x.section, s.id);
            }
            assert.ok(all.every((x) => typeof x.section === 'string'), 'no site space at the root of a site with sections');
            assert.deepEqual((await listSections(siteId)).map((s) => s.id), secs.map((s) => s.id));
            const paths = secs.map((s) => s.path);
            assert.equal(new Set(paths).size, paths.length, 'section paths are unique');
            const def = secs.find((s) => s.default);
            assert.equal(defaults.length, def.siteSpaces.length ? 1 : 0);
            if (defaults.length) assert.equal(defaults[0].id, def.siteSpaces.find((x) => x.default).id);
        } else {
            assert.equal(st.type, 'siteSpaces');
            assert.equal((await listSections(siteId)).length, 0);
            assert.deepEqual(all.map((x) => x.id), st.structure.map((x) => x.id));
            if (all.length) assert.equal(all.filter((x) => x.default).length, 1, 'one default site space at the root');
            assert.equal(defaults.length, all.length ? 1 : 0);
            const paths = all.map((x) => x.path);
            assert.equal(new Set(paths).size, paths.length, 'root paths are unique');
        }
        assert.ok(defaults.length <= 1 && defaults.every((x) => x.default));
        assert.deepEqual(others.map((x) => x.id), all.filter((x) => !defaults.some((d) => d.id === x.id)).map((x) => x.id),
            'default=false lists every site space but the default');
        return st;
    }

    describe('site spaces at the root', () => {
        it('a deleted space leaves the structure and the siteSpaces count; restored, it is back', async () => {
            const site = await newSite('Deleted spaces');
            const temp = await ok(alice.api.orgs.createSpace(org.id, { title: 'Temporary' }), 'createSpace', 201);
            await addSpace(site.id, { spaceId: spaces[0].id });
            const t = await addSpace(site.id, { spaceId: temp.id });
            const count = async () => (await ok(alice.api.orgs.getSiteById(org.id, site.id), 'getSiteById')).siteSpaces;
            assert.equal(await count(), 2);
            await alice.api.spaces.deleteSpaceById(temp.id);
            assert.equal(await count(), 1, 'the deleted space is not counted');
            const st = await structure(site.id);
            assert.deepEqual(st.structure.map((x) => x.id).includes(t.id), false, 'nor shown');
            await ok(alice.api.spaces.restoreSpace(temp.id), 'restoreSpace');
            assert.equal(await count(), 2, 'restored: counted again');
        });
        it('the first is the default; paths are slugs made unique; lists and the structure agree', async () => {
            const site = await newSite();
            let st = await invariants(site.id);
            assert.deepEqual(st, { type: 'siteSpaces', structure: [] });
            const a = await addSpace(site.id, { spaceId: spaces[0].id });
            assert.equal(a.object, 'site-space');
            assert.equal(a.default, true);
            assert.equal(a.path, 'getting-started');
            assert.equal(a.title, 'Getting Started');
            assert.equal(a.space.id, spaces[0].id);
            assert.equal(a.section, undefined);
            assert.deepEqual(a.urls, {}, 'no published URL while the site is unpublished');
            const b = await addSpace(site.id, { spaceId: spaces[4].id });
            assert.equal(b.default, false);
            assert.equal(b.path, 'getting-started-2');
            const c = await addSpace(site.id, { spaceId: spaces[5].id });
            assert.equal(c.path, 'space', 'a title without letters or digits');
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [a.id, b.id, c.id]);
            await checkPagination((q) => alice.api.orgs.listSiteSpaces(org.id, site.id, q), 'listSiteSpaces');
            assert.deepEqual((await listSpaces(site.id, { default: true })).map((x) => x.id), [a.id]);
            assert.deepEqual((await listSpaces(site.id, { default: false })).map((x) => x.id), [b.id, c.id]);
            await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces?default=maybe`, { token: alice.token }), 400);
            await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces?limit=0`, { token: alice.token }), 400);
        });

        it('PATCH path (unique, 1..100, URL-safe), condition (null removes), spaceId', async () => {
            const site = await newSite();
            const a = await addSpace(site.id, { spaceId: spaces[0].id });
            const b = await addSpace(site.id, { spaceId: spaces[1].id });
            const p = await patchSpace(site.id, b.id, { path: 'v2' });
            assert.equal(p.path, 'v2');
            await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, b.id, { path: a.path }), 409);
            for (const path of ['', 'a'.repeat(101), 'a/b', 'with space', '..', '~share']) {
                await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, b.id, { path }), 400, `path ${JSON.stringify(path)}`);
            }
            await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${b.id}`, { token: alice.token, json: { path: 7 } }), 400);
            const withCond = await patchSpace(site.id, b.id, { condition: 'visitor.claims.beta == true' });
            assert.equal(withCond.condition, 'visitor.claims.beta == true');
            assert.equal((await patchSpace(site.id, b.id, { path: 'v3' })).condition, 'visitor.claims.beta == true', 'omitted keeps it');
            await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, b.id, { condition: '' }), 400);
            await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, b.id, { condition: 'x'.repeat(1025) }), 400);
            assert.equal((await patchSpace(site.id, b.id, { condition: null })).condition, undefined);
            const moved = await patchSpace(site.id, b.id, { spaceId: spaces[2].id });
            assert.equal(moved.space.id, spaces[2].id);
            assert.equal(moved.title, 'Guides');
            assert.equal(moved.path, 'v3');
            await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, b.id, { spaceId: foreignSpace.id }), 404);
            await expectError(alice.api.orgs.updateSiteSpaceById(org.id, site.id, NO_ID, { path: 'x' }), 404);
            await invariants(site.id);
        });

        it('DELETE promotes the next by position, is idempotent, and keeps the count', async () => {
            const site = await newSite();
            const a = await addSpace(site.id, { spaceId: spaces[0].id });
            const b = await addSpace(site.id, { spaceId: spaces[1].id });
            const c = await addSpace(site.id, { spaceId: spaces[2].id });
            await empty(alice.api.orgs.deleteSiteSpaceById(org.id, site.id, a.id), 204);
            let st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => [x.id, x.default]), [[b.id, true], [c.id, false]]);
            await empty(alice.api.orgs.deleteSiteSpaceById(org.id, site.id, a.id), 204);
            await empty(alice.api.orgs.deleteSiteSpaceById(org.id, site.id, c.id), 204);
            await empty(alice.api.orgs.deleteSiteSpaceById(org.id, site.id, b.id), 204);
            st = await invariants(site.id);
            assert.deepEqual(st.structure, []);
            const again = await addSpace(site.id, { spaceId: spaces[3].id });
            assert.equal(again.default, true, 'the first after emptying is the default');
        });

        it('addSpaceToSite: unknown, foreign and deleted spaces are 404; a bad sectionId is 400', async () => {
            const site = await newSite();
            await expectError(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: NO_ID }), 404);
            await expectError(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: foreignSpace.id }), 404);
            await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/site-spaces`, { token: alice.token, json: {} }), 400);
            await expectError(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[0].id, sectionId: NO_ID }), 400);
            const gone = await ok(alice.api.orgs.createSpace(org.id, { title: 'Gone' }), 'createSpace', 201);
            const x = await addSpace(site.id, { spaceId: gone.id });
            await addSpace(site.id, { spaceId: spaces[1].id });
            await empty(alice.api.spaces.deleteSpaceById(gone.id), 204);
            const st = await structure(site.id);
            assert.ok(!st.structure.some((s) => s.id === x.id), 'a deleted space leaves the structure');
            await expectError(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: gone.id }), 404);
        });

        it('moveSiteSpace (deprecated): before/after, the end, and 400 for invalid positions', async () => {
            const site = await newSite();
            const a = await addSpace(site.id, { spaceId: spaces[0].id });
            const b = await addSpace(site.id, { spaceId: spaces[1].id });
            const c = await addSpace(site.id, { spaceId: spaces[2].id });
            const order = async () => (await structure(site.id)).structure.map((x) => x.id);
            const move = (id, position) => ok(alice.api.orgs.moveSiteSpace(org.id, site.id, id, { position }), 'moveSiteSpace');
            await move(c.id, { before: { type: 'site-space', siteSpace: a.id } });
            assert.deepEqual(await order(), [c.id, a.id, b.id]);
            await move(c.id, { after: { type: 'site-space', siteSpace: b.id } });
            assert.deepEqual(await order(), [a.id, b.id, c.id]);
            await move(a.id, undefined);
            assert.deepEqual(await order(), [b.id, c.id, a.id]);
            const bad = (id, position) => expectError(alice.api.orgs.moveSiteSpace(org.id, site.id, id, { position }), 400);
            await bad(a.id, { before: { type: 'site-space', siteSpace: NO_ID } });
            await bad(a.id, { before: { type: 'site-space', siteSpace: a.id } });
            await bad(a.id, { before: { type: 'site-space', siteSpace: b.id }, after: { type: 'site-space', siteSpace: c.id } });
            await bad(a.id, { before: { type: 'site-section', siteSection: b.id } });
            await bad(a.id, { before: 'b' });
            await expectError(alice.api.orgs.moveSiteSpace(org.id, site.id, NO_ID, {}), 404);
            assert.deepEqual(await order(), [b.id, c.id, a.id], 'failed moves change nothing');
            await invariants(site.id);
        });
    });

    describe('sections', () => {
        it('the first section takes the root site spaces; its space is its first site space and default', async () => {
            const site = await newSite();
            const r1 = await addSpace(site.id, { spaceId: spaces[0].id });
            const r2 = await addSpace(site.id, { spaceId: spaces[1].id });
            const s1 = await addSection(site.id, { spaceId: spaces[2].id, title: 'User Guide', icon: 'book' });
            assert.equal(s1.object, 'site-section');
            assert.equal(s1.default, true);
            assert.equal(s1.path, 'user-guide');
            assert.equal(s1.title, 'User Guide');
            assert.equal(s1.icon, 'book');
            assert.deepEqual(s1.siteSpaces.map((x) => [x.space.id, x.default]), [[spaces[2].id, true], [r1.space.id, false], [r2.space.id, false]]);
            const st = await invariants(site.id);
            assert.equal(st.type, 'sections');
            const s2 = await addSection(site.id, { spaceId: spaces[3].id });
            assert.equal(s2.title, 'Changelog', 'title defaults to the space title');
            assert.equal(s2.default, false);
            assert.equal(s2.siteSpaces.length, 1);
            assert.equal(s2.siteSpaces[0].default, true);
            const s3 = await addSection(site.id, { spaceId: spaces[3].id, title: null });
            assert.equal(s3.path, 'changelog-2');
            await invariants(site.id);
            await checkPagination((q) => alice.api.orgs.listSiteSections(org.id, site.id, q), 'listSiteSections');
            // addSpaceToSite without sectionId goes to the default section
            const x = await addSpace(site.id, { spaceId: spaces[4].id });
            assert.equal(x.section, s1.id);
            const y = await addSpace(site.id, { spaceId: spaces[4].id, sectionId: s2.id });
            assert.equal(y.section, s2.id);
            assert.equal(y.default, false);
            await invariants(site.id);
            await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/sections`, { token: alice.token, json: { title: 'No space' } }), 400);
            await expectError(alice.api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[0].id, title: 'x' }), 400);
            await expectError(alice.api.orgs.addSectionToSite(org.id, site.id, { spaceId: NO_ID }), 404);
        });

        it('concurrent creates keep one default and unique paths (the site row is locked)', async () => {
            const site = await newSite();
            const made = await Promise.all(
                [0, 1, 2, 3, 4, 5].map((i) => addSection(site.id, { spaceId: spaces[i % 2].id, title: 'Same Title' })),
            );
            assert.equal(made.filter((s) => s.default).length, 1);
            const st = await invariants(site.id);
            assert.equal(sectionsOf(st).length, 6);
            await Promise.all([2, 3, 4].map((i) => addSpace(site.id, { spaceId: spaces[i].id })));
            await invariants(site.id);
        });

        it('PATCH title, path, icon, description, condition, defaultSiteSpace', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            const extra = await addSpace(site.id, { spaceId: spaces[2].id, sectionId: s2.id });
            let p = await patchSection(site.id, s2.id, { title: 'Deux', path: 'deux', icon: 'gear', description: 'second' });
            assert.equal(p.title, 'Deux');
            assert.equal(p.path, 'deux');
            assert.equal(p.icon, 'gear');
            assert.equal(p.description, 'second');
            p = await patchSection(site.id, s2.id, { icon: null, description: null, condition: 'visitor.claims.plan == "pro"' });
            assert.equal(p.icon, undefined);
            assert.equal(p.description, undefined);
            assert.equal(p.condition, 'visitor.claims.plan == "pro"');
            assert.equal((await patchSection(site.id, s2.id, { title: 'Zwei' })).condition, 'visitor.claims.plan == "pro"');
            assert.equal((await patchSection(site.id, s2.id, { condition: null })).condition, undefined);
            p = await patchSection(site.id, s2.id, { defaultSiteSpace: extra.id });
            assert.deepEqual(p.siteSpaces.filter((x) => x.default).map((x) => x.id), [extra.id]);
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { defaultSiteSpace: s1.siteSpaces[0].id }), 400);
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { path: s1.path }), 409);
            for (const path of ['', 'x'.repeat(101), 'a b', 'a/b', '~x']) {
                await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { path }), 400, `path ${JSON.stringify(path)}`);
            }
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { title: 'x' }), 400);
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { icon: 'i'.repeat(51) }), 400);
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, s2.id, { condition: 'c'.repeat(1025) }), 400);
            await expectError(alice.api.orgs.updateSiteSectionById(org.id, site.id, NO_ID, { title: 'Nope' }), 404);
            await invariants(site.id);
        });

        it('DELETE promotes the first remaining section, is idempotent; the last leaves an empty site', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            const s3 = await addSection(site.id, { spaceId: spaces[2].id, title: 'Three' });
            await empty(alice.api.orgs.deleteSiteSectionById(org.id, site.id, s1.id), 204);
            let st = await invariants(site.id);
            assert.deepEqual(sectionsOf(st).map((s) => [s.id, s.default]), [[s2.id, true], [s3.id, false]]);
            await empty(alice.api.orgs.deleteSiteSectionById(org.id, site.id, s1.id), 204);
            await empty(alice.api.orgs.deleteSiteSectionById(org.id, site.id, s3.id), 204);
            await empty(alice.api.orgs.deleteSiteSectionById(org.id, site.id, s2.id), 204);
            st = await invariants(site.id);
            assert.deepEqual(st, { type: 'siteSpaces', structure: [] });
            const root = await addSpace(site.id, { spaceId: spaces[3].id });
            assert.equal(root.section, undefined);
            assert.equal(root.default, true);
        });

        it('moveSiteSection (deprecated) and 400 for invalid positions', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            const s3 = await addSection(site.id, { spaceId: spaces[2].id, title: 'Three' });
            const order = async () => sectionsOf(await structure(site.id)).map((s) => s.id);
            const move = (id, position) => ok(alice.api.orgs.moveSiteSection(org.id, site.id, id, { position }), 'moveSiteSection');
            await move(s3.id, { before: { type: 'site-section', siteSection: s1.id } });
            assert.deepEqual(await order(), [s3.id, s1.id, s2.id]);
            await move(s3.id, { after: { type: 'site-section', siteSection: s2.id } });
            assert.deepEqual(await order(), [s1.id, s2.id, s3.id]);
            const bad = (position) => expectError(alice.api.orgs.moveSiteSection(org.id, site.id, s1.id, { position }), 400);
            await bad({ before: { type: 'site-section', siteSection: NO_ID } });
            await bad({ before: { type: 'site-section', siteSection: s1.id } });
            await bad({ before: { type: 'site-space', siteSpace: s2.id } });
            await bad({ before: { type: 'nope', siteSection: s2.id } });
            await bad({ after: { type: 'site-section' } });
            await bad('first');
            await expectError(alice.api.orgs.moveSiteSection(org.id, site.id, NO_ID, { position: { before: { type: 'site-section', siteSection: s1.id } } }), 404);
            assert.deepEqual(await order(), [s1.id, s2.id, s3.id]);
            await move(s1.id, {});
            assert.deepEqual(await order(), [s2.id, s3.id, s1.id], 'no before/after: the end');
            await invariants(site.id);
        });
    });

    describe('section groups', () => {
        it('create with sections, add, remove, update, delete (sections stay), move', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            const s3 = await addSection(site.id, { spaceId: spaces[2].id, title: 'Three' });
            const g = await ok(alice.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Products', icon: 'box', sections: [s2.id, s3.id] }), 'addSectionGroupToSite', 201);
            assert.equal(g.object, 'site-section-group');
            assert.equal(g.title, 'Products');
            assert.equal(g.icon, 'box');
            assert.deepEqual(g.sections.map((s) => s.id), [s2.id, s3.id]);
            assert.deepEqual(g.children.map((s) => s.id), [s2.id, s3.id]);
            assert.ok(g.sections.every((s) => s.sectionGroup === g.id));
            let st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [s1.id, g.id]);
            assert.deepEqual((await listGroups(site.id)).map((x) => x.id), [g.id]);

            const bad = (body) => expectError(alice.api.orgs.addSectionGroupToSite(org.id, site.id, body), 400);
            await bad({ title: 'X', sections: [NO_ID] });
            await bad({ title: '' });
            await bad({ title: 't'.repeat(101) });
            await bad({ title: 'X', icon: 'i'.repeat(51) });
            await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/section-groups`, { token: alice.token, json: { icon: 'x' } }), 400);

            const u = await ok(alice.api.orgs.updateSiteSectionGroupById(org.id, site.id, g.id, { title: 'Renamed', icon: null }), 'updateSiteSectionGroupById');
            assert.equal(u.title, 'Renamed');
            assert.equal(u.icon, undefined);
            await expectError(alice.api.orgs.updateSiteSectionGroupById(org.id, site.id, NO_ID, { title: 'x' }), 404);

            const added = await ok(alice.api.orgs.addSectionToGroup(org.id, site.id, g.id, { sectionId: s1.id }), 'addSectionToGroup', 201);
            assert.deepEqual(added.children.map((s) => s.id), [s2.id, s3.id, s1.id]);
            await expectError(alice.api.orgs.addSectionToGroup(org.id, site.id, g.id, { sectionId: NO_ID }), 400);
            await expectError(alice.api.orgs.addSectionToGroup(org.id, site.id, NO_ID, { sectionId: s1.id }), 404);
            await invariants(site.id);

            await empty(alice.api.orgs.removeSectionFromGroup(org.id, site.id, g.id, s2.id), 204);
            await empty(alice.api.orgs.removeSectionFromGroup(org.id, site.id, g.id, s2.id), 204);
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [g.id, s2.id]);
            assert.deepEqual(st.structure[0].children.map((s) => s.id), [s3.id, s1.id]);

            const g2 = await ok(alice.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'Empty' }), 'addSectionGroupToSite', 201);
            assert.deepEqual(g2.children, []);
            const mv = await ok(alice.api.orgs.moveSiteSectionGroup(org.id, site.id, g2.id, { position: { before: { type: 'site-section-group', id: g.id } } }), 'moveSiteSectionGroup');
            assert.equal(mv.id, g2.id);
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [g2.id, g.id, s2.id]);
            await ok(alice.api.orgs.moveSiteSectionGroup(org.id, site.id, g2.id, { position: { after: { type: 'site-section', id: s2.id } } }), 'moveSiteSectionGroup');
            assert.deepEqual((await structure(site.id)).structure.map((x) => x.id), [g.id, s2.id, g2.id]);
            await expectError(alice.api.orgs.moveSiteSectionGroup(org.id, site.id, g2.id, { position: { after: { type: 'site-section', id: s1.id } } }), 400);

            await empty(alice.api.orgs.deleteSiteSectionGroupById(org.id, site.id, g.id), 204);
            await empty(alice.api.orgs.deleteSiteSectionGroupById(org.id, site.id, g.id), 204);
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [s3.id, s1.id, s2.id, g2.id], "the group's sections take its place");
            assert.ok(sectionsOf(st).every((s) => s.sectionGroup === undefined));
        });
    });

    describe('sortSiteStructure', () => {
        it('moves site spaces within their section, sections among sections and groups, groups at the top level', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            const x2 = await addSpace(site.id, { spaceId: spaces[2].id, sectionId: s1.id });
            const g = await ok(alice.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'G', sections: [s2.id] }), 'addSectionGroupToSite', 201);
            const sort = (item, position) => ok(alice.api.orgs.sortSiteStructure(org.id, site.id, { item, position }), 'sortSiteStructure');
            const moved = await sort({ type: 'site-space', id: x2.id }, { before: { type: 'site-space', id: s1.siteSpaces[0].id } });
            assert.equal(moved.object, 'site-space');
            let st = await invariants(site.id);
            assert.deepEqual(sectionsOf(st)[0].siteSpaces.map((x) => x.id), [x2.id, s1.siteSpaces[0].id]);
            // a section moved beside a grouped section joins the group
            const sec = await sort({ type: 'site-section', id: s1.id }, { after: { type: 'site-section', id: s2.id } });
            assert.equal(sec.sectionGroup, g.id);
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [g.id]);
            assert.deepEqual(st.structure[0].children.map((x) => x.id), [s2.id, s1.id]);
            // and before the group, leaves it
            await sort({ type: 'site-section', id: s1.id }, { before: { type: 'site-section-group', id: g.id } });
            st = await invariants(site.id);
            assert.deepEqual(st.structure.map((x) => x.id), [s1.id, g.id]);
            const grp = await sort({ type: 'site-section-group', id: g.id }, { before: { type: 'site-section', id: s1.id } });
            assert.equal(grp.object, 'site-section-group');
            assert.deepEqual((await structure(site.id)).structure.map((x) => x.id), [g.id, s1.id]);
            const bad = (item, position) => expectError(alice.api.orgs.sortSiteStructure(org.id, site.id, { item, position }), 400);
            await bad({ type: 'site-space', id: x2.id }, { before: { type: 'site-space', id: s2.siteSpaces[0].id } });
            await bad({ type: 'site-space', id: x2.id }, { before: { type: 'site-section', id: s1.id } });
            await bad({ type: 'site-section', id: s1.id }, { before: { type: 'site-space', id: x2.id } });
            await bad({ type: 'site-section-group', id: g.id }, { before: { type: 'site-section', id: s2.id } });
            await bad({ type: 'thing', id: g.id }, {});
            await expectError(alice.api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section', id: NO_ID }, position: {} }), 404);
            await invariants(site.id);
        });
    });

    describe('published profile and URLs', () => {
        it('getPublishedContentSite is served from the page cache for admins and follows every change', async () => {
            const site = await newSite('Cached profile');
            await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const get = (api = alice.api) => ok(api.orgs.getPublishedContentSite(org.id, site.id), 'getPublishedContentSite');
            const first = await get();
            assert.deepEqual(await get(), first, 'a second read (cached) is the same');
            // A change of the site, of its structure, of its customization and of a space it shows.
            await ok(alice.api.orgs.updateSiteById(org.id, site.id, { title: 'Renamed profile' }), 'updateSiteById');
            assert.equal((await get()).site.title, 'Renamed profile');
            await addSection(site.id, { spaceId: spaces[1].id, title: 'Two' });
            assert.equal(sectionsOf((await get()).structure).length, 2);
            const cust = await ok(alice.api.orgs.getSiteCustomizationById(org.id, site.id), 'getSiteCustomizationById');
            await ok(alice.api.orgs.updateSiteCustomizationById(org.id, site.id, { ...cust, title: 'Custom title' }), 'updateSiteCustomizationById');
            assert.equal((await get()).customizations.site.title, 'Custom title');
            await ok(alice.api.spaces.updateSpaceById(spaces[1].id, { title: 'API Reference v2' }), 'updateSpaceById');
            const sec = sectionsOf((await get()).structure)[1];
            assert.equal(sec.siteSpaces[0].space.title, 'API Reference v2');
            await ok(alice.api.spaces.updateSpaceById(spaces[1].id, { title: 'API Reference' }), 'updateSpaceById');
            // Another member (not an admin) reads it too, uncached, with their own permissions.
            const asBob = await get(bob.api);
            assert.equal(asBob.site.title, 'Renamed profile');
            await alice.api.orgs.deleteSiteById(org.id, site.id);
            await expectError(alice.api.orgs.getPublishedContentSite(org.id, site.id), 404, 'deleted: not served from the cache');
        });
        it('getPublishedContentSite: site, structure, customizations per site space, scripts', async () => {
            const site = await newSite();
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const x = await addSpace(site.id, { spaceId: spaces[1].id });
            const p = await ok(alice.api.orgs.getPublishedContentSite(org.id, site.id), 'getPublishedContentSite');
            assert.equal(p.object, 'published-content-site');
            assert.equal(p.site.id, site.id);
            assert.deepEqual(p.structure, await structure(site.id));
            assert.deepEqual(Object.keys(p.customizations.siteSpaces).sort(), [s1.siteSpaces[0].id, x.id].sort());
            for (const c of Object.values(p.customizations.siteSpaces)) {
                assert.equal(c.hasOverrides, false);
                assert.deepEqual(c.styling, p.customizations.site.styling);
            }
            assert.deepEqual(p.scripts, []);
            await expectError(alice.api.orgs.getPublishedContentSite(org.id, site.id, { shareKey: 'nosuchkey' }), 404);
            await expectError(alice.api.orgs.getSiteStructure(org.id, site.id, { shareKey: 'nosuchkey' }), 404);
            await expectError(alice.api.orgs.getPublishedContentSite(org.id, NO_ID), 404);
        });
    });

    describe('published URLs', () => {
        it('root, default section = root, section/path, default site space = its section, /~share/<key>', async () => {
            const site = await newSite('URLs');
            const s1 = await addSection(site.id, { spaceId: spaces[0].id, title: 'Home' });
            const s2 = await addSection(site.id, { spaceId: spaces[1].id, title: 'API' });
            const extra = await addSpace(site.id, { spaceId: spaces[2].id, sectionId: s2.id });
            const pub = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/publish`, { token: alice.token });
            assert.equal(pub.status, 200, `publishSite: ${pub.text}`);
            const root = (await ok(alice.api.orgs.getSiteById(org.id, site.id), 'getSiteById')).urls.published;
            assert.ok(root, 'a published site has urls.published');
            const check = (st, prefix) => {
                const [h, a] = sectionsOf(st);
                assert.equal(h.urls.published, prefix);
                assert.equal(h.siteSpaces[0].urls.published, prefix);
                assert.equal(a.urls.published, `${prefix}/api`);
                assert.equal(a.siteSpaces[0].urls.published, `${prefix}/api`);
                assert.equal(a.siteSpaces.find((x) => x.id === extra.id).urls.published, `${prefix}/api/guides`);
            };
            check(await structure(site.id), root);
            const p = await ok(alice.api.orgs.getPublishedContentSite(org.id, site.id), 'getPublishedContentSite');
            check(p.structure, root);
            assert.equal(s1.id, sectionsOf(p.structure)[0].id);

            const vis = await raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/sites/${site.id}`, { token: alice.token, json: { visibility: 'share-link' } });
            const link = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites/${site.id}/share-links`, { token: alice.token, json: { name: 'Review' } });
            const m = link.json?.urls?.published?.match(/\/~share\/([^/?#]+)/);
            assert.equal(vis.status, 200, `PATCH visibility: ${vis.text}`);
            assert.equal(link.status, 201, `createSiteShareLink: ${link.text}`);
            assert.ok(m, `share link URL ${link.json?.urls?.published} holds /~share/<key>`);
            const key = m[1];
            check(await structure(site.id, alice.api, { shareKey: key }), `${root}/~share/${key}`);
            const ps = await ok(alice.api.orgs.getPublishedContentSite(org.id, site.id, { shareKey: key }), 'getPublishedContentSite');
            check(ps.structure, `${root}/~share/${key}`);
            await expectError(alice.api.orgs.getPublishedContentSite(org.id, site.id, { shareKey: `${key}x` }), 404);
        });
    });

    describe('access', () => {
        it('create writes; edit and read only read; outsiders see nothing', async () => {
            const site = await newSite();
            const sec = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' }, bob.api);
            const x = await addSpace(site.id, { spaceId: spaces[1].id }, bob.api);
            await ok(bob.api.orgs.updateSiteSectionById(org.id, site.id, sec.id, { title: 'Uno' }), 'updateSiteSectionById');
            await ok(bob.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'G' }), 'addSectionGroupToSite', 201);
            for (const u of [erin, rita]) {
                await structure(site.id, u.api);
                assert.equal((await listSections(site.id, u.api)).length, 1);
                assert.equal((await listSpaces(site.id, {}, u.api)).length, 2);
                await ok(u.api.orgs.getPublishedContentSite(org.id, site.id), 'getPublishedContentSite');
                await expectError(u.api.orgs.addSectionToSite(org.id, site.id, { spaceId: spaces[2].id }), 403);
                await expectError(u.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: spaces[2].id }), 403);
                await expectError(u.api.orgs.updateSiteSectionById(org.id, site.id, sec.id, { title: 'Nope' }), 403);
                await expectError(u.api.orgs.updateSiteSpaceById(org.id, site.id, x.id, { path: 'nope' }), 403);
                await expectError(u.api.orgs.deleteSiteSpaceById(org.id, site.id, x.id), 403);
                await expectError(u.api.orgs.deleteSiteSectionById(org.id, site.id, sec.id), 403);
                await expectError(u.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'G' }), 403);
                await expectError(u.api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section', id: sec.id }, position: { before: { type: 'site-section', id: sec.id } } }), 403);
            }
            await expectError(oscar.api.orgs.getSiteStructure(org.id, site.id), 404);
            await expectError(oscar.api.orgs.listSiteSections(org.id, site.id), 404);
            await expectError(oscar.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: foreignSpace.id }), 404);
            await expectError(oscar.api.orgs.getSiteStructure(otherOrg.id, site.id), 404, 'a site of another organization');
            await invariants(site.id);
        });
        it('the role comes before the item: 403 for a missing item as for an existing one; outsiders 404', async () => {
            const site = await newSite();
            const sec = await addSection(site.id, { spaceId: spaces[0].id, title: 'One' });
            const g = await ok(alice.api.orgs.addSectionGroupToSite(org.id, site.id, { title: 'G' }), 'addSectionGroupToSite', 201);
            const x = sec.siteSpaces[0];
            const pos = { position: {} };
            for (const [u, status] of [[rita, 403], [erin, 403], [oscar, 404]]) {
                for (const id of [sec.id, NO_ID]) {
                    await expectError(u.api.orgs.deleteSiteSectionById(org.id, site.id, id), status, `delete section ${id}`);
                    await expectError(u.api.orgs.updateSiteSectionById(org.id, site.id, id, { title: 'Nope' }), status);
                    await expectError(u.api.orgs.moveSiteSection(org.id, site.id, id, pos), status);
                }
                for (const id of [g.id, NO_ID]) {
                    await expectError(u.api.orgs.deleteSiteSectionGroupById(org.id, site.id, id), status, `delete group ${id}`);
                    await expectError(u.api.orgs.updateSiteSectionGroupById(org.id, site.id, id, { title: 'Nope' }), status);
                    await expectError(u.api.orgs.moveSiteSectionGroup(org.id, site.id, id, pos), status);
                    await expectError(u.api.orgs.removeSectionFromGroup(org.id, site.id, id, sec.id), status);
                }
                for (const id of [x.id, NO_ID]) {
                    await expectError(u.api.orgs.deleteSiteSpaceById(org.id, site.id, id), status, `delete site space ${id}`);
                    await expectError(u.api.orgs.updateSiteSpaceById(org.id, site.id, id, { path: 'nope' }), status);
                    await expectError(u.api.orgs.moveSiteSpace(org.id, site.id, id, pos), status);
                }
                await expectError(u.api.orgs.sortSiteStructure(org.id, site.id, { item: { type: 'site-section', id: NO_ID }, position: {} }), status);
            }
            const st = await invariants(site.id);
            assert.deepEqual(st.structure.map((y) => y.id), [sec.id, g.id], 'nothing changed');
        });
    });
});

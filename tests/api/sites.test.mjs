// Docs sites (api/sites.c): create (spaces, createSpace), list (filters space, title,
// published, type; keyset pages), read, update (title, visibility, basename unique across
// docsd, adaptiveContent, agentsContext, proxy's pattern, defaults), delete (idempotent),
// publish and unpublish, the customization (GitBook's schema enforced; a PUT replaces it,
// reads lay it over the defaults) and site spaces' overrides, share links, the adaptive
// schema and the publishing auth. Who may call what: reading needs the read role in the
// organization, creating a site create, everything else admin; guests and outsiders get 404
// (the list too). The role is checked before the site is looked up: a member without it gets
// 403 whether or not the site exists.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination, sleep } from './lib/api.mjs';

const NO_SITE = 'nosuchsite0000000000';
const CALLERS = ['admin', 'create', 'edit', 'read', 'guest', 'outsider'];
const RANK = { admin: 5, create: 4, edit: 2, read: 0 };

/** Expected status per caller for an operation needing `role`: success from it up, 403 for
 * members below, 404 for guests and outsiders. */
function need(role, success) {
    const exp = {};
    for (const c of CALLERS) exp[c] = !(c in RANK) ? 404 : RANK[c] >= RANK[role] ? success : 403;
    return exp;
}

describe('sites', () => {
    let ctx, who, org, other, space1, space2, foreignSpace;

    before(async () => {
        ctx = await setup();
        who = {};
        for (const c of CALLERS) who[c] = await ctx.user(c);
        ({ org } = await createOrg(ctx.url, who.admin.token, `Sites ${ctx.run}`));
        ({ org: other } = await createOrg(ctx.url, who.admin.token, `Other ${ctx.run}`));
        for (const c of ['create', 'edit', 'read']) await addMember(who.admin.api, org.id, who[c].email, c);
        await addMember(who.admin.api, org.id, who.guest.email, null);
        space1 = await ok(who.admin.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        space2 = await ok(who.admin.api.orgs.createSpace(org.id, { title: 'API' }), 'createSpace', 201);
        foreignSpace = await ok(who.admin.api.orgs.createSpace(other.id, { title: 'Foreign' }), 'createSpace', 201);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const api = () => who.admin.api;
    const create = (body = {}, as = who.admin) => ok(as.api.orgs.createSite(org.id, { title: 'Docs', ...body }), 'createSite', 201);
    const get = (id, as = who.admin) => ok(as.api.orgs.getSiteById(org.id, id), 'getSiteById');
    const patch = (id, body) => ok(api().orgs.updateSiteById(org.id, id, body), 'updateSiteById');
    const bad = (promise, what, re) =>
        expectError(promise, 400, what).then((e) => {
            if (re) assert.match(e.error.message, re, `${what}: message`);
            return e;
        });
    /** Runs call(as) for every caller and asserts the status (and the schema on success). */
    async function table(exp, call, operationId) {
        for (const c of CALLERS) {
            const status = exp[c];
            if (status >= 400) await expectError(call(who[c]), status, `${operationId} as ${c}`);
            else if (status === 204 || status === 205) await empty(call(who[c]), status, `${operationId} as ${c}`);
            else await ok(call(who[c]), operationId, status);
        }
    }
    /** Site spaces exist once sites-structure's dom_site_space_add is in. */
    const siteSpaces = async (siteId) =>
        (await ok(api().orgs.listSiteSpaces(org.id, siteId, { limit: 1000 }), 'listSiteSpaces')).items;

    describe('create and read', () => {
        it('createSite: defaults, Location, the new site reads back; getSiteById 404s', async () => {
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites`, { token: who.admin.token, json: {} });
            assert.equal(r.status, 201, r.text);
            const s = r.json;
            assert.equal(r.headers.location, `${ctx.url}/v1/orgs/${org.id}/sites/${s.id}`);
            assert.equal(s.object, 'site');
            assert.equal(s.type, 'basic');
            assert.equal(s.title, 'Untitled site');
            assert.equal(s.visibility, 'public');
            assert.equal(s.published, false);
            assert.equal(s.siteSpaces, 0);
            assert.equal(s.agentsContext, 'included');
            assert.deepEqual(s.adaptiveContent, { enabled: false });
            assert.equal(s.urls.published, undefined, 'no published URL before publishing');
            assert.equal(s.urls.location, `${ctx.url}/v1/orgs/${org.id}/sites/${s.id}`);
            const back = await get(s.id);
            assert.deepEqual(back, s);
            const t = await create({ type: 'premium', title: 'Product docs', visibility: 'unlisted' });
            assert.equal(t.type, 'premium');
            assert.equal(t.title, 'Product docs');
            assert.equal(t.visibility, 'unlisted');
            await expectError(api().orgs.getSiteById(org.id, NO_SITE), 404, 'unknown site');
            // a site is reached through its own organization only
            await expectError(api().orgs.getSiteById(other.id, s.id), 404, 'through another org');
        });

        it('createSite: bad input is 400 naming the field', async () => {
            await bad(api().orgs.createSite(org.id, { title: 'x' }), 'short title', /title/);
            await bad(api().orgs.createSite(org.id, { title: 'x'.repeat(129) }), 'long title', /title/);
            await bad(api().orgs.createSite(org.id, { type: 'gold' }), 'type', /type/);
            await bad(api().orgs.createSite(org.id, { visibility: 'secret' }), 'visibility', /visibility/);
            await bad(api().orgs.createSite(org.id, { spaces: 'abc' }), 'spaces not an array', /spaces/);
            await bad(api().orgs.createSite(org.id, { spaces: ['nosuchspace'] }), 'unknown space', /nosuchspace/);
            await bad(api().orgs.createSite(org.id, { spaces: [foreignSpace.id] }), 'space of another org', new RegExp(foreignSpace.id));
            await bad(api().orgs.createSite(org.id, { spaces: [space1.id, space1.id] }), 'twice', /twice/);
            await bad(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites`, { token: who.admin.token, json: { createSpace: 'yes' } }), 'createSpace', /createSpace/);
            // nothing was created by the failures
            const titles = (await ok(api().orgs.listSites(org.id, { limit: 1000 }), 'listSites')).items.map((s) => s.title);
            assert.ok(!titles.includes('x'));
        });

        it('createSite with spaces (and createSpace) adds them as site spaces', async () => {
            const s = await create({ title: 'With spaces', spaces: [space1.id, space2.id] });
            assert.equal(s.siteSpaces, 2);
            assert.deepEqual((await siteSpaces(s.id)).map((x) => x.space.id), [space1.id, space2.id]);
            const before = (await ok(api().orgs.listSpacesInOrganizationById(org.id, { limit: 1000 }), 'listSpacesInOrganizationById')).items.length;
            const n = await create({ title: 'Fresh', createSpace: true });
            assert.equal(n.siteSpaces, 1);
            const spaces = (await ok(api().orgs.listSpacesInOrganizationById(org.id, { limit: 1000 }), 'listSpacesInOrganizationById')).items;
            assert.equal(spaces.length, before + 1, 'a new space');
            assert.ok(spaces.some((x) => x.title === 'Fresh'));
        });

        it('who may create and read', async () => {
            // a guest knows the organization: 403, not 404
            await table({ ...need('create', 201), guest: 403 }, (as) => as.api.orgs.createSite(org.id, { title: `By someone` }), 'createSite');
            const s = await create({ title: 'Readable' });
            await table(need('read', 200), (as) => as.api.orgs.getSiteById(org.id, s.id), 'getSiteById');
        });
    });

    describe('update, publish, delete', () => {
        let site;
        before(async () => {
            site = await create({ title: 'Settings' });
        });

        it('updateSiteById: hostname (docsd extension) follows the seed pattern, is unique, null removes it', async () => {
            const host = `docs-${ctx.run}.example.com`.toLowerCase();
            const s = await patch(site.id, { hostname: host });
            assert.equal(s.hostname, host);
            assert.equal((await get(site.id)).hostname, host);
            for (const h of ['example.com', 'Docs.Example.com', 'a..example.com', '-a.example.com', 'a.example.c', 'a b.example.com', 'x'.repeat(64) + '.example.com']) {
                await bad(api().orgs.updateSiteById(org.id, site.id, { hostname: h }), `hostname ${h}`, /hostname/);
            }
            const other = await create({ title: 'Other host' });
            const e = await expectError(api().orgs.updateSiteById(org.id, other.id, { hostname: host }), 409, 'taken');
            assert.match(e.error.message, /hostname/);
            const cleared = await patch(site.id, { hostname: null });
            assert.equal(cleared.hostname, undefined);
            await patch(other.id, { hostname: host });
            await patch(other.id, { hostname: null });
        });

        it('updateSiteById: each field is stored and read back', async () => {
            const base = `b${ctx.run}`.toLowerCase();
            let s = await patch(site.id, {
                title: 'Renamed',
                visibility: 'share-link',
                basename: base,
                adaptiveContent: { enabled: true },
                agentsContext: 'excluded',
                proxy: 'docs.example.com/help/center',
            });
            assert.equal(s.title, 'Renamed');
            assert.equal(s.visibility, 'share-link');
            assert.equal(s.basename, base);
            assert.deepEqual(s.adaptiveContent, { enabled: true });
            assert.equal(s.agentsContext, 'excluded');
            assert.equal(s.proxy.origin, 'docs.example.com/help/center');
            assert.equal(s.proxy.target, `${ctx.siteUrl}/sites/${base}`);
            assert.deepEqual(await get(site.id), s);
            // leaving fields out changes nothing; null removes the proxy
            s = await patch(site.id, { proxy: null });
            assert.equal(s.proxy, undefined);
            assert.equal(s.title, 'Renamed');
            assert.equal(s.basename, base);
            s = await patch(site.id, { adaptiveContent: { enabled: false } });
            assert.deepEqual(s.adaptiveContent, { enabled: false });
            assert.equal(s.agentsContext, 'excluded');
        });

        it('updateSiteById: bad input is 400, a taken basename 409', async () => {
            const id = site.id;
            const u = (body) => api().orgs.updateSiteById(org.id, id, body);
            await bad(u({ title: 'x' }), 'title', /title/);
            await bad(u({ visibility: 'hidden' }), 'visibility', /visibility/);
            await bad(u({ basename: '' }), 'empty basename', /basename/);
            await bad(u({ basename: 'a/b' }), 'basename with a slash', /basename/);
            await bad(u({ basename: 'x'.repeat(101) }), 'long basename', /basename/);
            await bad(u({ adaptiveContent: true }), 'adaptiveContent', /adaptiveContent/);
            await bad(u({ adaptiveContent: {} }), 'adaptiveContent without enabled', /adaptiveContent/);
            await bad(u({ agentsContext: 'maybe' }), 'agentsContext', /agentsContext/);
            for (const p of ['example.com', 'https://example.com/docs', 'example.c/docs', 'example/docs', 'example.com/', 'example.com/a b', 'example.com/docs/', '.example.com/docs', 'exa mple.com/docs', 'example.co1/docs'])
                await bad(u({ proxy: p }), `proxy ${p}`, /proxy/);
            for (const p of ['company.com/docs', 'www.company.com/developer/docs', 'my-site.co.uk/a_b/c-d/9'])
                assert.equal((await patch(id, { proxy: p })).proxy.origin, p);
            // basenames are unique across docsd: another organization's site cannot take one
            const taken = `t${ctx.run}`.toLowerCase();
            await patch(id, { basename: taken });
            const foreign = await ok(api().orgs.createSite(other.id, { title: 'Elsewhere' }), 'createSite', 201);
            const e = await expectError(api().orgs.updateSiteById(other.id, foreign.id, { basename: taken }), 409, 'taken basename');
            assert.match(e.error.message, /basename/);
            // nor another site's id
            await expectError(api().orgs.updateSiteById(other.id, foreign.id, { basename: id }), 409, 'basename = a site id');
            // setting the same basename again is no conflict
            assert.equal((await patch(id, { basename: taken })).basename, taken);
        });

        it('basenames are unique without regard to case (lookalikes are 409)', async () => {
            const mine = await create({ title: 'Lookalike target' });
            const name = `Case${ctx.run}`;
            assert.equal((await patch(mine.id, { basename: name })).basename, name);
            const foreign = await ok(api().orgs.createSite(other.id, { title: 'Lookalike' }), 'createSite', 201);
            for (const spelt of [name, name.toLowerCase(), name.toUpperCase()]) {
                const e = await expectError(api().orgs.updateSiteById(other.id, foreign.id, { basename: spelt }), 409, `basename ${spelt}`);
                assert.match(e.error.message, /basename/);
            }
            // nor another site's id in another case (/sites/{id} would find the basename first)
            const lower = mine.id.toLowerCase() === mine.id ? mine.id.toUpperCase() : mine.id.toLowerCase();
            await expectError(api().orgs.updateSiteById(other.id, foreign.id, { basename: lower }), 409, 'basename = a site id in another case');
            // the site itself may change the case of its own basename, and the published URL follows
            const re = await patch(mine.id, { basename: name.toUpperCase() });
            assert.equal(re.basename, name.toUpperCase());
            assert.equal((await patch(mine.id, { basename: name })).basename, name);
        });

        it('updateSiteById: defaultSiteSpace and defaultSiteSection', async () => {
            const s = await create({ title: 'Defaults', spaces: [space1.id, space2.id] });
            let spaces = await siteSpaces(s.id);
            const second = spaces.find((x) => x.space.id === space2.id);
            assert.equal(second.default, false);
            await patch(s.id, { defaultSiteSpace: second.id });
            spaces = await siteSpaces(s.id);
            assert.equal(spaces.find((x) => x.id === second.id).default, true);
            assert.equal(spaces.filter((x) => x.default).length, 1, 'one default');
            await bad(api().orgs.updateSiteById(org.id, s.id, { defaultSiteSpace: 'nosuchsitespace' }), 'unknown site space', /defaultSiteSpace/);
            await bad(api().orgs.updateSiteById(org.id, s.id, { defaultSiteSection: 'nosuchsection' }), 'unknown section', /defaultSiteSection/);
            // with sections: the default section moves
            const a = await ok(api().orgs.addSectionToSite(org.id, s.id, { spaceId: space1.id, title: 'Section A' }), 'addSectionToSite', 201);
            const b = await ok(api().orgs.addSectionToSite(org.id, s.id, { spaceId: space2.id, title: 'Section B' }), 'addSectionToSite', 201);
            await patch(s.id, { defaultSiteSection: b.id });
            const sections = (await ok(api().orgs.listSiteSections(org.id, s.id, { limit: 1000 }), 'listSiteSections')).items;
            assert.deepEqual(sections.filter((x) => x.default).map((x) => x.id), [b.id]);
            assert.ok(sections.some((x) => x.id === a.id));
        });

        it('publishSite / unpublishSite: published and urls.published follow', async () => {
            let s = await ok(api().orgs.publishSite(org.id, site.id), 'publishSite');
            assert.equal(s.published, true);
            assert.equal(s.urls.published, `${ctx.siteUrl}/sites/${s.basename ?? s.id}`);
            assert.equal((await get(site.id)).published, true);
            s = await ok(api().orgs.publishSite(org.id, site.id), 'publishSite');
            assert.equal(s.published, true, 'publishing twice keeps it published');
            s = await ok(api().orgs.unpublishSite(org.id, site.id), 'unpublishSite');
            assert.equal(s.published, false);
            assert.equal(s.urls.published, undefined);
            assert.equal((await get(site.id)).published, false);
        });

        it('who may update, publish and unpublish', async () => {
            await table(need('admin', 200), (as) => as.api.orgs.updateSiteById(org.id, site.id, { title: 'By admin' }), 'updateSiteById');
            await table(need('admin', 200), (as) => as.api.orgs.publishSite(org.id, site.id), 'publishSite');
            await table(need('admin', 200), (as) => as.api.orgs.unpublishSite(org.id, site.id), 'unpublishSite');
            assert.equal((await get(site.id)).title, 'By admin');
        });

        it('deleteSiteById: 204, gone, and 204 again; admins only', async () => {
            const s = await create({ title: 'Doomed' });
            for (const c of ['create', 'edit', 'read']) await expectError(who[c].api.orgs.deleteSiteById(org.id, s.id), 403, `delete as ${c}`);
            for (const c of ['guest', 'outsider']) await expectError(who[c].api.orgs.deleteSiteById(org.id, s.id), 404, `delete as ${c}`);
            await get(s.id);
            await empty(api().orgs.deleteSiteById(org.id, s.id), 204, 'delete');
            await expectError(api().orgs.getSiteById(org.id, s.id), 404, 'deleted site');
            await empty(api().orgs.deleteSiteById(org.id, s.id), 204, 'delete again');
            // the role first: a member who may not delete gets 403 for an unknown site too
            // (a 204 would answer a missing site better than an existing one)
            await table({ ...need('admin', 204) }, (as) => as.api.orgs.deleteSiteById(org.id, NO_SITE), 'deleteSiteById (unknown site)');
            await table(need('admin', 404), (as) => as.api.orgs.updateSiteById(org.id, NO_SITE, { title: 'Nobody' }), 'updateSiteById (unknown site)');
            await table(need('read', 404), (as) => as.api.orgs.getSiteById(org.id, NO_SITE), 'getSiteById (unknown site)');
            // another organization's site through this one: not found here, so 204, and it stays
            const foreign = await ok(api().orgs.createSite(other.id, { title: 'Foreign' }), 'createSite', 201);
            await empty(api().orgs.deleteSiteById(org.id, foreign.id), 204, 'another organization\'s site');
            assert.equal((await ok(api().orgs.getSiteById(other.id, foreign.id), 'getSiteById')).id, foreign.id, 'still there');
            const ids = (await ok(api().orgs.listSites(org.id, { limit: 1000 }), 'listSites')).items.map((x) => x.id);
            assert.ok(!ids.includes(s.id), 'not listed');
        });

        it('deleting the organization\'s default site clears defaultContent', async () => {
            const s = await create({ title: 'Default' });
            let o = await ok(api().orgs.updateOrganizationById(org.id, { defaultContent: { type: 'site', site: s.id } }), 'updateOrganizationById');
            assert.deepEqual(o.defaultContent, { type: 'site', site: s.id });
            await empty(api().orgs.deleteSiteById(org.id, s.id), 204, 'delete');
            o = await ok(api().orgs.getOrganizationById(org.id), 'getOrganizationById');
            assert.equal(o.defaultContent ?? null, null);
        });
    });

    describe('listSites', () => {
        let lorg, sites;
        before(async () => {
            ({ org: lorg } = await createOrg(ctx.url, who.admin.token, `List ${ctx.run}`));
            await addMember(who.admin.api, lorg.id, who.read.email, 'read');
            await addMember(who.admin.api, lorg.id, who.guest.email, null);
            sites = [];
            for (const [title, type] of [['Alpha Guide', 'basic'], ['beta guide', 'premium'], ['Gamma', 'ultimate'], ['Delta GUIDE', 'premium'], ['Epsilon', 'basic']]) {
                sites.push(await ok(api().orgs.createSite(lorg.id, { title, type }), 'createSite', 201));
                await sleep(2);
            }
            await ok(api().orgs.publishSite(lorg.id, sites[1].id), 'publishSite');
            await ok(api().orgs.publishSite(lorg.id, sites[2].id), 'publishSite');
        });
        const list = (query, as = who.admin) => ok(as.api.orgs.listSites(lorg.id, { limit: 1000, ...query }), 'listSites');
        const titles = async (query, as) => (await list(query, as)).items.map((s) => s.title);

        it('oldest first; pages walk the same list', async () => {
            assert.deepEqual(await titles({}), sites.map((s) => s.title));
            await checkPagination((q) => api().orgs.listSites(lorg.id, q), 'listSites');
            await checkPagination((q) => api().orgs.listSites(lorg.id, q), 'listSites', { query: { type: ['premium', 'basic'] } });
        });

        it('filters: title (case-insensitive substring), published, type (array)', async () => {
            assert.deepEqual(await titles({ title: 'guide' }), ['Alpha Guide', 'beta guide', 'Delta GUIDE']);
            assert.deepEqual(await titles({ title: 'GAMMA' }), ['Gamma']);
            assert.deepEqual(await titles({ title: '%' }), [], 'LIKE wildcards are literal');
            assert.deepEqual(await titles({ published: true }), ['beta guide', 'Gamma']);
            assert.deepEqual(await titles({ published: false }), ['Alpha Guide', 'Delta GUIDE', 'Epsilon']);
            assert.deepEqual(await titles({ type: ['premium'] }), ['beta guide', 'Delta GUIDE']);
            assert.deepEqual(await titles({ type: ['premium', 'ultimate'] }), ['beta guide', 'Gamma', 'Delta GUIDE']);
            assert.deepEqual(await titles({ type: ['premium'], published: true, title: 'guide' }), ['beta guide']);
            assert.deepEqual(await titles({ space: space1.id }), [], 'no site shows that space');
        });

        it('filter by space: the sites showing it', async () => {
            const s = await ok(api().orgs.createSite(org.id, { title: 'Shows guide', spaces: [space1.id] }), 'createSite', 201);
            assert.equal(s.siteSpaces, 1);
            const ids = (await ok(api().orgs.listSites(org.id, { limit: 1000, space: space1.id }), 'listSites')).items.map((x) => x.id);
            assert.ok(ids.includes(s.id));
            const none = (await ok(api().orgs.listSites(org.id, { limit: 1000, space: space2.id }), 'listSites')).items.map((x) => x.id);
            assert.ok(!none.includes(s.id));
        });

        it('bad query is 400; guests and outsiders 404', async () => {
            await bad(api().orgs.listSites(lorg.id, { published: 'yes' }), 'published', /published/);
            await bad(api().orgs.listSites(lorg.id, { type: ['gold'] }), 'type', /type/);
            await bad(api().orgs.listSites(lorg.id, { limit: 0 }), 'limit', /limit/);
            await bad(api().orgs.listSites(lorg.id, { page: 'garbage' }), 'page');
            assert.equal((await list({}, who.read)).items.length, 5);
            // guests have no site role: 404 like every other site operation of theirs (README)
            await expectError(who.guest.api.orgs.listSites(lorg.id), 404, 'guest');
            await expectError(who.outsider.api.orgs.listSites(lorg.id), 404, 'outsider');
        });
    });

    describe('customization', () => {
        let site;
        before(async () => {
            site = await create({ title: 'Styled' });
        });
        const getC = (as = who.admin, id = site.id) => ok(as.api.orgs.getSiteCustomizationById(org.id, id), 'getSiteCustomizationById');
        const put = (body) => ok(api().orgs.updateSiteCustomizationById(org.id, site.id, body), 'updateSiteCustomizationById');
        const putBad = (body, re) => bad(api().orgs.updateSiteCustomizationById(org.id, site.id, body), JSON.stringify(body).slice(0, 80), re);

        it('a new site reads the defaults', async () => {
            const c = await getC();
            assert.equal(c.styling.theme, 'clean');
            assert.deepEqual(c.header.links, []);
            assert.equal(c.themes.default, 'light');
        });

        it('PUT stores it; reads lay it over the defaults; another PUT replaces it', async () => {
            const body = {
                title: 'Styled docs',
                styling: {
                    theme: 'bold',
                    primaryColor: { light: '#ff0000', dark: '#0F0' },
                    tint: { color: { light: '#123456', dark: '#654321' } },
                    font: 'Roboto',
                    monospaceFont: { id: 'mono', custom: true, fontFamily: 'Mono', fontFaces: [{ weight: 400, sources: [{ url: 'https://example.com/m.woff2', format: 'woff2' }] }] },
                    sidebar: { background: 'filled', list: 'pill' },
                },
                favicon: { emoji: '🎉' },
                header: {
                    logo: { light: 'https://example.com/l.png', dark: 'https://example.com/d.png' },
                    links: [
                        { title: 'Home', style: 'button-primary', to: { kind: 'url', url: 'https://example.com' }, links: [], condition: 'visitor.claims.beta == true' },
                        { title: 'More', to: null, links: [{ title: 'Page', to: { kind: 'page', page: 'p1', space: space1.id } }] },
                    ],
                },
                footer: { groups: [{ title: 'Links', links: [{ title: 'Repo', to: { kind: 'url', url: 'https://example.com/repo' } }] }], copyright: '© Acme' },
                announcement: { enabled: true, message: 'New release', style: 'info', link: { title: 'Read', to: { kind: 'url', url: 'https://example.com/n' } } },
                themes: { default: 'dark', toggeable: false },
                pdf: { enabled: false },
                ai: { mode: 'search' },
                pageActions: { externalAI: false, markdown: true, mcp: false },
                externalLinks: { target: 'blank' },
                privacyPolicy: { url: 'https://example.com/privacy' },
                insights: { trackingCookie: false },
            };
            const c = await put(body);
            assert.equal(c.title, 'Styled docs');
            assert.equal(c.styling.theme, 'bold');
            assert.deepEqual(c.styling.primaryColor, { light: '#ff0000', dark: '#0F0' });
            assert.equal(c.styling.corners, 'rounded', 'not given: the default');
            assert.equal(c.styling.font, 'Roboto');
            assert.equal(c.styling.monospaceFont.fontFamily, 'Mono');
            assert.deepEqual(c.favicon, { emoji: '🎉' });
            assert.deepEqual(c.header.links, body.header.links);
            assert.equal(c.header.preset, 'default');
            assert.deepEqual(c.announcement, body.announcement);
            assert.equal(c.themes.default, 'dark');
            assert.deepEqual(await getC(), c);
            // a read-only member reads it
            assert.deepEqual(await getC(who.read), c);
            // PUT replaces: what it leaves out goes back to the defaults
            const d = await put({ styling: { theme: 'muted' } });
            assert.equal(d.styling.theme, 'muted');
            assert.equal(d.title, undefined);
            assert.equal(d.styling.primaryColor.light, '#346DDB');
            assert.deepEqual(d.header.links, []);
            assert.deepEqual(d.favicon, {});
            assert.equal(d.announcement, undefined);
        });

        it('PUT: what the schema refuses is 400 naming the path; nothing changes', async () => {
            const before = await getC();
            await putBad({ colour: {} }, /colour: unknown field/);
            await putBad({ styling: { theme: 'neon' } }, /styling\.theme/);
            await putBad({ styling: { primaryColor: { light: 'red', dark: '#000' } } }, /styling\.primaryColor\.light/);
            await putBad({ styling: { primaryColor: { light: '#12345', dark: '#000' } } }, /primaryColor\.light/);
            await putBad({ styling: { primaryColor: { light: '#000' } } }, /primaryColor\.dark: is required/);
            await putBad({ styling: { font: 'Comic Sans' } }, /styling\.font/);
            await putBad({ styling: { corners: 3 } }, /corners/);
            await putBad({ styling: { theme: null } }, /styling\.theme/);
            await putBad({ styling: { extra: 1 } }, /styling\.extra: unknown field/);
            await putBad({ title: 'x' }, /title/);
            await putBad({ favicon: { icon: { light: 'https://a/x.png', dark: 'https://a/y.png' }, emoji: 'x' } }, /favicon/);
            await putBad({ favicon: { icon: { light: 'not a url', dark: 'https://a/y.png' } } }, /favicon\.icon\.light/);
            await putBad({ header: { links: [{ title: 'No to', links: [] }] } }, /header\.links\[0\]\.to: is required/);
            await putBad({ header: { links: [{ title: 'T', to: { kind: 'moon' }, links: [] }] } }, /header\.links\[0\]\.to\.kind/);
            await putBad({ header: { links: [{ title: 'T', to: { kind: 'url' }, links: [] }] } }, /to\.url: is required/);
            await putBad({ header: { links: [{ title: 'T', to: null, links: [], style: 'huge' }] } }, /header\.links\[0\]\.style/);
            await putBad({ header: { links: [{ title: 'T', to: null, links: [{ title: 'x'.repeat(65), to: { kind: 'url', url: 'https://a' } }] }] } }, /links\[0\]\.links\[0\]\.title/);
            await putBad({ header: { links: {} } }, /header\.links: must be an array/);
            await putBad({ footer: { copyright: 'x'.repeat(301) } }, /footer\.copyright/);
            await putBad({ announcement: { enabled: true, message: 'x', style: 'info' } }, /announcement\.message/);
            await putBad({ announcement: { enabled: true, message: 'Hello' } }, /announcement\.style: is required/);
            await putBad({ pdf: { enabled: 'yes' } }, /pdf\.enabled/);
            await putBad({ styling: { monospaceFont: { id: 'm', custom: true, fontFamily: 'M', fontFaces: [] } } }, /fontFaces/);
            await putBad({ styling: { monospaceFont: { id: 'm', custom: true, fontFamily: 'M', fontFaces: [{ weight: 0, sources: [{ url: 'https://a/b' }] }] } } }, /weight/);
            await expectError(raw(ctx.url, 'PUT', `/v1/orgs/${org.id}/sites/${site.id}/customization`, { token: who.admin.token, json: [1] }), 400, 'not an object');
            assert.deepEqual(await getC(), before);
        });

        it('a header link\'s condition goes through the condition language', async () => {
            const links = (condition) => ({ header: { links: [{ title: 'T', to: null, links: [], condition }] } });
            await putBad(links('visitor.claims.('), /header\.links\[0\]\.condition/);
            await putBad(links('alert(1)'), /header\.links\[0\]\.condition/);
            const c = await put(links('visitor.claims.plan in ["pro", "team"]'));
            assert.equal(c.header.links[0].condition, 'visitor.claims.plan in ["pro", "team"]');
        });

        it('who may read and PUT', async () => {
            await table(need('read', 200), (as) => as.api.orgs.getSiteCustomizationById(org.id, site.id), 'getSiteCustomizationById');
            await table(need('admin', 200), (as) => as.api.orgs.updateSiteCustomizationById(org.id, site.id, { pdf: { enabled: true } }), 'updateSiteCustomizationById');
            await expectError(api().orgs.getSiteCustomizationById(org.id, NO_SITE), 404, 'unknown site');
        });

        it('site space overrides: PATCH lays fields over, null resets, DELETE removes', async () => {
            const s = await create({ title: 'Overrides', spaces: [space1.id] });
            const [ss] = await siteSpaces(s.id);
            const getO = (as = who.admin) => ok(as.api.orgs.getSiteSpaceCustomizationById(org.id, s.id, ss.id), 'getSiteSpaceCustomizationById');
            const over = (body) => ok(api().orgs.overrideSiteSpaceCustomizationById(org.id, s.id, ss.id, body), 'overrideSiteSpaceCustomizationById');
            await ok(api().orgs.updateSiteCustomizationById(org.id, s.id, { styling: { theme: 'bold', corners: 'straight' } }), 'updateSiteCustomizationById');
            let c = await getO();
            assert.equal(c.hasOverrides, false);
            assert.equal(c.styling.theme, 'bold', 'the site\'s own customization');
            c = await over({ styling: { theme: 'gradient', sidebar: { list: 'line' } }, title: 'Variant' });
            assert.equal(c.hasOverrides, true);
            assert.equal(c.styling.theme, 'gradient');
            assert.equal(c.styling.corners, 'straight', 'not overridden: the site\'s');
            assert.equal(c.styling.sidebar.list, 'line');
            assert.equal(c.styling.sidebar.background, 'default');
            assert.equal(c.title, 'Variant');
            c = await over({ favicon: { emoji: '🚀' } });
            assert.equal(c.styling.theme, 'gradient', 'PATCH keeps earlier overrides');
            assert.deepEqual(c.favicon, { emoji: '🚀' });
            assert.deepEqual(await getO(who.read), c);
            // the site's customization itself is untouched
            assert.equal((await ok(api().orgs.getSiteCustomizationById(org.id, s.id), 'getSiteCustomizationById')).styling.theme, 'bold');
            c = await over({ styling: { theme: null, sidebar: { list: null } }, title: null });
            assert.equal(c.styling.theme, 'bold', 'reset to the site\'s');
            assert.equal(c.title, undefined);
            assert.equal(c.hasOverrides, true, 'the favicon is still overridden');
            await bad(api().orgs.overrideSiteSpaceCustomizationById(org.id, s.id, ss.id, { ai: { mode: 'none' } }), 'site-only group', /ai/);
            await bad(api().orgs.overrideSiteSpaceCustomizationById(org.id, s.id, ss.id, { styling: { font: 'Inter' } }), 'site-only font', /font/);
            await bad(api().orgs.overrideSiteSpaceCustomizationById(org.id, s.id, ss.id, { styling: { theme: 'neon' } }), 'bad enum', /styling\.theme/);
            await table(need('admin', 200), (as) => as.api.orgs.overrideSiteSpaceCustomizationById(org.id, s.id, ss.id, { pdf: { enabled: false } }), 'overrideSiteSpaceCustomizationById');
            await table(need('read', 200), (as) => as.api.orgs.getSiteSpaceCustomizationById(org.id, s.id, ss.id), 'getSiteSpaceCustomizationById');
            for (const c2 of ['create', 'edit', 'read']) await expectError(who[c2].api.orgs.deleteSiteSpaceCustomizationById(org.id, s.id, ss.id), 403, `delete as ${c2}`);
            await empty(api().orgs.deleteSiteSpaceCustomizationById(org.id, s.id, ss.id), 205, 'delete the override');
            c = await getO();
            assert.equal(c.hasOverrides, false);
            assert.deepEqual(c.favicon, {});
            await empty(api().orgs.deleteSiteSpaceCustomizationById(org.id, s.id, ss.id), 204, 'nothing left to delete');
            await expectError(api().orgs.getSiteSpaceCustomizationById(org.id, s.id, 'nosuchsitespace'), 404, 'unknown site space');
            // every field reset: no override left
            await over({ title: 'Again' });
            assert.equal((await over({ title: null })).hasOverrides, false);
            // a reset of what the override does not set stores nothing (no null kept to hide the site's value)
            c = await over({ styling: { theme: null, sidebar: { list: null } } });
            assert.equal(c.styling.theme, 'bold');
            assert.equal(c.styling.sidebar.list, 'default');
            c = await getO();
            assert.equal(c.styling.theme, 'bold', 'read back: the site\'s');
        });
    });

    describe('share links', () => {
        let site;
        before(async () => {
            site = await create({ title: 'Shared', visibility: 'share-link' });
        });
        const links = async (as = who.admin) => (await ok(as.api.orgs.listSiteShareLinks(org.id, site.id, { limit: 1000 }), 'listSiteShareLinks')).items;

        it('create, list, update, delete', async () => {
            const a = await ok(api().orgs.createSiteShareLink(org.id, site.id, { name: 'Partners' }), 'createSiteShareLink', 201);
            assert.equal(a.object, 'share-link');
            assert.equal(a.name, 'Partners');
            assert.equal(a.active, true);
            const m = a.urls.published.match(new RegExp(`^${ctx.siteUrl}/sites/${site.id}/~share/([A-Za-z0-9]{40})$`));
            assert.ok(m, a.urls.published);
            await sleep(2);
            const b = await ok(api().orgs.createSiteShareLink(org.id, site.id, { name: '' }), 'createSiteShareLink', 201);
            assert.notEqual(b.urls.published, a.urls.published, 'each link its own key');
            assert.deepEqual((await links()).map((l) => l.id), [a.id, b.id]);
            await checkPagination((q) => api().orgs.listSiteShareLinks(org.id, site.id, q), 'listSiteShareLinks');
            let u = await ok(api().orgs.updateSiteShareLinkById(org.id, site.id, a.id, { active: false }), 'updateSiteShareLinkById');
            assert.equal(u.active, false);
            assert.equal(u.name, 'Partners');
            assert.equal(u.urls.published, a.urls.published, 'the key stays');
            u = await ok(api().orgs.updateSiteShareLinkById(org.id, site.id, a.id, { name: 'Friends', active: true }), 'updateSiteShareLinkById');
            assert.equal(u.name, 'Friends');
            assert.equal(u.active, true);
            assert.deepEqual((await links()).find((l) => l.id === a.id), u);
            // a basename moves the links' URLs with the site
            const base = `s${ctx.run}`.toLowerCase();
            await patch(site.id, { basename: base });
            assert.equal((await links())[0].urls.published, `${ctx.siteUrl}/sites/${base}/~share/${m[1]}`);
            await empty(api().orgs.deleteSiteShareLinkById(org.id, site.id, b.id), 205, 'delete');
            await empty(api().orgs.deleteSiteShareLinkById(org.id, site.id, b.id), 204, 'delete again');
            assert.deepEqual((await links()).map((l) => l.id), [a.id]);
        });

        it('a share link of another site or organization, through this site: like a missing id, and kept', async () => {
            const fsite = await ok(api().orgs.createSite(other.id, { title: 'Foreign links' }), 'createSite', 201);
            const flink = await ok(api().orgs.createSiteShareLink(other.id, fsite.id, { name: 'theirs' }), 'createSiteShareLink', 201);
            const s2 = await create({ title: 'Sibling links' });
            const slink = await ok(api().orgs.createSiteShareLink(org.id, s2.id, { name: 'sibling' }), 'createSiteShareLink', 201);
            for (const l of [flink, slink, { id: 'nosuchlink' }])
                await empty(api().orgs.deleteSiteShareLinkById(org.id, site.id, l.id), 204, `delete ${l.id} through this site`);
            // members without the role: 403 for any link id, theirs or not
            for (const c of ['create', 'edit', 'read'])
                for (const l of [flink, { id: 'nosuchlink' }])
                    await expectError(who[c].api.orgs.deleteSiteShareLinkById(org.id, site.id, l.id), 403, `delete ${l.id} as ${c}`);
            const theirs = (await ok(api().orgs.listSiteShareLinks(other.id, fsite.id), 'listSiteShareLinks')).items.map((l) => l.id);
            assert.deepEqual(theirs, [flink.id], 'the other organization\'s link is kept');
            const sibling = (await ok(api().orgs.listSiteShareLinks(org.id, s2.id), 'listSiteShareLinks')).items.map((l) => l.id);
            assert.deepEqual(sibling, [slink.id], 'the other site\'s link is kept');
            // the other organization's site through this organization: 404
            await expectError(api().orgs.deleteSiteShareLinkById(org.id, fsite.id, flink.id), 404, 'foreign site through this organization');
        });

        it('bad input is 400; unknown links 404', async () => {
            await bad(api().orgs.createSiteShareLink(org.id, site.id, {}), 'no name', /name/);
            await bad(api().orgs.createSiteShareLink(org.id, site.id, { name: 'x'.repeat(51) }), 'long name', /name/);
            const l = await ok(api().orgs.createSiteShareLink(org.id, site.id, { name: 'ok' }), 'createSiteShareLink', 201);
            await bad(api().orgs.updateSiteShareLinkById(org.id, site.id, l.id, {}), 'empty update');
            await bad(api().orgs.updateSiteShareLinkById(org.id, site.id, l.id, { active: 'no' }), 'active', /active/);
            await expectError(api().orgs.updateSiteShareLinkById(org.id, site.id, 'nosuchlink', { active: false }), 404, 'unknown link');
            const s2 = await create({ title: 'Other site' });
            await expectError(api().orgs.updateSiteShareLinkById(org.id, s2.id, l.id, { active: false }), 404, 'link of another site');
            await expectError(api().orgs.createSiteShareLink(org.id, NO_SITE, { name: 'x' }), 404, 'unknown site');
        });

        it('admins only', async () => {
            const l = await ok(api().orgs.createSiteShareLink(org.id, site.id, { name: 'roles' }), 'createSiteShareLink', 201);
            await table(need('admin', 200), (as) => as.api.orgs.listSiteShareLinks(org.id, site.id), 'listSiteShareLinks');
            await table(need('admin', 201), (as) => as.api.orgs.createSiteShareLink(org.id, site.id, { name: 'by someone' }), 'createSiteShareLink');
            await table(need('admin', 200), (as) => as.api.orgs.updateSiteShareLinkById(org.id, site.id, l.id, { name: 'renamed' }), 'updateSiteShareLinkById');
            for (const c of ['create', 'edit', 'read']) await expectError(who[c].api.orgs.deleteSiteShareLinkById(org.id, site.id, l.id), 403, `delete as ${c}`);
            for (const c of ['guest', 'outsider']) await expectError(who[c].api.orgs.deleteSiteShareLinkById(org.id, site.id, l.id), 404, `delete as ${c}`);
            await empty(api().orgs.deleteSiteShareLinkById(org.id, site.id, l.id), 205, 'delete as admin');
        });
    });

    describe('adaptive schema', () => {
        let site;
        before(async () => {
            site = await create({ title: 'Adaptive' });
        });
        const schema = {
            type: 'object',
            properties: {
                plan: { type: 'string', description: 'Plan', enum: ['free', 'pro'] },
                beta: { type: 'boolean', description: 'Beta user' },
                unsigned: {
                    type: 'object',
                    description: 'Unsigned claims of the site visitor.',
                    properties: { lang: { type: 'string', description: 'Language' } },
                    additionalProperties: false,
                },
            },
            additionalProperties: false,
        };

        it('none at first (404); PUT sets it; GET reads it; template conditions list', async () => {
            const e = await expectError(api().orgs.getSiteAdaptiveSchema(org.id, site.id), 404, 'no schema yet');
            assert.match(e.error.message, /schema/);
            assert.deepEqual((await ok(api().orgs.listSiteAdaptiveTemplateConditions(org.id, site.id), 'listSiteAdaptiveTemplateConditions')).items, []);
            const t0 = Date.now();
            const a = await ok(api().orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema: schema }), 'updateSiteAdaptiveSchema');
            assert.equal(a.object, 'site-adaptive-schema');
            assert.deepEqual(a.jsonSchema, schema);
            assert.ok(Date.parse(a.updatedAt) >= t0 - 1000);
            assert.deepEqual(await ok(who.read.api.orgs.getSiteAdaptiveSchema(org.id, site.id), 'getSiteAdaptiveSchema'), a);
            const conds = await ok(api().orgs.listSiteAdaptiveTemplateConditions(org.id, site.id), 'listSiteAdaptiveTemplateConditions');
            assert.ok(Array.isArray(conds.items));
        });

        it('PUT: bad bodies are 400', async () => {
            await bad(api().orgs.updateSiteAdaptiveSchema(org.id, site.id, {}), 'no jsonSchema', /jsonSchema/);
            await bad(api().orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema: 'x' }), 'not an object', /jsonSchema/);
        });

        it('who may read and write', async () => {
            await table(need('read', 200), (as) => as.api.orgs.getSiteAdaptiveSchema(org.id, site.id), 'getSiteAdaptiveSchema');
            await table(need('read', 200), (as) => as.api.orgs.listSiteAdaptiveTemplateConditions(org.id, site.id), 'listSiteAdaptiveTemplateConditions');
            await table(need('admin', 200), (as) => as.api.orgs.updateSiteAdaptiveSchema(org.id, site.id, { jsonSchema: schema }), 'updateSiteAdaptiveSchema');
        });
    });

    describe('publishing auth', () => {
        let site;
        before(async () => {
            site = await create({ title: 'Private', visibility: 'visitor-auth' });
        });
        const getA = () => ok(api().orgs.getSitePublishingAuthById(org.id, site.id), 'getSitePublishingAuthById');

        it('GET, PATCH backend and fallbackURL, regenerate the key', async () => {
            const a = await getA();
            assert.equal(a.object, 'publishing-auth');
            assert.equal(a.backend, 'custom');
            assert.match(a.privateKey, /^[A-Za-z0-9]{40}$/);
            assert.equal(a.fallbackURL, undefined);
            let b = await ok(api().orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'integration', fallbackURL: 'https://example.com/login' }), 'updateSitePublishingAuthById');
            assert.equal(b.backend, 'integration');
            assert.equal(b.fallbackURL, 'https://example.com/login');
            assert.equal(b.privateKey, a.privateKey, 'PATCH keeps the key');
            assert.deepEqual(await getA(), b);
            b = await ok(api().orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom' }), 'updateSitePublishingAuthById');
            assert.equal(b.fallbackURL, 'https://example.com/login', 'left out: unchanged');
            b = await ok(api().orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', fallbackURL: null }), 'updateSitePublishingAuthById');
            assert.equal(b.fallbackURL, undefined, 'null removes it');
            const c = await ok(api().orgs.regenerateSitePublishingAuthById(org.id, site.id), 'regenerateSitePublishingAuthById');
            assert.notEqual(c.privateKey, a.privateKey);
            assert.match(c.privateKey, /^[A-Za-z0-9]{40}$/);
            assert.deepEqual(await getA(), c);
        });

        it('bad input is 400; admins only', async () => {
            await bad(api().orgs.updateSitePublishingAuthById(org.id, site.id, {}), 'no backend', /backend/);
            await bad(api().orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'ldap' }), 'backend', /backend/);
            await bad(api().orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', fallbackURL: 'javascript:alert(1)' }), 'fallbackURL', /fallbackURL/);
            await table(need('admin', 200), (as) => as.api.orgs.getSitePublishingAuthById(org.id, site.id), 'getSitePublishingAuthById');
            await table(need('admin', 200), (as) => as.api.orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom' }), 'updateSitePublishingAuthById');
            await table(need('admin', 200), (as) => as.api.orgs.regenerateSitePublishingAuthById(org.id, site.id), 'regenerateSitePublishingAuthById');
            await expectError(api().orgs.getSitePublishingAuthById(org.id, NO_SITE), 404, 'unknown site');
        });
    });
});

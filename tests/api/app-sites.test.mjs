// A site's administration in the web interface (issue 25, src/app/pages_admin_site.c and
// pages_site_structure.c): creating a site from the organization's page (dom_site_create), its
// general settings (title, visibility: dom_site_update), its structure (add a space to the root or
// to a section, make a site space or a section the default, create a section with a title and a
// path, delete a section, remove a site space) and its customization basics (theme, colors, default
// mode, favicon, logo: dom_site_customization_set over the stored settings). Everything is read
// back with the official client. Hostile: a reader sees no form and is refused (403, nothing
// changed); another organization's member gets the 404 page for every page and form (nothing
// changed); no CSRF token is the 403 page; a too-short or too-long title, an unknown visibility, a
// taken section path, a bad color and malformed form data are 4xx pages with the API's message.
// Second pass: basename and hostname (the domain's rules: the API's 400 and 409 messages), section
// groups (create, add/remove a section, delete), Move up / Move down (sortSiteStructure), a site
// space's customization override and its removal, deleting a site behind a box to tick.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember, expectError } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

const esc = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

describe('web interface: a site\'s administration', () => {
    let ctx, alice, bob, eve, org, eveOrg, guide, reference, eveSite, eveSection, eveGroup, aliceS, bobS, eveS, site, base;

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = (who, path, fields, csrf = who.csrf) => raw(ctx.url, 'POST', path, {
        body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
    });
    const posted = async (who, path, fields, status, message) => {
        const r = await post(who, path, fields);
        assert.equal(r.status, status, `POST ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        if (message) assert.ok(r.text.includes(esc(message)), `POST ${path}: the page says ${message}: ${r.text.slice(0, 2000)}`);
        return r;
    };
    const getSite = () => ok(alice.api.orgs.getSiteById(org.id, site.id), 'getSiteById');
    const structure = () => ok(alice.api.orgs.getSiteStructure(org.id, site.id), 'getSiteStructure');
    const customization = () => ok(alice.api.orgs.getSiteCustomizationById(org.id, site.id), 'getSiteCustomizationById');
    const siteCount = async () => (await ok(alice.api.orgs.listSites(org.id), 'listSites')).items.length;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        ({ org: eveOrg } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        guide = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide <g>' }), 'createSpace', 201);
        reference = await ok(alice.api.orgs.createSpace(org.id, { title: 'Reference' }), 'createSpace', 201);
        eveSite = await ok(eve.api.orgs.createSite(eveOrg.id, { title: 'Eve site' }), 'createSite', 201);
        const eveSpace = await ok(eve.api.orgs.createSpace(eveOrg.id, { title: 'Eve space' }), 'createSpace', 201);
        eveSection = await ok(eve.api.orgs.addSectionToSite(eveOrg.id, eveSite.id, { spaceId: eveSpace.id, title: 'Eve section' }), 'addSectionToSite', 201);
        eveGroup = await ok(eve.api.orgs.addSectionGroupToSite(eveOrg.id, eveSite.id, { title: 'Eve group' }), 'addSectionGroupToSite', 201);
        for (const u of [alice, bob, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        eveS = await signIn(ctx.url, eve.email, PASSWORD);
    });
    after(() => ctx?.server.stop());

    it('creates a site from the organization\'s page; a reader, an outsider, no token and bad titles are refused', async () => {
        const orgPage = await page(aliceS, `/o/${org.id}`);
        assert.ok(orgPage.text.includes(`action="/o/${org.id}/sites"`), 'the admin sees the form');
        assert.doesNotMatch((await page(bobS, `/o/${org.id}`)).text, /Create site/, 'a reader does not');
        assert.match((await page(aliceS, `/o/${org.id}/sites/new`)).text, /New site's title/);
        const n = await siteCount();
        await posted(aliceS, `/o/${org.id}/sites`, { title: 'x' }, 400, 'title: must be 2 to 128 characters long');
        await posted(aliceS, `/o/${org.id}/sites`, { title: 't'.repeat(129) }, 400, 'title: must be 2 to 128 characters long');
        await posted(aliceS, `/o/${org.id}/sites`, `csrf=${aliceS.csrf}&title=%zz`, 400, 'title: must be valid text');
        await posted(bobS, `/o/${org.id}/sites`, { title: 'Bob site' }, 403, 'create role');
        await posted(eveS, `/o/${org.id}/sites`, { title: 'Eve was here' }, 404);
        assert.equal((await post(aliceS, `/o/${org.id}/sites`, { title: 'No token' }, null)).status, 403);
        assert.equal(await siteCount(), n, 'nothing was created');

        const r = await posted(aliceS, `/o/${org.id}/sites`, { title: 'Docs <one>' }, 303);
        const m = r.headers.location.match(new RegExp(`^/o/${org.id}/sites/([A-Za-z0-9]+)/settings$`));
        assert.ok(m, r.headers.location);
        site = { id: m[1] };
        base = `/o/${org.id}/sites/${site.id}`;
        const s = await getSite();
        assert.equal(s.title, 'Docs <one>');
        assert.equal(s.visibility, 'public');
        assert.equal(await siteCount(), n + 1);
        const settings = await page(aliceS, `${base}/settings`);
        assert.match(settings.text, /value="Docs &lt;one&gt;"/);
        assert.ok(settings.text.includes(`href="${base}/structure"`) && settings.text.includes(`href="${base}/customization"`));
        const sitePage = await page(aliceS, base);
        assert.ok(sitePage.text.includes(`href="${base}/structure"`), 'the site\'s page links the structure');
    });

    it('general settings: title and visibility saved, read back; bad values and others refused', async () => {
        await posted(aliceS, `${base}/settings`, { title: 'Acme Docs', visibility: 'unlisted' }, 303);
        let s = await getSite();
        assert.equal(s.title, 'Acme Docs');
        assert.equal(s.visibility, 'unlisted');
        await posted(aliceS, `${base}/settings`, { title: 'Ok', visibility: 'in-collection' }, 400,
            'visibility: \'in-collection\' is not one of the allowed values');
        const long = await posted(aliceS, `${base}/settings`, { title: 'y'.repeat(129) }, 400, 'title: must be 2 to 128 characters long');
        assert.ok(long.text.includes(`value="${'y'.repeat(129)}"`), 'the form shows what was sent');
        await posted(bobS, `${base}/settings`, { visibility: 'public' }, 403);
        await posted(eveS, `${base}/settings`, { visibility: 'public' }, 404);
        assert.equal((await post(aliceS, `${base}/settings`, { visibility: 'public' }, null)).status, 403);
        s = await getSite();
        assert.equal(s.title, 'Acme Docs');
        assert.equal(s.visibility, 'unlisted', 'nothing changed');
        assert.doesNotMatch((await page(bobS, `${base}/settings`)).text, /name="visibility"/);
        await page(eveS, `${base}/settings`, 404);
        await posted(aliceS, `${base}/settings`, { visibility: 'share-link' }, 303);
        assert.equal((await getSite()).visibility, 'share-link');
    });

    it('structure: spaces at the root and in sections, defaults, delete; the API sees it; others refused', async () => {
        const empty = await page(aliceS, `${base}/structure`);
        assert.match(empty.text, /No space here yet/);
        assert.ok(empty.text.includes(`<option value="${guide.id}">Guide &lt;g&gt;</option>`), 'the space menu');
        await posted(aliceS, `${base}/site-spaces`, { spaceId: guide.id }, 303);
        await posted(aliceS, `${base}/site-spaces`, { spaceId: reference.id }, 303);
        let st = await structure();
        assert.equal(st.type, 'siteSpaces');
        assert.deepEqual(st.structure.map((x) => [x.space.id ?? x.space, x.default]), [[guide.id, true], [reference.id, false]]);
        const refSS = st.structure[1].id;
        // make Reference the root's default (the site's: admin)
        await posted(aliceS, `${base}/site-spaces/${refSS}/default`, {}, 303);
        st = await structure();
        assert.equal(st.structure.find((x) => x.default).id, refSS);
        // unknown space, bad fields
        await posted(aliceS, `${base}/site-spaces`, { spaceId: 'nosuchspace' }, 404); // the API's 404 too
        await posted(aliceS, `${base}/site-spaces`, { spaceId: 's'.repeat(65) }, 400, 'spaceId: must be 1 to 64 characters long');
        await posted(aliceS, `${base}/site-spaces`, {}, 400, 'spaceId: is required');
        // a section from Guide, with a path; the root's site spaces join the first section
        await posted(aliceS, `${base}/sections`, { spaceId: guide.id, title: 'API <ref>', path: 'api' }, 303);
        st = await structure();
        assert.equal(st.type, 'sections');
        assert.equal(st.structure.length, 1);
        const sec1 = st.structure[0];
        assert.equal(sec1.title, 'API <ref>');
        assert.equal(sec1.path, 'api');
        assert.equal(sec1.default, true);
        await posted(aliceS, `${base}/sections`, { spaceId: reference.id, title: 'x' }, 400, 'title: must be 2 to 128 characters long');
        await posted(aliceS, `${base}/sections`, { spaceId: reference.id, title: 'Taken', path: 'api' }, 409, "path: 'api' is taken");
        assert.equal((await structure()).structure.length, 1, 'the refused section was rolled back whole');
        await posted(aliceS, `${base}/sections`, { spaceId: reference.id, title: 'Reference', path: 'reference' }, 303);
        st = await structure();
        assert.equal(st.structure.length, 2);
        const sec2 = st.structure.find((x) => x.path === 'reference');
        // add Guide to the second section; make it the section's default; make the section the default
        await posted(aliceS, `${base}/site-spaces`, { spaceId: guide.id, sectionId: sec2.id }, 303);
        let sections = await ok(alice.api.orgs.listSiteSections(org.id, site.id), 'listSiteSections');
        const s2 = sections.items.find((x) => x.id === sec2.id);
        assert.equal(s2.siteSpaces.length, 2);
        const guideIn2 = s2.siteSpaces.find((x) => x.space.id === guide.id || x.space === guide.id);
        assert.equal(guideIn2.default, false);
        await posted(aliceS, `${base}/site-spaces/${guideIn2.id}/default`, { section: sec2.id }, 303);
        await posted(aliceS, `${base}/sections/${sec2.id}/default`, {}, 303);
        sections = await ok(alice.api.orgs.listSiteSections(org.id, site.id), 'listSiteSections');
        assert.equal(sections.items.find((x) => x.default).id, sec2.id);
        assert.equal(sections.items.find((x) => x.id === sec2.id).siteSpaces.find((x) => x.default).id, guideIn2.id);
        const shown = await page(aliceS, `${base}/structure`);
        assert.match(shown.text, /API &lt;ref&gt;/);
        assert.ok(shown.text.includes(`action="${base}/sections/${sec1.id}/delete"`));
        // others: a reader sees it without a form and is refused; an outsider gets the 404 page
        const bobPage = await page(bobS, `${base}/structure`);
        assert.match(bobPage.text, /API &lt;ref&gt;/);
        assert.doesNotMatch(bobPage.text, /<form[^>]*method="post"[^>]*action="\/o\/[^"]*\/(sections|site-spaces)/);
        await posted(bobS, `${base}/sections/${sec1.id}/delete`, {}, 403);
        await posted(bobS, `${base}/site-spaces`, { spaceId: reference.id }, 403);
        await page(eveS, `${base}/structure`, 404);
        await posted(eveS, `${base}/sections/${sec1.id}/delete`, {}, 404);
        await posted(eveS, `${base}/site-spaces/${guideIn2.id}/remove`, {}, 404);
        await posted(aliceS, `/o/${eveOrg.id}/sites/${eveSite.id}/site-spaces`, { spaceId: guide.id }, 404);
        assert.equal((await ok(eve.api.orgs.listSiteSpaces(eveOrg.id, eveSite.id), 'listSiteSpaces')).items.length, 1, 'Eve\'s site is unchanged');
        assert.equal((await post(aliceS, `${base}/sections/${sec1.id}/delete`, {}, null)).status, 403);
        assert.equal((await structure()).structure.length, 2, 'nothing changed');
        // delete the first section, remove a site space
        await posted(aliceS, `${base}/sections/${sec1.id}/delete`, {}, 303);
        await posted(aliceS, `${base}/site-spaces/${guideIn2.id}/remove`, {}, 303);
        st = await structure();
        assert.deepEqual(st.structure.map((x) => x.id), [sec2.id]);
        assert.equal(st.structure[0].siteSpaces.length, 1);
        assert.equal(st.structure[0].siteSpaces[0].default, true, 'the remaining site space is the default');
    });

    it('customization: the basics saved over the stored settings and read back; a bad color is a 400', async () => {
        await ok(alice.api.orgs.updateSiteCustomizationById(org.id, site.id, { footer: { copyright: '(c) Acme' } }), 'updateSiteCustomizationById');
        const form = await page(aliceS, `${base}/customization`);
        assert.match(form.text, /name="primaryLight"[^>]*value="#346DDB"/, 'the defaults are shown');
        await posted(aliceS, `${base}/customization`, {
            title: 'Acme <Docs>', theme: 'bold', primaryLight: '#ff0000', primaryDark: '#0f0', tintLight: '#eeeeee',
            tintDark: '#111111', mode: 'dark', toggeable: 'off', favicon: 'https://example.com/favicon.png',
            logo: 'https://example.com/logo.svg',
        }, 303);
        let c = await customization();
        assert.equal(c.title, 'Acme <Docs>');
        assert.equal(c.styling.theme, 'bold');
        assert.deepEqual(c.styling.primaryColor, { light: '#ff0000', dark: '#0f0' });
        assert.deepEqual(c.styling.tint, { color: { light: '#eeeeee', dark: '#111111' } });
        assert.deepEqual(c.themes, { default: 'dark', toggeable: false });
        assert.deepEqual(c.favicon, { icon: { light: 'https://example.com/favicon.png', dark: 'https://example.com/favicon.png' } });
        assert.deepEqual(c.header.logo, { light: 'https://example.com/logo.svg', dark: 'https://example.com/logo.svg' });
        assert.equal(c.footer.copyright, '(c) Acme', 'a field the form does not have is kept');
        const shown = await page(aliceS, `${base}/customization`);
        assert.match(shown.text, /value="Acme &lt;Docs&gt;"/);
        assert.match(shown.text, /id="cz-toggle"[^>]*value="on">/, 'unchecked');
        // refused: bad color, bad URL, unknown mode, malformed; nothing changes
        const bad = await posted(aliceS, `${base}/customization`, { primaryLight: 'red', primaryDark: '#000' }, 400,
            'styling.primaryColor.light: must be a color #RGB or #RRGGBB');
        assert.match(bad.text, /name="primaryLight"[^>]*value="red"/, 'the form shows what was sent');
        await posted(aliceS, `${base}/customization`, { favicon: 'not a url' }, 400, 'favicon');
        await posted(aliceS, `${base}/customization`, { mode: 'system' }, 400, 'themes.default');
        await posted(aliceS, `${base}/customization`, `csrf=${aliceS.csrf}&title=%zz`, 400, 'title: must be valid text');
        await posted(bobS, `${base}/customization`, { primaryLight: '#000', primaryDark: '#000' }, 403);
        await posted(eveS, `${base}/customization`, { primaryLight: '#000', primaryDark: '#000' }, 404);
        assert.equal((await post(aliceS, `${base}/customization`, { mode: 'light' }, null)).status, 403);
        c = await customization();
        assert.deepEqual(c.styling.primaryColor, { light: '#ff0000', dark: '#0f0' });
        assert.equal(c.themes.default, 'dark', 'nothing changed');
        // a reader reads the values without a form; an outsider gets the 404 page
        const bobPage = await page(bobS, `${base}/customization`);
        assert.match(bobPage.text, /#ff0000/);
        assert.doesNotMatch(bobPage.text, /name="primaryLight"/);
        await page(eveS, `${base}/customization`, 404);
        // emptied optional fields go back to the defaults
        await posted(aliceS, `${base}/customization`, { title: '', tintLight: '', tintDark: '', favicon: '', logo: '', toggeable: 'on' }, 303);
        c = await customization();
        assert.equal(c.title, undefined);
        assert.equal(c.styling.tint, undefined);
        assert.deepEqual(c.favicon, {});
        assert.equal(c.header.logo, undefined);
        assert.equal(c.themes.toggeable, true);
    });
    it('basename and hostname: saved through the form (the domain\'s rules, the API\'s messages), the published URL shown', async () => {
        const bn = `docs-${site.id}`;
        const host = `h${site.id.toLowerCase()}.docs.example.com`;
        await posted(aliceS, `${base}/settings`, { basename: bn, hostname: host }, 303);
        let s = await getSite();
        assert.equal(s.basename, bn);
        assert.equal(s.hostname, host);
        const shown = await page(aliceS, `${base}/settings`);
        assert.match(shown.text, new RegExp(`name="basename"[^>]*value="${bn}"`));
        assert.ok(shown.text.includes(`://${host}</code>`), 'the published URL is the host name\'s');
        // the same 400 as the API's (one rule, in the domain)
        const apiBad = await expectError(alice.api.orgs.updateSiteById(org.id, site.id, { basename: 'a/b' }), 400, 'basename a/b');
        for (const b of ['a/b', '..', 'x y'])
            await posted(aliceS, `${base}/settings`, { basename: b }, 400, apiBad.error.message);
        const apiHost = await expectError(alice.api.orgs.updateSiteById(org.id, site.id, { hostname: 'Docs.Example' }), 400, 'bad hostname');
        const badHost = await posted(aliceS, `${base}/settings`, { hostname: 'Docs.Example' }, 400, apiHost.error.message);
        assert.match(badHost.text, /name="hostname"[^>]*value="Docs.Example"/, 'the form shows what was sent');
        await posted(aliceS, `${base}/settings`, { basename: 'b'.repeat(101) }, 400, 'basename: must be 0 to 100 characters long');
        // taken by another organization's site: the API's 409
        const taken = `eve-${eveSite.id}`;
        await ok(eve.api.orgs.updateSiteById(eveOrg.id, eveSite.id, { basename: taken }), 'updateSiteById');
        await posted(aliceS, `${base}/settings`, { basename: taken }, 409, `basename: '${taken}' is already used by another site`);
        await posted(bobS, `${base}/settings`, { basename: 'bob-was-here' }, 403);
        await posted(eveS, `${base}/settings`, { basename: 'eve-was-here' }, 404);
        assert.equal((await post(aliceS, `${base}/settings`, { basename: 'no-token' }, null)).status, 403);
        s = await getSite();
        assert.equal(s.basename, bn, 'nothing changed');
        assert.equal(s.hostname, host);
        // an empty host name removes it; an empty basename leaves it
        await posted(aliceS, `${base}/settings`, { basename: '', hostname: '' }, 303);
        s = await getSite();
        assert.equal(s.hostname, undefined);
        assert.equal(s.basename, bn);
        assert.ok((await page(aliceS, `${base}/settings`)).text.includes(`/sites/${bn}</code>`), 'the URL is the basename\'s');
    });

    it('section groups and order: create, add/remove a section, move up/down, delete; others refused', async () => {
        await posted(aliceS, `${base}/sections`, { spaceId: guide.id, title: 'Guides', path: 'guides' }, 303);
        let st = await structure();
        const [secA, secB] = st.structure.map((x) => x.id); // Reference, Guides
        assert.equal(st.structure.length, 2);
        await posted(aliceS, `${base}/groups`, { title: 'Group <A>' }, 303);
        await posted(aliceS, `${base}/groups`, { title: '' }, 400, 'title: must be 1 to 100 characters long');
        await posted(aliceS, `${base}/groups`, { title: 'g'.repeat(101) }, 400, 'title: must be 1 to 100 characters long');
        let groups = (await ok(alice.api.orgs.listSiteSectionGroups(org.id, site.id), 'listSiteSectionGroups')).items;
        assert.deepEqual(groups.map((g) => g.title), ['Group <A>']);
        const g = groups[0];
        await posted(aliceS, `${base}/groups/${g.id}/sections`, { sectionId: secB }, 303);
        st = await structure();
        assert.deepEqual(st.structure.map((x) => [x.object, x.id]), [['site-section', secA], ['site-section-group', g.id]]);
        assert.deepEqual(st.structure[1].children.map((x) => x.id), [secB]);
        const shown = await page(aliceS, `${base}/structure`);
        assert.match(shown.text, /Group &lt;A&gt;/);
        assert.ok(shown.text.includes(`action="${base}/groups/${g.id}/sections/${secB}/remove"`));
        assert.match(shown.text, />Move up</);
        // move the group up (before the section), then the section back up before it
        const move = (type, id, where, targetType, target) => ({ type, id, where, targetType, target });
        await posted(aliceS, `${base}/move`, move('site-section-group', g.id, 'before', 'site-section', secA), 303);
        st = await structure();
        assert.deepEqual(st.structure.map((x) => x.id), [g.id, secA]);
        // two site spaces in Reference: move the second up
        await posted(aliceS, `${base}/site-spaces`, { spaceId: guide.id, sectionId: secA }, 303);
        let ref = (await structure()).structure.find((x) => x.id === secA).siteSpaces;
        assert.equal(ref.length, 2);
        await posted(aliceS, `${base}/move`, move('site-space', ref[1].id, 'before', 'site-space', ref[0].id), 303);
        const ref2 = (await structure()).structure.find((x) => x.id === secA).siteSpaces;
        assert.deepEqual(ref2.map((x) => x.id), [ref[1].id, ref[0].id]);
        // bad moves are the domain's 400; malformed ones the form's
        await posted(aliceS, `${base}/move`, move('site-space', ref[0].id, 'before', 'site-section', secA), 400, 'position');
        await posted(aliceS, `${base}/move`, move('site-thing', g.id, 'before', 'site-section', secA), 400, 'type: must be');
        await posted(aliceS, `${base}/move`, move('site-section', secA, 'over', 'site-section-group', g.id), 400, 'where: must be');
        await posted(aliceS, `${base}/move`, { type: 'site-section' }, 400);
        // others: a reader has no button and is refused; an outsider gets the 404 page; no token is a 403
        const bobPage = await page(bobS, `${base}/structure`);
        assert.match(bobPage.text, /Group &lt;A&gt;/);
        assert.doesNotMatch(bobPage.text, /Move up|Add to group|Delete group/);
        await posted(bobS, `${base}/move`, move('site-section', secA, 'before', 'site-section-group', g.id), 403);
        await posted(bobS, `${base}/groups`, { title: 'Bob' }, 403);
        await posted(bobS, `${base}/groups/${g.id}/delete`, {}, 403);
        await posted(eveS, `${base}/move`, move('site-section', secA, 'before', 'site-section-group', g.id), 404);
        await posted(eveS, `${base}/groups/${g.id}/sections/${secB}/remove`, {}, 404);
        await posted(eveS, `${base}/groups/${g.id}/delete`, {}, 404);
        await posted(aliceS, `/o/${eveOrg.id}/sites/${eveSite.id}/groups`, { title: 'Alice was here' }, 404);
        // another organization's group and section ids in this site's paths: the 404 page (the API's delete
        // answers 204 for a missing item; the page does not pretend); as fields, the domain's 400
        await posted(aliceS, `${base}/groups/${eveGroup.id}/delete`, {}, 404);
        await posted(aliceS, `${base}/sections/${eveSection.id}/delete`, {}, 404);
        await posted(aliceS, `${base}/site-spaces/${eveSection.siteSpaces?.[0]?.id ?? 'nosuch'}/remove`, {}, 404);
        await posted(aliceS, `${base}/groups/${eveGroup.id}/sections`, { sectionId: secA }, 404);
        await posted(aliceS, `${base}/groups/${eveGroup.id}/sections/${secA}/remove`, {}, 404);
        await posted(aliceS, `${base}/move`, move('site-section-group', eveGroup.id, 'before', 'site-section', secA), 404);
        await posted(aliceS, `${base}/groups/${g.id}/sections`, { sectionId: eveSection.id }, 400, 'is not a section of this site');
        await posted(aliceS, `${base}/move`, move('site-section', secA, 'before', 'site-section', eveSection.id), 400, 'position');
        const eveSt = await ok(eve.api.orgs.getSiteStructure(eveOrg.id, eveSite.id), 'getSiteStructure');
        assert.deepEqual(eveSt.structure.map((x) => x.id).sort(), [eveSection.id, eveGroup.id].sort(), 'Eve\'s site is unchanged');
        assert.equal((await post(aliceS, `${base}/groups/${g.id}/delete`, {}, null)).status, 403);
        st = await structure();
        assert.deepEqual(st.structure.map((x) => x.id), [g.id, secA], 'nothing changed');
        // remove the section from the group, then delete the group
        await posted(aliceS, `${base}/groups/${g.id}/sections/${secB}/remove`, {}, 303);
        st = await structure();
        assert.equal(st.structure.find((x) => x.id === g.id).children.length, 0);
        assert.ok(st.structure.some((x) => x.id === secB), 'the section is at the top level');
        await posted(aliceS, `${base}/groups/${g.id}/delete`, {}, 303);
        groups = (await ok(alice.api.orgs.listSiteSectionGroups(org.id, site.id), 'listSiteSectionGroups')).items;
        assert.equal(groups.length, 0);
    });

    it('a site space\'s customization: its own basics over the site\'s, then the site\'s again', async () => {
        const ss = (await structure()).structure[0].siteSpaces[0];
        const path = `${base}/site-spaces/${ss.id}/customization`;
        assert.ok((await page(aliceS, `${base}/structure`)).text.includes(`href="${path}"`), 'the structure links it');
        const form = await page(aliceS, path);
        assert.match(form.text, /uses the site's customization/);
        assert.doesNotMatch(form.text, /Use the site's customization/);
        const site0 = await customization();
        // the site's values sent back unchanged, the primary color changed: only the color is the override
        await posted(aliceS, path, {
            title: '', theme: site0.styling.theme, primaryLight: '#123456', primaryDark: site0.styling.primaryColor.dark,
            tintLight: '', tintDark: '', mode: site0.themes.default, toggeable: site0.themes.toggeable ? 'on' : 'off', favicon: '', logo: '',
        }, 303);
        const o = await ok(alice.api.orgs.getSiteSpaceCustomizationById(org.id, site.id, ss.id), 'getSiteSpaceCustomizationById');
        assert.equal(o.hasOverrides, true);
        assert.deepEqual(o.styling.primaryColor, { light: '#123456', dark: site0.styling.primaryColor.dark });
        assert.equal(o.styling.theme, site0.styling.theme);
        const c = await customization();
        assert.deepEqual(c.styling.primaryColor, site0.styling.primaryColor, 'the site\'s own is unchanged');
        const again = await page(aliceS, path);
        assert.match(again.text, /name="primaryLight"[^>]*value="#123456"/);
        assert.match(again.text, /Use the site's customization/);
        // refused: a bad color (the domain's 400), a reader, an outsider, no token; nothing changed
        await posted(aliceS, path, { primaryLight: 'red', primaryDark: '#000' }, 400, 'styling.primaryColor.light: must be a color');
        await posted(bobS, path, { primaryLight: '#000', primaryDark: '#000' }, 403);
        assert.doesNotMatch((await page(bobS, path)).text, /name="primaryLight"/);
        await page(eveS, path, 404);
        await posted(eveS, path, { primaryLight: '#000', primaryDark: '#000' }, 404);
        await posted(eveS, `${path}/delete`, {}, 404);
        await page(aliceS, `${base}/site-spaces/nosuch/customization`, 404);
        assert.equal((await post(aliceS, `${path}/delete`, {}, null)).status, 403);
        await posted(bobS, `${path}/delete`, {}, 403);
        assert.equal((await ok(alice.api.orgs.getSiteSpaceCustomizationById(org.id, site.id, ss.id), 'getSiteSpaceCustomizationById')).styling.primaryColor.light, '#123456');
        // "Use the site's customization"
        await posted(aliceS, `${path}/delete`, {}, 303);
        const back = await ok(alice.api.orgs.getSiteSpaceCustomizationById(org.id, site.id, ss.id), 'getSiteSpaceCustomizationById');
        assert.equal(back.hasOverrides, false);
        assert.deepEqual(back.styling.primaryColor, site0.styling.primaryColor);
    });

    it('deleting a site: the box must be ticked; admins only; then the organization\'s page', async () => {
        const settings = await page(aliceS, `${base}/settings`);
        assert.ok(settings.text.includes(`action="${base}/delete"`));
        assert.doesNotMatch((await page(bobS, `${base}/settings`)).text, /Delete site/);
        await posted(aliceS, `${base}/delete`, {}, 400, 'confirm: tick "I understand" to delete the site');
        await posted(aliceS, `${base}/delete`, { confirm: 'no' }, 400);
        await posted(bobS, `${base}/delete`, { confirm: 'yes' }, 403);
        await posted(eveS, `${base}/delete`, { confirm: 'yes' }, 404);
        await posted(aliceS, `/o/${org.id}/sites/${eveSite.id}/delete`, { confirm: 'yes' }, 404);
        await posted(aliceS, `/o/${eveOrg.id}/sites/${eveSite.id}/delete`, { confirm: 'yes' }, 404);
        assert.equal((await post(aliceS, `${base}/delete`, { confirm: 'yes' }, null)).status, 403);
        await getSite(); // still there
        await ok(eve.api.orgs.getSiteById(eveOrg.id, eveSite.id), 'getSiteById'); // Eve's site is still there
        const r = await posted(aliceS, `${base}/delete`, { confirm: 'yes' }, 303);
        assert.equal(r.headers.location, `/o/${org.id}`);
        await expectError(alice.api.orgs.getSiteById(org.id, site.id), 404, 'deleted');
        await page(aliceS, `${base}/settings`, 404);
    });
});

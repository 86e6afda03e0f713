// The web interface's integrations (issue 25, src/app/pages_integrations.c): /o/{org}/integrations
// lists the organization's installations and the integrations the member can see (found by name
// with ?q=), with an Install button for admins (installIntegration's domain function); an
// installation's page lists its spaces and sites and lets an admin install it on a space or a site,
// uninstall it from one, edit its configuration (and a space's or site's, on their own page) as JSON
// checked by the integration's schema, and uninstall it from the organization. Every list is
// walked with ?limit=1. Every change is read back through
// the official client. No page ever carries the integration's secrets, its script or a token. Hostile: a reader (no forms; POSTs
// refused with 403, nothing installed), another organization's installation, organization or
// space or site (404 page, nothing changed), a missing CSRF token (403), a malformed space field
// (400), malformed, non-object, duplicate-key and oversized configurations and the schema's
// refusals (400 on the form, the API's message, nothing changed).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { raw, ok, expectError, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

const SCRIPT = 'export default { async fetch() { return new Response("APP-SCRIPT-MARKER"); } };';
const SECRET = 'app-sekrit-value-do-not-leak-77';

describe('web interface: integrations', () => {
    let ctx, alice, bob, carol, aliceS, bobS, org, other, space, space2, otherSpace, name, otherInst, name2, site, site2, otherSite;
    const pages = []; // every page text this file received, searched for secrets at the end

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        pages.push(r.text);
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r.text;
    };
    const post = async (who, path, fields = {}, csrf = who.csrf) => {
        const r = await raw(ctx.url, 'POST', path, {
            body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
            headers: { ...FORM, Cookie: who.cookie },
        });
        pages.push(r.text);
        return r;
    };
    const base = (orgId = org.id) => `/o/${orgId}/integrations`;
    const installations = async (orgId = org.id, as = alice.api) =>
        (await ok(as.orgs.listOrganizationInstallations(orgId), 'listOrganizationInstallations')).items.filter((i) => i.integration.name === name);
    const spacesOf = async (instId) =>
        (await ok(alice.api.integrations.listIntegrationInstallationSpaces(name, instId), 'listIntegrationInstallationSpaces')).items.map((t) => t.space);
    const instPath = (id, orgId = org.id) => `${base(orgId)}/${name}/installations/${id}`;
    const sitesOf = async (instId) =>
        (await ok(alice.api.integrations.listIntegrationInstallationSites(name, instId), 'listIntegrationInstallationSites')).items.map((t) => t.site);
    const configOf = async (instId) =>
        (await ok(alice.api.integrations.getIntegrationInstallationById(name, instId), 'getIntegrationInstallationById')).configuration;
    /** The pages from `first` on, following each rel="next" link (the first one after `after`). */
    const walkPages = async (who, first, after = '') => {
        const texts = [];
        for (let path = first; path;) {
            const html = await page(who, path);
            texts.push(html);
            const m = html.slice(html.indexOf(after)).match(/<a rel="next" href="([^"]+)"/);
            path = m ? m[1].replaceAll('&amp;', '&') : null;
            assert.ok(texts.length <= 20, 'the next links end');
        }
        return texts;
    };
    const refusedWith = (r, status, message) => {
        assert.equal(r.status, status, `${r.status}: ${r.text.slice(0, 400)}`);
        assert.match(r.headers['content-type'], /^text\/html/);
        assert.match(r.text, message);
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice'); // admin of org
        bob = await ctx.user('bob'); // reader of org
        carol = await ctx.user('carol'); // admin of other
        for (const u of [alice, bob]) await setPassword(ctx.server, u.email, PASSWORD);
        ({ org } = await createOrg(ctx.url, alice.token, `Intg app ${ctx.run}`));
        ({ org: other } = await createOrg(ctx.url, carol.token, `Other ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Handbook' }), 'createSpace', 201);
        space2 = await ok(alice.api.orgs.createSpace(org.id, { title: 'Runbook' }), 'createSpace', 201);
        otherSpace = await ok(carol.api.orgs.createSpace(other.id, { title: 'Theirs' }), 'createSpace', 201);
        name = `appint-${ctx.run}`;
        await ok(alice.api.integrations.publishIntegration(name, {
            organization: org.id, title: 'App <Helper>', description: 'Helps & more', summary: 'A helper',
            script: SCRIPT, scopes: ['space:content:read'], visibility: 'public', target: 'all', secrets: { KEY: SECRET },
            configurations: {
                account: { properties: { channel: { type: 'string' }, count: { type: 'number' } }, required: ['channel'] },
                space: { properties: { label: { type: 'string' } }, required: ['label'] },
                site: { properties: { flag: { type: 'boolean' } } },
            },
        }), 'publishIntegration');
        name2 = `appint2-${ctx.run}`;
        await ok(alice.api.integrations.publishIntegration(name2, {
            organization: org.id, title: 'Second', description: 'The second', script: SCRIPT, scopes: [], visibility: 'public', target: 'all',
        }), 'publishIntegration');
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs <site>' }), 'createSite', 201);
        site2 = await ok(alice.api.orgs.createSite(org.id, { title: 'Site two' }), 'createSite', 201);
        otherSite = await ok(carol.api.orgs.createSite(other.id, { title: 'Their site' }), 'createSite', 201);
        // The other organization installs it too (a public integration), on its own space.
        const r = await carol.api.integrations.installIntegration(name, { organization: other.id });
        otherInst = r.data;
        await ok(carol.api.integrations.installIntegrationOnSpace(name, otherInst.id, { space: otherSpace.id }), 'installIntegrationOnSpace', 201);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
    });
    after(async () => {
        for (const text of pages) {
            assert.ok(!text.includes(SECRET), `a page carried the secret: ${text.slice(0, 300)}`);
            assert.ok(!text.includes('APP-SCRIPT-MARKER'), 'a page carried the script');
            assert.doesNotMatch(text, /gb_(api|int)[A-Za-z0-9_]*/, 'a page carried a token');
        }
        await ctx?.server.stop();
    });

    it('the list: not installed yet, found by name with an Install button for the admin', async () => {
        const html = await page(aliceS, `${base()}?q=${name}`);
        assert.match(html, /No integration is installed in this organization/);
        assert.match(html, /App &lt;Helper&gt;/, 'the title is escaped');
        assert.ok(html.includes(`action="${base()}/${name}/install"`), 'the Install form');
        assert.match(html, /name="csrf"/);
        const none = await page(aliceS, `${base()}?q=no-such-integration-${ctx.run}`);
        assert.match(none, /No integration you can see matches/);
        await page(aliceS, `${base()}?q=${'x'.repeat(300)}`, 400);
    });

    it('a reader sees no forms; her Install is refused and installs nothing', async () => {
        const html = await page(bobS, `${base()}?q=${name}`);
        assert.doesNotMatch(html, /method="post"[^>]*action="[^"]*\/install"/);
        assert.match(html, /Only an administrator/);
        const r = await post(bobS, `${base()}/${name}/install`);
        assert.equal(r.status, 403, r.text.slice(0, 300));
        assert.match(r.text, /admin/);
        assert.deepEqual(await installations(), []);
    });

    it('Install needs the CSRF token; another organization is the 404 page and gets nothing', async () => {
        let r = await post(aliceS, `${base()}/${name}/install`, {}, null);
        assert.equal(r.status, 403);
        assert.match(r.text, /out of date/);
        assert.deepEqual(await installations(), []);
        await page(aliceS, base(other.id), 404);
        r = await post(aliceS, `${base(other.id)}/${name}/install`);
        assert.equal(r.status, 404);
        assert.equal((await installations(other.id, carol.api)).length, 1, "only carol's own installation");
        r = await post(aliceS, `${base()}/no-such-integration-${ctx.run}/install`);
        assert.equal(r.status, 404);
    });

    let inst;
    it('Install from the page: the installation is read back and shown', async () => {
        const r = await post(aliceS, `${base()}/${name}/install`);
        assert.equal(r.status, 303, r.text.slice(0, 300));
        const list = await installations();
        assert.equal(list.length, 1);
        inst = list[0].installation;
        assert.equal(inst.status, 'active');
        assert.equal(r.headers.location, instPath(inst.id));
        const html = await page(aliceS, `${base()}?q=${name}`);
        assert.ok(html.includes(`href="${instPath(inst.id)}"`), 'the installed list links the installation');
        assert.doesNotMatch(html, /action="[^"]*\/install"/, 'no second Install button');
        const one = await page(aliceS, instPath(inst.id));
        assert.match(one, /App &lt;Helper&gt;/);
        assert.match(one, /Helps &amp; more/);
        assert.match(one, /Not installed on any space/);
        assert.ok(one.includes(`<option value="${space.id}">Handbook</option>`));
        assert.ok(!one.includes(otherSpace.id), "another organization's space is not offered");
        // A reader may look at it, without forms.
        const bobs = await page(bobS, instPath(inst.id));
        assert.doesNotMatch(bobs, /method="post"[^>]*action="[^"]*installations/);
    });

    it('install on a space and uninstall from it, read back through the API', async () => {
        let r = await post(aliceS, `${instPath(inst.id)}/spaces`, { space: space.id });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, instPath(inst.id));
        assert.deepEqual(await spacesOf(inst.id), [space.id]);
        let html = await page(aliceS, instPath(inst.id));
        assert.ok(html.includes(`href="/s/${space.id}"`), 'the space is listed');
        assert.ok(html.includes(`action="${instPath(inst.id)}/spaces/${space.id}/uninstall"`));
        assert.ok(!html.includes(`<option value="${space.id}">`), 'an installed space is not offered again');
        assert.ok(html.includes(`<option value="${space2.id}">Runbook</option>`));

        // A reader's install and uninstall are refused.
        r = await post(bobS, `${instPath(inst.id)}/spaces`, { space: space2.id });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(bobS, `${instPath(inst.id)}/spaces/${space.id}/uninstall`);
        assert.equal(r.status, 403);
        // No token; a malformed or empty field.
        r = await post(aliceS, `${instPath(inst.id)}/spaces`, { space: space2.id }, null);
        assert.equal(r.status, 403);
        r = await post(aliceS, `${instPath(inst.id)}/spaces`, { space: '' });
        assert.equal(r.status, 400);
        assert.match(r.text, /space: choose a space/);
        r = await post(aliceS, `${instPath(inst.id)}/spaces`, `csrf=${aliceS.csrf}&space=%ZZ`);
        assert.equal(r.status, 400);
        // Another organization's space is missing here.
        r = await post(aliceS, `${instPath(inst.id)}/spaces`, { space: otherSpace.id });
        assert.equal(r.status, 404);
        assert.deepEqual(await spacesOf(inst.id), [space.id]);

        r = await post(aliceS, `${instPath(inst.id)}/spaces/${space.id}/uninstall`);
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.deepEqual(await spacesOf(inst.id), []);
        html = await page(aliceS, instPath(inst.id));
        assert.match(html, /Not installed on any space/);
        r = await post(aliceS, `${instPath(inst.id)}/spaces/${space.id}/uninstall`);
        assert.equal(r.status, 404, 'not installed there any more');
    });

    it('install on a site and uninstall from it, read back through the API', async () => {
        let html = await page(aliceS, instPath(inst.id));
        assert.match(html, /Not installed on any site/);
        assert.ok(html.includes(`<option value="${site.id}">Docs &lt;site&gt;</option>`), 'the site is offered, escaped');
        assert.ok(!html.includes(otherSite.id), "another organization's site is not offered");
        let r = await post(aliceS, `${instPath(inst.id)}/sites`, { site: site.id });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, instPath(inst.id));
        assert.deepEqual(await sitesOf(inst.id), [site.id]);
        html = await page(aliceS, instPath(inst.id));
        assert.ok(html.includes(`href="/o/${org.id}/sites/${site.id}"`), 'the site is listed');
        assert.ok(html.includes(`action="${instPath(inst.id)}/sites/${site.id}/uninstall"`));
        assert.ok(!html.includes(`<option value="${site.id}">`), 'an installed site is not offered again');

        // A reader: no forms, her install and uninstall refused.
        const bobs = await page(bobS, instPath(inst.id));
        assert.doesNotMatch(bobs, /name="site"/);
        r = await post(bobS, `${instPath(inst.id)}/sites`, { site: site2.id });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(bobS, `${instPath(inst.id)}/sites/${site.id}/uninstall`);
        assert.equal(r.status, 403);
        // No token; an empty field; another organization's site; another organization's installation.
        r = await post(aliceS, `${instPath(inst.id)}/sites`, { site: site2.id }, null);
        assert.equal(r.status, 403);
        r = await post(aliceS, `${instPath(inst.id)}/sites/${site.id}/uninstall`, {}, null);
        assert.equal(r.status, 403);
        refusedWith(await post(aliceS, `${instPath(inst.id)}/sites`, { site: '' }), 400, /site: choose a site/);
        r = await post(aliceS, `${instPath(inst.id)}/sites`, { site: otherSite.id });
        assert.equal(r.status, 404);
        r = await post(aliceS, `${instPath(otherInst.id)}/sites`, { site: site2.id });
        assert.equal(r.status, 404);
        r = await post(aliceS, `${instPath(otherInst.id, other.id)}/sites`, { site: otherSite.id });
        assert.equal(r.status, 404);
        assert.deepEqual(await sitesOf(inst.id), [site.id]);
        assert.deepEqual((await ok(carol.api.integrations.listIntegrationInstallationSites(name, otherInst.id), 'listIntegrationInstallationSites')).items, []);

        // Uninstalled, then installed again (kept for the configuration tests).
        r = await post(aliceS, `${instPath(inst.id)}/sites/${site.id}/uninstall`);
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.deepEqual(await sitesOf(inst.id), []);
        r = await post(aliceS, `${instPath(inst.id)}/sites/${site.id}/uninstall`);
        assert.equal(r.status, 404, 'not installed there any more');
        r = await post(aliceS, `${instPath(inst.id)}/sites`, { site: site.id });
        assert.equal(r.status, 303);
        assert.deepEqual(await sitesOf(inst.id), [site.id]);
    });

    it("the installation's configuration: edited as JSON by an admin, checked by the integration's schema", async () => {
        let html = await page(aliceS, instPath(inst.id));
        assert.match(html, /<textarea id="configuration" name="configuration"[^>]*>\{\}<\/textarea>/);
        assert.match(html, /<label for="configuration">/);
        assert.doesNotMatch(await page(bobS, instPath(inst.id)), /name="configuration"/, 'no form for a reader');
        let r = await post(aliceS, `${instPath(inst.id)}/configuration`, { configuration: '{"channel": "#docs <x>", "count": 3}' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, instPath(inst.id));
        const want = { channel: '#docs <x>', count: 3 };
        assert.deepEqual(await configOf(inst.id), want);
        html = await page(aliceS, instPath(inst.id));
        assert.ok(html.includes('{\n  &quot;channel&quot;: &quot;#docs &lt;x&gt;&quot;,\n  &quot;count&quot;: 3\n}'), 'pretty-printed and escaped');

        // Refusals: the form comes back with the text as sent, nothing changes.
        const bad = [
            ['{"channel": ', 400, /configuration: not valid JSON/],
            ['[1, 2]', 400, /configuration: must be an object/],
            ['{"channel": "a", "channel": "b"}', 400, /configuration: not valid JSON/],
            [`{"channel": "${'x'.repeat(70000)}"}`, 400, /configuration: at most 65536 bytes/],
        ];
        for (const [text, status, message] of bad) {
            r = await post(aliceS, `${instPath(inst.id)}/configuration`, { configuration: text });
            refusedWith(r, status, message);
            if (text.length < 100) assert.ok(r.text.includes(text.replaceAll('"', '&quot;')), 'the text as sent');
        }
        refusedWith(await post(aliceS, `${instPath(inst.id)}/configuration`, {}), 400, /configuration: is required/);
        // The schema's refusals are the API's own messages.
        for (const config of [{ count: 3 }, { channel: 5 }]) {
            const api = await expectError(alice.api.integrations.updateIntegrationInstallation(name, inst.id, { configuration: config }), 400);
            r = await post(aliceS, `${instPath(inst.id)}/configuration`, { configuration: JSON.stringify(config) });
            refusedWith(r, 400, /configuration\.channel: /);
            assert.ok(r.text.includes(api.error.message), `the API's message: ${api.error.message}`);
        }
        // A reader, no token, another organization's installation.
        r = await post(bobS, `${instPath(inst.id)}/configuration`, { configuration: '{"channel": "bob"}' });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(aliceS, `${instPath(inst.id)}/configuration`, { configuration: '{"channel": "nocsrf"}' }, null);
        assert.equal(r.status, 403);
        r = await post(aliceS, `${instPath(otherInst.id)}/configuration`, { configuration: '{"channel": "theirs"}' });
        assert.equal(r.status, 404);
        assert.deepEqual(await configOf(inst.id), want, 'unchanged by every refusal');
        const theirs = await ok(carol.api.integrations.getIntegrationInstallationById(name, otherInst.id), 'getIntegrationInstallationById');
        assert.deepEqual(theirs.configuration, {});
    });

    it("a space's and a site's installation: their own page with the configuration form", async () => {
        await ok(alice.api.integrations.installIntegrationOnSpace(name, inst.id, { space: space.id }), 'installIntegrationOnSpace', 201);
        const spacePage = `${instPath(inst.id)}/spaces/${space.id}`, sitePage = `${instPath(inst.id)}/sites/${site.id}`;
        const list = await page(aliceS, instPath(inst.id));
        assert.ok(list.includes(`href="${spacePage}"`) && list.includes(`href="${sitePage}"`), 'Configure links');
        let html = await page(aliceS, spacePage);
        assert.match(html, /Handbook/);
        assert.match(html, /<textarea id="configuration" name="configuration"[^>]*>\{\}<\/textarea>/);
        assert.ok(html.includes(`action="${spacePage}/uninstall"`));
        // The space schema requires a label.
        let r = await post(aliceS, `${spacePage}/configuration`, { configuration: '{"other": 1}' });
        refusedWith(r, 400, /configuration\.label: is required/);
        assert.ok(r.text.includes('{&quot;other&quot;: 1}'), 'the text as sent');
        r = await post(aliceS, `${spacePage}/configuration`, { configuration: '{"label": "Docs"}' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, spacePage);
        assert.deepEqual((await ok(alice.api.integrations.getIntegrationSpaceInstallation(name, inst.id, space.id), 'getIntegrationSpaceInstallation')).configuration, { label: 'Docs' });
        // The site schema: flag is a boolean.
        r = await post(aliceS, `${sitePage}/configuration`, { configuration: '{"flag": "yes"}' });
        refusedWith(r, 400, /configuration\.flag: must be a boolean/);
        r = await post(aliceS, `${sitePage}/configuration`, { configuration: '{"flag": true}' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        const siteConfig = async () => (await ok(alice.api.integrations.getIntegrationSiteInstallation(name, inst.id, site.id), 'getIntegrationSiteInstallation')).configuration;
        assert.deepEqual(await siteConfig(), { flag: true });
        assert.match(await page(aliceS, sitePage), /&quot;flag&quot;: true/);

        // A reader sees the page without forms; her save is refused.
        html = await page(bobS, spacePage);
        assert.doesNotMatch(html, /name="configuration"|method="post"[^>]*installations/);
        r = await post(bobS, `${sitePage}/configuration`, { configuration: '{"flag": false}' });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(aliceS, `${sitePage}/configuration`, { configuration: '{"flag": false}' }, null);
        assert.equal(r.status, 403);
        // Not installed there, another organization's space or installation: the 404 page.
        await page(aliceS, `${instPath(inst.id)}/sites/${site2.id}`, 404);
        await page(aliceS, `${instPath(inst.id)}/spaces/${otherSpace.id}`, 404);
        await page(aliceS, `${instPath(otherInst.id)}/spaces/${otherSpace.id}`, 404);
        r = await post(aliceS, `${instPath(otherInst.id)}/spaces/${otherSpace.id}/configuration`, { configuration: '{"label": "x"}' });
        assert.equal(r.status, 404);
        r = await post(aliceS, `${instPath(inst.id)}/sites/${otherSite.id}/configuration`, { configuration: '{"flag": false}' });
        assert.equal(r.status, 404);
        assert.deepEqual(await siteConfig(), { flag: true });
        const theirs = await ok(carol.api.integrations.getIntegrationSpaceInstallation(name, otherInst.id, otherSpace.id), 'getIntegrationSpaceInstallation');
        assert.deepEqual(theirs.configuration, {});
    });

    it('every list is paged: ?limit=1 walks installations, integrations, spaces and sites by the next links', async () => {
        await ok(alice.api.integrations.installIntegrationOnSpace(name, inst.id, { space: space2.id }), 'installIntegrationOnSpace', 201);
        await ok(alice.api.integrations.installIntegrationOnSite(name, inst.id, { siteId: site2.id }), 'installIntegrationOnSite', 201);
        const inst2 = (await alice.api.integrations.installIntegration(name2, { organization: org.id })).data; // 0.143.2 documents no 200
        const one = (texts, ids) => texts.map((html) => {
            const here = ids.filter((id) => html.includes(id));
            assert.equal(here.length, 1, `one a page: ${here}`);
            return here[0];
        });
        // The installation's spaces and sites: the first on its page, the next on .../spaces and .../sites.
        const first = await page(aliceS, `${instPath(inst.id)}?limit=1`);
        assert.ok(first.includes(`href="${instPath(inst.id)}/spaces?limit=1&amp;page=`), 'More spaces');
        assert.ok(first.includes(`href="${instPath(inst.id)}/sites?limit=1&amp;page=`), 'More sites');
        assert.ok(!first.includes(`<option value="${space2.id}">`) && !first.includes(`<option value="${site2.id}">`),
            'installed targets past the first page are not offered');
        // The organization has more spaces and sites than a page offers: any other by its ID.
        assert.match(first, /<label for="space-id">[^<]*<\/label><input id="space-id" name="space"/);
        assert.match(first, /<label for="site-id">[^<]*<\/label><input id="site-id" name="site"/);
        assert.doesNotMatch(await page(aliceS, instPath(inst.id)), /id="(space|site)-id"/, 'all offered on a full page');
        const spaceIds = await spacesOf(inst.id), siteIds = await sitesOf(inst.id);
        assert.equal(spaceIds.length, 2);
        assert.equal(siteIds.length, 2);
        const spaceTexts = [first.slice(first.indexOf('<h2>Spaces</h2>'), first.indexOf('<h2>Sites</h2>')),
            ...(await walkPages(aliceS, first.match(/href="([^"]*\/spaces\?[^"]+)"/)[1].replaceAll('&amp;', '&')))];
        assert.deepEqual(one(spaceTexts, spaceIds), spaceIds);
        const siteTexts = [first.slice(first.indexOf('<h2>Sites</h2>')), ...(await walkPages(aliceS, first.match(/href="([^"]*\/sites\?[^"]+)"/)[1].replaceAll('&amp;', '&')))];
        assert.deepEqual(one(siteTexts, siteIds), siteIds);
        // The organization's installations: the first on the list, the next on /integrations/installed.
        const insts = [inst.id, inst2.id];
        const list = await page(aliceS, `${base()}?limit=1&q=${ctx.run}`);
        const more = list.match(/href="([^"]*\/integrations\/installed\?[^"]+)"/);
        assert.ok(more, 'More installed integrations');
        const installed = [list.slice(0, list.indexOf('<h2>Available</h2>')), ...(await walkPages(aliceS, more[1].replaceAll('&amp;', '&')))];
        assert.equal(new Set(one(installed, insts)).size, 2, 'both installations, once each');
        // The available integrations, found by ?q= kept in the next link; both show "Installed", whichever page.
        const avail = await walkPages(aliceS, `${base()}?limit=1&q=${ctx.run}`, '<h2>Available</h2>');
        assert.equal(avail.length, 2);
        const names = avail.map((html) => {
            const part = html.slice(html.indexOf('<h2>Available</h2>'));
            const n = [name, name2].filter((x) => part.includes(`<span class="mute">${x}</span>`));
            assert.equal(n.length, 1);
            assert.doesNotMatch(part, /action="[^"]*\/install"/, 'installed: no Install button');
            return n[0];
        });
        assert.deepEqual(new Set(names), new Set([name, name2]));
        await page(aliceS, `${base()}?limit=0`, 400);
        await page(aliceS, `${base()}/installed?page=not-a-cursor`, 400);
        await page(aliceS, `${instPath(inst.id)}/spaces?limit=1001`, 400);
        await page(aliceS, `${instPath(otherInst.id)}/sites`, 404);
        // A reader walks them too, without forms.
        const bobs = await page(bobS, `${instPath(inst.id)}/spaces?limit=1`);
        assert.match(bobs, /Runbook|Handbook/);
        assert.doesNotMatch(bobs, /<form[^>]*method="post"[^>]*action="[^"]*installations/);
    });

    it("urls.app: the integration's own page, and an installation's (303 to its organization's page)", async () => {
        const integ = await ok(alice.api.integrations.getIntegrationByName(name), 'getIntegrationByName');
        const ipath = new URL(integ.urls.app).pathname;
        assert.equal(ipath, `/integrations/${name}`);
        const html = await page(aliceS, ipath);
        assert.match(html, /<h1>App &lt;Helper&gt;<\/h1>/);
        assert.match(html, /<code>space:content:read<\/code>/);
        assert.ok(html.includes(`href="/o/${org.id}/integrations?q=${name}"`), 'where its installations are managed');
        assert.ok(!html.includes(other.id), 'not an organization the member is not in');
        const [{ installation: mine }] = await installations();
        const got = await ok(alice.api.integrations.getIntegrationInstallationById(name, mine.id), 'getIntegrationInstallationById');
        const r = await raw(ctx.url, 'GET', new URL(got.urls.app).pathname, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, instPath(mine.id));
        await page(aliceS, r.headers.location);
        // another organization's installation, a missing one and an unknown integration: the 404 page
        // another organization's installation of her integration: the API lets its publisher read it, so it
        // names its organization's page, which is not hers (the 404 page)
        const theirs = await raw(ctx.url, 'GET', `/integrations/${name}/installations/${otherInst.id}`, { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(theirs.status, 303);
        assert.equal(theirs.headers.location, instPath(otherInst.id, other.id));
        await page(aliceS, theirs.headers.location, 404);
        // a reader of the publisher's organization is not its admin: the 404 page
        await page(bobS, `/integrations/${name}/installations/${otherInst.id}`, 404);
        await page(aliceS, `/integrations/${name}/installations/nosuchinstallation`, 404);
        await page(aliceS, '/integrations/no-such-integration-here', 404);
        // a private integration of another organization looks missing
        const priv = `apppriv-${ctx.run}`;
        await ok(carol.api.integrations.publishIntegration(priv, {
            organization: other.id, title: 'Private one', description: 'x', script: SCRIPT, scopes: [], visibility: 'private', target: 'all',
        }), 'publishIntegration');
        await page(aliceS, `/integrations/${priv}`, 404);
        // signed out: the sign-in page
        const out = await raw(ctx.url, 'GET', ipath, { headers: HTML });
        assert.equal(out.status, 303);
        assert.equal(out.headers.location, `/signin?next=${ipath}`);
    });

    it("another organization's installation is the 404 page under either organization, and nothing changes", async () => {
        await page(aliceS, instPath(otherInst.id), 404);
        await page(aliceS, instPath(otherInst.id, other.id), 404);
        await page(aliceS, instPath(inst.id, other.id), 404);
        let r = await post(aliceS, `${instPath(otherInst.id)}/spaces/${otherSpace.id}/uninstall`);
        assert.equal(r.status, 404);
        r = await post(aliceS, `${instPath(otherInst.id, other.id)}/spaces`, { space: space.id });
        assert.equal(r.status, 404);
        const theirs = await ok(carol.api.integrations.listIntegrationInstallationSpaces(name, otherInst.id), 'listIntegrationInstallationSpaces');
        assert.deepEqual(theirs.items.map((t) => t.space), [otherSpace.id]);
        // An installation id under another integration's name is missing too.
        await page(aliceS, `${base()}/no-such-${ctx.run}/installations/${inst.id}`, 404);
    });

    it("an admin of both organizations still sees an installation only under its own organization's path", async () => {
        await addMember(carol.api, other.id, alice.email, 'admin');
        assert.match(await page(aliceS, instPath(otherInst.id, other.id)), /Theirs/);
        await page(aliceS, instPath(otherInst.id), 404);
        let r = await post(aliceS, `${instPath(otherInst.id)}/spaces/${otherSpace.id}/uninstall`);
        assert.equal(r.status, 404);
        r = await post(aliceS, `${instPath(otherInst.id)}/spaces`, { space: space2.id });
        assert.equal(r.status, 404);
        const theirs = await ok(carol.api.integrations.listIntegrationInstallationSpaces(name, otherInst.id), 'listIntegrationInstallationSpaces');
        assert.deepEqual(theirs.items.map((t) => t.space), [otherSpace.id]);
        r = await post(aliceS, `${instPath(otherInst.id)}/uninstall`);
        assert.equal(r.status, 404);
        assert.equal((await installations(other.id, carol.api)).length, 1);
    });

    it('uninstall from the organization: refused to a reader and without a token, then gone', async () => {
        assert.ok((await page(aliceS, instPath(inst.id))).includes(`action="${instPath(inst.id)}/uninstall"`));
        let r = await post(bobS, `${instPath(inst.id)}/uninstall`);
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(aliceS, `${instPath(inst.id)}/uninstall`, {}, null);
        assert.equal(r.status, 403);
        assert.equal((await installations()).length, 1);
        r = await post(aliceS, `${instPath(inst.id)}/uninstall`);
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, base());
        assert.deepEqual(await installations(), []);
        await page(aliceS, instPath(inst.id), 404);
        const html = await page(aliceS, `${base()}?q=${name}`);
        assert.ok(html.includes(`action="${base()}/${name}/install"`), 'installable again');
        r = await post(aliceS, `${instPath(inst.id)}/uninstall`);
        assert.equal(r.status, 404);
        assert.equal((await installations(other.id, carol.api)).length, 1, "the other organization's stays");
    });
});

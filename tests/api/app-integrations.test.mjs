// The web interface's integrations (issue 25, src/app/pages_integrations.c): /o/{org}/integrations
// lists the organization's installations and the integrations the member can see (found by name
// with ?q=), with an Install button for admins (installIntegration's domain function); an
// installation's page lists its spaces and sites and lets an admin install it on a space,
// uninstall it from one and uninstall it from the organization. Every change is read back through
// the official client. No page ever carries the integration's secrets, its script or a token. Hostile: a reader (no forms; POSTs
// refused with 403, nothing installed), another organization's installation, organization or
// space (404 page, nothing changed), a missing CSRF token (403), a malformed space field (400).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { raw, ok, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

const SCRIPT = 'export default { async fetch() { return new Response("APP-SCRIPT-MARKER"); } };';
const SECRET = 'app-sekrit-value-do-not-leak-77';

describe('web interface: integrations', () => {
    let ctx, alice, bob, carol, aliceS, bobS, org, other, space, space2, otherSpace, name, otherInst;
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
        }), 'publishIntegration');
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

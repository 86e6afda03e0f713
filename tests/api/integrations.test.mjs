// Integrations (issue 22): the seed's twelve operations and the installation operations GitBook's
// runtime needs, through the official client, every 2xx body validated against GitBook's schema.
// Publish: 400 naming the field, 404 for an unknown organization, admins of the owner only,
// `version` counting publishes, secrets and the script never in any response. Installations on
// an organization (200), spaces and sites (201); update (configuration against
// configurations.account), uninstall (205 / 204); installation tokens: GET /v1/user, scopes (403
// outside them), selected spaces, revoked at once by an uninstall. Events are recorded (the
// delivery itself: integrations-delivery.test.mjs).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { setup } from './lib/fixtures.mjs';
import { client, ok, empty, expectError, raw, createOrg, addMember, sleep } from './lib/api.mjs';
import { validate } from './lib/schema.mjs';

const SCRIPT = 'export default { async fetch(request) { return new Response("SCRIPT-SOURCE-MARKER", { status: 200 }); } };';
const SECRET = 'sekrit-value-do-not-leak-42';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex').toString('base64');

describe('integrations', () => {
    let ctx, alice, bob, carol, eve, api, org, other, space, space2, site;
    const seen = []; // every response body text, searched for secrets and scripts at the end
    const record = async (p) => {
        const res = await p;
        try {
            if (res && res.data !== undefined) seen.push(JSON.stringify(res.data));
        } catch {}
        return res;
    };
    const rawSeen = async (...a) => {
        const r = await raw(ctx.url, ...a);
        seen.push(r.text);
        return r;
    };
    const body = (name, extra = {}) => ({
        organization: org.id,
        title: `Intg ${name}`.slice(0, 30),
        description: 'A test integration',
        script: SCRIPT,
        scopes: ['space:content:read', 'space:metadata:read'],
        ...extra,
    });
    // The seed answers 200 where GitBook's document says 201: the body is validated against the 201 schema.
    const install = async (name, orgId, who = api) => {
        const res = await record(who.integrations.installIntegration(name, { organization: orgId }));
        assert.equal(res.status, 200);
        validate('installIntegration', 201, res.data);
        return res.data;
    };
    const publish = (name, extra = {}, who = api) => ok(record(who.integrations.publishIntegration(name, body(name, extra))), 'publishIntegration');

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob'); // read member of org
        carol = await ctx.user('carol'); // admin of `other`
        eve = await ctx.user('eve'); // nobody's member
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Integrations ${ctx.run}`));
        await ok(api.orgs.updateOrganizationById(org.id, { hostname: `intg${ctx.run}` }), 'updateOrganizationById');
        ({ org: other } = await createOrg(ctx.url, carol.token, `Other ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        space = await ok(api.orgs.createSpace(org.id, { title: 'One' }), 'createSpace', 201);
        space2 = await ok(api.orgs.createSpace(org.id, { title: 'Two' }), 'createSpace', 201);
        const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/sites`, { token: alice.token, json: { title: 'Docs' } });
        assert.equal(r.status, 201, r.text);
        site = r.json;
    });
    after(async () => {
        // Secrets and scripts never appear in any response this file received.
        for (const text of seen) {
            assert.ok(!text.includes(SECRET), `a response carried a secret: ${text.slice(0, 300)}`);
            assert.ok(!text.includes('SCRIPT-SOURCE-MARKER'), `a response carried the script: ${text.slice(0, 300)}`);
        }
        await ctx?.server.stop({ keepData: true });
        // ... nor in the server's log.
        const log = readFileSync(ctx.server.logFile, 'utf8');
        rmSync(ctx.server.dataDir, { recursive: true, force: true });
        assert.ok(!log.includes(SECRET), 'the log carries a secret');
        assert.ok(!log.includes('SCRIPT-SOURCE-MARKER'), 'the log carries a script');
    });

    it('publish: fields checked against GitBook schema, 400 naming the field', async () => {
        const n = `bad-${ctx.run}`;
        const bad = [
            [{ title: undefined }, /title/],
            [{ title: 'x' }, /title/],
            [{ description: 'x'.repeat(101) }, /description/],
            [{ script: undefined }, /script/],
            [{ scopes: undefined }, /scopes/],
            [{ scopes: ['space:everything'] }, /scopes\[0\]/],
            [{ categories: ['games'] }, /categories\[0\]/],
            [{ target: 'planet' }, /target/],
            [{ visibility: 'secret' }, /visibility/],
            [{ runtime: 'v9' }, /runtime/],
            [{ organization: undefined }, /organization/],
            [{ externalLinks: [{ url: 'https://x.example' }] }, /externalLinks\[0\]/],
            [{ previewImages: ['a', 'b', 'c', 'd'] }, /previewImages/],
            [{ icon: '%%%' }, /icon/],
            [{ secrets: { A: 1 } }, /secrets\.A/],
            [{ configurations: { planet: {} } }, /configurations\.planet/],
            [{ contentSecurityPolicy: 42 }, /contentSecurityPolicy/],
            [{ summary: 'x'.repeat(2049) }, /summary/],
        ];
        for (const [extra, message] of bad) {
            const b = body(n, extra);
            for (const k of Object.keys(extra)) if (extra[k] === undefined) delete b[k];
            const e = await expectError(api.integrations.publishIntegration(n, b), 400, JSON.stringify(extra));
            assert.match(e.error.message, message);
        }
        let e = await expectError(raw(ctx.url, 'POST', '/v1/integrations/bad%20name', { token: alice.token, json: body('x') }), 400);
        assert.match(e.error.message, /integrationName/);
        e = await expectError(api.integrations.publishIntegration(n, body(n, { organization: 'no-such-org' })), 404);
        assert.match(e.error.message, /organization/);
        // Nothing was published by the failures.
        await expectError(api.integrations.getIntegrationByName(n), 404);
    });

    it('publish, republish (version), get, list with filters; only admins of the owner publish', async () => {
        const name = `hello-${ctx.run}`;
        let it = await publish(name, {
            summary: '# Hello', categories: ['analytics'], visibility: 'public', target: 'all', icon: PNG, previewImages: [PNG],
            externalLinks: [{ url: 'https://example.com', label: 'Home' }], secrets: { TOKEN: SECRET },
            configurations: { account: { properties: { channel: { type: 'string', title: 'Channel' } }, required: ['channel'] } },
            contentSecurityPolicy: "script-src 'self'",
            blocks: [{ id: 'b', title: 'Block', urlUnfurl: ['https://unfurl.example.com'] }],
        });
        assert.equal(it.name, name);
        assert.equal(it.version, 1);
        assert.equal(it.owner.id, org.id);
        assert.equal(it.permissions.admin, true);
        assert.match(it.urls.app, /^http/);
        assert.deepEqual(it.scopes, ['space:content:read', 'space:metadata:read']);
        // The icon and preview image are served at their URLs, as images that cannot run script.
        for (const u of [it.urls.icon, it.previewImages[0]]) {
            const r = await fetch(u);
            assert.equal(r.status, 200, u);
            assert.equal(r.headers.get('content-type'), 'image/png');
            assert.equal(r.headers.get('x-content-type-options'), 'nosniff');
            assert.deepEqual(Buffer.from(await r.arrayBuffer()), Buffer.from(PNG, 'base64'));
        }
        // Republish by subdomain: version 2; fields not sent keep their value.
        it = await publish(name, { organization: `intg${ctx.run}`, title: 'Hello again' });
        assert.equal(it.version, 2);
        assert.equal(it.title, 'Hello again');
        assert.equal(it.visibility, 'public');
        // A read member of the owner may not publish (403); an outsider neither.
        let e = await expectError(bob.api.integrations.publishIntegration(name, body(name)), 403);
        assert.match(e.error.message, /admin/);
        await expectError(eve.api.integrations.publishIntegration(name, body(name)), 404);
        // Another organization's admin may not take the name over to their organization.
        await expectError(carol.api.integrations.publishIntegration(name, body(name, { organization: other.id })), 403);

        const got = await ok(record(bob.api.integrations.getIntegrationByName(name)), 'getIntegrationByName');
        assert.equal(got.permissions.admin, false);
        await expectError(api.integrations.getIntegrationByName(`nope-${ctx.run}`), 404);

        // A private integration: its organization's members see it, nobody else does.
        const priv = `private-${ctx.run}`;
        await publish(priv, { visibility: 'private', categories: ['content'], scopes: ['space:content:write'] });
        await ok(record(bob.api.integrations.getIntegrationByName(priv)), 'getIntegrationByName');
        await expectError(eve.api.integrations.getIntegrationByName(priv), 404);
        await expectError(carol.api.integrations.getIntegrationByName(priv), 404);
        // Names are global: another organization cannot publish over a private one either.
        e = await expectError(carol.api.integrations.publishIntegration(priv, body(priv, { organization: other.id })), 403);
        assert.match(e.error.message, /another organization/);

        const names = async (who, query = {}) => (await ok(record(who.integrations.listIntegrations(query)), 'listIntegrations')).items.map((i) => i.name);
        assert.deepEqual((await names(api, { owner: org.id })).sort(), [name, priv].sort());
        assert.ok((await names(eve.api)).includes(name));
        assert.ok(!(await names(eve.api)).includes(priv));
        assert.deepEqual(await names(api, { owner: org.id, category: 'analytics' }), [name]);
        assert.deepEqual(await names(api, { owner: org.id, scope: 'space:content:write' }), [priv]);
        assert.deepEqual(await names(api, { owner: org.id, search: 'PRIVATE' }), [priv]);
        assert.deepEqual(await names(api, { owner: org.id, blocks: true }), [name]);
        assert.deepEqual(await names(api, { owner: org.id, blockDomain: 'unfurl.example.com' }), [name]);
        assert.deepEqual(await names(api, { owner: org.id, contentSources: true }), []);
        e = await expectError(raw(ctx.url, 'GET', '/v1/integrations?blockDomain=a/b', { token: alice.token }), 400);
        assert.match(e.error.message, /blockDomain/);
        e = await expectError(raw(ctx.url, 'GET', '/v1/integrations?category=games', { token: alice.token }), 400);
        assert.match(e.error.message, /category/);
        // Pages: limit 1 walks both.
        const p1 = await ok(api.integrations.listIntegrations({ owner: org.id, limit: 1 }), 'listIntegrations');
        assert.equal(p1.items.length, 1);
        assert.equal(p1.count, 2);
        const p2 = await ok(api.integrations.listIntegrations({ owner: org.id, limit: 1, page: p1.next.page }), 'listIntegrations');
        assert.notEqual(p2.items[0].name, p1.items[0].name);
    });

    it('install on an organization (200), get, update, tokens, uninstall (205 / 204), events recorded', async () => {
        const name = `inst-${ctx.run}`;
        await publish(name, {
            visibility: 'public',
            configurations: { account: { properties: { channel: { type: 'string' }, count: { type: 'number' } }, required: ['channel'] } },
        });
        // Only an admin of the target organization installs.
        await expectError(bob.api.integrations.installIntegration(name, { organization: org.id }), 403);
        await expectError(eve.api.integrations.installIntegration(name, { organization: org.id }), 404);
        await expectError(api.integrations.installIntegration(name, { organization: 'nope' }), 404);
        await expectError(api.integrations.installIntegration(`nope-${ctx.run}`, { organization: org.id }), 404);
        let e = await expectError(raw(ctx.url, 'POST', `/v1/integrations/${name}/installations`, { token: alice.token, json: {} }), 400);
        assert.match(e.error.message, /organization/);
        const inst = await install(name, org.id, api);
        assert.equal(inst.status, 'active');
        assert.equal(inst.target.organization, org.id);
        // Installing again answers the same installation.
        const again = await install(name, org.id, api);
        assert.equal(again.id, inst.id);
        // Another organization installs it too (public integration).
        const instOther = await install(name, other.id, carol.api);

        const get = (id, who = api) => ok(record(who.integrations.getIntegrationInstallationById(name, id)), 'getIntegrationInstallationById');
        assert.equal((await get(inst.id, bob.api)).id, inst.id);
        await expectError(carol.api.integrations.getIntegrationInstallationById(name, inst.id), 404);
        await expectError(eve.api.integrations.getIntegrationInstallationById(name, inst.id), 404);
        await expectError(api.integrations.getIntegrationInstallationById(name, 'nope'), 404);

        const list = await ok(record(api.integrations.listIntegrationInstallations(name)), 'listIntegrationInstallations');
        assert.deepEqual(list.items.map((i) => i.id).sort(), [inst.id, instOther.id].sort());
        await expectError(bob.api.integrations.listIntegrationInstallations(name), 403);

        // Update: configuration against configurations.account.
        e = await expectError(api.integrations.updateIntegrationInstallation(name, inst.id, { configuration: { count: 3 } }), 400);
        assert.match(e.error.message, /configuration\.channel/);
        e = await expectError(api.integrations.updateIntegrationInstallation(name, inst.id, { configuration: { channel: 5 } }), 400);
        assert.match(e.error.message, /configuration\.channel: must be a string/);
        e = await expectError(api.integrations.updateIntegrationInstallation(name, inst.id, { externalIds: ['a', 'b', 'c', 'd', 'e', 'f'] }), 400);
        assert.match(e.error.message, /externalIds/);
        e = await expectError(api.integrations.updateIntegrationInstallation(name, inst.id, { space_selection: 'some' }), 400);
        assert.match(e.error.message, /space_selection/);
        await expectError(bob.api.integrations.updateIntegrationInstallation(name, inst.id, { externalIds: ['x'] }), 403);
        const up = await ok(
            record(api.integrations.updateIntegrationInstallation(name, inst.id, { configuration: { channel: '#docs', count: 2 }, externalIds: ['ext-1'] })),
            'updateIntegrationInstallation',
        );
        assert.deepEqual(up.configuration, { channel: '#docs', count: 2 });
        assert.deepEqual(up.externalIds, ['ext-1']);
        const byExt = await ok(api.integrations.listIntegrationInstallations(name, { externalId: 'ext-1' }), 'listIntegrationInstallations');
        assert.deepEqual(byExt.items.map((i) => i.id), [inst.id]);

        // The organization's lists.
        const orgInst = await ok(record(api.orgs.listOrganizationInstallations(org.id)), 'listOrganizationInstallations');
        assert.ok(orgInst.items.some((i) => i.installation.id === inst.id && i.integration.name === name));
        const orgInt = await ok(record(api.orgs.listOrganizationIntegrations(org.id)), 'listOrganizationIntegrations');
        assert.ok(orgInt.items.some((i) => i.name === name));
        await expectError(eve.api.orgs.listOrganizationIntegrations(org.id), 404);

        // Uninstall: 205, then 204; another organization's admin cannot.
        await expectError(carol.api.integrations.uninstallIntegration(name, inst.id), 404);
        await empty(api.integrations.uninstallIntegration(name, inst.id), 205, 'uninstallIntegration');
        await empty(api.integrations.uninstallIntegration(name, inst.id), 204, 'uninstallIntegration again');
        await expectError(api.integrations.getIntegrationInstallationById(name, inst.id), 404);
    });

    it('installation tokens: GET /v1/user, scopes (403 outside), selected spaces, revoked at once', async () => {
        const name = `tok-${ctx.run}`;
        await publish(name, { scopes: ['space:content:read', 'space:metadata:read'] });
        const inst = await install(name, org.id, api);
        await expectError(bob.api.integrations.createIntegrationInstallationToken(name, inst.id), 403);
        const { token } = await ok(record(api.integrations.createIntegrationInstallationToken(name, inst.id)), 'createIntegrationInstallationToken');
        assert.match(token, /^gb_api_/);
        const as = client(ctx.url, token);
        const me = await ok(record(as.user.getAuthenticatedUser()), 'getAuthenticatedUser');
        assert.equal(typeof me.id, 'string');
        // Reads within the scopes; writes outside them are 403.
        await ok(as.spaces.getSpaceById(space.id), 'getSpaceById');
        const all = await ok(as.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById');
        assert.ok(all.items.some((x) => x.id === space2.id));
        let e = await expectError(as.spaces.updateSpaceById(space.id, { title: 'Hacked' }), 403);
        e = await expectError(as.spaces.createChangeRequest(space.id, { subject: 'x' }), 403);
        // Nothing of another organization.
        const foreign = await ok(carol.api.orgs.createSpace(other.id, { title: 'Foreign' }), 'createSpace', 201);
        await expectError(as.spaces.getSpaceById(foreign.id), 404);
        await expectError(as.orgs.getOrganizationById(other.id), 404);
        // Never an admin of the organization.
        await expectError(as.orgs.updateOrganizationById(org.id, { title: "x" }), 403);
        // A guest's standing in the organization: it reads it, not its members.
        await ok(as.orgs.getOrganizationById(org.id), 'getOrganizationById');
        await expectError(as.orgs.listMembersInOrganizationById(org.id), 403);
        // Selected spaces: only those the integration is installed on.
        await ok(api.integrations.updateIntegrationInstallation(name, inst.id, { space_selection: 'selected' }), 'updateIntegrationInstallation');
        await ok(api.integrations.installIntegrationOnSpace(name, inst.id, { space: space.id }), 'installIntegrationOnSpace', 201);
        await ok(as.spaces.getSpaceById(space.id), 'getSpaceById');
        await expectError(as.spaces.getSpaceById(space2.id), 404);
        const listed = await ok(as.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById');
        assert.deepEqual(listed.items.map((x) => x.id), [space.id]);
        // Uninstalling revokes the token at once (no cache keeps it).
        await empty(api.integrations.uninstallIntegration(name, inst.id), 205, 'uninstallIntegration');
        await expectError(as.user.getAuthenticatedUser(), 401);
        await expectError(as.spaces.getSpaceById(space.id), 401);
    });

    it('space and site installations (201), lists with extended and externalId, update, uninstall', async () => {
        const name = `targets-${ctx.run}`;
        await publish(name, { configurations: { space: { properties: { path: { type: 'string' } } }, site: { properties: { id: { type: 'string' } } } } });
        const inst = await install(name, org.id, api);
        let e = await expectError(raw(ctx.url, 'POST', `/v1/integrations/${name}/installations/${inst.id}/spaces`, { token: alice.token, json: {} }), 400);
        assert.match(e.error.message, /space/);
        await expectError(api.integrations.installIntegrationOnSpace(name, inst.id, { space: 'nope' }), 404);
        const foreign = await ok(carol.api.orgs.createSpace(other.id, { title: 'Foreign 2' }), 'createSpace', 201);
        await expectError(api.integrations.installIntegrationOnSpace(name, inst.id, { space: foreign.id }), 404);
        await expectError(bob.api.integrations.installIntegrationOnSpace(name, inst.id, { space: space.id }), 403);
        const si = await ok(record(api.integrations.installIntegrationOnSpace(name, inst.id, { space: space.id })), 'installIntegrationOnSpace', 201);
        assert.equal(si.space, space.id);
        assert.equal(si.installation, inst.id);
        const st = await ok(record(api.integrations.installIntegrationOnSite(name, inst.id, { siteId: site.id })), 'installIntegrationOnSite', 201);
        assert.equal(st.site, site.id);

        e = await expectError(api.integrations.updateIntegrationSpaceInstallation(name, inst.id, space.id, { configuration: { path: 1 } }), 400);
        assert.match(e.error.message, /configuration\.path/);
        const su = await ok(
            record(api.integrations.updateIntegrationSpaceInstallation(name, inst.id, space.id, { configuration: { path: '/docs' }, externalIds: ['repo-1'] })),
            'updateIntegrationSpaceInstallation',
        );
        assert.deepEqual(su.configuration, { path: '/docs' });
        await ok(api.integrations.updateIntegrationSiteInstallation(name, inst.id, site.id, { configuration: { id: 'x' } }), 'updateIntegrationSiteInstallation');
        await ok(api.integrations.getIntegrationSpaceInstallation(name, inst.id, space.id), 'getIntegrationSpaceInstallation');
        await ok(api.integrations.getIntegrationSiteInstallation(name, inst.id, site.id), 'getIntegrationSiteInstallation');
        await expectError(api.integrations.getIntegrationSpaceInstallation(name, inst.id, space2.id), 404);

        const spaces = await ok(record(api.integrations.listIntegrationSpaceInstallations(name)), 'listIntegrationSpaceInstallations');
        assert.deepEqual(spaces.items.map((i) => i.space), [space.id]);
        const ext = await ok(api.integrations.listIntegrationSpaceInstallations(name, { extended: true }), 'listIntegrationSpaceInstallations');
        assert.equal(ext.items[0].space.id, space.id);
        assert.equal((await ok(api.integrations.listIntegrationSpaceInstallations(name, { externalId: 'repo-1' }), 'listIntegrationSpaceInstallations')).items.length, 1);
        assert.equal((await ok(api.integrations.listIntegrationSpaceInstallations(name, { externalId: 'other' }), 'listIntegrationSpaceInstallations')).items.length, 0);
        const sites = await ok(record(api.integrations.listIntegrationSiteInstallations(name)), 'listIntegrationSiteInstallations');
        assert.deepEqual(sites.items.map((i) => i.site), [site.id]);
        await ok(api.integrations.listIntegrationInstallationSpaces(name, inst.id), 'listIntegrationInstallationSpaces');
        await ok(api.integrations.listIntegrationInstallationSites(name, inst.id), 'listIntegrationInstallationSites');
        await expectError(bob.api.integrations.listIntegrationSpaceInstallations(name), 403);
        const installed = await ok(api.spaces.listSpaceIntegrations(space.id), 'listSpaceIntegrations');
        assert.ok(installed.items.some((i) => i.name === name));
        assert.equal((await get(inst.id)).spaces, 1);

        await empty(api.integrations.uninstallIntegrationFromSpace(name, inst.id, space.id), 205, 'uninstallIntegrationFromSpace');
        await empty(api.integrations.uninstallIntegrationFromSpace(name, inst.id, space.id), 204, 'again');
        await empty(api.integrations.uninstallIntegrationFromSite(name, inst.id, site.id), 205, 'uninstallIntegrationFromSite');
        await empty(api.integrations.uninstallIntegrationFromSite(name, inst.id, site.id), 204, 'again');

        async function get(id) {
            return ok(api.integrations.getIntegrationInstallationById(name, id), 'getIntegrationInstallationById');
        }
    });

    it('dev mode: PUT 204 / DELETE 205, admins only, 400 naming tunnelUrl; unpublish 205 then 204', async () => {
        const name = `dev-${ctx.run}`;
        await publish(name);
        let e = await expectError(raw(ctx.url, 'PUT', `/v1/integrations/${name}/dev`, { token: alice.token, json: {} }), 400);
        assert.match(e.error.message, /tunnelUrl/);
        e = await expectError(api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: 'ftp://x' }), 400);
        assert.match(e.error.message, /tunnelUrl/);
        await expectError(bob.api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: 'https://t.example.com' }), 403);
        await expectError(api.integrations.setIntegrationDevelopmentMode(`nope-${ctx.run}`, { tunnelUrl: 'https://t.example.com' }), 404);
        await empty(api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: 'https://t.example.com', all: true }), 204, 'setIntegrationDevelopmentMode');
        await empty(api.integrations.disableIntegrationDevelopmentMode(name), 205, 'disableIntegrationDevelopmentMode');

        await expectError(bob.api.integrations.unpublishIntegration(name), 403);
        await empty(api.integrations.unpublishIntegration(name), 205, 'unpublishIntegration');
        await empty(api.integrations.unpublishIntegration(name), 204, 'unpublishIntegration again');
        await expectError(api.integrations.getIntegrationByName(name), 404);
    });

    it('events: recorded per installation change, newest first, each with its trace; 404s', async () => {
        const name = `ev-${ctx.run}`;
        await publish(name);
        const inst = await install(name, org.id, api);
        await ok(api.integrations.updateIntegrationInstallation(name, inst.id, { configuration: { a: 1 } }), 'updateIntegrationInstallation');
        // Without a runtime or a tunnel the deliveries fail at once, with the reason in the trace.
        let events;
        const deadline = Date.now() + 20_000;
        do {
            events = await ok(record(api.integrations.listIntegrationEvents(name)), 'listIntegrationEvents');
            if (events.items.length >= 2) break;
            await sleep(200);
        } while (Date.now() < deadline);
        assert.equal(events.items.length, 2, JSON.stringify(events));
        const [second, first] = events.items;
        assert.equal(first.payload.type, 'installation_setup');
        assert.equal(first.payload.status, 'active');
        assert.equal(first.payload.previous.status, 'pending');
        assert.equal(second.payload.type, 'installation_setup');
        assert.deepEqual(second.payload.previous.configuration, {});
        assert.equal(second.installationId, inst.id);
        assert.equal(second.status, 'failed');
        const two = await ok(api.integrations.listIntegrationEvents(name, { limit: 1 }), 'listIntegrationEvents');
        assert.equal(two.items[0].id, second.id); // the newest first (gitbook tail reads limit=2)
        const one = await ok(record(api.integrations.getIntegrationEvent(name, second.id)), 'getIntegrationEvent');
        let e;
        assert.equal(one.event.id, second.id);
        assert.ok(one.trace.logs.some((l) => /no integration runtime/.test(l.message)), JSON.stringify(one.trace));
        await expectError(api.integrations.getIntegrationEvent(name, 'nope'), 404);
        await expectError(bob.api.integrations.listIntegrationEvents(name), 403);
        await expectError(eve.api.integrations.listIntegrationEvents(name), 404);
        // Tasks: only the integration (or its owner's admins) queue them.
        await expectError(bob.api.integrations.queueIntegrationTask(name, { task: { type: 'x' } }), 403);
        await empty(api.integrations.queueIntegrationTask(name, { task: { type: 'sync' } }), 204, 'queueIntegrationTask');
        e = await expectError(api.integrations.queueIntegrationTask(name, { task: { type: 'x' }, schedule: 90000 }), 400);
        assert.match(e.error.message, /schedule/);
        // A task scheduled an hour ahead does not hold the installation's next events back.
        await empty(api.integrations.queueIntegrationTask(name, { task: { type: 'later' }, schedule: 3600 }), 204, 'queueIntegrationTask');
        await ok(api.integrations.updateIntegrationInstallation(name, inst.id, { externalIds: ['after-task'] }), 'updateIntegrationInstallation');
        const after = await (async () => {
            const until = Date.now() + 20_000;
            for (;;) {
                const items = (await ok(api.integrations.listIntegrationEvents(name), 'listIntegrationEvents')).items;
                const found = items.find((x) => x.payload.type === 'installation_setup' && x.id !== first.id && x.id !== second.id);
                if (found || Date.now() > until) return { found, items };
                await sleep(200);
            }
        })();
        assert.ok(after.found, JSON.stringify(after.items.map((x) => x.payload.type)));
        assert.ok(!after.items.some((x) => x.payload.task?.type === 'later'), 'the scheduled task is not delivered yet');
    });

    it('space events: space_content_updated after a merge, space_visibility_updated; only installed spaces', async () => {
        const name = `spev-${ctx.run}`;
        await publish(name, { target: 'space' });
        const inst = await install(name, org.id);
        await ok(api.integrations.updateIntegrationInstallation(name, inst.id, { space_selection: 'selected' }), 'updateIntegrationInstallation');
        await ok(api.integrations.installIntegrationOnSpace(name, inst.id, { space: space.id }), 'installIntegrationOnSpace', 201);
        const merge = async (spaceId) => {
            const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, {
                token: alice.token,
                json: { changes: [{ operation: 'insert_page', title: 'Hello', document: { markdown: 'Hello' } }] },
            });
            assert.equal(r.status, 200, r.text);
            const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
            assert.equal(m.result, 'merge');
            return m;
        };
        const m = await merge(space.id);
        await merge(space2.id); // not installed there: no event
        await ok(api.spaces.updateSpaceById(space.id, { visibility: 'public' }), 'updateSpaceById');
        await ok(api.spaces.updateSpaceById(space2.id, { visibility: 'public' }), 'updateSpaceById');
        let items;
        const deadline = Date.now() + 20_000;
        do {
            items = (await ok(record(api.integrations.listIntegrationEvents(name)), 'listIntegrationEvents')).items;
            if (items.length >= 5) break;
            await sleep(200);
        } while (Date.now() < deadline);
        const types = items.map((e) => e.payload.type);
        assert.deepEqual(types, ['space_visibility_updated', 'space_content_updated', 'space_installation_setup', 'installation_setup', 'installation_setup']);
        const [vis, content] = items;
        assert.equal(content.payload.spaceId, space.id);
        assert.equal(content.payload.revisionId, m.revision);
        assert.equal(vis.payload.spaceId, space.id);
        assert.equal(vis.payload.visibility, 'public');
        assert.equal(vis.payload.previousVisibility, 'private');
    });

    it('site scripts: an installation with site:script:inject adds its script to integration-scripts and published-content-site', async () => {
        const inject = `inject-${ctx.run}`;
        const plain = `plain-${ctx.run}`;
        await publish(inject, { scopes: ['site:script:inject', 'site:script:cookies'], target: 'site', contentSecurityPolicy: { 'script-src': "'self' https://cdn.example.com" } });
        await publish(plain, { scopes: ['site:metadata:read'], target: 'site' });
        const scripts = async () => {
            const r = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sites/${site.id}/integration-scripts`, { token: alice.token });
            assert.equal(r.status, 200, r.text);
            validate('listSiteIntegrationScripts', 200, r.json);
            return r.json;
        };
        const published = async () => (await ok(api.orgs.getPublishedContentSite(org.id, site.id), 'getPublishedContentSite')).scripts;
        assert.deepEqual(await scripts(), []);
        assert.deepEqual(await published(), []);
        const i1 = await install(inject, org.id);
        const i2 = await install(plain, org.id);
        await ok(api.integrations.installIntegrationOnSite(inject, i1.id, { siteId: site.id }), 'installIntegrationOnSite', 201);
        await ok(api.integrations.installIntegrationOnSite(plain, i2.id, { siteId: site.id }), 'installIntegrationOnSite', 201);
        const s = await scripts();
        assert.equal(s.length, 1);
        assert.match(s[0].script, new RegExp(`/integrations/${inject}/installations/${i1.id}/sites/${site.id}/script\\.js$`));
        assert.equal(s[0].cookies, true);
        assert.equal(s[0].contentSecurityPolicy, "script-src 'self' https://cdn.example.com");
        assert.deepEqual(await published(), s);
        // The published site's pages load it (after docsd's own script), and their CSP allows
        // the script's origin and the plain sources of the integration's policy, nothing looser.
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `intg-site-${ctx.run}` }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        const page = async () => {
            const res = await fetch(`${ctx.siteUrl}/sites/intg-site-${ctx.run}`, { redirect: 'manual' });
            return { status: res.status, csp: res.headers.get('content-security-policy'), text: await res.text() };
        };
        let p = await page();
        assert.equal(p.status, 200, p.text.slice(0, 300));
        const tags = [...p.text.matchAll(/<script defer src="([^"]+)"><\/script>/g)].map((m) => m[1]);
        assert.equal(tags.length, 2, p.text);
        assert.equal(tags[1], s[0].script);
        // The script is served on the sites' origin (README, "Two origins"), never the web
        // interface's: the main origin answers its old URL with a 308 there.
        assert.ok(s[0].script.startsWith(`${ctx.siteUrl}/v1/integrations/`), s[0].script);
        const onMain = await raw(ctx.url, 'GET', new URL(s[0].script).pathname);
        assert.equal(onMain.status, 308);
        assert.equal(onMain.headers.location, s[0].script);
        const origin = new URL(ctx.siteUrl).origin;
        assert.match(p.csp, new RegExp(`script-src 'self' ${origin.replace(/[.]/g, '\\.')} https://cdn\\.example\\.com;`));
        assert.doesNotMatch(p.csp, /unsafe-eval|'unsafe-inline'[^;]*script|script-src[^;]* \*( |;)/);
        assert.match(p.csp, /default-src 'none'/);
        assert.match(p.csp, /frame-ancestors 'self'/);
        // A hostile policy loosens nothing: keywords and a bare * are dropped, other directives ignored.
        await publish(inject, { scopes: ['site:script:inject', 'site:script:cookies'], target: 'site', contentSecurityPolicy: "script-src * 'unsafe-inline' 'unsafe-eval' https://ok.example.com; base-uri *; connect-src https://api.example.com, evil; frame-ancestors *" });
        p = await page();
        assert.equal(p.status, 200);
        assert.match(p.csp, /script-src 'self' \S+ https:\/\/ok\.example\.com;/);
        assert.doesNotMatch(p.csp, /unsafe-eval|base-uri \*|frame-ancestors \*|script-src[^;]* \*[ ;]|,/);
        assert.match(p.csp, /connect-src 'self' evil;/); // a bare host is a host source; the comma's token is dropped
        assert.match(p.csp, /base-uri 'none'/);
        await expectError(eve.api.orgs.getPublishedContentSite(org.id, site.id), 404);
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${other.id}/sites/${site.id}/integration-scripts`, { token: carol.token }), 404);
        // Uninstalling from the site removes it at once.
        await empty(api.integrations.uninstallIntegrationFromSite(inject, i1.id, site.id), 205, 'uninstallIntegrationFromSite');
        assert.deepEqual(await scripts(), []);
        assert.deepEqual(await published(), []);
        p = await page();
        assert.equal(p.status, 200);
        assert.equal([...p.text.matchAll(/<script defer src=/g)].length, 1, 'only docsd\'s own script is left');
        assert.doesNotMatch(p.csp, /ok\.example\.com/);
    });
});

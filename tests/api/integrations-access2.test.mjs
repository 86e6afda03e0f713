// Integration access, the gaps integrations-access.test.mjs left (issue 31, second pass):
//  1. an integration's identity never creates, joins or acts as a member of an organization,
//     and what an admin gives its user (membership, grants, team membership) stays inert;
//  2. the `permissions` booleans of a space, a collection and an organization come from the
//     same rule as the checks: each boolean is compared with the outcome of its operation;
//  3. installation tokens read the selected sites through the sites API with
//     site:metadata:read, nothing else of sites, and not-selected sites answer 404;
//  4. the scopes' role: a site-only integration reads no space.
//
// Cast: organization B (alice admin, bob read member), organization C (carol admin).
// Integration S (B's; space:content:read, space:metadata:write, site:metadata:read) installed
// on B with spaces and sites selected (sSel, siteSel). Integration A (space:content:read,
// site:metadata:read) installed on B with everything selected. Integration J
// (site:script:inject only) installed on B with everything selected.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { client, ok, empty, expectError, raw, createOrg, addMember, sleep } from './lib/api.mjs';
import { validate } from './lib/schema.mjs';

const OPENAPI = JSON.stringify({ openapi: '3.0.0', info: { title: 'Probe', version: '1' }, paths: {} });

/** A development tunnel: keeps the environment of every delivery. */
async function tunnel() {
    const t = { envs: [] };
    t.server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', async () => {
            try {
                const r = new Request(`http://x${req.url}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body: Buffer.concat(chunks) });
                const fd = await r.formData();
                t.envs.push(JSON.parse(fd.get('environment')));
            } catch {}
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('OK');
        });
    });
    await new Promise((r) => t.server.listen(0, '127.0.0.1', r));
    t.url = `http://127.0.0.1:${t.server.address().port}`;
    return t;
}

async function waitFor(what, fn, ms = 60_000) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(100);
    }
}

describe('integration access, second pass', () => {
    let ctx, tun, alice, bob, carol, orgB, orgC;
    let col, sSel, sUn, siteSel, siteUn, siteC;
    let S, A, J, instS, instA, instJ, integUser;
    const tok = {};
    const seen = [];

    const call = async (who, method, path, json) => {
        const r = await raw(ctx.url, method, path, { token: tok[who] ?? who, json });
        seen.push([who, method, path, r.status, r.text]);
        return r;
    };
    const publish = (name, scopes) =>
        ok(alice.api.integrations.publishIntegration(name, { organization: orgB.id, title: `Acc2 ${name}`.slice(0, 30), description: 'Access test', script: 'export default {}', scopes, visibility: 'public', target: 'all' }), 'publishIntegration');
    const install = async (name) => {
        const res = await alice.api.integrations.installIntegration(name, { organization: orgB.id });
        assert.equal(res.status, 200);
        return res.data;
    };

    before(async () => {
        tun = await tunnel();
        ctx = await setup({ extraArgs: ['--allow-private-network', '--job-workers', '2'] });
        [alice, bob, carol] = await Promise.all(['alice', 'bob', 'carol'].map((n) => ctx.user(n)));
        ({ org: orgB } = await createOrg(ctx.url, alice.token, `B2 ${ctx.run}`));
        ({ org: orgC } = await createOrg(ctx.url, carol.token, `C2 ${ctx.run}`));
        await ok(alice.api.orgs.updateOrganizationById(orgB.id, { inviteLinks: true }), 'updateOrganizationById');
        await addMember(alice.api, orgB.id, bob.email, 'read');
        col = await ok(alice.api.orgs.createCollection(orgB.id, { title: 'B2-COLLECTION' }), 'createCollection', 201);
        sSel = await ok(alice.api.orgs.createSpace(orgB.id, { title: 'B2-SELECTED', parent: col.id }), 'createSpace', 201);
        sUn = await ok(alice.api.orgs.createSpace(orgB.id, { title: 'B2-UNSELECTED', parent: col.id }), 'createSpace', 201);
        const site = async (token, orgId, title) => {
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${orgId}/sites`, { token, json: { title } });
            assert.equal(r.status, 201, r.text);
            return r.json;
        };
        siteSel = await site(alice.token, orgB.id, 'B2 selected site');
        siteUn = await site(alice.token, orgB.id, 'B2 other site');
        siteC = await site(carol.token, orgC.id, 'C2 site');

        S = `acc2-s-${ctx.run}`;
        A = `acc2-a-${ctx.run}`;
        J = `acc2-j-${ctx.run}`;
        await publish(S, ['space:content:read', 'space:metadata:write', 'site:metadata:read']);
        await publish(A, ['space:content:read', 'site:metadata:read']);
        await publish(J, ['site:script:inject']);
        await empty(alice.api.integrations.setIntegrationDevelopmentMode(S, { tunnelUrl: tun.url, all: true }), 204, 'setIntegrationDevelopmentMode');
        instS = await install(S);
        instA = await install(A);
        instJ = await install(J);
        await ok(alice.api.integrations.updateIntegrationInstallation(S, instS.id, { space_selection: 'selected', site_selection: 'selected' }), 'updateIntegrationInstallation');
        await ok(alice.api.integrations.installIntegrationOnSpace(S, instS.id, { space: sSel.id }), 'installIntegrationOnSpace', 201);
        await ok(alice.api.integrations.installIntegrationOnSite(S, instS.id, { siteId: siteSel.id }), 'installIntegrationOnSite', 201);
        await ok(alice.api.integrations.updateIntegrationInstallation(A, instA.id, { space_selection: 'all', site_selection: 'all' }), 'updateIntegrationInstallation');
        await ok(alice.api.integrations.updateIntegrationInstallation(J, instJ.id, { space_selection: 'all', site_selection: 'all' }), 'updateIntegrationInstallation');
        const env = await waitFor('a delivery with the integration token', () => tun.envs.find((e) => e.apiTokens?.integration));
        tok.integ = env.apiTokens.integration;
        tok.instS = (await ok(client(ctx.url, tok.integ).integrations.createIntegrationInstallationToken(S, instS.id), 'createIntegrationInstallationToken')).token;
        tok.instA = (await ok(alice.api.integrations.createIntegrationInstallationToken(A, instA.id), 'createIntegrationInstallationToken')).token;
        tok.instJ = (await ok(alice.api.integrations.createIntegrationInstallationToken(J, instJ.id), 'createIntegrationInstallationToken')).token;
        Object.assign(tok, { alice: alice.token, bob: bob.token, carol: carol.token });
        integUser = await ok(client(ctx.url, tok.integ).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        const same = await ok(client(ctx.url, tok.instS).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(same.id, integUser.id);
    });
    after(async () => {
        await ctx?.server.stop();
        tun?.server.close();
    });

    const members = async () => (await ok(alice.api.orgs.listMembersInOrganizationById(orgB.id, { limit: 1000 }), 'listMembersInOrganizationById')).items.map((m) => m.id);

    it('1. an integration never creates or joins an organization, nor acts as a member', async () => {
        for (const who of ['integ', 'instS', 'instJ']) {
            const r = await call(who, 'POST', '/v1/orgs', { title: `Made by ${who}` });
            assert.equal(r.status, 403, `${who} creates an organization: ${r.text}`);
            assert.equal(r.json.error.code, 403);
            assert.match(r.json.error.message, /integration/);
        }
        // Nothing was made: its user stands in no organization but its installation's.
        assert.deepEqual((await ok(client(ctx.url, tok.integ).orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser')).items, []);
        const asS = await ok(client(ctx.url, tok.instS).orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        assert.deepEqual(asS.items.map((o) => o.id), [orgB.id]);
        assert.equal(asS.count, 1);
        // An invite link: refused to both token kinds (the link is valid: a user joins with it).
        const link = await ok(alice.api.orgs.createOrganizationInvite(orgB.id, { role: 'admin' }), 'createOrganizationInvite', 201);
        for (const who of ['integ', 'instS']) {
            const r = await call(who, 'POST', `/v1/orgs/${orgB.id}/invites/${link.id}`);
            assert.equal(r.status, 403, `${who} joins with a link: ${r.text}`);
            // Even a link of an organization it has no installation in.
            const c = await call(who, 'POST', `/v1/orgs/${orgC.id}/invites/${link.id}`);
            assert.equal(c.status, 403, `${who} joins C: ${c.text}`);
        }
        assert.ok(!(await members()).includes(integUser.id), 'the integration user became a member');
        // A member's own doings: ping (lastSeenAt and visitor claims), its own space list.
        assert.equal((await call('instS', 'POST', `/v1/orgs/${orgB.id}/ping`)).status, 403);
        assert.equal((await call('instS', 'GET', `/v1/orgs/${orgB.id}/members/${integUser.id}/spaces`)).status, 403);
        assert.equal((await call('instS', 'GET', `/v1/orgs/${orgB.id}/members`)).status, 403);
        // Organizations it could join by email domain: none.
        const byDomain = await call('integ', 'GET', '/v1/email-domains/integrations.docsd.invalid/orgs');
        assert.equal(byDomain.status, 200);
        assert.deepEqual(byDomain.json.organizations, []);
        await empty(alice.api.orgs.deleteOrganizationInviteById(orgB.id, link.id), 205, 'deleteOrganizationInviteById');
    });

    it('1b. what an admin gives the integration\'s user stays inert', async () => {
        // Alice makes the integration's user an admin member, grants it admin on the unselected
        // space and puts it in a team.
        await addMember(alice.api, orgB.id, integUser.email, 'admin');
        await empty(alice.api.spaces.inviteToSpace(sUn.id, { role: 'admin', users: [integUser.id] }), 204, 'inviteToSpace');
        const team = await raw(ctx.url, 'PUT', `/v1/orgs/${orgB.id}/teams`, { token: alice.token, json: { title: 'Integ team' } });
        assert.ok(team.status < 300, team.text);
        const teamId = team.json.id;
        const add = await raw(ctx.url, 'PUT', `/v1/orgs/${orgB.id}/teams/${teamId}/members/${integUser.id}`, { token: alice.token });
        assert.ok(add.status < 300, add.text);
        try {
            // The integration token still stands nowhere.
            assert.deepEqual((await ok(client(ctx.url, tok.integ).orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser')).items, []);
            assert.equal((await call('integ', 'GET', `/v1/orgs/${orgB.id}`)).status, 404);
            assert.equal((await call('integ', 'GET', `/v1/spaces/${sUn.id}`)).status, 404);
            // The installation token: a guest's standing and its selection, not the grants.
            const listed = await ok(client(ctx.url, tok.instS).orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
            assert.deepEqual(listed.items.map((o) => o.id), [orgB.id]);
            assert.equal(listed.items[0].permissions.admin, false);
            assert.equal(listed.items[0].permissions.view, true);
            assert.equal((await call('instS', 'GET', `/v1/spaces/${sUn.id}`)).status, 404);
            assert.equal((await call('instS', 'GET', `/v1/orgs/${orgB.id}/members/${integUser.id}/spaces`)).status, 403);
            assert.equal((await call('instS', 'GET', `/v1/orgs/${orgB.id}/teams/${teamId}/members`)).status, 403);
            assert.equal((await call('instS', 'PATCH', `/v1/orgs/${orgB.id}`, { title: 'Taken' })).status, 403);
            const spaces = await ok(client(ctx.url, tok.instS).orgs.listSpacesInOrganizationById(orgB.id), 'listSpacesInOrganizationById');
            assert.deepEqual(spaces.items.map((s) => s.id), [sSel.id]);
            const o = await ok(alice.api.orgs.getOrganizationById(orgB.id), 'getOrganizationById');
            assert.equal(o.title, `B2 ${ctx.run}`);
            // Users: the membership shares no organization with anyone for the tokens.
            for (const who of ['integ', 'instS']) {
                const r = await call(who, 'GET', `/v1/users/${alice.id}`);
                assert.equal(r.status, 404, `${who} reads a co-member: ${r.text}`);
                assert.ok(!r.text.includes(alice.email));
                assert.equal((await call(who, 'GET', `/v1/users/${integUser.id}`)).status, 200);
            }
            assert.equal((await call('alice', 'GET', `/v1/users/${integUser.id}`)).status, 200);
        } finally {
            await empty(alice.api.orgs.removeMemberFromOrganizationById(orgB.id, integUser.id), 205, 'removeMemberFromOrganizationById');
        }
    });

    // Each boolean of a Space with the operation it announces; `probe` answers whether the
    // operation was allowed (2xx) or refused (403/404), and never changes what later rows read.
    const spaceOps = (space) => ({
        view: ['GET', `/v1/spaces/${space.id}`],
        // Managing: a defaultLevel written back unchanged.
        admin: ['PATCH', `/v1/spaces/${space.id}`, { defaultLevel: 'inherit' }],
        viewInviteLinks: ['PATCH', `/v1/spaces/${space.id}`, { visibility: 'private' }],
        edit: ['POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'probe' }],
        comment: ['POST', `/v1/spaces/${space.id}/comments`, { body: { markdown: 'probe' } }],
    });
    const allowed = (status) => status >= 200 && status < 300;

    async function compare(who, obj, perms, ops) {
        const failures = [];
        for (const [k, [method, path, body]] of Object.entries(ops)) {
            const r = await call(who, method, path, body);
            if (r.status >= 500) failures.push(`${who} ${k}: a ${r.status}`);
            if (allowed(r.status) !== perms[k]) failures.push(`${who} on ${obj}: permissions.${k} is ${perms[k]}, ${method} ${path} answered ${r.status} ${r.text.slice(0, 120)}`);
        }
        return failures;
    }

    it('2. the permissions booleans agree with the checks (space, collection, organization)', async () => {
        const failures = [];
        // A space: the installation token with space:metadata:write, a reader, the admin.
        for (const who of ['instS', 'instA', 'bob', 'alice']) {
            const s = (await call(who, 'GET', `/v1/spaces/${sSel.id}`)).json;
            validate('getSpaceById', 200, s);
            failures.push(...(await compare(who, 'the space', s.permissions, spaceOps(sSel))));
            if (who.startsWith('inst')) {
                for (const k of ['admin', 'viewInviteLinks', 'installIntegration', 'merge', 'review', 'edit', 'comment'])
                    if (s.permissions[k]) failures.push(`${who}: space permissions.${k} is true`);
                const del = await call(who, 'DELETE', `/v1/spaces/${sSel.id}`);
                if (del.status !== 403) failures.push(`${who} deletes the space: ${del.status}`);
                const inst = await call(who, 'POST', `/v1/integrations/${S}/installations/${instS.id}/spaces`, { space: sUn.id });
                if (allowed(inst.status)) failures.push(`${who} installs an integration on a space: ${inst.status}`);
            }
        }
        // space:metadata:write still changes the settings it announces none of: the title.
        const t = await call('instS', 'PATCH', `/v1/spaces/${sSel.id}`, { title: 'B2-SELECTED' });
        assert.equal(t.status, 200, t.text);
        // A collection, read by the installation that has every space.
        for (const who of ['instA', 'bob', 'alice']) {
            const c = (await call(who, 'GET', `/v1/collections/${col.id}`)).json;
            validate('getCollectionById', 200, c);
            failures.push(
                ...(await compare(who, 'the collection', c.permissions, {
                    view: ['GET', `/v1/collections/${col.id}`],
                    admin: ['PATCH', `/v1/collections/${col.id}`, { title: 'B2-COLLECTION' }],
                    create: ['POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'probe', parent: col.id }],
                })),
            );
        }
        // The organization.
        for (const who of ['instS', 'bob', 'alice']) {
            const o = (await call(who, 'GET', `/v1/orgs/${orgB.id}`)).json;
            validate('getOrganizationById', 200, o);
            failures.push(
                ...(await compare(who, 'the organization', o.permissions, {
                    view: ['GET', `/v1/orgs/${orgB.id}`],
                    admin: ['PATCH', `/v1/orgs/${orgB.id}`, { title: `B2 ${ctx.run}` }],
                    listMembers: ['GET', `/v1/orgs/${orgB.id}/members`],
                    listTeams: ['GET', `/v1/orgs/${orgB.id}/teams`],
                    listIntegrations: ['GET', `/v1/orgs/${orgB.id}/integrations`],
                    listInstallations: ['GET', `/v1/orgs/${orgB.id}/installations`],
                    createContent: ['POST', `/v1/orgs/${orgB.id}/collections`, { title: 'probe' }],
                    createOpenAPISpec: ['POST', `/v1/orgs/${orgB.id}/openapi`, { slug: `probe-${who}`, source: { text: OPENAPI } }],
                })),
            );
        }
        assert.deepEqual(failures, []);
    });

    it('3. sites: site:metadata:read on the selected sites only', async () => {
        // The selected site: read, and nothing changed.
        const got = await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}`);
        assert.equal(got.status, 200, got.text);
        validate('getSiteById', 200, got.json);
        assert.equal(got.json.id, siteSel.id);
        for (const path of ['customization', 'structure', 'sections', 'site-spaces', 'redirects']) {
            const r = await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}/${path}`);
            assert.equal(r.status, 200, `${path}: ${r.text}`);
        }
        const list = await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites`);
        assert.equal(list.status, 200);
        validate('listSites', 200, list.json);
        assert.deepEqual(list.json.items.map((s) => s.id), [siteSel.id]);
        assert.equal(list.json.count, 1);
        const paged = await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites?limit=1`);
        assert.deepEqual(paged.json.items.map((s) => s.id), [siteSel.id]);
        assert.equal(paged.json.next, undefined);
        // Writes: 403 (it may know the site exists), and nothing changed.
        for (const [m, p, b] of [
            ['PATCH', '', { title: 'Taken' }],
            ['POST', '/publish', undefined],
            ['DELETE', '', undefined],
            ['POST', '/share-links', { name: 'x' }],
            ['PUT', '/customization', {}],
        ]) {
            const r = await call('instS', m, `/v1/orgs/${orgB.id}/sites/${siteSel.id}${p}`, b);
            assert.equal(r.status, 403, `${m} ${p}: ${r.text}`);
        }
        const still = await raw(ctx.url, 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}`, { token: alice.token });
        assert.equal(still.json.title, 'B2 selected site');
        assert.equal(still.json.published, false);
        // Not selected, another organization's, unknown: 404, for reads and writes alike.
        for (const [m, p] of [
            ['GET', `/v1/orgs/${orgB.id}/sites/${siteUn.id}`],
            ['PATCH', `/v1/orgs/${orgB.id}/sites/${siteUn.id}`],
            ['GET', `/v1/orgs/${orgB.id}/sites/${siteUn.id}/structure`],
            ['GET', `/v1/orgs/${orgC.id}/sites/${siteC.id}`],
            ['GET', `/v1/orgs/${orgB.id}/sites/${siteC.id}`],
            ['GET', `/v1/orgs/${orgB.id}/sites/nosuchsite0000000000`],
        ]) {
            const r = await call('instS', m, p, m === 'PATCH' ? { title: 'Taken over' } : undefined);
            assert.equal(r.status, 404, `${m} ${p}: ${r.text}`);
            assert.equal(r.json.error.code, 404);
        }
        // site_selection all: every site of its organization.
        const all = await call('instA', 'GET', `/v1/orgs/${orgB.id}/sites`);
        assert.deepEqual(all.json.items.map((s) => s.id).sort(), [siteSel.id, siteUn.id].sort());
        assert.equal((await call('instA', 'GET', `/v1/orgs/${orgB.id}/sites/${siteUn.id}`)).status, 200);
        // Without site:metadata:read: no site, an empty list.
        assert.equal((await call('instJ', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}`)).status, 404);
        const none = await call('instJ', 'GET', `/v1/orgs/${orgB.id}/sites`);
        assert.equal(none.status, 200);
        assert.deepEqual(none.json.items, []);
        // A site's integration scripts: whoever reads the site.
        const scripts = await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}/integration-scripts`);
        assert.equal(scripts.status, 200, scripts.text);
        validate('listSiteIntegrationScripts', 200, scripts.json);
        for (const [who, site] of [['instS', siteUn], ['instJ', siteSel], ['integ', siteSel]]) {
            const r = await call(who, 'GET', `/v1/orgs/${orgB.id}/sites/${site.id}/integration-scripts`);
            assert.equal(r.status, 404, `${who} reads the scripts of a site it does not read: ${r.text}`);
        }
        assert.equal((await call('bob', 'GET', `/v1/orgs/${orgB.id}/sites/${siteUn.id}/integration-scripts`)).status, 200);
        // The integration token reads no site.
        assert.equal((await call('integ', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}`)).status, 404);
        // Uninstalling from the site takes it away at once.
        await empty(alice.api.integrations.uninstallIntegrationFromSite(S, instS.id, siteSel.id), 205, 'uninstallIntegrationFromSite');
        assert.equal((await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites/${siteSel.id}`)).status, 404);
        assert.deepEqual((await call('instS', 'GET', `/v1/orgs/${orgB.id}/sites`)).json.items, []);
    });

    it('4. the scopes\' role: an integration with site scopes only reads no space', async () => {
        assert.equal((await call('instJ', 'GET', `/v1/spaces/${sSel.id}`)).status, 404);
        assert.equal((await call('instJ', 'GET', `/v1/collections/${col.id}`)).status, 404);
        const spaces = await call('instJ', 'GET', `/v1/orgs/${orgB.id}/spaces`);
        assert.equal(spaces.status, 200);
        assert.deepEqual(spaces.json.items, []);
        // A space scope reads them.
        assert.equal((await call('instA', 'GET', `/v1/spaces/${sUn.id}`)).status, 200);
        // Nothing anyone received here was a 500.
        for (const [who, m, p, status, text] of seen) assert.ok(status < 500, `${who} ${m} ${p}: ${status} ${text.slice(0, 200)}`);
    });
});

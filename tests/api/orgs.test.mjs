// Organizations: create, list, get (permissions per role), update every field, email domains,
// users, and access rules (non-member 404, read member 403).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, expectError, raw, rawOk, createOrg, addMember, checkPagination, validate } from './lib/api.mjs';

describe('organizations', () => {
    let ctx, alice, bob, carol, gina, dan;
    let org; // created by alice; bob read, gina guest
    let org2; // second org of alice

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        gina = await ctx.user('gina');
        dan = await ctx.user('dan'); // same email domain as alice, not a member of anything
        carol = await ctx.user('carol', { emailDomain: `other-${ctx.run}.example.org` });
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('GET /v1/ returns ApiInformation', async () => {
        const info = await ok(alice.api.getApiInformation(), 'getApiInformation');
        assert.equal(typeof info.version, 'string');
        assert.ok(info.version.length > 0);
        assert.equal(typeof info.build, 'string');
    });

    it('GET /v1/user returns the caller', async () => {
        const me = await ok(alice.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.object, 'user');
        assert.equal(me.id, alice.id);
        assert.equal(me.email, alice.email);
        assert.equal(me.displayName, alice.name);
        assert.equal(me.urls.location, `${ctx.url}/v1/users/${alice.id}`);
        const meBob = await ok(bob.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(meBob.id, bob.id);
        assert.notEqual(bob.id, alice.id);
    });

    it('GET /v1/users/{id} returns a user; unknown id is 404', async () => {
        // (whether users who share no organization can see each other is left open: docsd
        // answers 404 there on purpose; co-members are checked below)
        const u = await ok(alice.api.users.getUserById(alice.id), 'getUserById');
        assert.equal(u.id, alice.id);
        assert.equal(u.displayName, alice.name);
        assert.equal(u.email, alice.email);
        assert.equal(u.object, 'user');
        await expectError(alice.api.users.getUserById('doesnotexist00000000'), 404);
    });

    it('POST /v1/orgs creates an organization with the caller as admin', async () => {
        const title = `Acme ${ctx.run}`;
        const { org: o, res } = await createOrg(ctx.url, alice.token, title);
        org = o;
        assert.equal(o.object, 'organization');
        assert.equal(o.title, title);
        assert.equal(o.type, 'business');
        assert.deepEqual(o.mergeRules, { type: 'none' });
        assert.deepEqual(o.emailDomains, []);
        assert.equal(typeof o.trial.status, 'string');
        assert.equal(typeof o.plan, 'string');
        assert.equal(o.urls.location, `${ctx.url}/v1/orgs/${o.id}`);
        assert.equal(typeof o.urls.app, 'string');
        for (const [k, v] of Object.entries(o.permissions)) assert.equal(v, true, `admin permission ${k} should be true`);
        assert.ok(res.headers.location, 'Location header');
        assert.ok(res.headers.location.endsWith(`/v1/orgs/${o.id}`), `Location ${res.headers.location}`);
        assert.ok(Math.abs(Date.parse(o.createdAt) - Date.now()) < 5 * 60_000, 'createdAt is now');

        const got = await ok(alice.api.orgs.getOrganizationById(o.id), 'getOrganizationById');
        assert.equal(got.id, o.id);
        assert.equal(got.title, title);
        assert.equal(got.createdAt, o.createdAt);

        const m = await ok(alice.api.orgs.getMemberInOrganizationById(o.id, alice.id), 'getMemberInOrganizationById');
        assert.equal(m.role, 'admin');
        assert.equal(m.user.id, alice.id);
    });

    it('POST /v1/orgs rejects bad titles', async () => {
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: { title: 'A' } }), 400, 'title of 1 char');
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: { title: 'x'.repeat(256) } }), 400, 'title of 256 chars');
        const missing = await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: {} }), 400, 'missing title');
        assert.match(missing.error.message, /title/);
        const wrongType = await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: { title: 42 } }), 400, 'numeric title');
        assert.match(wrongType.error.message, /title/);
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { token: alice.token, json: ['x'] }), 400, 'array body');
        await expectError(raw(ctx.url, 'POST', '/v1/orgs', { json: { title: 'No token' } }), 401, 'no token');
        // the limits are inclusive
        const { org: two } = await createOrg(ctx.url, alice.token, 'AB');
        assert.equal(two.title, 'AB');
        const { org: long } = await createOrg(ctx.url, alice.token, 'y'.repeat(255));
        assert.equal(long.title.length, 255);
    });

    it('POST /v1/orgs accepts emailDomains and ignores unknown fields', async () => {
        const { org: o } = await createOrg(ctx.url, alice.token, `Second ${ctx.run}`, { emailDomains: [`second-${ctx.domain}`], bogusField: { a: 1 } });
        org2 = o;
        assert.deepEqual(o.emailDomains, [`second-${ctx.domain}`]);
        assert.equal(o.bogusField, undefined);
    });

    it('GET /v1/orgs lists only the organizations the caller is a member of; paginates', async () => {
        const list = await ok(alice.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        const ids = list.items.map((o) => o.id);
        assert.ok(ids.includes(org.id));
        assert.ok(ids.includes(org2.id));
        assert.equal(ids.length, 4, 'alice has created exactly 4 organizations');
        for (const o of list.items) assert.equal(o.permissions.admin, true);
        const none = await ok(carol.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        assert.deepEqual(none.items, []);
        assert.equal(none.next, undefined);
        const all = await checkPagination((q) => alice.api.orgs.listOrganizationsForAuthenticatedUser(q), 'listOrganizationsForAuthenticatedUser');
        assert.deepEqual(all.map((o) => o.id).sort(), [...ids].sort());
    });

    it('members see the organization with permissions of their role', async () => {
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, gina.email, null);

        // co-members see each other
        const u = await ok(alice.api.users.getUserById(bob.id), 'getUserById');
        assert.equal(u.id, bob.id);
        assert.equal(u.displayName, bob.name);
        const a = await ok(bob.api.users.getUserById(alice.id), 'getUserById');
        assert.equal(a.id, alice.id);

        const asBob = await ok(bob.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(asBob.id, org.id);
        assert.equal(asBob.permissions.view, true);
        assert.equal(asBob.permissions.admin, false);
        assert.equal(asBob.permissions.listMembers, true);
        assert.equal(asBob.permissions.listTeams, true);
        assert.equal(asBob.permissions.createContent, false);

        const bobList = await ok(bob.api.orgs.listOrganizationsForAuthenticatedUser(), 'listOrganizationsForAuthenticatedUser');
        assert.deepEqual(bobList.items.map((o) => o.id), [org.id]);

        const asGina = await ok(gina.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(asGina.permissions.view, true);
        assert.equal(asGina.permissions.admin, false);
        assert.equal(asGina.permissions.listMembers, false);

        const asAlice = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(asAlice.permissions.admin, true);
    });

    it('a non-member gets 404 for the organization and everything under it', async () => {
        const id = org.id;
        await expectError(carol.api.orgs.getOrganizationById(id), 404, 'GET org');
        await expectError(carol.api.orgs.updateOrganizationById(id, { title: 'Hijacked' }), 404, 'PATCH org');
        await expectError(carol.api.orgs.listMembersInOrganizationById(id), 404, 'list members');
        await expectError(carol.api.orgs.getMemberInOrganizationById(id, alice.id), 404, 'get member');
        await expectError(carol.api.orgs.updateMemberInOrganizationById(id, alice.id, { role: 'read' }), 404, 'patch member');
        await expectError(carol.api.orgs.removeMemberFromOrganizationById(id, bob.id), 404, 'delete member');
        await expectError(carol.api.orgs.listTeamsInOrganizationById(id), 404, 'list teams');
        await expectError(carol.api.orgs.createOrganizationTeam(id, { title: 'Nope' }), 404, 'create team');
        await expectError(carol.api.orgs.listOrganizationInviteLinks(id), 404, 'list link invites');
        await expectError(carol.api.orgs.createOrganizationInvite(id, { role: 'read' }), 404, 'create link invite');
        await expectError(carol.api.orgs.inviteUsersToOrganization(id, { emails: [carol.email], role: 'admin' }), 404, 'invite');
        await expectError(carol.api.orgs.updateOrganizationMemberLastSeenAt(id), 404, 'ping');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${id}/members/${alice.id}/teams`, { token: carol.token }), 404, 'member teams');
        // nothing changed
        const still = await ok(alice.api.orgs.getOrganizationById(id), 'getOrganizationById');
        assert.equal(still.title, org.title);
        await expectError(carol.api.orgs.getMemberInOrganizationById(id, carol.id), 404, 'carol is not a member');
    });

    it('unknown organization ids are 404', async () => {
        await expectError(alice.api.orgs.getOrganizationById('nosuchorg00000000000'), 404);
        await expectError(alice.api.orgs.updateOrganizationById('nosuchorg00000000000', { title: 'Xy' }), 404);
        await expectError(alice.api.orgs.listMembersInOrganizationById('nosuchorg00000000000'), 404);
    });

    it('only admins may PATCH the organization', async () => {
        await expectError(bob.api.orgs.updateOrganizationById(org.id, { title: 'By Bob' }), 403, 'read member');
        await expectError(gina.api.orgs.updateOrganizationById(org.id, { title: 'By Gina' }), 403, 'guest');
        const got = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(got.title, org.title);
    });

    async function patch(body, check) {
        const res = await ok(alice.api.orgs.updateOrganizationById(org.id, body), 'updateOrganizationById');
        assert.equal(res.id, org.id);
        check(res, 'PATCH response');
        const got = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        check(got, 'following GET');
        return got;
    }

    it('PATCH title', async () => {
        const title = `Renamed ${ctx.run}`;
        await patch({ title }, (o, w) => assert.equal(o.title, title, w));
        const bobView = await ok(bob.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(bobView.title, title);
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { title: 'x' }), 400, 'title of 1 char');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { title: 'x'.repeat(256) }), 400, 'title of 256 chars');
        const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { title: 12 }), 400, 'numeric title');
        assert.match(e.error.message, /title/);
        const got = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(got.title, title);
    });

    it('PATCH ignores unknown fields', async () => {
        const title = `Unknown ${ctx.run}`;
        await patch({ title, somethingElse: true, nested: { deep: [1, 2] } }, (o, w) => {
            assert.equal(o.title, title, w);
            assert.equal(o.somethingElse, undefined, w);
        });
    });

    it('PATCH emailDomains', async () => {
        const domains = [ctx.domain, `docs.${ctx.domain}`];
        await patch({ emailDomains: domains }, (o, w) => assert.deepEqual([...o.emailDomains].sort(), [...domains].sort(), w));
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: ['not a domain'] }), 400, 'invalid domain');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: ['@@@'] }), 400, 'invalid domain @@@');
        const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: 'example.com' }), 400, 'string instead of array');
        assert.match(e.error.message, /emailDomains/);
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [42] }), 400, 'number in array');
        const got = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.deepEqual([...got.emailDomains].sort(), [...domains].sort());
    });

    it('GET /v1/email-domains/{domain}/orgs returns orgs for the caller\'s own domain only', async () => {
        // dan's email has ctx.domain: he sees the org although he is not a member
        const forDan = await ok(dan.api.emailDomains.getOrganizationsForEmailDomain(ctx.domain), 'getOrganizationsForEmailDomain');
        assert.deepEqual(forDan.organizations.map((o) => o.id), [org.id]);
        const forAlice = await ok(alice.api.emailDomains.getOrganizationsForEmailDomain(ctx.domain), 'getOrganizationsForEmailDomain');
        assert.deepEqual(forAlice.organizations.map((o) => o.id), [org.id]);
        // carol's email is on another domain: nothing
        const forCarol = await ok(carol.api.emailDomains.getOrganizationsForEmailDomain(ctx.domain), 'getOrganizationsForEmailDomain');
        assert.deepEqual(forCarol.organizations, []);
        // a domain nobody lists
        const nobody = await ok(carol.api.emailDomains.getOrganizationsForEmailDomain(`other-${ctx.run}.example.org`), 'getOrganizationsForEmailDomain');
        assert.deepEqual(nobody.organizations, []);
        // the second org lists second-<domain>, which is not dan's domain
        const second = await ok(dan.api.emailDomains.getOrganizationsForEmailDomain(`second-${ctx.domain}`), 'getOrganizationsForEmailDomain');
        assert.deepEqual(second.organizations, []);
        await expectError(raw(ctx.url, 'GET', `/v1/email-domains/${ctx.domain}/orgs`), 401, 'no token');
    });

    it('GET /v1/email-domains/{domain}/orgs: any case of the domain; permissions are the caller\'s', async () => {
        const upper = ctx.domain.toUpperCase();
        const forDan = await ok(dan.api.emailDomains.getOrganizationsForEmailDomain(upper), 'getOrganizationsForEmailDomain');
        assert.deepEqual(forDan.organizations.map((o) => o.id), [org.id]);
        // dan is not a member: he may learn the organization, not act in it
        assert.equal(forDan.organizations[0].permissions.view, false);
        assert.equal(forDan.organizations[0].permissions.admin, false);
        const forAlice = await ok(alice.api.emailDomains.getOrganizationsForEmailDomain(upper), 'getOrganizationsForEmailDomain');
        assert.equal(forAlice.organizations[0].permissions.admin, true);
    });

    it('PATCH hostname: format, length, uniqueness', async () => {
        const host = `h${ctx.run}`;
        await patch({ hostname: host }, (o, w) => assert.equal(o.hostname, host, w));
        await expectError(alice.api.orgs.updateOrganizationById(org2.id, { hostname: host }), 409, 'taken hostname');
        const other = await ok(alice.api.orgs.getOrganizationById(org2.id), 'getOrganizationById');
        assert.notEqual(other.hostname, host);
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { hostname: 'ab' }), 400, '2 chars');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { hostname: 'a'.repeat(33) }), 400, '33 chars');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { hostname: 'Bad_Host' }), 400, 'invalid characters');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { hostname: 'with space' }), 400, 'space');
        const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { hostname: 7 }), 400, 'number');
        assert.match(e.error.message, /hostname/);
        // setting the same hostname again on the same org is no conflict
        await patch({ hostname: host }, (o, w) => assert.equal(o.hostname, host, w));
        // 32 characters is allowed
        const long = `${ctx.run}${'z'.repeat(32 - ctx.run.length)}`;
        await patch({ hostname: long }, (o, w) => assert.equal(o.hostname, long, w));
        // the old hostname is free again
        await ok(alice.api.orgs.updateOrganizationById(org2.id, { hostname: host }), 'updateOrganizationById');
        const o2 = await ok(alice.api.orgs.getOrganizationById(org2.id), 'getOrganizationById');
        assert.equal(o2.hostname, host);
    });

    it('concurrent PATCHes of one hostname: exactly one wins', async () => {
        const orgs = [];
        for (let i = 0; i < 4; i++) orgs.push((await createOrg(ctx.url, alice.token, `Race ${i} ${ctx.run}`)).org);
        for (let round = 0; round < 3; round++) {
            const host = `race${round}-${ctx.run}`;
            const results = await Promise.all(
                orgs.map((o) => raw(ctx.url, 'PATCH', `/v1/orgs/${o.id}`, { token: alice.token, json: { hostname: host } })),
            );
            const statuses = results.map((r) => r.status).sort();
            assert.deepEqual(statuses, [200, 409, 409, 409], `round ${round}: ${results.map((r) => r.text.slice(0, 80)).join(' | ')}`);
            let owners = 0;
            for (const o of orgs) {
                const got = await ok(alice.api.orgs.getOrganizationById(o.id), 'getOrganizationById');
                if (got.hostname === host) owners++;
            }
            assert.equal(owners, 1, 'one organization holds the hostname');
        }
    });

    it('PATCH defaultRole', async () => {
        await patch({ defaultRole: 'edit' }, (o, w) => assert.equal(o.defaultRole, 'edit', w));
        await patch({ defaultRole: null }, (o, w) => assert.equal(o.defaultRole ?? null, null, w));
        await patch({ defaultRole: 'read' }, (o, w) => assert.equal(o.defaultRole, 'read', w));
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: 'superuser' }), 400, 'invalid role');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: 'guest' }), 400, 'guest is null, not a string');
        const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: 3 }), 400, 'number');
        assert.match(e.error.message, /defaultRole/);
        const got = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(got.defaultRole, 'read');
    });

    it('PATCH defaultContent: unknown site is 400; null clears', async () => {
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultContent: { type: 'site', site: 'nosuchsite0000000000' } }), 400, 'unknown site');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultContent: { type: 'space', space: 'x' } }), 400, 'wrong type');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultContent: 'site' }), 400, 'string');
        await patch({ defaultContent: null }, (o, w) => assert.equal(o.defaultContent, undefined, w));
    });

    it('PATCH defaultContent: a site of the organization is kept; another organization\'s is 400', async () => {
        const site = await ok(alice.api.orgs.createSite(org.id, { title: 'Default docs' }), 'createSite', 201);
        await patch({ defaultContent: { type: 'site', site: site.id } }, (o, w) =>
            assert.deepEqual(o.defaultContent, { type: 'site', site: site.id }, w));
        const { org: other } = await createOrg(ctx.url, alice.token, `Other ${ctx.run}`);
        const foreign = await ok(alice.api.orgs.createSite(other.id, { title: 'Foreign docs' }), 'createSite', 201);
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { defaultContent: { type: 'site', site: foreign.id } }), 400, 'site of another org');
        await patch({ defaultContent: null }, (o, w) => assert.equal(o.defaultContent, undefined, w));
    });

    it('PATCH logo', async () => {
        const logo = 'https://example.com/logo.png';
        await patch({ logo }, (o, w) => assert.equal(o.urls.logo, logo, w));
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { logo: 'not a url' }), 400, 'invalid URL');
        const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { logo: 5 }), 400, 'number');
        assert.match(e.error.message, /logo/);
        await patch({ logo: null }, (o, w) => assert.equal(o.urls.logo, undefined, w));
    });

    for (const field of ['sso', 'ai', 'inviteLinks']) {
        it(`PATCH ${field}`, async () => {
            await patch({ [field]: true }, (o, w) => assert.equal(o[field], true, w));
            await patch({ [field]: false }, (o, w) => assert.equal(o[field] ?? false, false, w));
            const e = await expectError(alice.api.orgs.updateOrganizationById(org.id, { [field]: 'yes' }), 400, 'string');
            assert.ok(e.error.message.includes(field), `message should name ${field}: ${e.error.message}`);
            await expectError(alice.api.orgs.updateOrganizationById(org.id, { [field]: 1 }), 400, 'number');
            await patch({ [field]: true }, (o, w) => assert.equal(o[field], true, w));
        });
    }

    it('PATCH several fields at once; a bad field changes nothing', async () => {
        const before = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        await expectError(alice.api.orgs.updateOrganizationById(org.id, { title: `Atomic ${ctx.run}`, ai: 'no' }), 400, 'one bad field');
        const mid = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(mid.title, before.title, 'title must not change when another field is invalid');
        const title = `Multi ${ctx.run}`;
        await patch({ title, ai: false, inviteLinks: false, defaultRole: 'comment' }, (o, w) => {
            assert.equal(o.title, title, w);
            assert.equal(o.ai ?? false, false, w);
            assert.equal(o.inviteLinks, false, w);
            assert.equal(o.defaultRole, 'comment', w);
            assert.equal(o.sso, true, w); // untouched
        });
    });

    it('PATCH with an empty object changes nothing', async () => {
        const before = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        const after = await ok(alice.api.orgs.updateOrganizationById(org.id, {}), 'updateOrganizationById');
        assert.equal(after.title, before.title);
        assert.deepEqual(after.emailDomains, before.emailDomains);
        assert.equal(after.hostname, before.hostname);
    });

    it('raw GET of an organization validates and is JSON', async () => {
        const r = await rawOk(ctx.url, 'GET', `/v1/orgs/${org.id}`, { token: alice.token }, 'getOrganizationById');
        assert.match(r.headers['content-type'], /application\/json/);
        validate('getOrganizationById', 200, r.json);
    });
});

// SAML providers: create, get, list (pagination), update, delete, status pending -> active,
// service-provider URLs from --public-url, validation, access rules, the /sso login list, and
// a provider whose default team is deleted.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, rawOk, createOrg, addMember, checkPagination, sleep } from './lib/api.mjs';

// Used only when the openssl command is missing (generated once with the command below).
const FALLBACK_CERT = `-----BEGIN CERTIFICATE-----
MIIBiTCCAS+gAwIBAgIUf+scksFqMhmcEfvN3jBvRA3LRmUwCgYIKoZIzj0EAwIw
GTEXMBUGA1UEAwwOZG9jc2QtdGVzdC1pZHAwIBcNMjYxMTIyMDIzOTI0WhgPMjEy
NjEwMjkwMjM5MjRaMBkxFzAVBgNVBAMMDmRvY3NkLXRlc3QtaWRwMFkwEwYHKoZI
zj0CAQYIKoZIzj0DAQcDQgAEHXOApG2kIBtHKnRknid+3W7qHQTzwnhL6yWsuwv9
DJKuHh2F7l2r4l3OfcOZ6Jd7HHrnvRECyR5uic/MPVNECKNTMFEwHQYDVR0OBBYE
FM9fc9eJeCyU5pUYhgWL3oFZi+oHMB8GA1UdIwQYMBaAFM9fc9eJeCyU5pUYhgWL
3oFZi+oHMA8GA1UdEwEB/wQFMAMBAf8wCgYIKoZIzj0EAwIDSAAwRQIgIfKLmgw4
1h8PGUBtEa3pgtdqSAhX/IKfCZA2Pv+8ypUCIQC4Y5xklQzxL3dTAPnuxxedYu0m
ssv84zIiussM7wy6fw==
-----END CERTIFICATE-----
`;

/** A fresh self-signed certificate in PEM form. */
function selfSigned() {
    try {
        return execFileSync(
            'openssl',
            ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=idp', '-days', '2', '-keyout', '/dev/null'],
            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 },
        );
    } catch (e) {
        if (e.code === 'ENOENT') return FALLBACK_CERT;
        throw e;
    }
}

describe('saml', () => {
    let ctx, alice, bob, gina, carol;
    let org, otherOrg, team, otherTeam, cert;
    let pending, full; // providers

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        gina = await ctx.user('gina');
        carol = await ctx.user('carol');
        ({ org } = await createOrg(ctx.url, alice.token, `SAML ${ctx.run}`));
        ({ org: otherOrg } = await createOrg(ctx.url, alice.token, `SAML other ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'create');
        await addMember(alice.api, org.id, gina.email, null);
        team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'SSO Users' }), 'createOrganizationTeam', 201);
        otherTeam = await ok(alice.api.orgs.createOrganizationTeam(otherOrg.id, { title: 'Elsewhere' }), 'createOrganizationTeam', 201);
        cert = selfSigned();
        assert.match(cert, /-----BEGIN CERTIFICATE-----/);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const get = (id) => ok(alice.api.orgs.getOrganizationSamlProviderById(org.id, id), 'getOrganizationSAMLProviderById');
    // Lists are oldest first and items of the same millisecond are ordered by id: a short
    // pause keeps the creation order the order the assertions expect.
    const create = async (body) => {
        const p = await ok(alice.api.orgs.createOrganizationSamlProvider(org.id, body), 'createOrganizationSAMLProvider', 201);
        await sleep(2);
        return p;
    };
    const update = (id, body) => ok(alice.api.orgs.updateOrganizationSamlProvider(org.id, id, body), 'updateOrganizationSAMLProvider');
    const listIds = async () =>
        (await ok(alice.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 1000 }), 'listSAMLProvidersInOrganizationById')).items.map(
            (p) => p.id,
        );

    function checkService(p, base) {
        assert.deepEqual(p.service, {
            acsURL: `${base}/sso/saml/${p.id}/acs`,
            startURL: `${base}/sso/saml/${p.id}/start`,
            entityID: `${base}/sso/saml/${p.id}/metadata`,
        });
        assert.equal(p.urls.location, `${base}/v1/orgs/${org.id}/saml/${p.id}`);
    }

    it('POST /saml with only a label creates a pending provider', async () => {
        const r = await rawOk(ctx.url, 'POST', `/v1/orgs/${org.id}/saml`, { token: alice.token, json: { label: 'Okta' } }, 'createOrganizationSAMLProvider', 201);
        pending = r.json;
        assert.equal(r.headers.location, `${ctx.url}/v1/orgs/${org.id}/saml/${pending.id}`);
        assert.equal(pending.object, 'saml-provider');
        assert.match(pending.id, /^[A-Za-z0-9]{20}$/);
        assert.equal(pending.label, 'Okta');
        assert.equal(pending.status, 'pending');
        assert.equal(pending.ssoURL, 'about:blank');
        assert.equal(pending.entityID, '');
        assert.equal(pending.certificate, '');
        assert.equal(pending.defaultRole, 'read', 'without defaultRole: the organization\'s defaultRole');
        assert.equal(pending.defaultTeam, undefined);
        assert.ok(Math.abs(Date.parse(pending.createdAt) - Date.now()) < 5 * 60_000);
        checkService(pending, ctx.url);

        const got = await get(pending.id);
        assert.deepEqual(got, pending);
    });

    it('POST /saml with every field creates an active provider', async () => {
        full = await create({
            label: 'Azure AD',
            entityID: 'https://sts.windows.net/tenant/',
            certificate: cert,
            ssoURL: 'https://login.microsoftonline.com/tenant/saml2',
            defaultTeam: team.id,
            defaultRole: 'edit',
        });
        assert.equal(full.status, 'active');
        assert.equal(full.label, 'Azure AD');
        assert.equal(full.entityID, 'https://sts.windows.net/tenant/');
        assert.equal(full.certificate, cert);
        assert.equal(full.ssoURL, 'https://login.microsoftonline.com/tenant/saml2');
        assert.equal(full.defaultRole, 'edit');
        assert.equal(full.defaultTeam.object, 'team');
        assert.equal(full.defaultTeam.id, team.id);
        assert.equal(full.defaultTeam.title, 'SSO Users');
        checkService(full, ctx.url);
        assert.deepEqual(await get(full.id), full);

        // defaultRole null is a guest
        const plain = await create({ label: 'Local IdP', ssoURL: 'https://idp.internal:8443/sso', defaultRole: null });
        assert.equal(plain.ssoURL, 'https://idp.internal:8443/sso');
        assert.equal(plain.defaultRole, null);
        assert.equal(plain.status, 'pending');
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, plain.id), 205, 'delete');
    });

    it('PATCH changes only the fields sent; status follows ssoURL, entityID and certificate', async () => {
        // a pending provider sent back as read (ssoURL about:blank, "" strings) stays as it was
        const echo = await update(pending.id, { label: pending.label, ssoURL: pending.ssoURL, entityID: pending.entityID, certificate: pending.certificate });
        assert.deepEqual(echo, pending);
        let p = await update(pending.id, { ssoURL: 'https://okta.example.com/app/sso/saml' });
        assert.equal(p.status, 'pending');
        assert.equal(p.label, 'Okta');
        p = await update(pending.id, { entityID: 'http://www.okta.com/exk1' });
        assert.equal(p.status, 'pending');
        p = await update(pending.id, { certificate: cert });
        assert.equal(p.status, 'active');
        assert.equal(p.ssoURL, 'https://okta.example.com/app/sso/saml');
        assert.equal(p.entityID, 'http://www.okta.com/exk1');
        assert.equal(p.certificate, cert);
        assert.equal(p.defaultRole, 'read');
        assert.deepEqual(await get(pending.id), p);

        p = await update(pending.id, { label: 'Okta SSO', defaultRole: 'comment', defaultTeam: team.id });
        assert.equal(p.label, 'Okta SSO');
        assert.equal(p.defaultRole, 'comment');
        assert.equal(p.defaultTeam.id, team.id);
        assert.equal(p.status, 'active');
        assert.equal(p.createdAt, pending.createdAt);
        checkService(p, ctx.url);

        // an empty body changes nothing
        assert.deepEqual(await update(pending.id, {}), p);
        // sending back what GET returned changes nothing either
        const { label, ssoURL, entityID, certificate, defaultRole } = p;
        assert.deepEqual(await update(pending.id, { label, ssoURL, entityID, certificate, defaultRole, defaultTeam: p.defaultTeam.id }), p);

        // "" or null unsets: back to pending
        p = await update(pending.id, { certificate: '' });
        assert.equal(p.status, 'pending');
        assert.equal(p.certificate, '');
        p = await update(pending.id, { certificate: cert, ssoURL: null });
        assert.equal(p.status, 'pending');
        assert.equal(p.ssoURL, 'about:blank');
        p = await update(pending.id, { ssoURL: 'https://okta.example.com/app/sso/saml', defaultRole: null, defaultTeam: null });
        assert.equal(p.status, 'active');
        assert.equal(p.defaultRole, null);
        assert.equal(p.defaultTeam, undefined);
        assert.deepEqual(await get(pending.id), p);
        pending = p;
    });

    it('validates every field on create and on update', async () => {
        const before = await listIds();
        const bad = async (body, field, what) => {
            const e = await expectError(alice.api.orgs.createOrganizationSamlProvider(org.id, body), 400, `create: ${what}`);
            assert.match(e.error.message, new RegExp(field), `create: ${what}: the message names ${field}`);
            if (body.label === undefined) return;
            const u = await expectError(alice.api.orgs.updateOrganizationSamlProvider(org.id, full.id, body), 400, `update: ${what}`);
            assert.match(u.error.message, new RegExp(field), `update: ${what}: the message names ${field}`);
        };
        await bad({}, 'label', 'missing label');
        await bad({ entityID: 'x' }, 'label', 'missing label with other fields');
        await bad({ label: '' }, 'label', 'empty label');
        await bad({ label: 'L'.repeat(31) }, 'label', 'label of 31 chars');
        await bad({ label: 30 }, 'label', 'numeric label');
        await bad({ label: null }, 'label', 'null label');
        await bad({ label: 'ok', entityID: 'e'.repeat(1025) }, 'entityID', 'entityID of 1025 chars');
        await bad({ label: 'ok', entityID: 7 }, 'entityID', 'numeric entityID');
        await bad({ label: 'ok', certificate: 'not a certificate' }, 'certificate', 'garbage certificate');
        const base64Only = cert.replace(/-----[A-Z ]+-----/g, '').trim();
        await bad({ label: 'ok', certificate: base64Only }, 'certificate', 'base64 without PEM armour');
        await bad({ label: 'ok', certificate: '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n' }, 'certificate', 'broken PEM');
        await bad({ label: 'ok', certificate: cert.replace(/CERTIFICATE/g, 'PUBLIC KEY') }, 'certificate', 'PEM of another type');
        const mangled = cert.replace(/\n([A-Za-z0-9+/]{8})/, '\n!!!!!!!!');
        await bad({ label: 'ok', certificate: mangled }, 'certificate', 'corrupted base64');
        await bad({ label: 'ok', certificate: cert + '\n'.repeat(10001 - cert.length) }, 'certificate', 'certificate over 10000 chars');
        await bad({ label: 'ok', ssoURL: 'ftp://idp.example.com/sso' }, 'ssoURL', 'ftp URL');
        // issue 30: the browser is sent there; https only, no credentials, no fragment, no script
        await bad({ label: 'ok', ssoURL: 'javascript:alert(1)' }, 'ssoURL', 'javascript: URL');
        await bad({ label: 'ok', ssoURL: 'http://user:pw@idp.example.com/sso' }, 'ssoURL', 'credentials in the URL');
        await bad({ label: 'ok', ssoURL: 'https://user:pw@idp.example.com/sso' }, 'ssoURL', 'credentials in an https URL');
        await bad({ label: 'ok', ssoURL: 'http://idp.example.com/sso' }, 'ssoURL', 'plain http');
        await bad({ label: 'ok', ssoURL: 'http://127.0.0.1:8080/sso' }, 'ssoURL', 'http on loopback without --allow-private-network');
        await bad({ label: 'ok', ssoURL: 'https://idp.example.com/sso#x' }, 'ssoURL', 'a fragment');
        await bad({ label: 'ok', ssoURL: 'idp.example.com/sso' }, 'ssoURL', 'relative URL');
        await bad({ label: 'ok', ssoURL: 'https://' }, 'ssoURL', 'URL without host');
        await bad({ label: 'ok', ssoURL: 'https://idp.example.com/a b' }, 'ssoURL', 'URL with a space');
        await bad({ label: 'ok', ssoURL: `https://idp.example.com/${'p'.repeat(2040)}` }, 'ssoURL', 'URL over 2048 chars');
        await bad({ label: 'ok', defaultTeam: 'nosuchteam0000000000' }, 'defaultTeam', 'unknown team');
        await bad({ label: 'ok', defaultTeam: otherTeam.id }, 'defaultTeam', 'team of another organization');
        await bad({ label: 'ok', defaultTeam: 12 }, 'defaultTeam', 'numeric team');
        await bad({ label: 'ok', defaultRole: 'owner' }, 'defaultRole', 'unknown role');
        await bad({ label: 'ok', defaultRole: 'guest' }, 'defaultRole', '"guest" is spelled null');
        await bad({ label: 'ok', defaultRole: 1 }, 'defaultRole', 'numeric role');
        // PATCH: label may be absent but not invalid
        for (const [body, field] of [
            [{ label: '' }, 'label'],
            [{ label: 'L'.repeat(31) }, 'label'],
            [{ certificate: 'nope' }, 'certificate'],
            [{ ssoURL: 'mailto:a@b.c' }, 'ssoURL'],
            [{ defaultTeam: otherTeam.id }, 'defaultTeam'],
            [{ defaultRole: 'superuser' }, 'defaultRole'],
        ]) {
            const e = await expectError(alice.api.orgs.updateOrganizationSamlProvider(org.id, full.id, body), 400, `update ${JSON.stringify(body)}`);
            assert.match(e.error.message, new RegExp(field));
        }
        const e = await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/saml`, { token: alice.token, body: 'not json', headers: { 'Content-Type': 'application/json' } }), 400, 'not JSON');
        assert.ok(e.error.message);
        await expectError(raw(ctx.url, 'POST', `/v1/orgs/${org.id}/saml`, { token: alice.token, json: ['label'] }), 400, 'array body');

        assert.deepEqual(await listIds(), before, 'no provider created by failed requests');
        assert.deepEqual(await get(full.id), full, 'no change made by failed updates');

        // the limits themselves are accepted
        const edge = await create({ label: 'L'.repeat(30), entityID: 'e'.repeat(1024), certificate: cert + ' '.repeat(10000 - cert.length) });
        assert.equal(edge.label.length, 30);
        assert.equal(edge.entityID.length, 1024);
        assert.equal(edge.certificate.length, 10000);
        assert.equal(edge.status, 'pending');
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, edge.id), 205, 'delete');
    });

    it('only admins manage providers; non-members are told nothing', async () => {
        for (const [who, api] of [
            ['create member', bob.api],
            ['guest', gina.api],
        ]) {
            await expectError(api.orgs.listSamlProvidersInOrganizationById(org.id), 403, `${who} lists`);
            await expectError(api.orgs.createOrganizationSamlProvider(org.id, { label: 'Mine' }), 403, `${who} creates`);
            await expectError(api.orgs.getOrganizationSamlProviderById(org.id, full.id), 403, `${who} gets`);
            await expectError(api.orgs.updateOrganizationSamlProvider(org.id, full.id, { label: 'Mine' }), 403, `${who} updates`);
            await expectError(api.orgs.deleteOrganizationSamlProvider(org.id, full.id), 403, `${who} deletes`);
        }
        await expectError(carol.api.orgs.listSamlProvidersInOrganizationById(org.id), 404, 'non-member lists');
        await expectError(carol.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Mine' }), 404, 'non-member creates');
        await expectError(carol.api.orgs.getOrganizationSamlProviderById(org.id, full.id), 404, 'non-member gets');
        await expectError(carol.api.orgs.updateOrganizationSamlProvider(org.id, full.id, { label: 'Mine' }), 404, 'non-member updates');
        await expectError(carol.api.orgs.deleteOrganizationSamlProvider(org.id, full.id), 404, 'non-member deletes');
        await expectError(carol.api.orgs.listSsoProviderLoginsInOrganization(org.id), 404, 'non-member lists logins');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/saml`), 401, 'no token');
        await expectError(raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sso`), 401, 'no token for /sso');
        assert.deepEqual(await get(full.id), full);
        assert.deepEqual(await listIds(), [pending.id, full.id]);
    });

    it('a provider is reachable only through its own organization', async () => {
        await expectError(alice.api.orgs.getOrganizationSamlProviderById(otherOrg.id, full.id), 404, 'get under the wrong org');
        await expectError(alice.api.orgs.updateOrganizationSamlProvider(otherOrg.id, full.id, { label: 'Moved' }), 404, 'patch under the wrong org');
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(otherOrg.id, full.id), 204, 'delete under the wrong org');
        const other = await ok(alice.api.orgs.listSamlProvidersInOrganizationById(otherOrg.id), 'listSAMLProvidersInOrganizationById');
        assert.deepEqual(other.items, []);
        assert.deepEqual(await get(full.id), full);
        await expectError(alice.api.orgs.getOrganizationSamlProviderById(org.id, 'nosuchprovider000000'), 404, 'unknown provider');
        const e = await expectError(alice.api.orgs.updateOrganizationSamlProvider(org.id, 'nosuchprovider000000', { label: 'x' }), 404, 'patch unknown');
        assert.ok(e.error.message);
    });

    it('GET /sso lists every provider to any member, guests included', async () => {
        const expected = [pending, full].map((p) => ({ id: p.id, label: p.label, startURL: `${ctx.url}/sso/saml/${p.id}/start` }));
        for (const [who, api] of [
            ['admin', alice.api],
            ['create member', bob.api],
            ['guest', gina.api],
        ]) {
            const res = await ok(api.orgs.listSsoProviderLoginsInOrganization(org.id), 'listSSOProviderLoginsInOrganization');
            assert.deepEqual(res, { items: expected }, `${who}: {items} oldest first, no pagination envelope`);
        }
        const none = await ok(alice.api.orgs.listSsoProviderLoginsInOrganization(otherOrg.id), 'listSSOProviderLoginsInOrganization');
        assert.deepEqual(none, { items: [] });
    });

    it('lists providers oldest first and paginates', async () => {
        const extra = [];
        for (let i = 0; i < 3; i++) extra.push(await create({ label: `Page ${i}` }));
        const all = await checkPagination((q) => alice.api.orgs.listSamlProvidersInOrganizationById(org.id, q), 'listSAMLProvidersInOrganizationById');
        assert.deepEqual(
            all.map((p) => p.id),
            [pending.id, full.id, ...extra.map((p) => p.id)],
        );
        assert.deepEqual(all[1], full, 'list items are the same objects GET returns');
        // keyset cursors survive the deletion of the item they point at
        const first = await ok(alice.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 3 }), 'listSAMLProvidersInOrganizationById');
        assert.equal(first.items.length, 3);
        assert.ok(first.next);
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, first.items[2].id), 205, 'delete the cursor item');
        const rest = await ok(
            alice.api.orgs.listSamlProvidersInOrganizationById(org.id, { limit: 10, page: first.next.page }),
            'listSAMLProvidersInOrganizationById',
        );
        assert.deepEqual(rest.items.map((p) => p.id), [extra[1].id, extra[2].id]);
        const logins = await ok(alice.api.orgs.listSsoProviderLoginsInOrganization(org.id), 'listSSOProviderLoginsInOrganization');
        assert.deepEqual(logins.items.map((p) => p.id), [pending.id, full.id, extra[1].id, extra[2].id]);
        for (const p of extra.slice(1)) await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, p.id), 205, 'delete');
        const p = `/v1/orgs/${org.id}/saml`;
        await expectError(raw(ctx.url, 'GET', `${p}?limit=1001`, { token: alice.token }), 400, 'limit=1001');
        await expectError(raw(ctx.url, 'GET', `${p}?limit=0`, { token: alice.token }), 400, 'limit=0');
        await expectError(raw(ctx.url, 'GET', `${p}?page=not-a-cursor`, { token: alice.token }), 400, 'bad cursor');
        assert.deepEqual(await listIds(), [pending.id, full.id]);
    });

    it('deleting the default team leaves the provider without one', async () => {
        const t = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Short-lived' }), 'createOrganizationTeam', 201);
        const p = await update(full.id, { defaultTeam: t.id });
        assert.equal(p.defaultTeam.id, t.id);
        assert.equal(p.defaultTeam.title, 'Short-lived');
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, t.id), 204, 'delete the team');
        const after = await get(full.id);
        assert.equal(after.defaultTeam, undefined);
        assert.equal(after.status, 'active');
        assert.equal(after.defaultRole, 'edit');
        const listed = await ok(alice.api.orgs.listSamlProvidersInOrganizationById(org.id), 'listSAMLProvidersInOrganizationById');
        assert.equal(listed.items.find((x) => x.id === full.id).defaultTeam, undefined);
        // and a later PATCH of other fields works
        const renamed = await update(full.id, { label: 'Azure' });
        assert.equal(renamed.label, 'Azure');
        assert.equal(renamed.defaultTeam, undefined);
        full = renamed;
    });

    it('DELETE: 205, then 204; the provider is gone', async () => {
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, full.id), 205, 'delete');
        await expectError(alice.api.orgs.getOrganizationSamlProviderById(org.id, full.id), 404, 'get deleted');
        await expectError(alice.api.orgs.updateOrganizationSamlProvider(org.id, full.id, { label: 'Back' }), 404, 'patch deleted');
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, full.id), 204, 'delete again');
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, 'nosuchprovider000000'), 204, 'delete unknown');
        assert.deepEqual(await listIds(), [pending.id]);
        const logins = await ok(gina.api.orgs.listSsoProviderLoginsInOrganization(org.id), 'listSSOProviderLoginsInOrganization');
        assert.deepEqual(logins.items.map((p) => p.id), [pending.id]);
        // the team the providers pointed at is untouched
        const t = await ok(alice.api.orgs.getTeamInOrganizationById(org.id, team.id), 'getTeamInOrganizationById');
        assert.equal(t.title, 'SSO Users');
    });

    it('a provider created without defaultRole takes the organization\'s; null stays a guest', async () => {
        const setDefault = (role) => ok(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: role }), 'updateOrganizationById');
        try {
            await setDefault('edit');
            const a = await create({ label: 'Default edit' });
            assert.equal(a.defaultRole, 'edit');
            const b = await create({ label: 'Explicit guest', defaultRole: null });
            assert.equal(b.defaultRole, null, 'an explicit null is a guest, not the default');
            const c = await create({ label: 'Explicit review', defaultRole: 'review' });
            assert.equal(c.defaultRole, 'review');
            await setDefault(null);
            const d = await create({ label: 'Default guest' });
            assert.equal(d.defaultRole, null);
            // a later change of the organization's default does not rewrite providers
            assert.equal((await get(a.id)).defaultRole, 'edit');
            for (const p of [a, b, c, d]) await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, p.id), 205, 'delete');
        } finally {
            await setDefault('read');
        }
    });

    it('service-provider URLs follow --public-url', async () => {
        const base = 'https://docs.example.test/prefix';
        const other = await setup({ extraArgs: ['--public-url', `${base}/`] });
        try {
            const admin = await other.user('admin');
            const { org: o } = await createOrg(other.url, admin.token, `Public URL ${other.run}`);
            const p = await ok(admin.api.orgs.createOrganizationSamlProvider(o.id, { label: 'IdP' }), 'createOrganizationSAMLProvider', 201);
            assert.equal(p.service.acsURL, `${base}/sso/saml/${p.id}/acs`);
            assert.equal(p.service.startURL, `${base}/sso/saml/${p.id}/start`);
            assert.equal(p.service.entityID, `${base}/sso/saml/${p.id}/metadata`);
            assert.equal(p.urls.location, `${base}/v1/orgs/${o.id}/saml/${p.id}`);
            const logins = await ok(admin.api.orgs.listSsoProviderLoginsInOrganization(o.id), 'listSSOProviderLoginsInOrganization');
            assert.deepEqual(logins.items, [{ id: p.id, label: 'IdP', startURL: `${base}/sso/saml/${p.id}/start` }]);
        } finally {
            await other.server.stop();
        }
    });
});

// SAML sign-in through the web interface (issue 25): docsd as a service provider against an
// identity provider this test plays itself (an RSA key and self-signed certificate from
// openssl, responses signed with the xmlsec1 command, Debian's package xmlsec1). The start URL's
// AuthnRequest, a valid response signing in (session cookie, then a page that needs a session),
// and each refusal: unsigned, tampered, another certificate, audience, recipient, time window,
// replay, unknown InResponseTo, signature wrapping, another email domain. Joining with the
// provider's default role and team; an existing member signing in.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { setup, uniq } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { NS, IDP, SSO_URL, xid, responseXml, keyPair, signXml } from './lib/saml-idp.mjs';


describe('app-saml', () => {
    let ctx, alice, bob, dir, key, cert, otherKey, org, team, provider, acs, audience;
    const outsider = `eve-${uniq(6)}@elsewhere-${uniq(6)}.example.org`;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        dir = mkdtempSync(join(tmpdir(), 'docsd-saml-'));
        const idp = keyPair(dir, 'idp');
        key = idp.key;
        cert = idp.cert;
        otherKey = keyPair(dir, 'other').key;
        ({ org } = await createOrg(ctx.url, alice.token, `SAML app ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [ctx.domain] }), 'updateOrganizationById');
        team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'From SSO' }), 'createOrganizationTeam', 201);
        provider = await ok(
            alice.api.orgs.createOrganizationSamlProvider(org.id, {
                label: 'Test IdP',
                entityID: IDP,
                ssoURL: SSO_URL,
                certificate: cert,
                defaultTeam: team.id,
                defaultRole: 'edit',
            }),
            'createOrganizationSAMLProvider',
            201,
        );
        assert.equal(provider.status, 'active');
        acs = provider.service.acsURL;
        audience = provider.service.entityID;
    });
    after(async () => {
        if (dir) rmSync(dir, { recursive: true, force: true });
        if (ctx) await ctx.server.stop();
    });

    /** GET the start URL: the AuthnRequest's ID (asserting its shape). */
    async function start(next) {
        const r = await raw(ctx.url, 'GET', new URL(provider.service.startURL).pathname + (next ? `?next=${encodeURIComponent(next)}` : ''));
        assert.equal(r.status, 302, r.text);
        const loc = new URL(r.headers.location);
        assert.equal(`${loc.origin}${loc.pathname}`, SSO_URL);
        if (next) assert.equal(loc.searchParams.get('RelayState'), next);
        const xml = inflateRawSync(Buffer.from(loc.searchParams.get('SAMLRequest'), 'base64')).toString('utf8');
        assert.match(xml, /^<samlp:AuthnRequest /);
        assert.ok(xml.includes(`AssertionConsumerServiceURL="${acs}"`), xml);
        assert.ok(xml.includes(`<saml:Issuer>${audience}</saml:Issuer>`), xml);
        assert.ok(xml.includes(`Destination="${SSO_URL}"`), xml);
        return /ID="([^"]+)"/.exec(xml)[1];
    }

    const sign = (xml, { keyFile = key, what = 'assertion' } = {}) => signXml(dir, keyFile, xml, what);

    async function post(xml) {
        const body = new URLSearchParams({ SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: '/' }).toString();
        return raw(ctx.url, 'POST', new URL(acs).pathname, {
            body,
            headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: 'https://idp.test.invalid' },
        });
    }

    /** A refusal: a 4xx HTML page naming the reason, no internals, no cookie. */
    function refused(r, status, re) {
        assert.equal(r.status, status, r.text);
        assert.match(r.headers['content-type'], /^text\/html/);
        assert.equal(r.headers['set-cookie'], undefined);
        assert.match(r.text, re);
        assert.doesNotMatch(r.text, /xmlsec|libxml|\/work\/|\.c:\d/i);
    }

    async function valid(o = {}) {
        const id = await start();
        return { id, xml: sign(responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience, sign: 'assertion', ...o }), o) };
    }

    it('a valid response signs an existing member in; the session opens a page that needs one', async () => {
        const id = await start('/o/' + org.id);
        const r = await post(sign(responseXml({ email: bob.email.toUpperCase(), inResponseTo: id, recipient: acs, audience, sign: 'assertion' })));
        assert.equal(r.status, 303, r.text);
        assert.equal(r.headers.location, '/o/' + org.id);
        const c = r.headers['set-cookie'];
        assert.ok(c && c.length === 1, 'one cookie');
        assert.match(c[0], /^docsd_session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
        const cookie = c[0].split(';')[0];
        // Without the cookie the home page does not know bob; with it, it names him.
        const anon = await raw(ctx.url, 'GET', '/', { headers: { Accept: 'text/html' } });
        assert.ok(!anon.text.includes(bob.name), 'not signed in without the cookie');
        const home = await raw(ctx.url, 'GET', '/', { headers: { Cookie: cookie, Accept: 'text/html' } });
        assert.equal(home.status, 200, home.text);
        assert.ok(home.text.includes(bob.name), 'the signed-in user is named');
    });

    it('a response signed on the Response element is accepted too', async () => {
        const id = await start();
        const r = await post(sign(responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience, sign: 'response' }), { what: 'response' }));
        assert.equal(r.status, 303, r.text);
        assert.equal(r.headers.location, '/');
    });

    it('the same response again is refused (request used), and so is the same assertion for a new request', async () => {
        const assertionId = xid();
        const { xml } = await valid({ assertionId });
        assert.equal((await post(xml)).status, 303);
        refused(await post(xml), 403, /answers no sign-in docsd started/);
        const id2 = await start();
        const again = sign(responseXml({ email: bob.email, inResponseTo: id2, recipient: acs, audience, sign: 'assertion', assertionId }));
        refused(await post(again), 403, /used already/);
    });

    it('an unknown InResponseTo is refused, and none at all', async () => {
        refused(await post(sign(responseXml({ email: bob.email, inResponseTo: xid(), recipient: acs, audience, sign: 'assertion' }))), 403, /answers no sign-in/);
        const noIrt = sign(responseXml({ email: bob.email, inResponseTo: 'X', recipient: acs, audience, sign: 'assertion' }).replaceAll(' InResponseTo="X"', ''));
        refused(await post(noIrt), 403, /InResponseTo/);
    });

    it('unsigned, tampered and other-certificate responses are refused', async () => {
        const id = await start();
        refused(await post(responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience })), 403, /not signed/);
        const { xml } = await valid();
        refused(await post(xml.replace(bob.email, alice.email)), 403, /signature .* not valid/);
        const other = await valid({ keyFile: otherKey });
        refused(await post(other.xml), 403, /signature .* not valid/);
        // The request of a refused response is still usable once (a refusal writes nothing)...
        const { xml: good, id: gid } = other;
        const fixed = sign(responseXml({ email: bob.email, inResponseTo: gid, recipient: acs, audience, sign: 'assertion' }));
        assert.equal((await post(fixed)).status, 303);
        void good;
    });

    it('wrong audience, wrong recipient, another destination, expired and not yet valid are refused', async () => {
        refused(await post((await valid({ audience: 'https://other-sp.example/metadata' })).xml), 403, /another audience/);
        refused(await post((await valid({ recipient: acs.replace('/acs', '/other'), destination: acs })).xml), 403, /Recipient/);
        refused(await post((await valid({ destination: 'https://elsewhere.example/acs' })).xml), 403, /Destination/);
        const now = Date.now();
        refused(await post((await valid({ notBefore: now - 3_600_000, notOnOrAfter: now - 600_000 })).xml), 403, /expired/);
        refused(await post((await valid({ notBefore: now + 600_000, notOnOrAfter: now + 3_600_000 })).xml), 403, /not valid yet/);
        refused(await post((await valid({ issuer: 'https://someone-else.example' })).xml), 403, /Issuer/);
    });

    it('signature wrapping: a second, unsigned assertion is refused', async () => {
        const { xml } = await valid();
        // The signed assertion stays intact; an attacker's assertion naming the admin goes first.
        const evil = xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)[0]
            .replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '')
            .replace(/ID="[^"]+"/, `ID="${xid()}"`)
            .replaceAll(bob.email, alice.email);
        const wrapped = xml.replace('<saml:Assertion', evil + '<saml:Assertion');
        refused(await post(wrapped), 403, /exactly one assertion/);
        // The signed assertion moved into Extensions and a forged one in its place, same ID.
        const signed = xml.match(/<saml:Assertion[\s\S]*<\/saml:Assertion>/)[0];
        const forged = signed.replace(/<ds:Signature[\s\S]*<\/ds:Signature>/, '').replaceAll(bob.email, alice.email);
        const moved = xml.replace(signed, forged).replace('<samlp:Status>', `<samlp:Extensions>${signed}</samlp:Extensions><samlp:Status>`);
        refused(await post(moved), 403, /exactly one assertion|not signed|ID of its/);
    });

    it('duplicate or shadowed IDs are refused', async () => {
        // The Response and the Assertion share one ID: a reference to it would be ambiguous.
        const id = await start();
        const aid = xid();
        const same = responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience, sign: 'assertion', assertionId: aid }).replace(
            /(<samlp:Response [^>]*?)ID="[^"]+"/,
            `$1ID="${aid}"`,
        );
        refused(await post(sign(same)), 403, /ID of its/);
        // An xml:id elsewhere holding the signed assertion's ID.
        const { xml } = await valid();
        const asId = /<saml:Assertion ID="([^"]+)"/.exec(xml)[1];
        const shadow = xml.replace('<samlp:Status>', `<samlp:Extensions><x xmlns="urn:x" xml:id="${asId}"/></samlp:Extensions><samlp:Status>`);
        refused(await post(shadow), 403, /ID of its/);
    });

    it('next: only a path of docsd is kept; a pending provider has no start URL', async () => {
        const r = await raw(ctx.url, 'GET', new URL(provider.service.startURL).pathname + '?next=' + encodeURIComponent('//evil.example/x'));
        assert.equal(r.status, 302);
        assert.equal(new URL(r.headers.location).searchParams.get('RelayState'), null);
        const pending = await ok(alice.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Pending' }), 'createOrganizationSAMLProvider', 201);
        refused(await raw(ctx.url, 'GET', new URL(pending.service.startURL).pathname), 404, /not set up yet/);
    });

    it('a new user of a verified domain joins with the default role and team; another domain is refused', async () => {
        const email = `newbie-${uniq(6)}@${ctx.domain}`;
        const { xml } = await valid({ email, displayName: 'New Bie' });
        const r = await post(xml);
        assert.equal(r.status, 303, r.text);
        assert.match(r.headers['set-cookie'][0], /^docsd_session=/);
        const members = await ok(alice.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById');
        const m = members.items.find((x) => x.user.email === email);
        assert.ok(m, 'the new user is a member');
        assert.equal(m.role, 'edit');
        assert.equal(m.sso, true);
        assert.equal(m.user.displayName, 'New Bie');
        const teams = await ok(alice.api.orgs.listTeamsForOrganizationMember(org.id, m.user.id), 'listTeamsForOrganizationMember').catch(() => null);
        if (teams) assert.ok(teams.items.some((t) => t.team.id === team.id), 'in the default team');
        refused(await post((await valid({ email: outsider })).xml), 403, /not a member of this organization/);
    });

    it('malformed posts: no SAMLResponse, not base64, not XML, a DOCTYPE', async () => {
        const p = new URL(acs).pathname;
        const form = (v) => raw(ctx.url, 'POST', p, { body: v, headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
        refused(await form('RelayState=%2F'), 400, /SAMLResponse/);
        refused(await form('SAMLResponse=%%%'), 400, /SAMLResponse/);
        refused(await form('SAMLResponse=' + encodeURIComponent(Buffer.from('not xml').toString('base64'))), 400, /not XML/);
        const dtd = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x "y">]><samlp:Response ' + NS + '/>';
        refused(await form('SAMLResponse=' + encodeURIComponent(Buffer.from(dtd).toString('base64'))), 400, /DOCTYPE/);
        refused(await raw(ctx.url, 'GET', p), 405, /HTTP-POST/);
        refused(await raw(ctx.url, 'GET', '/sso/saml/nosuchprovider/start'), 404, /not found/);
    });

    it('the SP metadata names the entity ID and the ACS URL', async () => {
        const r = await raw(ctx.url, 'GET', new URL(audience).pathname);
        assert.equal(r.status, 200);
        assert.ok(r.text.includes(`entityID="${audience}"`));
        assert.ok(r.text.includes(`Location="${acs}"`));
    });
});

describe('app-saml rate limit', () => {
    let ctx;
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('under --rate-limit, an address gets that many start and ACS requests a minute, then a 429 page', async () => {
        ctx = await setup({ rateLimit: 4 });
        const alice = await ctx.user('alice');
        const { org } = await createOrg(ctx.url, alice.token, `SAML rl ${ctx.run}`);
        const dir = mkdtempSync(join(tmpdir(), 'docsd-saml-rl-'));
        try {
            const { cert } = keyPair(dir, 'idp');
            const p = await ok(
                alice.api.orgs.createOrganizationSamlProvider(org.id, { label: 'IdP', entityID: IDP, ssoURL: SSO_URL, certificate: cert }),
                'createOrganizationSAMLProvider',
                201,
            );
            const path = new URL(p.service.startURL).pathname;
            const codes = [];
            for (let i = 0; i < 5; i++) codes.push((await raw(ctx.url, 'GET', path)).status);
            assert.deepEqual(codes, [302, 302, 302, 302, 429]);
            const r = await raw(ctx.url, 'POST', new URL(p.service.acsURL).pathname, { body: 'SAMLResponse=x', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
            assert.equal(r.status, 429);
            assert.match(r.text, /too many sign-in attempts/i);
            // The metadata is not counted.
            assert.equal((await raw(ctx.url, 'GET', new URL(p.service.entityID).pathname)).status, 200);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});

// SAML sign-in through the web interface (issues 25 and 30): docsd as a service provider against an
// identity provider this test plays itself (an RSA key and self-signed certificate from openssl,
// responses signed with the xmlsec1 command, Debian's package xmlsec1). The start URL's
// AuthnRequest and its browser-nonce cookie, a valid response signing in (session cookie, then a
// page that needs a session), and each refusal: unsigned, tampered, another certificate, audience,
// recipient, time window, replay, unknown InResponseTo, signature wrapping, another email domain,
// a browser that did not start the sign-in (login CSRF). The trust model (issue 30): a provider
// signs in only users it created or that linked it while signed in; membership (invitation, space
// grant) and unverified email domains give nothing; verifying a domain (a fixture web server on
// 127.0.0.1 serving /.well-known/docsd-domain-verification.txt) lets the provider create accounts.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { setup, uniq } from './lib/fixtures.mjs';
import { ok, raw, empty, createOrg, addMember } from './lib/api.mjs';
import { NS, IDP, SSO_URL, xid, responseXml, keyPair, signXml, http, cookieValue, setPassword, passwordSession } from './lib/saml-idp.mjs';

/** A web server standing for every email domain: GET /DOMAIN/.well-known/docsd-domain-verification.txt. */
async function domainServer() {
    const files = new Map();
    const server = createServer((req, res) => {
        const m = /^\/([^/]+)\/\.well-known\/docsd-domain-verification\.txt$/.exec(req.url);
        const body = m && files.get(m[1]);
        if (body === undefined) return res.writeHead(404).end('no');
        res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    return { files, base: `http://127.0.0.1:${server.address().port}`, close: () => server.close() };
}

describe('app-saml', () => {
    let ctx, alice, bob, dir, key, cert, otherKey, org, team, provider, acs, audience, domains, aliceSession;
    const outsider = `eve-${uniq(6)}@elsewhere-${uniq(6)}.example.org`;
    const password = 'a long enough password 1';

    before(async () => {
        domains = await domainServer();
        ctx = await setup({ extraArgs: ['--allow-private-network', '--domain-verification-base', domains.base, '--sso-rate-limit', '0'] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        dir = mkdtempSync(join(tmpdir(), 'docsd-saml-'));
        const idp = keyPair(dir, 'idp');
        key = idp.key;
        cert = idp.cert;
        otherKey = keyPair(dir, 'other').key;
        ({ org } = await createOrg(ctx.url, alice.token, `SAML app ${ctx.run}`));
        // bob joins by invitation: an existing user is added at once (GitBook's semantics).
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
        await setPassword(ctx.server.dataDir, alice.email, password);
        await setPassword(ctx.server.dataDir, bob.email, password);
        aliceSession = await passwordSession(ctx.url, alice.email, password);
    });
    after(async () => {
        if (dir) rmSync(dir, { recursive: true, force: true });
        if (domains) domains.close();
        if (ctx) await ctx.server.stop();
    });

    /** The AuthnRequest's ID in a redirect to the IdP (asserting its shape). */
    function authnId(r, next) {
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

    /** The browser nonce cookie a redirect to the IdP sets for request id: {name: value}. */
    function nonceOf(r, id) {
        const name = `docsd_saml${id}`;
        const c = r.cookies[name];
        assert.ok(c, `the start sets ${name}`);
        assert.match(c, /; Path=\/sso\/saml\/; Max-Age=600; HttpOnly$/);
        return { [name]: cookieValue(c) };
    }

    /** GET the start URL (in a fresh browser): {id, jar} — the request's ID and the browser's cookies. */
    async function startIn(next) {
        const r = await http(ctx.url, 'GET', new URL(provider.service.startURL).pathname + (next ? `?next=${encodeURIComponent(next)}` : ''));
        assert.equal(r.status, 302, r.text);
        const id = authnId(r, next);
        return { id, jar: nonceOf(r, id) };
    }
    let lastJar = {};
    async function start(next) {
        const { id, jar } = await startIn(next);
        lastJar = jar;
        return id;
    }

    const sign = (xml, { keyFile = key, what = 'assertion' } = {}) => signXml(dir, keyFile, xml, what);

    /** POST a response to the ACS with the cookies of jar (by default the browser of the last start). */
    async function post(xml, jar = lastJar) {
        return http(ctx.url, 'POST', new URL(acs).pathname, {
            cookies: jar,
            form: { SAMLResponse: Buffer.from(xml).toString('base64'), RelayState: '/' },
            headers: { Origin: 'https://idp.test.invalid' },
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
        return { id, jar: lastJar, xml: sign(responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience, sign: 'assertion', ...o }), o) };
    }

    /** The session cookie of a 303 that signed someone in. */
    function session(r) {
        assert.equal(r.status, 303, r.text);
        const c = r.headers['set-cookie'].find((x) => x.startsWith('docsd_session='));
        assert.match(c, /^docsd_session=[^;]+; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax/);
        return cookieValue(c);
    }

    /** The signed-in user's CSRF token, from a form of /settings/sso. */
    async function settings(s) {
        const r = await http(ctx.url, 'GET', '/settings/sso', { cookies: { docsd_session: s } });
        assert.equal(r.status, 200, r.text);
        return { text: r.text, csrf: /name="csrf" value="([0-9a-f]{64})"/.exec(r.text)?.[1] };
    }

    /** Link provider p for the user of session s, the IdP answering with email. */
    async function link(s, email, p = provider, keyFile = key) {
        const { csrf } = await settings(s);
        const r = await http(ctx.url, 'POST', `/sso/saml/${p.id}/link`, { cookies: { docsd_session: s }, form: { csrf } });
        assert.equal(r.status, 303, r.text);
        const xml = inflateRawSync(Buffer.from(new URL(r.headers.location).searchParams.get('SAMLRequest'), 'base64')).toString('utf8');
        const id = /ID="([^"]+)"/.exec(xml)[1];
        const jar = nonceOf(r, id);
        const res = sign(responseXml({ email, inResponseTo: id, recipient: p.service.acsURL, audience: p.service.entityID, sign: 'assertion' }), { keyFile });
        return http(ctx.url, 'POST', new URL(p.service.acsURL).pathname, { cookies: { ...jar, docsd_session: s }, form: { SAMLResponse: Buffer.from(res).toString('base64') } });
    }

    const members = async (orgId, api = alice.api) => (await ok(api.orgs.listMembersInOrganizationById(orgId, { limit: 1000 }), 'listMembersInOrganizationById')).items;

    it('a member by invitation, not linked, is refused: sign in another way and link the provider', async () => {
        const { xml } = await valid();
        refused(await post(xml), 403, /exists already and is not linked to this identity provider.*\/settings\/sso/s);
    });

    it('a password user links the provider while signed in, then signs in through it', async () => {
        const s = await passwordSession(ctx.url, bob.email, password);
        const before = await settings(s);
        assert.match(before.text, /Test IdP/);
        assert.match(before.text, /Link this provider/);
        // the IdP answers with someone else's address: no link
        const other = await link(s, alice.email);
        refused(other, 403, /not as your account/);
        const r = await link(s, bob.email.toUpperCase());
        assert.equal(r.status, 303, r.text);
        assert.equal(r.headers.location, '/settings/sso');
        assert.ok(!(r.headers['set-cookie'] ?? []).some((c) => c.startsWith('docsd_session=')), 'a link starts no session');
        assert.match((await settings(s)).text, />linked</);
        // now the sign-in itself
        const id = await start('/o/' + org.id);
        const ok303 = await post(sign(responseXml({ email: bob.email.toUpperCase(), inResponseTo: id, recipient: acs, audience, sign: 'assertion' })));
        const cookie = session(ok303);
        assert.equal(ok303.headers.location, '/o/' + org.id);
        assert.ok(ok303.headers['set-cookie'].some((c) => c.startsWith(`docsd_saml${id}=;`) && /Max-Age=0/.test(c)), 'the nonce cookie is cleared');
        const anon = await http(ctx.url, 'GET', '/', { headers: { Accept: 'text/html' } });
        assert.ok(!anon.text.includes(bob.name), 'not signed in without the cookie');
        const home = await http(ctx.url, 'GET', '/', { cookies: { docsd_session: cookie }, headers: { Accept: 'text/html' } });
        assert.equal(home.status, 200, home.text);
        assert.ok(home.text.includes(bob.name), 'the signed-in user is named');
    });

    it('linking: a GET, no session, or a stale CSRF token is refused and links nothing', async () => {
        const path = `/sso/saml/${provider.id}/link`;
        refused(await http(ctx.url, 'GET', path), 405, /link form/);
        refused(await http(ctx.url, 'POST', path, { form: { csrf: 'x' } }), 401, /sign in first/i);
        refused(await http(ctx.url, 'POST', path, { cookies: { docsd_session: aliceSession }, form: { csrf: '0'.repeat(64) } }), 403, /out of date/);
        // a provider of an organization one is not a member of cannot be linked
        const mallory = await ctx.user('mallory');
        await setPassword(ctx.server.dataDir, mallory.email, password);
        const ms = await passwordSession(ctx.url, mallory.email, password);
        const { csrf } = await settings(ms);
        refused(await http(ctx.url, 'POST', path, { cookies: { docsd_session: ms }, form: { csrf } }), 404, /not found/);
    });

    it('login CSRF: a response posted by a browser that did not start the sign-in is refused', async () => {
        const { xml, jar } = await valid();
        refused(await post(xml, {}), 403, /this browser did not start this sign-in/i);
        const forged = Object.fromEntries(Object.keys(jar).map((k) => [k, 'f'.repeat(64)]));
        refused(await post(xml, forged), 403, /this browser did not start this sign-in/i);
        // another browser's nonce, for another request, does not fit either
        const other = await startIn();
        refused(await post(xml, { ...other.jar }), 403, /this browser did not start this sign-in/i);
        // the browser that started it still can (a refusal writes nothing)
        session(await post(xml, jar));
    });

    it('a response signed on the Response element is accepted too', async () => {
        const id = await start();
        const r = await post(sign(responseXml({ email: bob.email, inResponseTo: id, recipient: acs, audience, sign: 'response' }), { what: 'response' }));
        session(r);
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
        const fixed = sign(responseXml({ email: bob.email, inResponseTo: other.id, recipient: acs, audience, sign: 'assertion' }));
        assert.equal((await post(fixed, other.jar)).status, 303);
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
        refused(await http(ctx.url, 'GET', new URL(pending.service.startURL).pathname), 404, /not set up yet/);
    });

    it('an unverified listed domain creates no account; verifying it (the domain\'s file) lets the provider create one', async () => {
        const email = `newbie-${uniq(6)}@${ctx.domain}`;
        refused(await post((await valid({ email, displayName: 'New Bie' })).xml), 403, /not a verified email domain/);
        assert.ok(!(await members(org.id)).some((m) => m.user.email === email), 'no member made');
        // the domains page: the token, not verified
        const page = await http(ctx.url, 'GET', `/o/${org.id}/domains`, { cookies: { docsd_session: aliceSession } });
        assert.equal(page.status, 200, page.text);
        const token = /<code class="domain-token">([^<]+)<\/code>/.exec(page.text)[1];
        assert.match(token, /^docsd-verification=[A-Za-z0-9]{32}$/);
        assert.match(page.text, /not verified/);
        const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page.text)[1];
        const verify = (form, s = aliceSession) => http(ctx.url, 'POST', `/sso/domains/${org.id}/verify`, { cookies: { docsd_session: s }, form });
        // no file, then a file without the token, a wrong CSRF token, an unlisted domain: refused
        refused(await verify({ csrf, domain: ctx.domain }), 400, /could not be read/);
        domains.files.set(ctx.domain, 'docsd-verification=someoneelse\n');
        refused(await verify({ csrf, domain: ctx.domain }), 400, /does not contain this organization/);
        domains.files.set(ctx.domain, `other line\n  ${token}  \r\n`);
        refused(await verify({ csrf: '1'.repeat(64), domain: ctx.domain }), 403, /out of date/);
        refused(await verify({ csrf, domain: 'example.org' }), 400, /not one of the organization/);
        const done = await verify({ csrf, domain: ctx.domain });
        assert.equal(done.status, 303, done.text);
        assert.equal(done.headers.location, `/o/${org.id}/domains`);
        assert.doesNotMatch((await http(ctx.url, 'GET', `/o/${org.id}/domains`, { cookies: { docsd_session: aliceSession } })).text, /not verified/);
        // now the provider creates the account, with its default role and team
        const r = await post((await valid({ email, displayName: 'New Bie' })).xml);
        session(r);
        const m = (await members(org.id)).find((x) => x.user.email === email);
        assert.ok(m, 'the new user is a member');
        assert.equal(m.role, 'edit');
        assert.equal(m.sso, true);
        assert.equal(m.user.displayName, 'New Bie');
        const teams = await ok(alice.api.orgs.listTeamsForOrganizationMember(org.id, m.user.id), 'listTeamsForOrganizationMember').catch(() => null);
        if (teams) assert.ok(teams.items.some((t) => t.team.id === team.id), 'in the default team');
        // ...and signs that user in again, created by it
        const again = await post((await valid({ email })).xml);
        session(again);
        // an existing account of the verified domain is never pulled in: it links
        const carol = await ctx.user('carol');
        refused(await post((await valid({ email: carol.email })).xml), 403, /exists already and is not linked/);
        assert.ok(!(await members(org.id)).some((x) => x.user.email === carol.email), 'carol not added');
        // another domain entirely
        refused(await post((await valid({ email: outsider })).xml), 403, /not a verified email domain/);
    });

    it('the domains page and its verification are the organization admins\' only', async () => {
        const eve = await ctx.user('eve');
        await setPassword(ctx.server.dataDir, eve.email, password);
        const es = await passwordSession(ctx.url, eve.email, password);
        const page = await http(ctx.url, 'GET', `/o/${org.id}/domains`, { cookies: { docsd_session: es } });
        assert.equal(page.status, 404, 'a non-member sees nothing');
        const { csrf } = await settings(es);
        refused(await http(ctx.url, 'POST', `/sso/domains/${org.id}/verify`, { cookies: { docsd_session: es }, form: { csrf, domain: ctx.domain } }), 404, /not found/i);
        refused(await http(ctx.url, 'POST', `/sso/domains/${org.id}/verify`, { form: { domain: ctx.domain } }), 401, /sign in/i);
        refused(await http(ctx.url, 'GET', `/sso/domains/${org.id}/verify`), 405, /POST/);
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

    it('ssoURL: https, or http on loopback under --allow-private-network; no credentials, no fragment', async () => {
        const bad = async (ssoURL) => {
            const r = await raw(ctx.url, 'POST', `/v1/orgs/${org.id}/saml`, { token: alice.token, json: { label: 'Bad', ssoURL } });
            assert.equal(r.status, 400, `${ssoURL}: ${r.text}`);
            assert.match(r.json.error.message, /ssoURL/);
        };
        await bad('javascript:alert(1)');
        await bad('http://user:pw@idp.example.com/sso');
        await bad('https://user:pw@idp.example.com/sso');
        await bad('https://user@idp.example.com/sso');
        await bad('http://idp.example.com/sso');
        await bad('https://idp.example.com/sso#frag');
        const p = await ok(alice.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Loopback', ssoURL: 'http://127.0.0.1:9/sso' }), 'createOrganizationSAMLProvider', 201);
        assert.equal(p.ssoURL, 'http://127.0.0.1:9/sso');
        const e = await raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/saml/${p.id}`, { token: alice.token, json: { ssoURL: 'http://a:b@127.0.0.1/sso' } });
        assert.equal(e.status, 400, e.text);
        await empty(alice.api.orgs.deleteOrganizationSamlProvider(org.id, p.id), 205, 'delete');
    });

    it('unlinking (a CSRF form of /settings/sso) ends sign-in through the provider; linking again restores it', async () => {
        const s = await passwordSession(ctx.url, bob.email, password);
        const { csrf, text } = await settings(s);
        assert.match(text, new RegExp(`action="/settings/sso/${provider.id}/unlink"`));
        const stale = await http(ctx.url, 'POST', `/settings/sso/${provider.id}/unlink`, { cookies: { docsd_session: s }, form: { csrf: '2'.repeat(64) } });
        assert.equal(stale.status, 403);
        session(await post((await valid()).xml)); // still linked
        const r = await http(ctx.url, 'POST', `/settings/sso/${provider.id}/unlink`, { cookies: { docsd_session: s }, form: { csrf } });
        assert.equal(r.status, 303, r.text);
        assert.match((await settings(s)).text, /Link this provider/);
        refused(await post((await valid()).xml), 403, /exists already and is not linked/);
        assert.equal((await link(s, bob.email)).status, 303);
        session(await post((await valid()).xml));
    });
});

// Issue 30's reproductions: an organization anyone can create, an IdP of the attacker's own, an
// assertion naming the victim. Whatever brought the victim into the organization, no session.
describe('app-saml: another organization\'s provider cannot sign a user in', () => {
    let ctx, victim, mallory, dir, key, domains;
    const password = 'victim password long';

    before(async () => {
        domains = await domainServer();
        ctx = await setup({ extraArgs: ['--allow-private-network', '--domain-verification-base', domains.base, '--sso-rate-limit', '0'] });
        victim = await ctx.user('victim', { emailDomain: `victim-${uniq(6)}.example.com` });
        mallory = await ctx.user('mallory');
        await setPassword(ctx.server.dataDir, victim.email, password);
        dir = mkdtempSync(join(tmpdir(), 'docsd-saml-atk-'));
        const kp = keyPair(dir, 'attacker');
        key = kp.key;
        mallory.cert = kp.cert;
    });
    after(async () => {
        if (dir) rmSync(dir, { recursive: true, force: true });
        if (domains) domains.close();
        if (ctx) await ctx.server.stop();
    });

    /** Mallory's organization and provider; setupOrg(org) brings the victim in its own way. */
    async function attack(how, setupOrg) {
        const { org } = await createOrg(ctx.url, mallory.token, `Evil ${how} ${ctx.run}`);
        await setupOrg(org);
        const p = await ok(
            mallory.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Evil', entityID: IDP, ssoURL: SSO_URL, certificate: mallory.cert, defaultRole: 'admin' }),
            'createOrganizationSAMLProvider',
            201,
        );
        const s = await http(ctx.url, 'GET', new URL(p.service.startURL).pathname);
        assert.equal(s.status, 302, s.text);
        const xml = inflateRawSync(Buffer.from(new URL(s.headers.location).searchParams.get('SAMLRequest'), 'base64')).toString('utf8');
        const id = /ID="([^"]+)"/.exec(xml)[1];
        // The attacker's own browser: it holds the request's nonce (docsd before issue 30 set none).
        const nonce = s.cookies[`docsd_saml${id}`];
        const jar = nonce ? { [`docsd_saml${id}`]: cookieValue(nonce) } : {};
        const res = signXml(dir, key, responseXml({ email: victim.email, inResponseTo: id, recipient: p.service.acsURL, audience: p.service.entityID, sign: 'assertion' }));
        const r = await http(ctx.url, 'POST', new URL(p.service.acsURL).pathname, { cookies: jar, form: { SAMLResponse: Buffer.from(res).toString('base64') } });
        assert.equal(r.status, 403, `${how}: ${r.text}`);
        assert.equal(r.headers['set-cookie'], undefined, `${how}: no session`);
        return { org, r };
    }

    /** The victim's account is as it was: the password still signs in, the email is unchanged. */
    async function untouched() {
        const me = await ok(victim.api.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.equal(me.email, victim.email);
        await passwordSession(ctx.url, victim.email, password);
    }

    it('(a) the victim\'s email domain listed (unverified): no session, not made a member', async () => {
        const domain = victim.email.split('@')[1];
        const { org, r } = await attack('domain', (o) => ok(mallory.api.orgs.updateOrganizationById(o.id, { emailDomains: [domain] }), 'updateOrganizationById'));
        assert.match(r.text, /exists already and is not linked/);
        const ms = await ok(mallory.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById');
        assert.ok(!ms.items.some((m) => m.user.id === victim.id), 'the victim did not join');
        await untouched();
    });

    it('(a\') even a domain the attacker verified does not pull in the existing victim', async () => {
        const domain = victim.email.split('@')[1];
        const { org } = await attack('verified domain', async (o) => {
            await ok(mallory.api.orgs.updateOrganizationById(o.id, { emailDomains: [domain] }), 'updateOrganizationById');
            await setPassword(ctx.server.dataDir, mallory.email, 'mallory password long');
            const ms = await passwordSession(ctx.url, mallory.email, 'mallory password long');
            const page = await http(ctx.url, 'GET', `/o/${o.id}/domains`, { cookies: { docsd_session: ms } });
            const token = /<code class="domain-token">([^<]+)<\/code>/.exec(page.text)[1];
            const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(page.text)[1];
            domains.files.set(domain, token);
            const v = await http(ctx.url, 'POST', `/sso/domains/${o.id}/verify`, { cookies: { docsd_session: ms }, form: { csrf, domain } });
            assert.equal(v.status, 303, v.text);
        });
        const ms = await ok(mallory.api.orgs.listMembersInOrganizationById(org.id, { limit: 1000 }), 'listMembersInOrganizationById');
        assert.ok(!ms.items.some((m) => m.user.id === victim.id));
        await untouched();
    });

    it('(b) the victim added by invitation: no session', async () => {
        const { r } = await attack('invite', (o) => ok(mallory.api.orgs.inviteUsersToOrganization(o.id, { emails: [victim.email] }), 'inviteUsersToOrganization'));
        assert.match(r.text, /exists already and is not linked/);
        await untouched();
    });

    it('(c) the victim added by a space grant: no session', async () => {
        const { r } = await attack('grant', async (o) => {
            const space = await ok(mallory.api.orgs.createSpace(o.id, { title: 'Bait' }), 'createSpace', 201);
            await empty(mallory.api.spaces.inviteToSpace(space.id, { role: 'read', users: [victim.id] }), 204, 'inviteToSpace');
        });
        assert.match(r.text, /exists already and is not linked/);
        await untouched();
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

describe('app-saml start flood', () => {
    let ctx;
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    it('without any option, one address gets 30 starts a minute (--sso-rate-limit), others are unaffected', async () => {
        ctx = await setup();
        const alice = await ctx.user('alice');
        const { org } = await createOrg(ctx.url, alice.token, `SAML flood ${ctx.run}`);
        const dir = mkdtempSync(join(tmpdir(), 'docsd-saml-flood-'));
        try {
            const { cert } = keyPair(dir, 'idp');
            const p = await ok(
                alice.api.orgs.createOrganizationSamlProvider(org.id, { label: 'IdP', entityID: IDP, ssoURL: SSO_URL, certificate: cert }),
                'createOrganizationSAMLProvider',
                201,
            );
            const path = new URL(p.service.startURL).pathname;
            const from = `127.0.${1 + Math.floor(Math.random() * 250)}.${2 + Math.floor(Math.random() * 250)}`;
            const codes = [];
            for (let i = 0; i < 32; i++) codes.push((await http(ctx.url, 'GET', path, { from })).status);
            assert.deepEqual(codes, [...Array(30).fill(302), 429, 429]);
            const r = await http(ctx.url, 'GET', path, { from });
            assert.match(r.text, /too many sign-in attempts/i);
            assert.equal(r.headers['set-cookie'], undefined, 'a refused start sets no cookie');
            assert.equal((await http(ctx.url, 'GET', path, { from: '127.0.0.1' })).status, 302, 'another address');
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});

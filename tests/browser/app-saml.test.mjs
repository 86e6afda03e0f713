// Signing in through SAML in Debian's chromium (issue 25): the test runs a small identity provider
// on 127.0.0.1 (tests/api/lib/saml-idp.mjs: responses signed with the xmlsec1 command). The browser
// opens the provider's startURL from GET /v1/orgs/{org}/sso, is redirected to the IdP with docsd's
// AuthnRequest, whose page (no script) posts the signed response to docsd's ACS URL; docsd signs
// the new user of the organization's verified domain in and lands on the organization's page.
// Posting the same response again shows the refusal page, and so does the IdP's form submitted in
// another browser (login CSRF: the request's nonce cookie is not there). The organization's email
// domain is verified first (a fixture web server serving /.well-known/docsd-domain-verification.txt):
// only then may the provider create the account (issue 30). Screenshots: artifacts/app-saml-*.png.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { mkdirSync, mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateRawSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { setup, uniq } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg } from '../api/lib/api.mjs';
import { IDP, responseXml, keyPair, signXml, http as httpReq, setPassword, passwordSession } from '../api/lib/saml-idp.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const esc = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

describe('SAML sign-in in chromium', { timeout: 180_000 }, () => {
    let ctx, alice, org, provider, dir, idpKey, idpServer, idpUrl, browser, domainServer;
    const email = `sso-user-${uniq(6)}`;

    before(async () => {
        assert.ok(existsSync(CHROMIUM), `${CHROMIUM} exists`);
        mkdirSync(ARTIFACTS, { recursive: true });
        // Every email domain's web server: its verification file.
        const proofs = new Map();
        domainServer = http.createServer((req, res) => {
            const m = /^\/([^/]+)\/\.well-known\/docsd-domain-verification\.txt$/.exec(req.url);
            const body = m && proofs.get(m[1]);
            if (body === undefined) return res.writeHead(404).end();
            res.writeHead(200, { 'Content-Type': 'text/plain' }).end(body);
        });
        await new Promise((r) => domainServer.listen(0, '127.0.0.1', r));
        // http IdP on loopback: allowed under --allow-private-network only (ssoURL's rule).
        ctx = await setup({ extraArgs: ['--allow-private-network', '--domain-verification-base', `http://127.0.0.1:${domainServer.address().port}`] });
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme SSO'));
        await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [ctx.domain] }), 'updateOrganizationById');
        await setPassword(ctx.server.dataDir, alice.email, 'alice long password');
        const session = await passwordSession(ctx.url, alice.email, 'alice long password');
        const domainsPage = await httpReq(ctx.url, 'GET', `/o/${org.id}/domains`, { cookies: { docsd_session: session } });
        proofs.set(ctx.domain, /<code class="domain-token">([^<]+)<\/code>/.exec(domainsPage.text)[1]);
        const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(domainsPage.text)[1];
        const verified = await httpReq(ctx.url, 'POST', `/sso/domains/${org.id}/verify`, { cookies: { docsd_session: session }, form: { csrf, domain: ctx.domain } });
        assert.equal(verified.status, 303, verified.text);
        dir = mkdtempSync(join(tmpdir(), 'docsd-saml-browser-'));
        const kp = keyPair(dir, 'idp');
        idpKey = kp.key;
        // The identity provider: GET /sso reads the AuthnRequest and answers a page whose form
        // posts the signed response to the ACS URL the request names.
        idpServer = http.createServer((req, res) => {
            const u = new URL(req.url, 'http://idp');
            let xml = '';
            try {
                xml = inflateRawSync(Buffer.from(u.searchParams.get('SAMLRequest') || '', 'base64')).toString('utf8');
            } catch {
                // not an AuthnRequest (the browser's favicon request, for one)
            }
            const id = /ID="([^"]+)"/.exec(xml)?.[1];
            const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)?.[1];
            const audience = /<saml:Issuer>([^<]+)<\/saml:Issuer>/.exec(xml)?.[1];
            if (!id || !acs || !audience) {
                res.writeHead(400).end('not an AuthnRequest');
                return;
            }
            const signed = signXml(dir, idpKey, responseXml({ email: `${email}@${ctx.domain}`, displayName: 'Sam Ssouser', inResponseTo: id, recipient: acs, audience, sign: 'assertion' }));
            const relay = u.searchParams.get('RelayState') || '';
            res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(
                `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test IdP</title></head><body>` +
                    `<h1>Test identity provider</h1><p>Signed in as ${esc(email)}@${esc(ctx.domain)}.</p>` +
                    `<form method="post" action="${esc(acs)}"><input type="hidden" name="SAMLResponse" value="${Buffer.from(signed).toString('base64')}">` +
                    `<input type="hidden" name="RelayState" value="${esc(relay)}"><button type="submit">Continue to docsd</button></form></body></html>`,
            );
        });
        await new Promise((r) => idpServer.listen(0, '127.0.0.1', r));
        idpUrl = `http://127.0.0.1:${idpServer.address().port}/sso`;
        provider = await ok(
            alice.api.orgs.createOrganizationSamlProvider(org.id, { label: 'Test IdP', entityID: IDP, ssoURL: idpUrl, certificate: kp.cert, defaultRole: 'read' }),
            'createOrganizationSAMLProvider',
            201,
        );
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
    });

    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (idpServer) idpServer.close();
        if (domainServer) domainServer.close();
        if (dir) rmSync(dir, { recursive: true, force: true });
        if (ctx) await ctx.server.stop();
    });

    it('a new user of the verified domain signs in through the IdP and lands on the organization', async () => {
        // The start URL as the API lists it for members (GET /v1/orgs/{org}/sso).
        const logins = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sso`, { token: alice.token });
        assert.equal(logins.status, 200, logins.text);
        const startURL = logins.json.items.find((p) => p.id === provider.id).startURL;
        assert.equal(startURL, provider.service.startURL);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(`${startURL}?next=${encodeURIComponent(`/o/${org.id}`)}`);
        assert.ok(page.url().startsWith(idpUrl), page.url());
        await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
        await page.screenshot({ path: join(ARTIFACTS, 'app-saml-idp.png') });
        await Promise.all([page.waitForURL(`${ctx.url}/o/${org.id}`), page.getByRole('button', { name: 'Continue to docsd' }).click()]);
        const body = await page.textContent('body');
        assert.ok(body.includes('Acme SSO'), 'the organization page');
        assert.ok(body.includes('Sam Ssouser'), 'the signed-in user in the header');
        const cookies = await context.cookies(ctx.url);
        const c = cookies.find((x) => x.name === 'docsd_session');
        assert.ok(c && c.httpOnly && c.sameSite === 'Lax', 'session cookie HttpOnly, SameSite=Lax');
        await page.screenshot({ path: join(ARTIFACTS, 'app-saml-signed-in.png'), fullPage: true });
        await context.close();
    });

    it('the same response posted twice shows the refusal page', async () => {
        const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
        const page = await context.newPage();
        await page.goto(provider.service.startURL);
        await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
        const form = await page.evaluate(() => ({ html: document.documentElement.outerHTML }));
        await Promise.all([page.waitForURL(`${ctx.url}/`), page.getByRole('button', { name: 'Continue to docsd' }).click()]);
        // Replay: the IdP page's form as it was, submitted again.
        await page.setContent(form.html);
        const [resp] = await Promise.all([page.waitForResponse((r) => r.url().endsWith('/acs')), page.getByRole('button', { name: 'Continue to docsd' }).click()]);
        assert.equal(resp.status(), 403);
        await page.getByRole('heading', { name: 'Single sign-on failed' }).waitFor();
        assert.match(await page.textContent('main'), /answers no sign-in docsd started/);
        await page.screenshot({ path: join(ARTIFACTS, 'app-saml-refused.png'), fullPage: true });
        await context.close();
    });

    it('the IdP\'s form submitted in another browser (login CSRF) shows the refusal page', async () => {
        const started = await browser.newContext();
        const page = await started.newPage();
        await page.goto(provider.service.startURL);
        await page.getByRole('heading', { name: 'Test identity provider' }).waitFor();
        const html = await page.evaluate(() => document.documentElement.outerHTML);
        await started.close();
        // The attacker's browser started the sign-in; the victim's browser gets its form.
        const victim = await browser.newContext();
        const vpage = await victim.newPage();
        await vpage.goto(`${ctx.url}/signin`);
        await vpage.setContent(html);
        const [resp] = await Promise.all([vpage.waitForResponse((r) => r.url().endsWith('/acs')), vpage.getByRole('button', { name: 'Continue to docsd' }).click()]);
        assert.equal(resp.status(), 403);
        await vpage.getByRole('heading', { name: 'Single sign-on failed' }).waitFor();
        assert.match(await vpage.textContent('main'), /this browser did not start this sign-in/i);
        assert.ok(!(await victim.cookies(ctx.url)).some((c) => c.name === 'docsd_session'), 'no session in the victim\'s browser');
        await vpage.screenshot({ path: join(ARTIFACTS, 'app-saml-csrf-refused.png'), fullPage: true });
        await victim.close();
    });
});

// Issue 30 item 2, reproduced in Debian's chromium: a published site's integration script must
// not act as a signed-in visitor of the web interface. An organization admin (mallory) publishes
// an integration with site:script:inject whose script (served through a development tunnel, the
// integration's answer to fetch_published_script) fetches {app}/settings/tokens with the
// visitor's credentials, reads the form's CSRF token and posts it to create an API token. Its
// policy even allows connecting to the app's origin. Alice, signed in to the web interface,
// merely opens mallory's public site. Before the fix the site shared the app's origin and the
// token was created; now the site is another origin (README, "Two origins"): the fetch is
// refused or opaque, no token is created (checked in the app and through the API).
// Twice: with the default site URL (http://localhost:<port>, another host than 127.0.0.1: the
// session cookie is never sent) and with a site URL on the same host, another port (same-site:
// the cookie goes along, but CORS keeps the answer unreadable and the app signs out background
// requests from another site).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, empty, raw, createOrg } from '../api/lib/api.mjs';
import { HTML, PASSWORD, setPassword, signIn } from '../api/lib/app.mjs';
import { DESKTOP, journey, launchChromium, seedSpace } from './lib-app.mjs';

/** The attacker's integration backend: answers fetch_published_script with `script`. */
async function tunnel(script) {
    const t = {};
    t.server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', async () => {
            let type = '';
            try {
                const fd = await new Request('http://x/', { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body: Buffer.concat(chunks) }).formData();
                type = JSON.parse(fd.get('event')).type;
            } catch {}
            if (type === 'fetch_published_script') {
                res.writeHead(200, { 'content-type': 'application/javascript' });
                res.end(script());
                return;
            }
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('OK');
        });
    });
    await new Promise((r) => t.server.listen(0, '127.0.0.1', r));
    t.url = `http://127.0.0.1:${t.server.address().port}`;
    return t;
}

// The script: what the reproduction did, and a no-cors form post besides. It records
// what it could do in window.__attack and the page title.
const attack = (app) => `(async () => {
  const out = {};
  try {
    const r = await fetch(${JSON.stringify(app)} + '/settings/tokens', { credentials: 'include' });
    out.type = r.type; out.status = r.status;
    const t = await r.text();
    out.read = t.length;
    const csrf = (t.match(/name="csrf" value="([^"]+)"/) || [])[1];
    out.csrf = !!csrf;
    if (csrf) {
      const p = await fetch(${JSON.stringify(app)} + '/settings/tokens', { method: 'POST', credentials: 'include', body: new URLSearchParams({ csrf, name: 'stolen-by-script' }) });
      out.post = p.status;
      out.token = ((await p.text()).match(/[A-Za-z0-9_-]{30,}/) || [])[0] || null;
    }
  } catch (e) { out.error = String(e); }
  try {
    await fetch(${JSON.stringify(app)} + '/settings/tokens', { method: 'POST', mode: 'no-cors', credentials: 'include', body: new URLSearchParams({ name: 'stolen-no-cors' }) });
    out.nocors = 'sent';
  } catch (e) { out.nocors = String(e); }
  window.__attack = out;
  document.title = 'attack done';
})();`;

for (const variant of [
    { name: 'default site URL (localhost: another host)', args: ['--site-listen', '127.0.0.1:0'], host: 'localhost' },
    { name: 'site URL on the same host, another port (same-site)', args: [], host: '127.0.0.1' },
]) {
    describe(`a site's integration script and a signed-in visitor, ${variant.name}`, { timeout: 180_000 }, () => {
        let ctx, alice, mallory, org, browser, tun, site, space;
        const j = journey(() => browser, 'site-origin');
        const { newPage, shot } = j;

        before(async () => {
            ctx = await setup({ extraArgs: ['--allow-private-network', ...variant.args] });
            assert.equal(new URL(ctx.siteUrl).hostname, variant.host);
            tun = await tunnel(() => attack(ctx.url));
            alice = await ctx.user('alice');
            mallory = await ctx.user('mallory');
            // Mallory's own organization, integration and public site: nothing shared with alice.
            ({ org } = await createOrg(ctx.url, mallory.token, `Mallory ${ctx.run}`));
            await createOrg(ctx.url, alice.token, `Alice ${ctx.run}`);
            space = await seedSpace(ctx, mallory, org.id, 'Free docs', [{ title: 'Welcome', markdown: 'Totally harmless docs.\n' }]);
            const name = `helper-${ctx.run}`;
            const origin = new URL(ctx.url).origin;
            await ok(mallory.api.integrations.publishIntegration(name, {
                organization: org.id, title: 'Helper', description: 'Adds a widget', script: 'export default {}',
                scopes: ['site:script:inject', 'site:script:cookies'], target: 'site',
                contentSecurityPolicy: `script-src ${origin}; connect-src ${origin} *`,
            }), 'publishIntegration');
            await empty(mallory.api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: tun.url }), 204, 'setIntegrationDevelopmentMode');
            const inst = await mallory.api.integrations.installIntegration(name, { organization: org.id });
            assert.equal(inst.status, 200);
            site = await ok(mallory.api.orgs.createSite(org.id, { title: 'Free docs' }), 'createSite', 201);
            await ok(mallory.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
            await ok(mallory.api.integrations.installIntegrationOnSite(name, inst.data.id, { siteId: site.id }), 'installIntegrationOnSite', 201);
            site = await ok(mallory.api.orgs.publishSite(org.id, site.id), 'publishSite');
            await setPassword(ctx.server, alice.email, PASSWORD);
            browser = await launchChromium();
        });
        after(async () => {
            if (browser) await browser.close().catch(() => {});
            tun?.server.close();
            if (ctx) await ctx.server.stop();
        });

        it('alice opens the site: the script runs there, gets no token and reads nothing of the app', async () => {
            assert.ok(site.urls.published.startsWith(`${ctx.siteUrl}/sites/`), site.urls.published);
            const { context, page } = await newPage(DESKTOP, 'light');
            await j.signIn(page, ctx.url, alice.email);
            await page.goto(`${ctx.url}/settings/tokens`);
            const tokensBefore = await page.locator('main').innerText();
            await page.goto(site.urls.published);
            await page.getByText('Totally harmless docs.').waitFor();
            await page.waitForFunction(() => window.__attack, null, { timeout: 20_000 });
            const out = await page.evaluate(() => window.__attack);
            console.log(`# ${variant.host}: what the script got: ${JSON.stringify(out)}`);
            await shot(page, variant.host === 'localhost' ? 'default' : 'same-site');
            // The script ran (it is the site's own business) ...
            assert.ok(out, 'the injected script ran on the site');
            // ... but the app's answer was never readable and no form could be posted.
            assert.ok(out.error || out.type === 'opaque' || !out.csrf, `the app answered the script: ${JSON.stringify(out)}`);
            assert.equal(out.csrf ?? false, false, JSON.stringify(out));
            assert.equal(out.token ?? null, null);
            // No token was created, by either request: the app's list as alice sees it ...
            await page.goto(`${ctx.url}/settings/tokens`);
            const tokensAfter = await page.locator('main').innerText();
            assert.doesNotMatch(tokensAfter, /stolen/);
            assert.equal(tokensAfter, tokensBefore);
            // ... and the same through the app over HTTP with alice's session.
            const s = await signIn(ctx.url, alice.email, PASSWORD);
            const list = await raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: s.cookie } });
            assert.equal(list.status, 200);
            assert.doesNotMatch(list.text, /stolen/);
            // The browser holds no session cookie for the site's origin.
            const siteCookies = await context.cookies(ctx.siteUrl);
            if (variant.host === 'localhost') assert.deepEqual(siteCookies.filter((c) => c.name === 'docsd_session'), []);
            await context.close();
        });

        it('an upload of JavaScript never runs as the app\'s own script, even if a page of the app named it', async () => {
            // Mallory uploads a script file; its signed URL is on the app's origin (API clients
            // and images use it). An escaping slip in the app would let 'self' load it.
            const cr = await ok(mallory.api.spaces.createChangeRequest(space.id, { subject: 'File' }), 'createChangeRequest', 201);
            const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
                token: mallory.token,
                json: { changes: [{ operation: 'insert_files', files: [{ name: 'evil.js', contentType: 'text/javascript', base64: Buffer.from('window.__evil = 1;').toString('base64') }] }] },
            });
            assert.equal(w.status, 200, w.text);
            await ok(mallory.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
            const file = await ok(mallory.api.spaces.getFileById(space.id, w.json.insertedFiles[0].id), 'getFileById');
            assert.ok(file.downloadURL.startsWith(`${ctx.url}/files/`), file.downloadURL);
            const { context, page } = await newPage(DESKTOP, 'light');
            await j.signIn(page, ctx.url, alice.email);
            await page.goto(`${ctx.url}/settings/tokens`);
            const loaded = await page.evaluate((src) => new Promise((resolve) => {
                const el = document.createElement('script');
                el.src = src;
                el.onload = () => resolve('loaded');
                el.onerror = () => resolve('refused');
                document.head.appendChild(el);
            }), new URL(file.downloadURL).pathname);
            assert.equal(loaded, 'refused');
            assert.equal(await page.evaluate(() => window.__evil), undefined, 'the upload did not run');
            await context.close();
        });

        it('the old URL on the app\'s origin only redirects: the script never runs there', async () => {
            const { context, page } = await newPage(DESKTOP, 'light');
            await j.signIn(page, ctx.url, alice.email);
            const path = new URL(site.urls.published).pathname;
            const res = await page.goto(`${ctx.url}${path}`);
            assert.equal(new URL(page.url()).origin, new URL(ctx.siteUrl).origin, 'followed to the site origin');
            assert.equal(res.status(), 200);
            await page.waitForFunction(() => window.__attack, null, { timeout: 20_000 });
            assert.equal((await page.evaluate(() => window.__attack)).csrf ?? false, false);
            await context.close();
        });
    });
}

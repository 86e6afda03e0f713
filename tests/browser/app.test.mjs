// The web interface (issue 25) in Debian's chromium (the harness of site.test.mjs): a user whose
// password was set with `docsd user password` opens /, is sent to the sign-in form, signs in and
// lands on Home; opens a space from the tree, a nested page from the sidebar, the change requests
// and their filters, one change request, then signs out. Desktop and phone widths, light and dark
// (prefers-color-scheme); full-page screenshots in artifacts/app-*.png. The page never scrolls
// sideways on a phone, the keyboard reaches the skip link and the focus ring is visible, and the
// CSP reports no violation (no inline script or style).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DESKTOP, PHONE, journey, launchChromium, submitSignIn } from './lib-app.mjs';

const INTRO = `Welcome to **Acme**, the docs of the Acme platform. Start with [authentication](./guides/authentication.md).

{% hint style="info" %}
Every page here is also readable through the API at \`/v1\`.
{% endhint %}

## Install

\`\`\`bash
npm install @acme/cli
acme login
\`\`\`

| Plan | Seats |
|------|-------|
| Free | 3 |
| Team | 50 |
`;

describe('web interface in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, bob, org, col, space, browser;
    const { violations, newPage, shot, noSideScroll } = journey(() => browser, 'app');

    async function signIn(page, email) {
        await page.goto(`${ctx.url}/`);
        assert.match(new URL(page.url()).pathname, /^\/signin$/);
        assert.equal(new URL(page.url()).searchParams.get('next'), '/');
        await submitSignIn(page, ctx.url, email);
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        col = await ok(alice.api.orgs.createCollection(org.id, { title: 'Products' }), 'createCollection', 201);
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Platform guide', emoji: '1f4d8' }), 'createSpace', 201);
        await ok(alice.api.spaces.moveSpace(space.id, { parent: col.id }), 'moveSpace');
        await ok(alice.api.orgs.createSpace(org.id, { title: 'Internal handbook' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'First pages' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: {
                changes: [
                    { operation: 'insert_page', title: 'Introduction', ref: 'intro', document: { markdown: INTRO } },
                    { operation: 'insert_page', title: 'Guides', ref: 'guides', document: { markdown: 'How to use Acme, step by step.\n' } },
                    { operation: 'insert_page', title: 'Authentication', into: 'guides', document: { markdown: '## Tokens\n\nSend a token in the `Authorization` header.\n\n## Sessions\n\nBrowsers sign in with a password.\n' } },
                    { operation: 'insert_page', title: 'Webhooks', into: 'guides', document: { markdown: 'Receive events.\n' } },
                ],
            },
        });
        assert.equal(w.status, 200, w.text);
        await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        const draft = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Rewrite the webhooks page' }), 'createChangeRequest', 201);
        const pages = (await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages;
        const webhooks = pages.find((p) => p.title === 'Guides').pages.find((p) => p.title === 'Webhooks');
        const e = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${draft.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'update_page', page: webhooks.id, document: { markdown: 'Receive signed events.\n\n## Verifying\n\nCheck the `X-Signature` header.\n' } }] },
        });
        assert.equal(e.status, 200, e.text);
        const open = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Add rate limits' }), 'createChangeRequest', 201);
        await ok(alice.api.spaces.updateChangeRequestById(space.id, open.id, { status: 'open' }), 'updateChangeRequestById');
        await ok(alice.api.orgs.createSite(org.id, { title: 'Acme Docs' }), 'createSite', 201);
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        browser = await launchChromium();
    });

    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    for (const [scheme, viewport, tag] of [['light', DESKTOP, 'desktop'], ['dark', DESKTOP, 'desktop-dark'], ['light', PHONE, 'phone'], ['dark', PHONE, 'phone-dark']]) {
        it(`sign in, home, a space, a page, change requests (${tag})`, async () => {
            const { context, page } = await newPage(viewport, scheme);
            try {
                await page.goto(`${ctx.url}/s/${space.id}`);
                assert.equal(new URL(page.url()).pathname, '/signin');
                if (tag === 'desktop') await shot(page, 'signin');
                await signIn(page, alice.email);
                // Home: the tree
                await page.getByRole('heading', { name: 'Your organizations' }).waitFor();
                assert.match(await page.locator('main').innerText(), /Products[\s\S]*Platform guide[\s\S]*Internal handbook/);
                assert.match(await page.locator('main').innerText(), /Acme Docs/);
                const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
                assert.equal(bg, scheme === 'dark' ? 'rgb(15, 18, 22)' : 'rgb(255, 255, 255)', 'the theme follows the system');
                await noSideScroll(page, 'home');
                await shot(page, `home-${tag}`);
                // keyboard: the first Tab reaches the skip link, with a visible ring
                await page.keyboard.press('Tab');
                assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content');
                const ring = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
                assert.equal(ring, 'solid');
                // a space from the tree: its first page
                await Promise.all([page.waitForURL(`**/s/${space.id}`), page.getByRole('link', { name: /Platform guide/ }).first().click()]);
                await page.getByRole('heading', { level: 1, name: 'Introduction' }).waitFor();
                assert.equal(await page.locator('article .hint').count(), 1);
                await noSideScroll(page, 'space');
                await shot(page, `space-${tag}`);
                // a nested page from the sidebar
                await Promise.all([page.waitForURL(`**/s/${space.id}/guides/authentication`),
                    page.locator('aside.tree').getByRole('link', { name: 'Authentication' }).click()]);
                assert.equal(await page.locator('aside.tree a[aria-current="page"]').innerText(), 'Authentication');
                await page.locator('#sessions').waitFor();
                await noSideScroll(page, 'page');
                await shot(page, `page-${tag}`);
                // change requests: open by default, then drafts
                await Promise.all([page.waitForURL(`**/s/${space.id}/~/changes`), page.getByRole('link', { name: 'Change requests' }).first().click()]);
                assert.match(await page.locator('main table').innerText(), /Add rate limits/);
                await Promise.all([page.waitForURL(/status=draft/), page.getByRole('link', { name: 'Draft', exact: true }).click()]);
                assert.match(await page.locator('main table').innerText(), /Rewrite the webhooks page/);
                assert.doesNotMatch(await page.locator('main table').innerText(), /Add rate limits/);
                await noSideScroll(page, 'change requests');
                await shot(page, `changes-${tag}`);
                await Promise.all([page.waitForURL(/status=merged/), page.getByRole('link', { name: 'Merged', exact: true }).click()]);
                await Promise.all([page.waitForURL(`**/~/changes/1`), page.getByRole('link', { name: /#1 First pages/ }).click()]);
                assert.match(await page.locator('main').innerText(), /merged[\s\S]*Alice Martin[\s\S]*Authentication/);
                await noSideScroll(page, 'change request');
                await shot(page, `change-request-${tag}`);
                // sign out
                await Promise.all([page.waitForURL(/\/signin/), page.getByRole('button', { name: 'Sign out' }).click()]);
                await page.goto(`${ctx.url}/`);
                assert.equal(new URL(page.url()).pathname, '/signin');
            } finally {
                await context.close();
            }
            assert.deepEqual(violations, [], 'no CSP violation, no dialog');
        });
    }

    for (const [viewport, tag] of [[DESKTOP, 'desktop'], [PHONE, 'phone']]) {
        it(`search across the organization, a site, a change request's page (${tag})`, async () => {
            const { context, page } = await newPage(viewport, 'light');
            try {
                await signIn(page, alice.email);
                await Promise.all([page.waitForURL(`**/o/${org.id}`), page.getByRole('link', { name: 'Acme', exact: true }).click()]);
                await page.getByLabel('Search this organization').fill('password');
                await Promise.all([page.waitForURL(/\/search\?q=password/), page.getByLabel('Search this organization').press('Enter')]);
                assert.match(await page.locator('main').innerText(), /Platform guide[\s\S]*Authentication/);
                await noSideScroll(page, 'search');
                await shot(page, `search-${tag}`);
                await page.goto(`${ctx.url}/o/${org.id}`);
                await Promise.all([page.waitForURL(/\/sites\//), page.getByRole('link', { name: 'Acme Docs' }).click()]);
                await page.getByRole('heading', { level: 1, name: 'Acme Docs' }).waitFor();
                await shot(page, `site-${tag}`);
                // the draft's page as the change request has it
                await page.goto(`${ctx.url}/s/${space.id}/~/changes/2`);
                await Promise.all([page.waitForURL(/\/~\/changes\/2\/guides\/webhooks$/), page.getByRole('link', { name: 'Webhooks' }).click()]);
                assert.match(await page.locator('article').innerText(), /You are reading change request #2[\s\S]*Receive signed events/);
                await noSideScroll(page, 'change request page');
                await shot(page, `change-request-page-${tag}`);
            } finally {
                await context.close();
            }
            assert.deepEqual(violations, [], 'no CSP violation, no dialog');
        });
    }

    it('a reader sees no edit controls; a missing space is the 404 page', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        try {
            await signIn(page, bob.email);
            await page.goto(`${ctx.url}/s/${space.id}/guides/authentication`);
            await page.locator('#tokens').waitFor();
            const forms = await page.locator('form[method=post]').evaluateAll((fs) => fs.map((f) => f.getAttribute('action')));
            assert.deepEqual(forms, ['/signout']);
            assert.equal(await page.locator('textarea, input[type=file], [contenteditable]').count(), 0);
            const r = await page.goto(`${ctx.url}/s/nosuchspace`);
            assert.equal(r.status(), 404);
            await shot(page, 'not-found');
        } finally {
            await context.close();
        }
    });
});

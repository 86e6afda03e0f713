// A site's administration in the web interface (issue 25) in Debian's chromium, the journey the
// issue asks for: an admin signs in, creates a site from the organization's page, adds a space
// that has a page (made through the API) from "Spaces and sections", changes the customization's
// primary color, publishes the site from its settings, opens the published site and reads the
// page's text there. Then the settings, structure and customization pages at desktop and phone
// width, light and dark; no sideways scroll on a phone; a reader sees no form; no CSP violation.
// Then two sections, a section group holding one of them and the group moved up with its button,
// and a site space's own primary color.
// Screenshots in artifacts/app-site-*.png.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DESKTOP, PHONE, journey, launchChromium } from './lib-app.mjs';

describe('a site\'s administration in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, bob, org, space, browser, siteId, publishedUrl;
    const j = journey(() => browser, 'app-site');
    const { violations, newPage, shot, noSideScroll } = j;
    const signIn = (page, email) => j.signIn(page, ctx.url, email);

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Handbook' }), 'createSpace', 201);
        await ok(alice.api.orgs.createSpace(org.id, { title: 'Reference' }), 'createSpace', 201);
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'First page' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'insert_page', title: 'Welcome', document: { markdown: 'Hello from the Acme handbook.\n\nRead on.\n' } }] },
        });
        assert.equal(w.status, 200, w.text);
        assert.equal((await ok(alice.api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest')).result, 'merge');
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        browser = await launchChromium();
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    it('create a site, add the space, customize, publish, read the published page', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, alice.email);
        await page.goto(`${ctx.url}/o/${org.id}`);
        await page.getByLabel("New site's title").fill('Acme handbook');
        await Promise.all([page.waitForURL(/\/sites\/[A-Za-z0-9]+\/settings$/), page.getByRole('button', { name: 'Create site' }).click()]);
        siteId = page.url().match(/\/sites\/([A-Za-z0-9]+)\/settings$/)[1];
        assert.equal(await page.getByLabel('Title').inputValue(), 'Acme handbook');
        // the structure: add the space
        await page.getByRole('link', { name: 'Spaces and sections' }).click();
        await page.getByLabel('Space', { exact: true }).selectOption({ label: 'Handbook' });
        await Promise.all([page.waitForURL(`${ctx.url}/o/${org.id}/sites/${siteId}/structure`), page.getByRole('button', { name: 'Add space' }).click()]);
        await page.getByRole('cell', { name: /Handbook/ }).first().waitFor();
        assert.match(await page.locator('main table').innerText(), /Handbook\s+default/);
        await shot(page, 'structure');
        // the customization: a primary color, and a bad one refused with the domain's message
        await page.getByRole('link', { name: 'Customization' }).click();
        await page.getByLabel('Primary color, light mode').fill('#c2410c');
        await page.getByLabel('Primary color, dark mode').fill('#fb923c');
        await Promise.all([page.waitForURL(`${ctx.url}/o/${org.id}/sites/${siteId}/customization`), page.getByRole('button', { name: 'Save customization' }).click()]);
        assert.equal(await page.getByLabel('Primary color, light mode').inputValue(), '#c2410c');
        await page.getByLabel('Tint, light mode (empty: no tint)').fill('tomato');
        await page.getByRole('button', { name: 'Save customization' }).click();
        await page.getByRole('alert').waitFor();
        assert.match(await page.getByRole('alert').innerText(), /styling\.tint\.color\.light: must be a color/);
        assert.equal(await page.getByLabel('Tint, light mode (empty: no tint)').inputValue(), 'tomato', 'what was typed is kept');
        await shot(page, 'customization-refused');
        const c = await ok(alice.api.orgs.getSiteCustomizationById(org.id, siteId), 'getSiteCustomizationById');
        assert.deepEqual(c.styling.primaryColor, { light: '#c2410c', dark: '#fb923c' });
        assert.equal(c.styling.tint, undefined);
        // publish from the settings
        await page.getByRole('link', { name: 'Settings and publishing' }).click();
        await Promise.all([page.waitForURL(`${ctx.url}/o/${org.id}/sites/${siteId}/settings`), page.getByRole('button', { name: 'Publish' }).click()]);
        await page.getByText('published', { exact: true }).waitFor();
        await shot(page, 'settings');
        const site = await ok(alice.api.orgs.getSiteById(org.id, siteId), 'getSiteById');
        assert.equal(site.published, true);
        publishedUrl = site.urls.published;
        assert.equal(new URL(publishedUrl).pathname, `/sites/${siteId}`);
        // the site's page links it
        await page.goto(`${ctx.url}/o/${org.id}/sites/${siteId}`);
        await Promise.all([page.waitForURL(`${publishedUrl}`), page.getByRole('link', { name: publishedUrl }).click()]);
        await page.getByText('Hello from the Acme handbook.').waitFor();
        assert.match(await page.locator('h1').first().innerText(), /Welcome/);
        await shot(page, 'published');
        await context.close();
    });

    it('the published page on a phone', async () => {
        assert.ok(publishedUrl, 'published by the journey');
        const { context, page } = await newPage(PHONE, 'light');
        await page.goto(publishedUrl);
        await page.getByText('Hello from the Acme handbook.').waitFor();
        await noSideScroll(page, 'the published page (phone)');
        await shot(page, 'published-phone');
        await context.close();
    });

    it('structure: two sections, a group with one of them, the group moved up; the API reads it back', async () => {
        assert.ok(siteId, 'created by the journey');
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, alice.email);
        const url = `${ctx.url}/o/${org.id}/sites/${siteId}/structure`;
        await page.goto(url);
        for (const space of ['Handbook', 'Reference']) {
            await page.getByLabel('Its first space').selectOption({ label: space });
            await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Create section' }).click()]);
        }
        await page.getByLabel("Group's title").fill('Guides');
        await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Create group' }).click()]);
        await page.getByLabel('Add a section to Guides').selectOption({ label: 'Reference' });
        await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Add to group' }).click()]);
        const shape = (st) => st.structure.map((x) => (x.object === 'site-section-group' ? `${x.title}: ${x.children.map((c) => c.title).join(', ')}` : x.title));
        assert.deepEqual(shape(await ok(alice.api.orgs.getSiteStructure(org.id, siteId), 'getSiteStructure')), ['Handbook', 'Guides: Reference']);
        await Promise.all([page.waitForURL(url), page.getByRole('button', { name: 'Move the group Guides up' }).click()]);
        assert.deepEqual(shape(await ok(alice.api.orgs.getSiteStructure(org.id, siteId), 'getSiteStructure')), ['Guides: Reference', 'Handbook']);
        assert.equal(await page.getByRole('button', { name: 'Move the group Guides up' }).count(), 0, 'the first item has no Move up');
        await page.getByRole('button', { name: 'Move the group Guides down' }).waitFor();
        await shot(page, 'structure-groups');
        // a site space's own primary color, then "Use the site's customization" is offered
        await Promise.all([page.waitForURL(/\/site-spaces\/[A-Za-z0-9]+\/customization$/), page.getByRole('link', { name: 'Customize' }).first().click()]);
        await page.getByLabel('Primary color, light mode').fill('#0e7490');
        await Promise.all([page.waitForURL(/\/customization$/), page.getByRole('button', { name: 'Save customization' }).click()]);
        await page.getByRole('button', { name: "Use the site's customization" }).waitFor();
        assert.equal(await page.getByLabel('Primary color, light mode').inputValue(), '#0e7490');
        await shot(page, 'site-space-customization');
        await context.close();
    });

    for (const [scheme, viewport, tag] of [['dark', DESKTOP, 'desktop-dark'], ['light', PHONE, 'phone'], ['dark', PHONE, 'phone-dark']]) {
        it(`the site's pages at ${tag}`, async () => {
            assert.ok(siteId, 'created by the journey');
            const { context, page } = await newPage(viewport, scheme);
            await signIn(page, alice.email);
            for (const name of ['settings', 'structure', 'customization']) {
                await page.goto(`${ctx.url}/o/${org.id}/sites/${siteId}/${name}`);
                await noSideScroll(page, `${name} (${tag})`);
                await shot(page, `${name}-${tag}`);
            }
            await context.close();
        });
    }

    it('a reader sees the site\'s pages without any form', async () => {
        assert.ok(siteId, 'created by the journey');
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, bob.email);
        await page.goto(`${ctx.url}/o/${org.id}`);
        assert.equal(await page.getByRole('button', { name: 'Create site' }).count(), 0);
        for (const name of ['settings', 'structure', 'customization']) {
            await page.goto(`${ctx.url}/o/${org.id}/sites/${siteId}/${name}`);
            assert.equal(await page.locator('main form').count(), 0, `${name}: no form`);
        }
        assert.match(await page.locator('main').innerText(), /#c2410c/);
        await shot(page, 'reader-customization');
        await context.close();
        assert.deepEqual(violations, []);
    });
});

// The web interface's administration pages (issue 25) in Debian's chromium: an admin signs in,
// creates a personal API token from the header's "API tokens" link (shown once, it works against
// the API), revokes it (the next API request is refused), changes a member's role from the
// members page, creates a team and adds a member to it by email, creates an invite link; a reader
// sees the member list without any form. Desktop and phone, light and dark; screenshots in
// artifacts/app-admin-*.png; no sideways scroll on a phone; no CSP violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DESKTOP, PHONE, journey, launchChromium } from './lib-app.mjs';

describe('web interface administration in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, bob, carol, org, space, browser;
    const { violations, newPage, shot, noSideScroll, signIn: signInAt } = journey(() => browser, 'app-admin');
    const signIn = (page, email) => signInAt(page, ctx.url, email);

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        carol = await ctx.user('carol', { name: 'Carol Writer' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, carol.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Platform guide' }), 'createSpace', 201);
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        browser = await launchChromium();
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    it('tokens: create from the header link, shown once, works; revoke, refused at once', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, alice.email);
        await page.getByRole('link', { name: 'API tokens' }).click();
        await page.waitForURL(`${ctx.url}/settings/tokens`);
        await page.getByLabel(/^Name/).fill('CI publishing');
        await page.getByRole('button', { name: 'Create token' }).click();
        const token = await page.getByLabel('Token').inputValue();
        assert.match(token, /^gb_api_[A-Za-z0-9]+$/);
        await shot(page, 'token-created');
        const me = await raw(ctx.url, 'GET', '/v1/user', { token });
        assert.equal(me.status, 200);
        await page.goto(`${ctx.url}/settings/tokens`);
        assert.ok(!(await page.content()).includes(token), 'the list never shows it');
        await shot(page, 'tokens');
        await page.getByRole('button', { name: 'Revoke CI publishing' }).click();
        await page.waitForURL(`${ctx.url}/settings/tokens`);
        assert.equal((await raw(ctx.url, 'GET', '/v1/user', { token })).status, 401);
        await context.close();
    });

    it('members, teams and invitations as an admin', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, alice.email);
        await page.goto(`${ctx.url}/o/${org.id}`);
        await page.getByRole('link', { name: 'Members' }).click();
        await page.getByLabel('Role of Carol Writer').selectOption('review');
        await Promise.all([page.waitForURL(`${ctx.url}/o/${org.id}/members`), page.locator('form', { has: page.getByLabel('Role of Carol Writer') }).getByRole('button', { name: 'Change' }).click()]);
        assert.equal(await page.getByLabel('Role of Carol Writer').inputValue(), 'review');
        await shot(page, 'members');
        // the last admin cannot demote herself: the message on the page
        await page.getByLabel('Role of Alice Martin').selectOption('read');
        await page.locator('form', { has: page.getByLabel('Role of Alice Martin') }).getByRole('button', { name: 'Change' }).click();
        await page.getByRole('alert').waitFor();
        assert.match(await page.getByRole('alert').innerText(), /admin/);
        await shot(page, 'members-refused');
        await page.getByRole('link', { name: 'Teams' }).click();
        await page.getByLabel("New team's name").fill('Writers');
        await page.getByRole('button', { name: 'Create team' }).click();
        await page.getByRole('heading', { name: 'Writers' }).waitFor();
        await page.getByLabel(/^Add a member/).fill(carol.email);
        await page.getByRole('button', { name: 'Add' }).click();
        await page.getByRole('cell', { name: 'Carol Writer', exact: true }).waitFor();
        await shot(page, 'team');
        await page.goto(`${ctx.url}/o/${org.id}/invites`);
        await page.getByLabel('Role of those who join with the new link').selectOption('read');
        await page.getByRole('button', { name: 'Create link' }).click();
        await page.getByRole('button', { name: 'Delete link' }).waitFor();
        await shot(page, 'invites');
        // the space's settings and permissions, from the space's Settings link
        await page.goto(`${ctx.url}/s/${space.id}`);
        await page.getByRole('navigation', { name: 'Space' }).getByRole('link', { name: 'Settings' }).click();
        await page.getByLabel('Title').fill('Platform handbook');
        await page.getByLabel(/^Emoji/).fill('1f4d8');
        await page.getByLabel(/^Edit mode/).selectOption('locked');
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/~/settings`), page.getByRole('button', { name: 'Save settings' }).click()]);
        assert.equal(await page.getByLabel('Title').inputValue(), 'Platform handbook');
        await page.getByLabel('Give a role to').selectOption({ label: 'Carol Writer' });
        await page.getByLabel('Role', { exact: true }).selectOption('admin');
        await page.getByRole('button', { name: 'Grant' }).click();
        await page.getByRole('cell', { name: 'Carol Writer', exact: true }).waitFor();
        await shot(page, 'space-settings');
        const api = await raw(ctx.url, 'GET', `/v1/spaces/${space.id}`, { token: alice.token });
        assert.equal(api.json.title, 'Platform handbook');
        assert.equal(api.json.editMode, 'locked');
        await context.close();
    });

    for (const [scheme, viewport, tag] of [['dark', DESKTOP, 'desktop-dark'], ['light', PHONE, 'phone'], ['dark', PHONE, 'phone-dark']]) {
        it(`the pages at ${tag}`, async () => {
            const { context, page } = await newPage(viewport, scheme);
            await signIn(page, alice.email);
            for (const [path, name] of [['/settings/tokens', 'tokens'], [`/o/${org.id}/members`, 'members'], [`/o/${org.id}/invites`, 'invites'], [`/s/${space.id}/~/settings`, 'space-settings']]) {
                await page.goto(`${ctx.url}${path}`);
                await noSideScroll(page, `${path} (${tag})`);
                await shot(page, `${name}-${tag}`);
            }
            await context.close();
        });
    }

    it('a reader sees the members without any form; keyboard focus is visible', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await signIn(page, bob.email);
        await page.goto(`${ctx.url}/o/${org.id}/members`);
        assert.equal(await page.locator('main form').count(), 0);
        assert.equal(await page.locator('main select').count(), 0);
        await page.goto(`${ctx.url}/o/${org.id}/invites`);
        assert.match(await page.locator('h1').innerText(), /Not found/);
        await page.goto(`${ctx.url}/settings/tokens`);
        await page.getByLabel(/^Name/).focus();
        const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
        assert.notEqual(outline, 'none');
        await shot(page, 'reader-members');
        await context.close();
        assert.deepEqual(violations, []);
    });
});

// Writing through change requests in Debian's chromium (issue 25, "Writing"; src/app/pages_write.c):
// an editor signs in, starts a change request from the space page, creates two pages, types
// markdown and sees the live preview follow (edit.js: a debounced POST to /s/{id}/~/preview),
// saves (one updateChangeRequestContent batch: the API sees the page), uploads an image and shows it
// in the page, renames, moves and deletes a
// page; without script the Preview button renders server-side. A reader sees no edit controls.
// Two people saving the same page from two browsers (issue 30, item 4): different lines are merged
// and the second save says so; the same line is a 409 conflict page with both sides, resolved and
// saved again. Desktop and phone, light and dark; screenshots in artifacts/app-write-*.png; no CSP
// violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DESKTOP, PHONE, journey, launchChromium, submitSignIn } from './lib-app.mjs';
// a 240x80 PNG (a checkerboard)
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAPAAAABQCAIAAACoK28rAAABNElEQVR42u3boQ0AIAxFQTxbMjQzIPEYJqhpgqGX4C/5fZbWx0y/tU/6cbkv3GZorqANzRW0A3MFzeUKmitoQ3MFbWiuoB2YK2guV9BcQRuaK2hDcwXN5QqayxU0V9CG5gra0FxBc7mC5nLDoI3F/ckVNFfQhuYK2oG5guZyBc0VtKG5gjY0V9AOzBU0lytorqANzRW0obmCdmCuoLlcQXMFbWiuoA3NFTSXK2guNw7aWFy/vg3NFbQDcwXN5QqaK2hDcwVtaK6gHZgraC5X0FxBG5oraENzBc3lCprLFTRX0IbmCtrQXEFzuYLmcgXNrRG0sbh+fRuaK2gH5gqayxU0V9CG5gra0FxBOzBX0FyuoLmCNjRX0IbmCprLFTSXK2iuoA3NFbShuYLmcgXN5QqaW8K9aA9B+IkeYMUAAAAASUVORK5CYII=', 'base64');

describe('web interface: writing in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, bob, carol, org, space, browser;
    const j = journey(() => browser, 'app-write');
    const { violations, shot, noSideScroll } = j;
    const newPage = (viewport, colorScheme, javaScriptEnabled = true) => j.newPage(viewport, colorScheme, { javaScriptEnabled });

    async function signIn(page, email) {
        await page.goto(`${ctx.url}/`);
        await submitSignIn(page, ctx.url, email);
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Reader' });
        carol = await ctx.user('carol', { name: 'Carol Editor' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, carol.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Platform guide' }), 'createSpace', 201);
        await setPassword(ctx.server, alice.email, PASSWORD);
        await setPassword(ctx.server, bob.email, PASSWORD);
        await setPassword(ctx.server, carol.email, PASSWORD);
        browser = await launchChromium();
    });

    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    let crPath;

    it('start a change request, create two pages, edit with a live preview, save, rename, move, delete (desktop)', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        try {
            await signIn(page, alice.email);
            await page.goto(`${ctx.url}/s/${space.id}`);
            await page.getByLabel('New change request').fill('Write the first pages');
            await Promise.all([page.waitForURL(/\/~\/changes\/\d+\/~\/edit$/), page.getByRole('button', { name: 'Start' }).click()]);
            crPath = new URL(page.url()).pathname.replace(/\/~\/edit$/, '');
            await shot(page, 'pages-empty');
            // two pages, the second inside the first
            await page.getByLabel('Title').fill('Getting started');
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('button', { name: 'Create page' }).click()]);
            const firstEditor = page.url();
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await page.getByLabel('Title').fill('Install');
            await page.getByLabel('Inside').selectOption({ label: 'Getting started' });
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('button', { name: 'Create page' }).click()]);
            // the editor: type, the preview follows without a reload
            await page.goto(firstEditor);
            assert.equal(await page.getByRole('button', { name: 'Preview' }).isHidden(), true, 'the Preview button is for no-script only');
            await page.getByLabel('Markdown').fill('Welcome to **Acme**.\n\n## Install\n\nRun `acme login`.\n\n{% hint style="info" %}\nAlso through the API.\n{% endhint %}\n');
            await page.locator('#preview strong', { hasText: 'Acme' }).waitFor();
            await page.locator('#preview code', { hasText: 'acme login' }).waitFor();
            await page.getByLabel('Title', { exact: true }).fill('Start here');
            await page.getByLabel('Markdown').focus();
            await shot(page, 'editor');
            await Promise.all([page.waitForURL(new RegExp(`${crPath}/getting-started$`)), page.getByRole('button', { name: 'Save' }).click()]);
            await page.getByRole('heading', { name: 'Start here' }).waitFor();
            await shot(page, 'saved');
            // the API sees the same page in the change request
            const crNumber = crPath.split('/').pop();
            const crs = await ok(alice.api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' }), 'listChangeRequestsForSpace');
            const cr = crs.items.find((c) => String(c.number) === crNumber);
            const pages = (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, cr.id), 'listPagesInChangeRequest')).pages;
            assert.equal(pages[0].title, 'Start here');
            assert.equal(pages[0].pages[0].title, 'Install');
            // upload an image, put it in the page: the preview and the saved page show it
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await page.getByLabel(/Upload images or files/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: PNG });
            await Promise.all([page.waitForURL(/\/~\/edit#files$/), page.getByRole('button', { name: 'Upload', exact: true }).click()]);
            const snippet = await page.locator('ul.files code').first().textContent();
            assert.match(snippet, /^!\[logo\.png\]\(\/files\/[A-Za-z0-9_-]+\)$/);
            await shot(page, 'files');
            await page.goto(firstEditor);
            await page.getByLabel('Markdown').fill(`Welcome to **Acme**.\n\n${snippet}\n`);
            await page.waitForFunction(() => { const i = document.querySelector('#preview img'); return i && i.complete && i.naturalWidth > 0; });
            await Promise.all([page.waitForURL(new RegExp(`${crPath}/getting-started$`)), page.getByRole('button', { name: 'Save' }).click()]);
            await page.waitForFunction(() => { const i = document.querySelector('article img'); return i && i.complete && i.naturalWidth > 0; });
            await shot(page, 'saved-image');
            // the page in the change request links back to its editor
            await Promise.all([page.waitForURL(firstEditor), page.getByRole('link', { name: 'Edit this page' }).click()]);
            // move Install to the top level, first
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('link', { name: 'Edit Install' }).click()]);
            await page.getByLabel('Inside').selectOption('');
            await page.getByLabel('Position (1 is first)').fill('1');
            await Promise.all([page.waitForURL(new RegExp(`${crPath}/install$`)), page.getByRole('button', { name: 'Move page' }).click()]);
            let after = (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, cr.id), 'listPagesInChangeRequest')).pages;
            assert.deepEqual(after.map((p) => p.title), ['Install', 'Start here']);
            // delete it
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('link', { name: 'Edit Install' }).click()]);
            await Promise.all([page.waitForURL(new RegExp(`${crPath}/~/edit$`)), page.getByRole('button', { name: 'Delete page' }).click()]);
            after = (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, cr.id), 'listPagesInChangeRequest')).pages;
            assert.deepEqual(after.map((p) => p.title), ['Start here']);
            await shot(page, 'pages');
            // the change request's page links the editor
            await page.goto(`${ctx.url}${crPath}`);
            await page.getByRole('link', { name: 'Edit pages' }).waitFor();
            assert.deepEqual(violations, []);
        } finally {
            await context.close();
        }
    });

    it('drag a page onto another in the pages list (edit.js submits the move form); the editor\'s keys', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        try {
            const crNumber = crPath.split('/').pop();
            const cr = (await ok(alice.api.spaces.listChangeRequestsForSpace(space.id, { status: 'draft' }), 'listChangeRequestsForSpace'))
                .items.find((c) => String(c.number) === crNumber);
            const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes: [
                { operation: 'insert_page', title: 'Alpha', document: { markdown: 'Alpha.\n' } },
                { operation: 'insert_page', title: 'Beta', document: { markdown: 'Beta.\n' } },
            ] } });
            assert.equal(w.status, 200, w.text);
            const tops = async () => (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, cr.id), 'listPagesInChangeRequest')).pages;
            const byTitle = (ps, t) => ps.find((x) => x.title === t);
            let ps = await tops();
            assert.deepEqual(ps.map((x) => x.title), ['Start here', 'Alpha', 'Beta']);
            const [start, alpha, beta] = ['Start here', 'Alpha', 'Beta'].map((t) => byTitle(ps, t).id);

            await signIn(page, alice.email);
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await page.locator('#dnd-hint').waitFor({ state: 'visible' });
            const row = (id) => page.locator(`main > ul.write-tree li[data-page="${id}"] > span`);
            assert.equal(await row(alpha).getAttribute('draggable'), 'true');
            const moved = () => page.waitForResponse((r) => r.url().includes('/~/move/') && r.request().method() === 'POST');
            // Alpha onto the middle of "Start here": inside it
            await Promise.all([moved(), row(alpha).dragTo(row(start))]);
            await page.waitForLoadState('load');
            assert.equal(new URL(page.url()).pathname, `${crPath}/~/edit`);
            await page.locator(`li[data-page="${start}"] li[data-page="${alpha}"]`).waitFor();
            ps = await tops();
            assert.deepEqual(ps.map((x) => x.title), ['Start here', 'Beta']);
            assert.deepEqual(byTitle(ps, 'Start here').pages.map((x) => x.title), ['Alpha']);
            // Beta onto the top edge of "Start here": before it
            const box = await row(start).boundingBox();
            await Promise.all([moved(), row(beta).dragTo(row(start), { targetPosition: { x: 8, y: 1 } })]);
            await page.waitForLoadState('load');
            await page.locator('#dnd-hint').waitFor({ state: 'visible' });
            assert.ok(box.height > 0);
            ps = await tops();
            assert.deepEqual(ps.map((x) => x.title), ['Beta', 'Start here']);
            assert.deepEqual(await page.locator('main > ul.write-tree > li > span').allTextContents(), ['Beta', 'Start here']);
            await shot(page, 'dnd');

            // the editor: Tab and Shift+Tab indent and outdent the selected lines, Enter continues a list,
            // Escape then Tab leaves the text, Ctrl+S saves
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('link', { name: 'Edit Alpha' }).click()]);
            await page.locator('#md-keys').waitFor({ state: 'visible' });
            const md = page.getByLabel('Markdown');
            await md.fill('- one\n- two');
            await md.press('Control+a');
            await md.press('Tab');
            assert.equal(await md.inputValue(), '  - one\n  - two');
            assert.equal(await page.evaluate(() => document.activeElement.id), 'markdown', 'Tab stays in the text');
            await md.press('Shift+Tab');
            assert.equal(await md.inputValue(), '- one\n- two');
            await md.press('Control+End');
            await md.press('Enter');
            await md.pressSequentially('three');
            assert.equal(await md.inputValue(), '- one\n- two\n- three');
            await md.press('Enter');
            await md.press('Enter'); // an empty item ends the list
            assert.equal(await md.inputValue(), '- one\n- two\n- three\n');
            await md.press('Control+z'); // undo keeps working (execCommand)
            assert.equal(await md.inputValue(), '- one\n- two\n- three\n- ');
            await page.locator('#preview li', { hasText: 'three' }).waitFor();
            await shot(page, 'editor-keys');
            await md.press('Escape');
            await md.press('Tab');
            assert.notEqual(await page.evaluate(() => document.activeElement.id), 'markdown', 'Escape then Tab leaves the text');
            await md.focus();
            await Promise.all([page.waitForURL(/\/alpha$/), md.press('Control+s')]);
            const saved = await ok(alice.api.spaces.getPageInChangeRequestById(space.id, cr.id, alpha, { format: 'markdown' }), 'getPageInChangeRequestById');
            assert.equal(saved.markdown, "- one\n- two\n- three\n- ", "LF line breaks, as typed");
            assert.deepEqual(violations, []);
        } finally {
            await context.close();
        }
    });

    for (const [scheme, viewport, tag] of [['dark', DESKTOP, 'desktop-dark'], ['light', PHONE, 'phone'], ['dark', PHONE, 'phone-dark']]) {
        it(`the editor at ${tag}`, async () => {
            const { context, page } = await newPage(viewport, scheme);
            try {
                await signIn(page, alice.email);
                await page.goto(`${ctx.url}${crPath}/~/edit`);
                await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('link', { name: 'Edit Start here' }).click()]);
                await page.locator('#preview strong').waitFor();
                await noSideScroll(page, `editor ${tag}`);
                await page.keyboard.press('Tab');
                await shot(page, `editor-${tag}`);
                assert.deepEqual(violations, []);
            } finally {
                await context.close();
            }
        });
    }

    it('without script: Preview renders on the server, nothing saved', async () => {
        const { context, page } = await newPage(DESKTOP, 'light', false);
        try {
            await signIn(page, alice.email);
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await Promise.all([page.waitForURL(/\/~\/edit\/[^/]+$/), page.getByRole('link', { name: 'Edit Start here' }).click()]);
            const editor = page.url();
            await page.getByLabel('Markdown').fill('Only a *preview*.\n');
            await Promise.all([page.waitForURL(editor), page.getByRole('button', { name: 'Preview' }).click()]);
            await page.locator('#preview em', { hasText: 'preview' }).waitFor();
            await shot(page, 'preview-noscript');
            await page.goto(editor);
            assert.match(await page.getByLabel('Markdown').inputValue(), /Welcome to \*\*Acme\*\*/, 'the preview saved nothing');
        } finally {
            await context.close();
        }
    });

    it('two browsers save the same page: different lines merge, the same line is a conflict to resolve', async () => {
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Together' }), 'createChangeRequest', 201);
        const lines = (change = {}) => Array.from({ length: 10 }, (_, i) => change[i + 1] ?? `Line ${i + 1}.`).join('\n') + '\n';
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content?compat=false`, {
            token: alice.token, json: { changes: [{ operation: 'insert_page', title: 'Shared', document: { markdown: lines() } }] },
        });
        assert.equal(w.status, 200, w.text);
        const id = w.json.changes[0].page.id;
        const editor = `${ctx.url}/s/${space.id}/~/changes/${cr.number}/~/edit/${id}`;
        const body = async () => (await ok(alice.api.spaces.getPageInChangeRequestById(space.id, cr.id, id, { format: 'markdown' }), 'getPageInChangeRequestById')).markdown;
        const a = await newPage(DESKTOP, 'light'), c = await newPage(PHONE, 'dark');
        try {
            await signIn(a.page, alice.email);
            await signIn(c.page, carol.email);
            const both = async () => { await a.page.goto(editor); await c.page.goto(editor); };
            const save = (page) => Promise.all([
                page.waitForResponse((r) => r.request().method() === 'POST' && r.url() === editor),
                page.getByRole('button', { name: 'Save' }).click(),
            ]).then(([r]) => r);
            // different lines, from the same head
            await both();
            await a.page.getByLabel('Markdown').fill(lines({ 1: 'Line one, by Alice.' }));
            await Promise.all([a.page.waitForURL(/\/shared$/), a.page.getByRole('button', { name: 'Save' }).click()]);
            await c.page.getByLabel('Markdown').fill(lines({ 9: 'Line nine, by Carol.' }));
            assert.equal((await save(c.page)).status(), 200);
            await c.page.getByRole('status').filter({ hasText: "merged line by line with Alice Martin's edit" }).waitFor();
            assert.equal(await c.page.getByLabel('Markdown').inputValue(), lines({ 1: 'Line one, by Alice.', 9: 'Line nine, by Carol.' }));
            await shot(c.page, 'merged-phone-dark');
            assert.equal(await body(), lines({ 1: 'Line one, by Alice.', 9: 'Line nine, by Carol.' }));
            // the same line: Carol's save is a conflict, nothing written
            await both();
            const now = await body();
            await a.page.getByLabel('Markdown').fill(now.replace('Line 5.', 'Line five, by Alice.'));
            await Promise.all([a.page.waitForURL(/\/shared$/), a.page.getByRole('button', { name: 'Save' }).click()]);
            await c.page.getByLabel('Markdown').fill(now.replace('Line 5.', 'Line five, by Carol.'));
            assert.equal((await save(c.page)).status(), 409);
            await c.page.getByRole('heading', { name: 'This page changed while you edited it' }).waitFor();
            assert.match(await c.page.locator('section.conflict .sides > div').first().textContent(), /Line five, by Alice\./);
            assert.match(await c.page.locator('section.conflict .sides > div').last().textContent(), /Line five, by Carol\./);
            await noSideScroll(c.page, 'conflict phone-dark');
            await shot(c.page, 'conflict-phone-dark');
            assert.equal(await body(), now.replace('Line 5.', 'Line five, by Alice.'), 'nothing of Alice\'s is lost');
            // Carol resolves in the form the conflict page holds, and saves
            await c.page.getByLabel('Markdown').fill(now.replace('Line 5.', 'Line five, by Alice and Carol.'));
            await Promise.all([c.page.waitForURL(/\/shared$/), c.page.getByRole('button', { name: 'Save' }).click()]);
            assert.equal(await body(), now.replace('Line 5.', 'Line five, by Alice and Carol.'));
            assert.deepEqual(violations, []);
        } finally {
            await a.context.close();
            await c.context.close();
        }
    });

    it('a reader sees no edit controls', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        try {
            await signIn(page, bob.email);
            await page.goto(`${ctx.url}/s/${space.id}`);
            assert.equal(await page.getByLabel('New change request').count(), 0);
            await page.goto(`${ctx.url}${crPath}`);
            assert.equal(await page.getByRole('link', { name: 'Edit pages' }).count(), 0);
            await page.goto(`${ctx.url}${crPath}/~/edit`);
            await page.getByText('You may read this change request but not edit it.').waitFor();
            assert.equal(await page.locator('textarea, form.write').count(), 0);
            await shot(page, 'reader');
        } finally {
            await context.close();
        }
    });
});

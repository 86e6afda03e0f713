// The web interface's Git sync and translations pages (issue 25) in Debian's chromium: an admin
// opens a space's settings, follows "Git sync", imports a bare repository on disk through the
// form; the page reloads itself (meta refresh, no script) until the import is a success, and the
// space shows the imported pages. Then the organization's Translations link, a translation into
// Spanish created and run through the forms (Debian's Apertium), its page followed until
// completed. Desktop light and phone dark; screenshots in artifacts/app-git-*.png; no sideways
// scroll on a phone; no CSP violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, createOrg } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DATABASE_URL } from '../api/lib/server.mjs';
import { workTree, bare } from '../api/lib/git.mjs';
import { DESKTOP, PHONE, journey, launchChromium } from './lib-app.mjs';

const FIXTURE = {
    'README.md': '# Welcome\n\nThe house is red.\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
    'guide.md': '# Guide\n\nThe dog runs in the garden.\n',
};

describe('web interface Git sync and translations in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, org, space, browser, root, repo;
    const j = journey(() => browser, 'app-git');
    const { violations, shot, noSideScroll } = j;
    /** A page signed in as alice. */
    async function newPage(viewport, colorScheme) {
        const { context, page } = await j.newPage(viewport, colorScheme);
        await j.signIn(page, ctx.url, alice.email);
        return { context, page };
    }

    before(async () => {
        root = mkdtempSync(join(tmpdir(), 'docsd-browser-git-'));
        repo = bare(root, 'docs', workTree(root, 'docs-src', FIXTURE));
        ctx = await setup({ extraArgs: ['--allow-private-network', ...(DATABASE_URL ? ['--data', join(root, 'data')] : [])] });
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Platform guide' }), 'createSpace', 201);
        await setPassword(ctx.server, alice.email, PASSWORD);
        browser = await launchChromium();
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
        if (root) rmSync(root, { recursive: true, force: true });
    });

    it('Git sync: from the settings link, an import through the form, followed until success', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await page.goto(`${ctx.url}/s/${space.id}/~/settings`);
        await page.getByRole('link', { name: /^Git sync/ }).click();
        await page.waitForURL(`${ctx.url}/s/${space.id}/~/git`);
        await shot(page, 'unlinked');
        await page.locator('#imp-url').fill(`file://${repo}`);
        await page.locator('#imp-ref').fill('main');
        await Promise.all([page.waitForURL(`${ctx.url}/s/${space.id}/~/git`), page.getByRole('button', { name: 'Import' }).click()]);
        // the page reloads itself (meta refresh) until the import is done
        await page.locator('#git-state', { hasText: 'success' }).waitFor({ timeout: 30_000 });
        assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'no reload once done');
        await shot(page, 'imported');
        const rev = await ok(alice.api.spaces.getCurrentRevision(space.id), 'getCurrentRevision');
        assert.deepEqual(rev.pages.map((p) => p.title), ['Welcome', 'Guide']);
        // a refused form: the message in an alert, the URL field empty again
        await page.locator('#exp-url').fill(`file://${repo}`);
        await page.locator('#exp-ref').fill('a..b');
        await page.getByRole('button', { name: 'Export' }).click();
        await page.getByRole('alert').waitFor();
        assert.match(await page.getByRole('alert').innerText(), /^ref: /);
        assert.equal(await page.locator('#exp-url').inputValue(), '');
        await shot(page, 'refused');
        await context.close();
    });

    it('translations: from the organization page, create and run one, followed until completed', async () => {
        const { context, page } = await newPage(DESKTOP, 'light');
        await page.goto(`${ctx.url}/o/${org.id}`);
        await page.getByRole('link', { name: 'Translations of spaces' }).click();
        await page.waitForURL(`${ctx.url}/o/${org.id}/translations`);
        await page.getByLabel('Source space', { exact: true }).selectOption({ label: 'Platform guide' });
        await page.getByLabel("The source space's language").selectOption('en');
        await page.getByLabel('Translate into').selectOption('es');
        await page.getByRole('button', { name: 'Create translation' }).click();
        await page.locator('#tr-status').waitFor();
        await shot(page, 'translation-created');
        await page.getByRole('button', { name: 'Run now' }).click();
        await page.locator('#tr-status [data-status="completed"]').waitFor({ timeout: 60_000 });
        assert.equal(await page.locator('meta[http-equiv="refresh"]').count(), 0, 'no reload once completed');
        assert.ok(await page.getByRole('link', { name: 'Open the translated space' }).isVisible());
        await shot(page, 'translation-completed');
        await page.getByRole('link', { name: 'Translations', exact: true }).click();
        await page.getByRole('table').waitFor();
        await shot(page, 'translations');
        await context.close();
    });

    it('on a phone in the dark: no sideways scroll; no CSP violation anywhere', async () => {
        const { context, page } = await newPage(PHONE, 'dark');
        await page.goto(`${ctx.url}/s/${space.id}/~/git`);
        await noSideScroll(page, 'the Git page');
        await shot(page, 'phone-dark');
        await page.goto(`${ctx.url}/o/${org.id}/translations`);
        await noSideScroll(page, 'the translations page');
        await shot(page, 'translations-phone-dark');
        await context.close();
        assert.deepEqual(violations, []);
    });
});

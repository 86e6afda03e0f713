// Reviewing in the web interface (issue 25, src/app/pages_review.c) in Debian's chromium: the
// author asks a reviewer with the form; the reviewer signs in, reads the differences, comments
// and approves; the author replies, resolves and merges. A merge blocked by a merge rule shows the
// domain's reasons; an update that conflicts lists both sides; a reader sees no controls.
// Screenshots artifacts/app-review-*.png (desktop light, phone dark); no sideways scroll on a phone;
// no CSP violation.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from '../api/lib/api.mjs';
import { PASSWORD, setPassword } from '../api/lib/app.mjs';
import { DESKTOP, PHONE, journey, launchChromium } from './lib-app.mjs';

const BASE = `# Webhooks

Receive events from Acme.

## Delivery

Events are sent once.
Failures are dropped.

## Security

Use HTTPS.
`;
const EDITED = `# Webhooks

Receive signed events from Acme.

## Delivery

Events are sent once.
Failures are retried three times, then dropped.

## Security

Use HTTPS.
Check the \`X-Signature\` header.
`;

describe('reviewing a change request in chromium', { timeout: 240_000 }, () => {
    let ctx, alice, bob, dan, org, space, pageId, cr, browser;
    const j = journey(() => browser, 'app-review');
    const { violations, shot, noSideScroll } = j;
    const batch = async (c, changes) => {
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c}/content`, { token: alice.token, json: { changes } });
        assert.equal(w.status, 200, w.text);
    };
    const newCR = async (subject, markdown) => {
        const c = await ok(alice.api.spaces.createChangeRequest(space.id, { subject }), 'createChangeRequest', 201);
        await batch(c.id, [{ operation: 'update_page', page: pageId, document: { markdown } }]);
        return c;
    };

    async function session(email, viewport = DESKTOP, colorScheme = 'light') {
        const { context, page } = await j.newPage(viewport, colorScheme);
        await j.signIn(page, ctx.url, email);
        return { context, page };
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice', { name: 'Alice Martin' });
        bob = await ctx.user('bob', { name: 'Bob Stone' });
        dan = await ctx.user('dan', { name: 'Dan Reader' });
        ({ org } = await createOrg(ctx.url, alice.token, 'Acme'));
        await addMember(alice.api, org.id, bob.email, 'review');
        await addMember(alice.api, org.id, dan.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Platform guide' }), 'createSpace', 201);
        const first = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'First page' }), 'createChangeRequest', 201);
        await batch(first.id, [{ operation: 'insert_page', title: 'Webhooks', document: { markdown: BASE } }]);
        await ok(alice.api.spaces.mergeChangeRequest(space.id, first.id), 'mergeChangeRequest');
        pageId = (await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages[0].id;
        cr = await newCR('Sign and retry webhooks', EDITED);
        for (const u of [alice, bob, dan]) await setPassword(ctx.server, u.email, PASSWORD);
        browser = await launchChromium();
    });
    after(async () => {
        if (browser) await browser.close().catch(() => {});
        if (ctx) await ctx.server.stop();
    });

    it('request a review, comment and approve as a second user, reply, resolve, merge', async () => {
        const href = `${ctx.url}/s/${space.id}/~/changes/${cr.number}`;
        const a = await session(alice.email);
        try {
            await a.page.goto(href);
            assert.match(await a.page.locator('pre.diff').textContent(), /- Failures are dropped\.\n\d+\+ Failures are retried three times, then dropped\./);
            // the rendered comparison opens without script
            await a.page.getByText('Rendered, side by side').click();
            assert.match(await a.page.locator('details.rendered .sides > div').nth(1).innerText(), /Receive signed events from Acme\./);
            await shot(a.page, 'rendered-desktop');
            await a.page.getByLabel('Ask a member to review').selectOption({ label: 'Bob Stone' });
            await Promise.all([a.page.waitForURL(/#reviews$/), a.page.getByRole('button', { name: 'Request review' }).click()]);
            assert.match(await a.page.locator('main').innerText(), /Requested reviewers\s+Bob Stone asked by Alice Martin/);
        } finally {
            await a.context.close();
        }
        const b = await session(bob.email);
        try {
            await b.page.goto(href);
            await b.page.getByLabel('Add a comment').fill('Should the retries back off?');
            await Promise.all([b.page.waitForURL(/#comments$/), b.page.getByRole('button', { name: 'Comment', exact: true }).click()]);
            await b.page.getByLabel('Approve').check();
            await b.page.getByLabel('Comment (optional)').fill('Looks right.');
            await Promise.all([b.page.waitForURL(/#reviews$/), b.page.getByRole('button', { name: 'Submit review' }).click()]);
            assert.match(await b.page.locator('ul.reviews').innerText(), /Approved\s+Bob Stone[\s\S]*Looks right\./);
            await shot(b.page, 'reviewer-desktop');
        } finally {
            await b.context.close();
        }
        const a2 = await session(alice.email);
        try {
            await a2.page.goto(href);
            // the review's comment is a comment too; answer bob's question
            const q = a2.page.locator('article.comment', { hasText: 'Should the retries back off?' });
            await q.getByLabel('Reply').fill('Yes: 1, 5 and 25 minutes.');
            await Promise.all([a2.page.waitForURL(/#comments$/), q.getByRole('button', { name: 'Reply', exact: true }).click()]);
            await Promise.all([a2.page.waitForURL(/#comments$/), q.getByRole('button', { name: 'Resolve' }).click()]);
            assert.match(await q.innerText(), /Resolved/);
            assert.match(await q.locator('ul.replies').innerText(), /1, 5 and 25 minutes/);
            await a2.page.getByRole('button', { name: 'Merge into the space' }).focus();
            assert.equal(await a2.page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle), 'solid');
            await shot(a2.page, 'cr-desktop');
            await Promise.all([a2.page.waitForURL(href), a2.page.getByRole('button', { name: 'Merge into the space' }).click()]);
            assert.match(await a2.page.locator('main').innerText(), /merged[\s\S]*This change request is merged/);
        } finally {
            await a2.context.close();
        }
        const page = await ok(alice.api.spaces.getPageById(space.id, pageId, { format: 'markdown' }), 'getPageById');
        assert.match(page.markdown, /retried three times/);
        assert.deepEqual(violations, []);
    });

    it('a comment on a line (its number opens the form under it), then edited and deleted by its author', async () => {
        const lines = await newCR('Line comments', EDITED.replace('Use HTTPS.', 'Use HTTPS, always.'));
        const href = `${ctx.url}/s/${space.id}/~/changes/${lines.number}`;
        const b = await session(bob.email);
        try {
            await b.page.goto(href);
            // the line "Use HTTPS, always." is line 12 of the change request's text
            await Promise.all([b.page.waitForURL(/\?on=[^&]+&line=12#lc$/), b.page.getByRole('link', { name: 'Comment on line 12' }).click()]);
            const form = b.page.locator('details#lc[open]');
            await form.waitFor();
            // the keyboard goes on from the form (#lc): its summary, then its text box
            await b.page.keyboard.press('Tab');
            await b.page.keyboard.press('Tab');
            assert.equal(await b.page.evaluate(() => document.activeElement.id), 'lc-text', 'Tab reaches the text box');
            await b.page.getByLabel('Your comment on line 12 of Webhooks').fill('Say which TLS versions.');
            await shot(b.page, 'line-form-desktop');
            await Promise.all([b.page.waitForURL(/#lc-[A-Za-z0-9]+$/), b.page.getByRole('button', { name: 'Comment on line 12' }).click()]);
            const aside = b.page.locator('aside.linec');
            assert.match(await aside.innerText(), /Bob Stone\s+on line 12[\s\S]*Say which TLS versions\./);
            // beside its line: right after the piece of the difference that ends with it
            assert.match(await aside.evaluate((el) => el.previousElementSibling.textContent), /Use HTTPS, always\.\n$/);
            const c = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, lines.id), 'listCommentsInChangeRequest')).items[0];
            assert.equal(c.body.markdown, '> Line 12: Use HTTPS, always.\n\nSay which TLS versions.');
            assert.equal(c.target.page.id, pageId);
            await shot(b.page, 'line-comment-desktop');
            // edit it on its own page (Edit is a link; there the body is in the form, once), then delete it
            const art = b.page.locator(`article#c-${c.id}`);
            await Promise.all([b.page.waitForURL(new RegExp(`/~/comments/${c.id}\\?edit=${c.id}#e-${c.id}$`)),
                art.getByRole('link', { name: 'Edit this comment' }).click()]);
            await art.getByLabel('Your comment').fill('> Line 12: Use HTTPS, always.\n\nSay which TLS versions are accepted.');
            await shot(b.page, 'comment-edit-desktop');
            await Promise.all([b.page.waitForURL(new RegExp(`/~/comments/${c.id}#c-${c.id}$`)), art.getByRole('button', { name: 'Save' }).click()]);
            assert.match(await art.innerText(), /\(edited\)[\s\S]*TLS versions are accepted\./);
            await b.page.goto(href);
            assert.match(await art.innerText(), /\(edited\)[\s\S]*TLS versions are accepted\./);
            // stored with LF line breaks (a textarea sends CRLF): the quote still matches its line, shown once
            assert.equal((await ok(alice.api.spaces.getCommentInChangeRequest(space.id, lines.id, c.id), 'getCommentInChangeRequest')).body.markdown,
                '> Line 12: Use HTTPS, always.\n\nSay which TLS versions are accepted.');
            assert.doesNotMatch(await aside.innerText(), /> Line 12/);
            await shot(b.page, 'comment-edited-desktop');
            await Promise.all([b.page.waitForURL(/#comments$/), art.getByRole('button', { name: 'Delete this comment and its replies' }).click()]);
            assert.equal(await b.page.locator('aside.linec').count(), 0);
            assert.deepEqual((await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, lines.id), 'listCommentsInChangeRequest')).items, []);
        } finally {
            await b.context.close();
        }
        // the phone: a line comment with its gutter, no sideways scroll
        const posted = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${lines.id}/comments`,
            { token: bob.token, json: { page: pageId, body: { markdown: '> Line 3: Receive signed events from Acme.\n\nSigned how?' } } });
        assert.ok(posted.status < 300, posted.text);
        const p = await session(bob.email, PHONE, 'dark');
        try {
            await p.page.goto(`${href}?on=${pageId}&line=8#lc`);
            await p.page.locator('details#lc[open]').waitFor();
            // lines the difference does not show: the comment keeps its quote, the form shows the line
            assert.match(await p.page.locator('aside.linec').innerText(), /on line 3[\s\S]*> Line 3: Receive signed events from Acme\.\s+Signed how\?/);
            assert.match(await p.page.locator('details#lc pre.diff').innerText(), /8\s+Failures are retried three times, then dropped\./);
            await noSideScroll(p.page, 'line comments on a phone');
            await shot(p.page, 'line-comment-phone-dark');
            // four replies: three under the comment, the fourth on the comment's own page
            for (const n of [1, 2, 3, 4]) {
                const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${lines.id}/comments/${posted.json.id}/replies`,
                    { token: alice.token, json: { body: { markdown: `Reply ${n}: with a key.` } } });
                assert.ok(r.status < 300, r.text);
            }
            await p.page.goto(`${href}#comments`);
            const more = p.page.getByRole('link', { name: '1 more reply' });
            assert.equal(await p.page.locator(`article#c-${posted.json.id} ul.replies li`).count(), 3);
            await Promise.all([p.page.waitForURL(new RegExp(`/~/comments/${posted.json.id}#replies$`)), more.click()]);
            assert.match(await p.page.locator('ul.replies').innerText(), /Reply 1[\s\S]*Reply 2[\s\S]*Reply 3[\s\S]*Reply 4: with a key\./);
            await noSideScroll(p.page, 'a comment\'s page on a phone');
            await shot(p.page, 'comment-page-phone-dark');
        } finally {
            await p.context.close();
        }
        assert.deepEqual(violations, []);
    });

    it('a merge blocked by a rule shows why; a conflicting update lists both sides (phone, dark)', async () => {
        await ok(alice.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_subject' }] } }), 'updateSpaceById');
        const blocked = await newCR('', EDITED.replace('Use HTTPS.', 'Use HTTPS only.'));
        const other = await newCR('Other wording', EDITED.replace('Use HTTPS.', 'Always use HTTPS.'));
        const a = await session(alice.email, PHONE, 'dark');
        try {
            await a.page.goto(`${ctx.url}/s/${space.id}/~/changes/${blocked.number}`);
            assert.match(await a.page.locator('.banner.blocked').innerText(), /Merging is blocked\.[\s\S]*require_change_request_subject/);
            await noSideScroll(a.page, 'blocked change request');
            await shot(a.page, 'blocked-phone-dark');
            await a.page.getByRole('button', { name: 'Merge into the space' }).click();
            // refused: the change request's page again, with the domain's message
            assert.match(await a.page.getByRole('alert').innerText(), /Not done\. merge blocked by merge rules: require_change_request_subject/);
            await shot(a.page, 'refused-phone-dark');
            await ok(alice.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'none' } }), 'updateSpaceById');
            await ok(alice.api.spaces.mergeChangeRequest(space.id, other.id), 'mergeChangeRequest');
            await a.page.goto(`${ctx.url}/s/${space.id}/~/changes/${blocked.number}`);
            await a.page.getByRole('button', { name: 'Update from the space' }).click();
            await a.page.getByRole('heading', { level: 1, name: 'Conflicts' }).waitFor();
            assert.match(await a.page.locator('.sides').first().innerText(), /In this change request[\s\S]*Use HTTPS only\.[\s\S]*In the space[\s\S]*Always use HTTPS\./);
            await noSideScroll(a.page, 'conflicts');
            await shot(a.page, 'conflicts-phone-dark');
        } finally {
            await a.context.close();
        }
        const d = await session(dan.email, PHONE, 'light');
        try {
            await d.page.goto(`${ctx.url}/s/${space.id}/~/changes/${blocked.number}`);
            await d.page.getByRole('heading', { name: 'Differences' }).waitFor();
            assert.equal(await d.page.locator('main form').count(), 0, 'a reader sees no review controls');
            await shot(d.page, 'reader-phone');
        } finally {
            await d.context.close();
        }
        assert.deepEqual(violations, []);
    });
});

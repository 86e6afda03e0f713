// The web interface's review of a change request (issue 25, src/app/pages_review.c): on the
// change request's page, the pages' markdown differences (inline, by lines); reviewers requested
// with a form; a second user comments, the author replies and resolves; approve / request changes;
// merge, blocked by a merge rule with the domain's reasons shown, then merged; update from the
// space when outdated, and the conflicts listed with both sides. Every form is a POST checked
// against the session's CSRF token, runs one domain function and answers 303 back to the page; the
// API then sees the same state. Hostile: no or a wrong token (403), another organization's member
// (404 page), a reader (no controls, 404 page for the forms), oversized and malformed fields (400).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

describe('web interface: review and merge', () => {
    let ctx, alice, bob, dan, eve, org, space, pageId, cr, crHref;
    let aliceS, bobS, danS, eveS;

    const get = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    /** POST a form as `who` (the session's token unless fields.csrf is given). */
    const post = async (who, path, fields, status = 303) => {
        const body = typeof fields === 'string' ? fields : new URLSearchParams({ csrf: who.csrf, ...fields }).toString();
        const r = await raw(ctx.url, 'POST', path, { body, headers: { ...FORM, Cookie: who.cookie } });
        assert.equal(r.status, status, `POST ${path}: ${r.status}: ${r.text.slice(0, 600)}`);
        if (status !== 303) assert.match(r.headers['content-type'], /^text\/html; charset=utf-8/);
        return r;
    };
    const batch = async (who, s, c, changes) => {
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${s}/change-requests/${c}/content`, { token: who.token, json: { changes } });
        assert.equal(w.status, 200, w.text);
    };
    const newCR = async (subject, markdown) => {
        const c = await ok(alice.api.spaces.createChangeRequest(space.id, { subject }), 'createChangeRequest', 201);
        await batch(alice, space.id, c.id, [{ operation: 'update_page', page: pageId, document: { markdown } }]);
        return c;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob', { name: 'Bob <b>Reviewer</b>' });
        dan = await ctx.user('dan');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Review ${ctx.run}`));
        await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'review');
        await addMember(alice.api, org.id, dan.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Handbook' }), 'createSpace', 201);
        const first = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Start' }), 'createChangeRequest', 201);
        await batch(alice, space.id, first.id, [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'line one\nline two\nline three\nline four\n' } }]);
        await ok(alice.api.spaces.mergeChangeRequest(space.id, first.id), 'mergeChangeRequest');
        pageId = (await ok(alice.api.spaces.listPages(space.id), 'listPages')).pages[0].id;
        cr = await newCR('Edit <the> intro', 'line one\nline 2 <b>changed</b>\nline three\nline four\nline five\n');
        crHref = `/s/${space.id}/~/changes/${cr.number}`;
        for (const u of [alice, bob, dan, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        danS = await signIn(ctx.url, dan.email, PASSWORD);
        eveS = await signIn(ctx.url, eve.email, PASSWORD);
    });
    after(() => ctx?.server.stop());

    it('the change request page shows the markdown differences, escaped, and the author\'s controls', async () => {
        const t = (await get(aliceS, crHref)).text;
        assert.match(t, /<h2 id="differences">Differences<\/h2>/);
        const gut = (n) => `<a class="ln" href="${crHref}\\?on=${pageId}&amp;line=${n}#lc" aria-label="Comment on line ${n}">${n}</a>`;
        assert.match(t, new RegExp(`<del><span class="ln"></span>- line two\n</del><ins>${gut(2)}\\+ line 2 &lt;b&gt;changed&lt;/b&gt;\n</ins>`));
        assert.match(t, new RegExp(`<span class="ctx">${gut(1)}  line one\n</span>`));
        assert.match(t, new RegExp(`<ins>${gut(5)}\\+ line five\n</ins>`));
        assert.doesNotMatch(t, /<del>[^<]*<b>changed/);
        // both versions rendered by the site's renderer, folded in a <details>
        assert.match(t, /<details class="rendered"><summary>Rendered, side by side<\/summary><div class="sides"><div><h4>Before<\/h4><article class="page"><p>line one\s*line two/);
        assert.match(t, /<h4>After<\/h4><article class="page"><p>line one\s*line 2 /);
        assert.match(t, new RegExp(`action="${crHref}/~/merge"`));
        assert.match(t, new RegExp(`action="${crHref}/~/reviewers"`));
        assert.match(t, new RegExp(`action="${crHref}/~/comment"`));
        // the author does not review her own change request
        assert.doesNotMatch(t, new RegExp(`action="${crHref}/~/review"`));
        assert.match(t, /<option value="[^"]+">Bob &lt;b&gt;Reviewer&lt;\/b&gt;<\/option>/);
        assert.match(t, /No comments yet\./);
    });

    it('request a reviewer; a second user comments, the author replies and resolves, the reviewer approves', async () => {
        const r = await post(aliceS, `${crHref}/~/reviewers`, { user: bob.id });
        assert.equal(r.headers.location, `${crHref}#reviews`);
        const rq = await ok(alice.api.spaces.getRequestedReviewersByChangeRequestId(space.id, cr.id), 'getRequestedReviewersByChangeRequestId');
        assert.deepEqual(rq.items.map((x) => x.user?.id ?? x.id), [bob.id]);

        // bob sees the review form; he comments
        const tb = (await get(bobS, crHref)).text;
        assert.match(tb, new RegExp(`action="${crHref}/~/review"`));
        await post(bobS, `${crHref}/~/comment`, { markdown: 'Why "2" <and> not two?' });
        const list = await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, cr.id), 'listCommentsInChangeRequest');
        assert.equal(list.items.length, 1);
        const c = list.items[0];
        assert.equal(c.postedBy.id, bob.id);
        assert.equal(c.body.markdown, 'Why "2" <and> not two?');

        await post(aliceS, `${crHref}/~/comments/${c.id}/reply`, { markdown: 'Shorter.' });
        const replies = await ok(alice.api.spaces.listCommentRepliesInChangeRequest(space.id, cr.id, c.id), 'listCommentRepliesInChangeRequest');
        assert.deepEqual(replies.items.map((x) => x.body.markdown), ['Shorter.']);
        await post(aliceS, `${crHref}/~/comments/${c.id}/resolve`, { resolved: '1' });
        assert.equal((await ok(alice.api.spaces.getCommentInChangeRequest(space.id, cr.id, c.id), 'getCommentInChangeRequest')).status, 'resolved');

        const t = (await get(aliceS, crHref)).text;
        assert.match(t, /Why &quot;2&quot; &lt;and&gt; not two\?|Why "2" &lt;and&gt; not two\?/);
        assert.match(t, /Shorter\./);
        assert.match(t, /Resolved<\/span>/);
        assert.match(t, />Reopen<\/button>/);

        // bob requests changes, then approves (his newer review supersedes)
        await post(bobS, `${crHref}/~/review`, { status: 'changes-requested', comment: '' });
        await post(bobS, `${crHref}/~/review`, { status: 'approved', comment: 'Good now.' });
        const rv = await ok(alice.api.spaces.getReviewsByChangeRequestId(space.id, cr.id, { outdated: false }), 'getReviewsByChangeRequestId');
        assert.deepEqual(rv.items.map((x) => x.status), ['approved']);
        const t2 = (await get(aliceS, crHref)).text;
        assert.match(t2, /Approved<\/span> Bob &lt;b&gt;Reviewer&lt;\/b&gt;/);
        assert.match(t2, /Good now\./);
        // the author's own review is the domain's 403, shown on the change request's page
        const own = await post(aliceS, `${crHref}/~/review`, { status: 'approved' }, 403);
        assert.match(own.text, /<div class="hint hint-danger" role="alert" id="refusal"><p><strong>Not done\.<\/strong> /);
        assert.match(own.text, /<h2 id="differences">/);
        // an unknown status is the domain's 400, with its message
        const bad = await post(bobS, `${crHref}/~/review`, { status: 'maybe' }, 400);
        assert.match(bad.text, /status/);
    });

    it('reactions: add and take back with the buttons; a reader sees the counts only', async () => {
        const c = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, cr.id), 'listCommentsInChangeRequest')).items
            .find((x) => x.body.markdown.startsWith('Why'));
        const action = `${crHref}/~/comments/${c.id}/react`;
        await post(bobS, action, { add: '\u{1F44D}' });
        let got = await ok(alice.api.spaces.getCommentInChangeRequest(space.id, cr.id, c.id), 'getCommentInChangeRequest');
        assert.deepEqual(got.reactions.map((r) => [r.emoji, r.count]), [['\u{1F44D}', 1]]);
        const tb = (await get(bobS, crHref)).text;
        assert.match(tb, /<button type="submit" name="remove" value="\u{1F44D}" aria-pressed="true"/u);
        const td = (await get(danS, crHref)).text;
        assert.match(td, /<span class="react">\u{1F44D} 1<\/span>/u);
        assert.doesNotMatch(td, /\/react"/);
        await post(danS, action, { add: '\u{1F389}' }, 403);
        await post(bobS, action, { add: 'not an emoji at all, far too long to be one' }, 400);
        await post(bobS, action, {}, 400);
        await post(bobS, action, { remove: '\u{1F44D}' });
        got = await ok(alice.api.spaces.getCommentInChangeRequest(space.id, cr.id, c.id), 'getCommentInChangeRequest');
        assert.deepEqual(got.reactions, []);
    });

    it('a comment on one of the pages; a requested reviewer removed', async () => {
        const other = await newCR('Page comment', 'line one\nline two, again\nline three\nline four\n');
        const href = `/s/${space.id}/~/changes/${other.number}`;
        const t = (await get(bobS, href)).text;
        assert.match(t, new RegExp(`<option value="${pageId}">the page Intro</option>`));
        await post(bobS, `${href}/~/comment`, { markdown: 'On the intro.', page: pageId });
        const items = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, other.id), 'listCommentsInChangeRequest')).items;
        assert.equal(items.length, 1);
        assert.equal(items[0].target?.page?.id, pageId);
        assert.match((await get(aliceS, href)).text, /\u00b7 on Intro/u);
        await post(bobS, `${href}/~/comment`, { markdown: 'x', page: 'nosuchpage' }, 400);

        await post(aliceS, `${href}/~/reviewers`, { user: bob.id });
        const ta = (await get(aliceS, href)).text;
        assert.match(ta, new RegExp(`action="${href}/~/reviewers/${bob.id}/remove"`));
        assert.doesNotMatch((await get(danS, href)).text, /\/remove"/);
        await post(danS, `${href}/~/reviewers/${bob.id}/remove`, {}, 403);
        await post(aliceS, `${href}/~/reviewers/${bob.id}/remove`, {});
        const rq = await ok(alice.api.spaces.getRequestedReviewersByChangeRequestId(space.id, other.id), 'getRequestedReviewersByChangeRequestId');
        assert.deepEqual(rq.items, []);
    });

    it('hostile forms: no or a wrong token, another organization, a reader, oversized and malformed fields', async () => {
        const before = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, cr.id), 'listCommentsInChangeRequest')).items.length;
        await post(bobS, `${crHref}/~/comment`, 'markdown=hi', 403);
        await post(bobS, `${crHref}/~/comment`, { csrf: 'f'.repeat(64), markdown: 'hi' }, 403);
        await post(bobS, `${crHref}/~/comment`, { csrf: aliceS.csrf, markdown: 'hi' }, 403); // another session's token
        // eve, of another organization, with her own valid token: the same 404 page as a missing one
        const e = await post(eveS, `${crHref}/~/comment`, { markdown: 'hi' }, 404);
        assert.match(e.text, /Not found/);
        await post(eveS, `${crHref}/~/merge`, {}, 404);
        await post(aliceS, `/s/${space.id}/~/changes/9999/~/comment`, { markdown: 'hi' }, 404);
        await post(aliceS, `/s/${space.id}/~/changes/x1/~/comment`, { markdown: 'hi' }, 404);
        // dan reads: no controls, and the forms are refused
        const td = (await get(danS, crHref)).text;
        assert.match(td, /Differences/);
        for (const a of ['merge', 'reviewers', 'review', 'comment', 'update']) assert.doesNotMatch(td, new RegExp(`/~/${a}"`));
        assert.doesNotMatch(td, /\/reply"|\/resolve"/);
        // his role is short: 403 on the page he reads (still without controls), nothing written
        for (const [a, f] of [['comment', { markdown: 'hi' }], ['merge', {}], ['reviewers', { user: dan.id }], ['update', {}]]) {
            const r = await post(danS, `${crHref}/~/${a}`, f, 403);
            assert.match(r.text, /id="refusal"/);
            assert.doesNotMatch(r.text, /\/~\/(merge|comment|reviewers)"/);
        }
        // oversized, missing, malformed, blank
        const big = await post(bobS, `${crHref}/~/comment`, { markdown: 'x'.repeat(10_001) }, 400);
        assert.match(big.text, /markdown/);
        const miss = await post(bobS, `${crHref}/~/comment`, {}, 400);
        assert.match(miss.text, /markdown: required/);
        const mal = await post(bobS, `${crHref}/~/comment`, `csrf=${bobS.csrf}&markdown=%ZZ`, 400);
        assert.match(mal.text, /markdown: malformed/);
        await post(bobS, `${crHref}/~/comment`, { markdown: '   ' }, 400);
        const resolveBad = await post(aliceS, `${crHref}/~/comments/nope/resolve`, { resolved: 'yes' }, 400);
        assert.match(resolveBad.text, /resolved/);
        const after = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, cr.id), 'listCommentsInChangeRequest')).items.length;
        assert.equal(after, before, 'no refused form wrote a comment');
    });

    it('own comments and replies are edited and deleted; another user\'s show no controls and are refused', async () => {
        const other = await newCR('Edit comments', 'line one\nline two\nline three, edited\nline four\n');
        const href = `/s/${space.id}/~/changes/${other.number}`;
        await post(bobS, `${href}/~/comment`, { markdown: 'First <try>.' });
        const c = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, other.id), 'listCommentsInChangeRequest')).items[0];
        await post(aliceS, `${href}/~/comments/${c.id}/reply`, { markdown: 'Alice replies.' });
        const r = (await ok(alice.api.spaces.listCommentRepliesInChangeRequest(space.id, other.id, c.id), 'listCommentRepliesInChangeRequest')).items[0];
        const cEdit = `${href}/~/comments/${c.id}/edit`, cDel = `${href}/~/comments/${c.id}/delete`;
        const rEdit = `${href}/~/comments/${c.id}/replies/${r.id}/edit`, rDel = `${href}/~/comments/${c.id}/replies/${r.id}/delete`;

        // bob (review role) edits and deletes his comment, not alice's reply; dan (read) nothing
        // Edit is a link to the comment's own page, where the body is in the form instead of shown: once on either page
        const chref = `${href}/~/comments/${c.id}`;
        const tb = (await get(bobS, href)).text;
        assert.match(tb, new RegExp(`<a class="cedit" href="${chref}\\?edit=${c.id}#e-${c.id}">Edit<span class="sr"> this comment</span></a>`));
        assert.equal(tb.split('First &lt;try&gt;.').length, 2, 'the body once on the change request\'s page');
        assert.doesNotMatch(tb, /<textarea id="e-/);
        const tbe = (await get(bobS, `${chref}?edit=${c.id}`)).text;
        assert.match(tbe, new RegExp(`<form method="post" class="stack cedit" action="${cEdit}"><input type="hidden" name="csrf" value="${bobS.csrf}"><input type="hidden" name="back" value="comment"><label for="e-${c.id}">Your comment</label><textarea id="e-${c.id}" name="markdown" rows="6" maxlength="10000" required>First &lt;try&gt;\\.</textarea>`));
        assert.equal(tbe.split('First &lt;try&gt;.').length, 2, 'the body once on the comment\'s page: in the form');
        assert.match(tb, new RegExp(`action="${cDel}"`));
        assert.doesNotMatch(tb, new RegExp(`/replies/${r.id}/(edit|delete)"`));
        const td = (await get(danS, href)).text;
        assert.doesNotMatch(td, /\/(edit|delete)"/);
        assert.doesNotMatch(td, /class="cedit"/);
        // alice (admin) deletes anyone's, edits only her own
        const ta = (await get(aliceS, href)).text;
        assert.match(ta, new RegExp(`action="${cDel}"`));
        assert.doesNotMatch(ta, new RegExp(`action="${cEdit}"|\\?edit=${c.id}#`));
        assert.match(ta, new RegExp(`href="${chref}\\?edit=${r.id}#e-${r.id}"`));
        // ?edit= of what one may not edit shows no form
        assert.doesNotMatch((await get(aliceS, `${chref}?edit=${c.id}`)).text, /<textarea id="e-/);

        // bob edits his comment: the API reads the new body, the page says (edited)
        const e = await post(bobS, cEdit, { markdown: 'Second "try".\r\nThanks.' }); // a textarea's CRLF, stored as LF
        assert.equal(e.headers.location, `${href}#c-${c.id}`);
        const got = await ok(alice.api.spaces.getCommentInChangeRequest(space.id, other.id, c.id), 'getCommentInChangeRequest');
        assert.equal(got.body.markdown, 'Second "try".\nThanks.');
        assert.ok(got.editedAt, 'editedAt is set');
        assert.match((await get(aliceS, href)).text, /\(edited\)<\/span>/);
        // from the comment's own page (back=comment): back there; refused there: its form again with what was typed
        const e2 = await post(bobS, cEdit, { markdown: 'Second "try".\nThanks.', back: 'comment' });
        assert.equal(e2.headers.location, `${chref}#c-${c.id}`);
        const big2 = await post(bobS, cEdit, { markdown: `<${'y'.repeat(10_000)}>`, back: 'comment' }, 400);
        assert.match(big2.text, /<h1>Comment<\/h1><div class="hint hint-danger" role="alert" id="refusal"><p><strong>Not done\.<\/strong> body\.markdown: must be at most 10000 characters/);
        assert.match(big2.text, new RegExp(`<textarea id="e-${c.id}" name="markdown" rows="6" maxlength="10000" required>&lt;y{10000}&gt;</textarea>`));

        // refused: bob on alice's reply (403 shown, unchanged), dan, no or a wrong token, eve, a blank or oversized body
        const x = await post(bobS, rEdit, { markdown: 'Hijacked.' }, 403);
        assert.match(x.text, /id="refusal"><p><strong>Not done\.<\/strong> only the author of a reply can edit its body/);
        await post(bobS, rDel, {}, 403);
        await post(danS, cEdit, { markdown: 'Dan.' }, 403);
        await post(danS, cDel, {}, 403);
        await post(bobS, cEdit, 'markdown=Tokenless', 403);
        await post(bobS, cDel, { csrf: aliceS.csrf }, 403);
        await post(eveS, cEdit, { markdown: 'Eve.' }, 404);
        await post(eveS, cDel, {}, 404);
        await post(bobS, cEdit, { markdown: '  ' }, 400);
        const big = await post(bobS, cEdit, { markdown: 'x'.repeat(10_001) }, 400);
        assert.match(big.text, /body\.markdown: must be at most 10000 characters/);
        await post(bobS, cEdit, {}, 400);
        assert.equal((await ok(alice.api.spaces.getCommentInChangeRequest(space.id, other.id, c.id), 'getCommentInChangeRequest')).body.markdown, 'Second "try".\nThanks.');
        assert.equal((await ok(alice.api.spaces.getCommentReplyInChangeRequest(space.id, other.id, c.id, r.id), 'getCommentReplyInChangeRequest')).body.markdown, 'Alice replies.');

        // alice edits, then deletes her reply; bob deletes his comment
        await post(aliceS, rEdit, { markdown: 'Alice, edited.' });
        assert.equal((await ok(alice.api.spaces.getCommentReplyInChangeRequest(space.id, other.id, c.id, r.id), 'getCommentReplyInChangeRequest')).body.markdown, 'Alice, edited.');
        const d = await post(aliceS, rDel, {});
        assert.equal(d.headers.location, `${href}#c-${c.id}`);
        assert.deepEqual((await ok(alice.api.spaces.listCommentRepliesInChangeRequest(space.id, other.id, c.id), 'listCommentRepliesInChangeRequest')).items, []);
        await post(bobS, cDel, {});
        assert.deepEqual((await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, other.id), 'listCommentsInChangeRequest')).items, []);
        await post(bobS, cDel, {}); // already gone: nothing to do, as the API's delete
    });

    it('a comment on a line: its number opens the form under it; posted, it quotes the line and shows beside it', async () => {
        const other = await newCR('Line comments', 'line one\nline two, <again>\nline three\nline four\n');
        const href = `/s/${space.id}/~/changes/${other.number}`;
        const t = (await get(bobS, href)).text;
        const link = `${href}?on=${pageId}&amp;line=2#lc`;
        assert.ok(t.includes(`<ins><a class="ln" href="${link}" aria-label="Comment on line 2">2</a>+ line two, &lt;again&gt;\n</ins>`), 'line 2 has its link');
        assert.doesNotMatch(t, /id="lc"/, 'no form until a line is chosen');
        // a reader sees the numbers, no links
        const td = (await get(danS, href)).text;
        assert.match(td, /<ins><span class="ln">2<\/span>\+ line two/);
        assert.doesNotMatch(td, /<a class="ln"/);
        assert.doesNotMatch((await get(danS, `${href}?on=${pageId}&line=2`)).text, /id="lc"/);

        // the link's page: the form right under line 2, before line 3
        const f = (await get(bobS, `${href}?on=${pageId}&line=2`)).text;
        const at2 = f.indexOf('+ line two, &lt;again&gt;'), form = f.indexOf('<details class="linec" id="lc" open>'), at3 = f.indexOf('  line three\n');
        assert.ok(at2 > 0 && form > at2 && at3 > form, `the form is under line 2 (${at2} < ${form} < ${at3})`);
        assert.match(f, new RegExp(`<input type="hidden" name="page" value="${pageId}"><input type="hidden" name="line" value="2"><label for="lc-text">Your comment on line 2 of Intro</label><textarea id="lc-text" name="markdown" rows="3" maxlength="9000" required>`));
        // nonsense in the query is ignored
        for (const q of ['?on=nosuch&line=2', `?on=${pageId}&line=99`, `?on=${pageId}&line=x`]) {
            assert.doesNotMatch((await get(bobS, `${href}${q}`)).text, /id="lc"/, q);
        }

        const lp = await post(bobS, `${href}/~/comment`, { markdown: 'Why <again>?', page: pageId, line: '2' });
        const items = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, other.id), 'listCommentsInChangeRequest')).items;
        assert.equal(items.length, 1);
        assert.equal(lp.headers.location, `${href}#lc-${items[0].id}`, 'back to the comment beside its line');
        assert.equal(items[0].body.markdown, '> Line 2: line two, <again>\n\nWhy <again>?');
        assert.equal(items[0].target?.page?.id, pageId);
        const cid = items[0].id;
        const s = (await get(aliceS, href)).text;
        const aside = s.indexOf(`<aside class="linec" id="lc-${cid}" aria-label="Comment on line 2">`);
        assert.ok(aside > s.indexOf('+ line two, &lt;again&gt;') && aside < s.indexOf('  line three\n'), 'beside line 2');
        assert.match(s.slice(aside, aside + 600), /on line 2 \u00b7 [^<]*<\/span><\/p><div class="cbody">Why &lt;again&gt;\?<\/div>/u);
        assert.match(s, new RegExp(`\u00b7 on Intro, <a href="#lc-${cid}">line 2</a>`, 'u'));

        // refused: a line past the page's end, not a number, without a page, a page it does not have, dan, eve, no token
        const bad = await post(bobS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '99' }, 400);
        assert.match(bad.text, /line: the page has 4 lines/);
        await post(bobS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '0' }, 400);
        await post(bobS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '2x' }, 400);
        await post(bobS, `${href}/~/comment`, { markdown: 'x', line: '2' }, 400);
        const blank = await post(bobS, `${href}/~/comment`, { markdown: ' \n ', page: pageId, line: '2' }, 400);
        assert.match(blank.text, /body\.markdown: must not be empty/);
        // refused, the form is drawn again under its line with what was typed
        assert.match(blank.text, new RegExp(`<details class="linec" id="lc" open><summary>Comment on line 2</summary>`));
        const long = await post(bobS, `${href}/~/comment`, { markdown: `<${'y'.repeat(9990)}>`, page: pageId, line: '2' }, 400);
        assert.match(long.text, /body\.markdown: must be at most 10000 characters/);
        assert.match(long.text, /<textarea id="lc-text" name="markdown" rows="3" maxlength="9000" required>&lt;y{9990}&gt;<\/textarea>/);
        assert.doesNotMatch((await post(danS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '2' }, 403)).text, /id="lc"/);
        const np = await post(bobS, `${href}/~/comment`, { markdown: 'x', page: 'nosuch', line: '2' }, 400);
        assert.match(np.text, /page: no such document page/);
        await post(danS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '2' }, 403);
        await post(eveS, `${href}/~/comment`, { markdown: 'x', page: pageId, line: '2' }, 404);
        await post(bobS, `${href}/~/comment`, `markdown=x&page=${pageId}&line=2`, 403);
        assert.equal((await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, other.id), 'listCommentsInChangeRequest')).items.length, 1);
    });

    it('merge blocked by a rule shows the domain\'s reasons; merged once the rule is met', async () => {
        await ok(alice.api.spaces.updateSpaceById(space.id, {
            mergeRules: { type: 'rules', rules: [{ rule: 'require_all_reviews_approved' }, { rule: 'require_change_request_subject' }] },
        }), 'updateSpaceById');
        const blockedCR = await newCR('', 'line one\nline two\nline three\nline 4\n');
        const href = `/s/${space.id}/~/changes/${blockedCR.number}`;
        const t = (await get(aliceS, href)).text;
        assert.match(t, /Merging is blocked\.<\/strong> merge blocked by merge rules: [^<]*require_change_request_subject/);
        const r = await post(aliceS, `${href}/~/merge`, {}, 409);
        assert.match(r.text, /require_change_request_subject/);
        assert.equal((await ok(alice.api.spaces.getChangeRequestById(space.id, blockedCR.id), 'getChangeRequestById')).status, 'draft');

        // the first change request has its subject and bob's approval: it merges
        const m = await post(aliceS, `${crHref}/~/merge`, {});
        assert.equal(m.headers.location, crHref);
        const merged = await ok(alice.api.spaces.getChangeRequestById(space.id, cr.id), 'getChangeRequestById');
        assert.equal(merged.status, 'merged');
        const page = await ok(alice.api.spaces.getPageById(space.id, pageId, { format: 'markdown' }), 'getPageById');
        assert.match(page.markdown, /line 2 <b>changed<\/b>/);
        const t2 = (await get(aliceS, crHref)).text;
        assert.match(t2, /This change request is merged: nothing to merge\./);
        await ok(alice.api.spaces.updateSpaceById(space.id, { mergeRules: { type: 'none' } }), 'updateSpaceById');
    });

    it('an outdated change request offers the update; conflicts are listed with both sides', async () => {
        // two change requests from the same base change the same line
        const a = await newCR('A', 'line one\nline 2 by A\nline three\nline four\nline five\n');
        const b = await newCR('B', 'line one\nline 2 by B\nline three\nline four\nline five\n');
        await ok(alice.api.spaces.mergeChangeRequest(space.id, a.id), 'mergeChangeRequest');
        const href = `/s/${space.id}/~/changes/${b.number}`;
        const t = (await get(aliceS, href)).text;
        assert.match(t, /The space changed since this change request began/);
        assert.match(t, new RegExp(`action="${href}/~/update"`));
        const u = await post(aliceS, `${href}/~/update`, {}, 409);
        assert.match(u.text, /<h1>Conflicts<\/h1>/);
        assert.match(u.text, /<h3>In this change request<\/h3><pre>[^<]*line 2 by B/);
        assert.match(u.text, /<h3>In the space<\/h3><pre>[^<]*line 2 by A/);
        const m = await post(aliceS, `${href}/~/merge`, {}, 409);
        assert.match(m.text, /The merge was not made/);
        assert.equal((await ok(alice.api.spaces.getChangeRequestById(space.id, b.id), 'getChangeRequestById')).status, 'draft');

        // a change request that does not conflict updates (303 back) and is no longer outdated
        const c = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'C' }), 'createChangeRequest', 201);
        await batch(alice, space.id, c.id, [{ operation: 'insert_page', title: 'Other', document: { markdown: 'other\n' } }]);
        const d = await newCR('D', 'line one\nline 2 by A\nline three\nline four\nline five\nline six\n');
        await ok(alice.api.spaces.mergeChangeRequest(space.id, c.id), 'mergeChangeRequest');
        const dh = `/s/${space.id}/~/changes/${d.number}`;
        const up = await post(aliceS, `${dh}/~/update`, {});
        assert.equal(up.headers.location, `${dh}#merge`);
        const t2 = (await get(aliceS, dh)).text;
        assert.doesNotMatch(t2, /The space changed since/);

        // a side longer than 64 KB is cut, with a link to the page whole
        const e = await newCR('E', `line one\nline 2 by E ${'x'.repeat(70_000)}\nline three\nline four\nline five\n`);
        const f = await newCR('F', 'line one\nline 2 by F\nline three\nline four\nline five\n');
        await ok(alice.api.spaces.mergeChangeRequest(space.id, e.id), 'mergeChangeRequest');
        const fu = await post(aliceS, `/s/${space.id}/~/changes/${f.number}/~/update`, {}, 409);
        assert.match(fu.text, /<h3>In this change request<\/h3><pre>[^<]*line 2 by F[^<]*<\/pre><\/div>/);
        assert.match(fu.text, new RegExp(`<h3>In the space</h3><pre>line one\\nline 2 by E x{65000,65536}…</pre><p class="mute cut">Cut here\\. <a href="/s/${space.id}/intro">Read the whole page</a>\\.</p>`));
        assert.ok(fu.text.length < 100_000, `${fu.text.length} bytes`);
    });
    it('comments 20 at a time, newest first, and a comment\'s replies on its own page: each walked once', async () => {
        const c = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Many comments' }), 'createChangeRequest', 201);
        const href = `/s/${space.id}/~/changes/${c.number}`;
        const posted = [];
        for (let i = 0; i < 7; i++) {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c.id}/comments`, { token: bob.token, json: { body: { markdown: `Comment ${i}.` } } });
            assert.equal(r.status, 201, r.text);
            posted.push(r.json.id);
        }
        // ?limit=3: the pager's links walk every comment once, newest first; the pager keeps ?on=&line= and ?limit=
        const seen = [];
        let url = `${href}?limit=3&on=${pageId}&line=1`;
        for (let n = 0; url && n < 10; n++) {
            const t = (await get(bobS, url)).text;
            const ids = [...t.matchAll(/<article class="comment[^"]*" id="c-([^"]+)">/g)].map((m) => m[1]);
            assert.ok(ids.length <= 3, `${ids.length} on a page`);
            seen.push(...ids);
            const next = t.match(/<p class="pager"><a rel="next" href="([^"]+)">Older comments<\/a><\/p>/);
            url = next ? next[1].replaceAll('&amp;', '&') : null;
            if (url) assert.match(url, new RegExp(`^${href}\\?on=${pageId}&line=1&limit=3&page=`));
        }
        // the API's default order (newest first; the same millisecond by id)
        const api = (await ok(alice.api.spaces.listCommentsInChangeRequest(space.id, c.id), 'listCommentsInChangeRequest')).items.map((x) => x.id);
        assert.deepEqual(seen, api, 'every comment once, newest first');
        assert.deepEqual([...seen].sort(), [...posted].sort());
        // without ?limit: at most 20
        for (let i = 7; i < 22; i++) {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c.id}/comments`, { token: bob.token, json: { body: { markdown: `Comment ${i}.` } } });
            assert.equal(r.status, 201, r.text);
        }
        const t20 = (await get(bobS, href)).text;
        assert.equal((t20.match(/<article class="comment/g) ?? []).length, 20);
        assert.match(t20, /Older comments<\/a>/);
        assert.match((await get(bobS, `${href}?limit=500`)).text, /Older comments<\/a>/, '?limit= above 20 still shows 20');
        assert.match((await get(bobS, `${href}?page=nonsense`, 400)).text, /page/);

        // 7 replies: 3 under the comment, "4 more replies" to its page; there ?limit=2 walks them all once, oldest first
        const top = posted[6];
        const replies = [];
        for (let i = 0; i < 7; i++) {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c.id}/comments/${top}/replies`, { token: alice.token, json: { body: { markdown: `Reply ${i}.` } } });
            assert.equal(r.status, 201, r.text);
            replies.push(r.json.id);
        }
        const chref = `${href}/~/comments/${top}`;
        const tc = (await get(bobS, href)).text;
        const art = tc.slice(tc.indexOf(`id="c-${top}"`), tc.indexOf('</article>', tc.indexOf(`id="c-${top}"`)));
        const apiReplies = (await ok(alice.api.spaces.listCommentRepliesInChangeRequest(space.id, c.id, top), 'listCommentRepliesInChangeRequest')).items.map((x) => x.id);
        assert.deepEqual([...apiReplies].sort(), [...replies].sort());
        assert.deepEqual([...art.matchAll(/<li id="rp-([^"]+)">/g)].map((m) => m[1]), apiReplies.slice(0, 3));
        assert.ok(art.includes(`<p class="more"><a href="${chref}#replies">4 more replies</a></p>`), '4 more replies');
        const rs = [];
        url = `${chref}?limit=2`;
        for (let n = 0; url && n < 10; n++) {
            const t = (await get(bobS, url)).text;
            assert.match(t, new RegExp(`<article class="comment" id="c-${top}">`));
            rs.push(...[...t.matchAll(/<li id="rp-([^"]+)">/g)].map((m) => m[1]));
            const next = t.match(/<p class="pager"><a rel="next" href="([^"]+)">More replies<\/a><\/p>/);
            url = next ? next[1].replaceAll('&amp;', '&') : null;
        }
        assert.deepEqual(rs, apiReplies, 'every reply once, oldest first');

        // a reply from the comment's page (back=comment) goes back there; refused there, that page again
        const rp = await post(bobS, `${href}/~/comments/${top}/reply`, { markdown: 'From its page.', back: 'comment' });
        assert.equal(rp.headers.location, `${chref}#replies`);
        const blank = await post(bobS, `${href}/~/comments/${top}/reply`, { markdown: ' ', back: 'comment' }, 400);
        assert.match(blank.text, /<h1>Comment<\/h1><div class="hint hint-danger" role="alert" id="refusal">/);
        assert.equal((await ok(alice.api.spaces.listCommentRepliesInChangeRequest(space.id, c.id, top), 'listCommentRepliesInChangeRequest')).items.length, 8);

        // the comment's page: bob (review) has the reply form; dan (read) no form; eve (another organization) and ids that are not there: 404
        const tb = (await get(bobS, chref)).text;
        assert.match(tb, new RegExp(`action="${href}/~/comments/${top}/reply"><input type="hidden" name="csrf" value="${bobS.csrf}"><input type="hidden" name="back" value="comment">`));
        const td = (await get(danS, chref)).text;
        assert.match(td, /Comment 6\./);
        assert.doesNotMatch(td, /<textarea|\/(reply|resolve|react|edit|delete)"|\?edit=/);
        assert.doesNotMatch((await get(danS, `${chref}?edit=${top}`)).text, /<textarea/);
        await get(eveS, chref, 404);
        await get(eveS, `${href}?limit=3`, 404);
        await get(bobS, `${href}/~/comments/nosuch`, 404);
        await get(bobS, `${href}/~/comments/${replies[0]}`, 404); // a reply is no comment's page
        await get(bobS, `/s/${space.id}/~/changes/${cr.number}/~/comments/${top}`, 404); // another change request's
        await get(bobS, `/s/${space.id}/~/changes/9999/~/comments/${top}`, 404);
        await get(bobS, `${chref}?page=nonsense`, 400);
    });

    it('the page stays bounded: 21 big pages, 21 long comments (5 with 3 replies), a long review', async () => {
        const c = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Huge' }), 'createChangeRequest', 201);
        const href = `/s/${space.id}/~/changes/${c.number}`;
        // 21 pages of 45 lines of 1100 quotes (six bytes escaped each): the differences alone would be ~6 MB
        const md = (k) => Array.from({ length: 45 }, (_, i) => `${k}.${i} ` + '"'.repeat(1100)).join('\n') + '\n';
        await batch(alice, space.id, c.id, Array.from({ length: 21 }, (_, j) => ({ operation: 'insert_page', title: `Big ${j}`, document: { markdown: md(j) } })));
        const long = '"'.repeat(10_000); // six bytes escaped each
        const ids = [];
        for (let i = 0; i < 21; i++) {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c.id}/comments`, { token: bob.token, json: { body: { markdown: long } } });
            assert.equal(r.status, 201, r.text);
            ids.push(r.json.id);
            for (let j = 0; j < (i >= 16 ? 3 : 0); j++) { // replies on the 5 newest
                const x = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${c.id}/comments/${r.json.id}/replies`, { token: bob.token, json: { body: { markdown: long } } });
                assert.equal(x.status, 201, x.text);
            }
        }

        await post(bobS, `${href}/~/review`, { status: 'approved', comment: long });
        const started = Date.now();
        const t = (await get(bobS, href)).text;
        const ms = Date.now() - started;
        assert.ok(t.length < 4_000_000, `the page is ${t.length} bytes`);
        assert.ok(ms < 5000, `rendered in ${ms} ms`);
        assert.match(t, /<\/html>\s*$/, 'the whole page');
        // cut differences say so, with a link to the page as the change request has it
        assert.match(t, new RegExp(`<p class="mute cut">The difference is longer than shown here\\. <a href="${href}/big-0">Read the whole page</a>\\.</p>`));
        assert.match(t, new RegExp(`<p class="mute cut">Not shown: the differences above fill this page\\. <a href="${href}/big-19">Read the whole page</a>\\.</p>`));
        assert.match(t, /<p class="mute">More pages changed; their differences are not shown here\.<\/p>/);
        assert.match(t, /<p class="mute cut">Too long to show rendered here\./);
        assert.match(t, new RegExp(`\\+ 0\\.0 (&quot;){996}…\n</ins>`), 'a long line is cut at 1000 bytes');
        // 20 comments, 3 replies each, bodies cut with a link to the whole
        assert.equal((t.match(/<article class="comment/g) ?? []).length, 20);
        assert.equal((t.match(/<li id="rp-/g) ?? []).length, 15, '3 under each of the 5 that have replies');
        assert.ok(!t.includes('more replies'));
        assert.ok(t.includes(`<p class="mute cut">Cut here: <a href="${href}/~/comments/${ids[20]}">read it all</a></p>`));
        assert.ok(!t.includes('&quot;'.repeat(2001)), 'no body whole');
        // the comment's own page has it whole, once, and its replies
        const one = (await get(bobS, `${href}/~/comments/${ids[20]}`)).text;
        assert.equal(one.split('&quot;'.repeat(10_000)).length - 1, 4, 'the comment and its 3 replies, whole, once each');
        assert.ok(one.length < 400_000, `the comment's page is ${one.length} bytes`);
    });

    it('large pages: the difference is bounded (a plain replace past the table, lines capped), last: it merges', async () => {
        const lines = (w, n) => Array.from({ length: n }, (_, i) => `${w} line ${i} <x>`).join('\n') + '\n';
        const base = await newCR('Big base', lines('old', 1500));
        await ok(alice.api.spaces.mergeChangeRequest(space.id, base.id), 'mergeChangeRequest');
        const c = await newCR('Big', lines('new', 1500));
        const started = Date.now();
        const t = (await get(aliceS, `/s/${space.id}/~/changes/${c.number}`)).text;
        assert.ok(Date.now() - started < 5000, 'rendered in time');
        // 1501 x 1501 cells is past the exact table: every old line removed, then every new one added
        assert.match(t, /<del><span class="ln"><\/span>- old line 0 &lt;x&gt;\n<\/del><del><span class="ln"><\/span>- old line 1 &lt;x&gt;\n<\/del>/);
        assert.match(t, /The difference is longer than shown here\./);
        assert.equal((t.match(/<ins>/g) ?? []).length, 500, 'the first 2000 lines of the difference');
        assert.equal((t.match(/<del>/g) ?? []).length, 1500);
    });
});

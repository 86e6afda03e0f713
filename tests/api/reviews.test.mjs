// Change request reviews (getReviewsByChangeRequestId, submitChangeRequestReview), requested
// reviewers (get / request / remove) and the merge rules enforced by mergeChangeRequest:
// who may review, reviews outdated by a new head or a newer review, every MergeRule blocking
// and then passing once satisfied, inherit from the organization, none, bypass, and the rules
// docsd cannot evaluate. A blocked merge answers 409 naming each unmet rule and writes nothing.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, rawOk, createOrg, addMember, checkPagination, validate } from './lib/api.mjs';

describe('reviews and merge rules', () => {
    let ctx, alice, bob, carol, dave, erin, frank, org;
    let n = 0;

    const getSpace = (id) => ok(alice.api.spaces.getSpaceById(id), 'getSpaceById');
    const getCR = (s, c) => ok(alice.api.spaces.getChangeRequestById(s, c), 'getChangeRequestById');
    /** A content batch by `who` (a new head). */
    const edit = (who, s, c, title = `Page ${++n}`) =>
        rawOk(ctx.url, 'POST', `/v1/spaces/${s}/change-requests/${c}/content`,
            { token: who.token, json: { changes: [{ operation: 'insert_page', title, document: { markdown: `# ${title}\n` } }] } },
            'updateChangeRequestContent');
    /** A change request by `who` (dave, edit role, by default) with one new page. */
    async function newCR(s, subject = 'Edit', who = dave) {
        const cr = await ok(who.api.spaces.createChangeRequest(s, { subject }), 'createChangeRequest', 201);
        await edit(who, s, cr.id);
        return getCR(s, cr.id);
    }
    const newSpace = async (mergeRules, orgId = org.id) => {
        const s = await ok(alice.api.orgs.createSpace(orgId, { title: `Space ${++n}` }), 'createSpace', 201);
        if (mergeRules) await ok(alice.api.spaces.updateSpaceById(s.id, { mergeRules }), 'updateSpaceById');
        return s;
    };
    const rules = (...list) => ({ type: 'rules', rules: list.map((r) => (typeof r === 'string' ? { rule: r } : r)) });
    const review = (who, s, c, status) =>
        ok(who.api.spaces.submitChangeRequestReview(s, c, { status }), 'submitChangeRequestReview', 201);
    const reviews = (s, c, q = {}, who = alice) =>
        ok(who.api.spaces.getReviewsByChangeRequestId(s, c, q), 'getReviewsByChangeRequestId');
    const merge = (s, c, who = alice) => ok(who.api.spaces.mergeChangeRequest(s, c), 'mergeChangeRequest');

    /** The merge is refused with 409 naming each rule of `unmet`, and nothing changed. */
    async function blocked(s, c, unmet, who = alice) {
        const before = [(await getSpace(s)).revision, await getCR(s, c)];
        const body = await expectError(who.api.spaces.mergeChangeRequest(s, c), 409, `merge blocked by ${unmet}`);
        for (const r of unmet) assert.match(body.error.message, new RegExp(r), `the message names ${r}`);
        const all = ['require_at_least_one_review', 'require_all_reviews_approved', 'require_specific_reviewers',
            'require_one_of_specific_reviewers', 'require_up_to_date_change_request', 'require_change_request_subject',
            'require_change_request_description'];
        for (const r of all.filter((x) => !unmet.includes(x)))
            assert.doesNotMatch(body.error.message, new RegExp(`${r} \\(`), `the message does not name ${r}`);
        assert.equal((await getSpace(s)).revision, before[0], 'the space revision is unchanged');
        const cr = await getCR(s, c);
        assert.equal(cr.status, before[1].status, 'the change request status is unchanged');
        assert.equal(cr.revision, before[1].revision, 'the change request head is unchanged');
        return body;
    }
    async function merged(s, c, who = alice) {
        const m = await merge(s, c, who);
        assert.equal(m.result, 'merge');
        assert.equal((await getSpace(s)).revision, m.revision);
        assert.equal((await getCR(s, c)).status, 'merged');
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice'); // organization admin
        bob = await ctx.user('bob'); // review
        carol = await ctx.user('carol'); // review
        dave = await ctx.user('dave'); // edit: writes the change requests
        erin = await ctx.user('erin'); // read
        frank = await ctx.user('frank'); // not a member
        ({ org } = await createOrg(ctx.url, alice.token, `Reviews ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'review');
        await addMember(alice.api, org.id, carol.email, 'review');
        await addMember(alice.api, org.id, dave.email, 'edit');
        await addMember(alice.api, org.id, erin.email, 'read');
    });
    after(() => ctx?.server.stop());

    it('a reviewer submits reviews; the author, readers and strangers cannot', async () => {
        const s = await newSpace();
        const cr = await newCR(s.id);
        const res = await bob.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'approved' });
        assert.equal(res.status, 201);
        const r = res.data;
        assert.equal(r.object, 'change-request-review');
        assert.equal(r.reviewer.id, bob.id);
        assert.equal(r.status, 'approved');
        assert.equal(r.revision, cr.revision);
        assert.equal(r.outdated, false);
        assert.equal(r.requestedBy, undefined);
        assert.ok(res.headers.get('location').endsWith(`/v1/spaces/${s.id}/change-requests/${cr.id}/reviews`));
        await review(carol, s.id, cr.id, 'changes-requested');

        // The author may not review, even with the review role.
        const own = await newCR(s.id, 'Mine', carol);
        const e = await expectError(carol.api.spaces.submitChangeRequestReview(s.id, own.id, { status: 'approved' }), 403, 'author');
        assert.match(e.error.message, /author/);
        await expectError(dave.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'approved' }), 403, 'edit role');
        await expectError(erin.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'approved' }), 403, 'read role');
        await expectError(frank.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'approved' }), 404, 'not a member');
        for (const body of [{}, { status: 'ok' }, { status: 1 }, { status: 'approved', comment: 'x' }, { status: 'approved', comment: { nodes: [] } },
            { status: 'approved', comment: { markdown: '   ' } }])
            await expectError(raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/reviews`, { token: bob.token, json: body }), 400, JSON.stringify(body));
        await expectError(bob.api.spaces.submitChangeRequestReview(s.id, 'nosuchchangerequest0', { status: 'approved' }), 404);

        // Readers list them, oldest first; strangers get 404.
        const list = await reviews(s.id, cr.id, {}, erin);
        assert.deepEqual(list.items.map((x) => [x.reviewer.id, x.status]), [[bob.id, 'approved'], [carol.id, 'changes-requested']]);
        await expectError(frank.api.spaces.getReviewsByChangeRequestId(s.id, cr.id), 404);
        await checkPagination((q) => alice.api.spaces.getReviewsByChangeRequestId(s.id, cr.id, q), 'getReviewsByChangeRequestId');
        await expectError(raw(ctx.url, 'GET', `/v1/spaces/${s.id}/change-requests/${cr.id}/reviews?outdated=maybe`, { token: bob.token }), 400);
        // The change request by number works too.
        assert.equal((await reviews(s.id, String(cr.number))).items.length, 2);

        // A merged change request takes no more reviews.
        await merged(s.id, cr.id);
        await expectError(bob.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'approved' }), 409);
    });

    it('a review may carry a comment, posted in the change request', async () => {
        const s = await newSpace();
        const cr = await newCR(s.id);
        const r = await ok(bob.api.spaces.submitChangeRequestReview(s.id, cr.id, { status: 'changes-requested', comment: { markdown: 'Please fix the title' } }),
            'submitChangeRequestReview', 201);
        assert.equal(r.comment.body.markdown, 'Please fix the title');
        assert.equal(r.comment.postedBy.id, bob.id);
        const comments = await ok(alice.api.spaces.listCommentsInChangeRequest(s.id, cr.id), 'listCommentsInChangeRequest');
        assert.deepEqual(comments.items.map((c) => c.id), [r.comment.id]);
        assert.equal(comments.items[0].target.review, r.id, 'the comment targets its review (Comment.target.review)');
        assert.equal(comments.items[0].target.changeRequest, cr.id);
        const one = await ok(alice.api.spaces.getCommentInChangeRequest(s.id, cr.id, r.comment.id), 'getCommentInChangeRequest');
        assert.equal(one.target.review, r.id);
        // The seed answers 201 for a new comment; GitBook's document lists 200 with the same Comment body.
        const res = await alice.api.spaces.postCommentInChangeRequest(s.id, cr.id, { body: { markdown: 'Not a review' } });
        assert.equal(res.status, 201);
        const plain = validate('postCommentInChangeRequest', 200, res.data);
        assert.equal(plain.target.review, undefined, 'an ordinary comment targets no review');
        await empty(alice.api.spaces.deleteCommentInChangeRequest(s.id, cr.id, plain.id), 204, 'delete the ordinary comment');
        const listed = await reviews(s.id, cr.id);
        assert.equal(listed.items[0].comment.id, r.comment.id);
        const doc = await reviews(s.id, cr.id, { format: 'document' });
        assert.equal(doc.items[0].comment.body.markdown, undefined);
        assert.equal(typeof doc.items[0].comment.body.document, 'object');
        await empty(bob.api.spaces.deleteCommentInChangeRequest(s.id, cr.id, r.comment.id), 204, 'delete the comment');
        assert.equal((await reviews(s.id, cr.id)).items[0].comment, undefined, 'the review stays, without its comment');
    });

    it('a new head, an update from the space or a newer review outdates earlier reviews', async () => {
        const s = await newSpace();
        const cr = await newCR(s.id);
        const first = await review(bob, s.id, cr.id, 'approved');
        await edit(dave, s.id, cr.id);
        let list = await reviews(s.id, cr.id);
        assert.deepEqual(list.items.map((x) => [x.id, x.outdated]), [[first.id, true]]);
        assert.equal((await reviews(s.id, cr.id, { outdated: false })).items.length, 0);
        assert.equal((await reviews(s.id, cr.id, { outdated: true })).items.length, 1);

        const second = await review(bob, s.id, cr.id, 'changes-requested');
        assert.equal(second.outdated, false);
        const third = await review(bob, s.id, cr.id, 'approved');
        list = await reviews(s.id, cr.id);
        assert.deepEqual(list.items.map((x) => [x.id, x.outdated]), [[first.id, true], [second.id, true], [third.id, false]]);

        // The space moves on; updating the change request from it is a new head too.
        const other = await newCR(s.id, 'Other');
        await merged(s.id, other.id);
        assert.equal((await reviews(s.id, cr.id, { outdated: false })).items.length, 1, 'the head did not move yet');
        await ok(alice.api.spaces.updateChangeRequest(s.id, cr.id), 'updateChangeRequest');
        assert.equal((await reviews(s.id, cr.id, { outdated: false })).items.length, 0);
    });

    it('requested reviewers: request, list, re-request, remove', async () => {
        const s = await newSpace();
        const cr = await newCR(s.id);
        const body = await ok(dave.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [bob.id, carol.id, erin.id] }),
            'requestReviewersForChangeRequest');
        assert.deepEqual(body.users.map((u) => [u.kind, u.user.id, u.requestedBy.id, u.revision]),
            [['user', bob.id, dave.id, cr.revision], ['user', carol.id, dave.id, cr.revision], ['user', erin.id, dave.id, cr.revision]]);
        const list = await ok(erin.api.spaces.getRequestedReviewersByChangeRequestId(s.id, cr.id), 'getRequestedReviewersByChangeRequestId');
        assert.deepEqual(list.items.map((u) => u.user.id), [bob.id, carol.id, erin.id]);
        assert.equal(list.items[0].object, 'change-request-requested-reviewer');
        await checkPagination((q) => alice.api.spaces.getRequestedReviewersByChangeRequestId(s.id, cr.id, q),
            'getRequestedReviewersByChangeRequestId', { key: (x) => x.user.id });
        await expectError(frank.api.spaces.getRequestedReviewersByChangeRequestId(s.id, cr.id), 404);

        // Who may be requested, and by whom.
        for (const [users, what] of [[[frank.id], 'not a member'], [['nosuchuser0000000000'], 'unknown user'], [[dave.id], 'the author'], [[], 'no users']]) {
            const e = await expectError(dave.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users }), 400, what);
            if (users.length) assert.match(e.error.message, /users\[0\]/);
        }
        await expectError(raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/requested-reviewers`, { token: dave.token, json: {} }), 400, 'users missing');
        await expectError(erin.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [bob.id] }), 403, 'read role');
        await expectError(frank.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [bob.id] }), 404, 'stranger');

        // A requested review records who asked; requesting again outdates it.
        const r = await review(bob, s.id, cr.id, 'approved');
        assert.equal(r.requestedBy.id, dave.id);
        await ok(alice.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [bob.id], subject: 'Renamed' }), 'requestReviewersForChangeRequest');
        assert.equal((await getCR(s.id, cr.id)).subject, 'Renamed', 'subject updated with the request');
        const descr = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Please look', marks: [] }] }] }] };
        await ok(alice.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [carol.id], description: descr }), 'requestReviewersForChangeRequest');
        assert.deepEqual((await getCR(s.id, cr.id)).description, descr, 'description updated with the request');
        await expectError(alice.api.spaces.requestReviewersForChangeRequest(s.id, cr.id, { users: [carol.id], description: 'text' }), 400, 'not a document');
        assert.equal((await reviews(s.id, cr.id)).items[0].outdated, true);
        const again = await ok(alice.api.spaces.getRequestedReviewersByChangeRequestId(s.id, cr.id), 'getRequestedReviewersByChangeRequestId');
        assert.deepEqual(again.items.map((u) => [u.user.id, u.requestedBy.id]), [[bob.id, alice.id], [carol.id, alice.id], [erin.id, dave.id]]);

        // Remove: 205 when removed, 204 when not requested.
        await expectError(erin.api.spaces.removeRequestedReviewerFromChangeRequest(s.id, cr.id, carol.id), 403);
        await empty(dave.api.spaces.removeRequestedReviewerFromChangeRequest(s.id, cr.id, carol.id), 205, 'remove');
        await empty(dave.api.spaces.removeRequestedReviewerFromChangeRequest(s.id, cr.id, carol.id), 204, 'remove again');
        const after = await ok(alice.api.spaces.getRequestedReviewersByChangeRequestId(s.id, cr.id), 'getRequestedReviewersByChangeRequestId');
        assert.deepEqual(after.items.map((u) => u.user.id), [bob.id, erin.id]);
    });

    it('require_change_request_subject', async () => {
        const s = await newSpace(rules('require_change_request_subject'));
        const cr = await newCR(s.id, '');
        await blocked(s.id, cr.id, ['require_change_request_subject']);
        await ok(dave.api.spaces.updateChangeRequestById(s.id, cr.id, { subject: '   ' }), 'updateChangeRequestById');
        await blocked(s.id, cr.id, ['require_change_request_subject']);
        await ok(dave.api.spaces.updateChangeRequestById(s.id, cr.id, { subject: 'A subject' }), 'updateChangeRequestById');
        await merged(s.id, cr.id);
    });

    it('require_at_least_one_review', async () => {
        const s = await newSpace(rules('require_at_least_one_review'));
        const cr = await newCR(s.id);
        await blocked(s.id, cr.id, ['require_at_least_one_review']);
        await review(bob, s.id, cr.id, 'changes-requested');
        await blocked(s.id, cr.id, ['require_at_least_one_review']);
        await review(carol, s.id, cr.id, 'approved');
        await edit(dave, s.id, cr.id); // the approval is outdated
        await blocked(s.id, cr.id, ['require_at_least_one_review']);
        await review(carol, s.id, cr.id, 'approved');
        await merged(s.id, cr.id);
    });

    it('require_all_reviews_approved', async () => {
        const s = await newSpace(rules('require_all_reviews_approved'));
        const cr = await newCR(s.id);
        await review(bob, s.id, cr.id, 'approved');
        await review(carol, s.id, cr.id, 'changes-requested');
        await blocked(s.id, cr.id, ['require_all_reviews_approved']);
        await review(carol, s.id, cr.id, 'approved');
        await merged(s.id, cr.id);
    });

    it('require_specific_reviewers and require_one_of_specific_reviewers', async () => {
        const s = await newSpace(rules({ rule: 'require_specific_reviewers', users: [bob.id, carol.id] }));
        const cr = await newCR(s.id);
        await review(bob, s.id, cr.id, 'approved');
        await blocked(s.id, cr.id, ['require_specific_reviewers']);
        await review(carol, s.id, cr.id, 'changes-requested');
        await blocked(s.id, cr.id, ['require_specific_reviewers']);
        await review(carol, s.id, cr.id, 'approved');
        await merged(s.id, cr.id);

        const t = await newSpace(rules({ rule: 'require_one_of_specific_reviewers', users: [carol.id, erin.id] }));
        const c2 = await newCR(t.id);
        await review(bob, t.id, c2.id, 'approved');
        await blocked(t.id, c2.id, ['require_one_of_specific_reviewers']);
        await review(carol, t.id, c2.id, 'approved');
        await merged(t.id, c2.id);
    });

    it('require_up_to_date_change_request', async () => {
        const s = await newSpace(rules('require_up_to_date_change_request'));
        const cr = await newCR(s.id);
        const other = await newCR(s.id, 'Other');
        await merged(s.id, other.id);
        assert.equal((await getCR(s.id, cr.id)).outdated, true);
        await blocked(s.id, cr.id, ['require_up_to_date_change_request']);
        await ok(alice.api.spaces.updateChangeRequest(s.id, cr.id), 'updateChangeRequest');
        await merged(s.id, cr.id);
    });

    it('require_change_request_description blocks while the change request has none (or only blank text)', async () => {
        const s = await newSpace(rules('require_change_request_description'));
        const cr = await newCR(s.id);
        await blocked(s.id, cr.id, ['require_change_request_description']);
        const doc = (text) => ({
            object: 'document',
            data: {},
            nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] }],
        });
        await ok(alice.api.spaces.updateChangeRequestById(s.id, cr.id, { description: doc('   ') }), 'updateChangeRequestById');
        await blocked(s.id, cr.id, ['require_change_request_description']);
        await ok(alice.api.spaces.updateChangeRequestById(s.id, cr.id, { description: doc('Why this change') }), 'updateChangeRequestById');
        await merged(s.id, cr.id);
    });

    it('every unmet rule is named; allow_bypass lets listed users merge anyway', async () => {
        const all = rules('require_at_least_one_review', 'require_change_request_subject', 'require_up_to_date_change_request',
            { rule: 'require_specific_reviewers', users: [carol.id] }, { rule: 'allow_bypass', users: [bob.id] });
        const s = await newSpace(all);
        const cr = await newCR(s.id, '');
        const other = await newCR(s.id, 'Other');
        await ok(alice.api.spaces.updateSpaceById(s.id, { mergeRules: { type: 'none' } }), 'updateSpaceById');
        await merged(s.id, other.id);
        await ok(alice.api.spaces.updateSpaceById(s.id, { mergeRules: all }), 'updateSpaceById');
        await blocked(s.id, cr.id, ['require_at_least_one_review', 'require_change_request_subject',
            'require_up_to_date_change_request', 'require_specific_reviewers']);
        await merged(s.id, cr.id, bob); // bob is listed: bypass
    });

    it('a space inherits the organization rules; none disables them', async () => {
        const { org: o } = await createOrg(ctx.url, alice.token, `Inherit ${ctx.run}`);
        await addMember(alice.api, o.id, bob.email, 'review');
        await ok(alice.api.orgs.updateOrganizationById(o.id, { mergeRules: rules('require_at_least_one_review') }), 'updateOrganizationById');
        const s = await newSpace(undefined, o.id);
        assert.deepEqual((await getSpace(s.id)).mergeRules, { type: 'inherit' });
        const cr = await newCR(s.id, 'Inherited', alice);
        await blocked(s.id, cr.id, ['require_at_least_one_review']);
        await ok(alice.api.spaces.updateSpaceById(s.id, { mergeRules: { type: 'none' } }), 'updateSpaceById');
        await merged(s.id, cr.id);

        // The space's own rules replace the organization's.
        const t = await newSpace(rules('require_change_request_subject'), o.id);
        const c2 = await newCR(t.id, 'Has a subject', alice);
        await merged(t.id, c2.id);
        // The organization's none applies to inheriting spaces.
        await ok(alice.api.orgs.updateOrganizationById(o.id, { mergeRules: { type: 'none' } }), 'updateOrganizationById');
        const u = await newSpace(undefined, o.id);
        await merged(u.id, (await newCR(u.id, '', alice)).id);
    });

    it('require_agent_review and custom rules are stored but answer 400 at merge', async () => {
        for (const rule of [{ rule: 'require_agent_review' }, { rule: 'custom', expression: 'reviews.length > 0' }]) {
            const s = await newSpace(rules(rule, 'require_change_request_subject'));
            assert.deepEqual((await getSpace(s.id)).mergeRules.rules[0], rule, 'stored as given');
            const cr = await newCR(s.id);
            const before = (await getSpace(s.id)).revision;
            const e = await expectError(alice.api.spaces.mergeChangeRequest(s.id, cr.id), 400, rule.rule);
            assert.match(e.error.message, new RegExp(`${rule.rule}`));
            assert.match(e.error.message, /not supported/);
            assert.equal((await getSpace(s.id)).revision, before);
            assert.equal((await getCR(s.id, cr.id)).status, cr.status);
        }
    });
});

// Comments and replies on a space's own content and on a change request: post, read, edit,
// resolve and reopen (the seed's state table), reactions, delete (idempotent, replies go
// too), the open-comment counts (Space.comments, ChangeRequest.comments), the lists with
// their filters and pagination, commenters, and who may do what. The same suite runs on
// both places; every response is checked against GitBook's schema.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import {
    ok,
    empty,
    expectError,
    raw,
    createOrg,
    addMember,
    checkPagination,
    validate,
    GitBookAPIError,
    sleep,
} from './lib/api.mjs';

const NO_SUCH_SPACE = 'nosuchspace000000000';
const NO_SUCH_COMMENT = 'nosuchcomment0000000';
const NO_SUCH_CR = 'nosuchchangerequest0';

/** POSTs answer 201 (the seed); GitBook's document has only 200, whose body is the object. */
async function created(promise, operationId) {
    let res;
    try {
        res = await promise;
    } catch (e) {
        if (e instanceof GitBookAPIError) assert.fail(`${operationId}: expected 201, got ${e.code}: ${e.message}`);
        throw e;
    }
    assert.equal(res.status, 201, `${operationId} answers 201`);
    return validate(operationId, 200, res.data);
}

function assertRecent(ts, what) {
    assert.equal(typeof ts, 'string', `${what} should be a timestamp`);
    assert.ok(Math.abs(Date.parse(ts) - Date.now()) < 5 * 60_000, `${what} ${ts} should be about now`);
}

/**
 * The comment operations of one place as one user: a space's own comments (crId undefined) or
 * a change request's. Each returns the client's promise; `op(name)` is the operationId.
 */
function place(api, spaceId, crId) {
    const inCr = crId !== undefined;
    const op = (name) => `${name}In${inCr ? 'ChangeRequest' : 'Space'}`;
    const call = (name, ...args) => api.spaces[op(name)](...(inCr ? [spaceId, crId, ...args] : [spaceId, ...args]));
    return {
        op,
        list: (q = {}) => call('listComments', q),
        post: (body) => call('postComment', body),
        get: (id, q) => call('getComment', id, q),
        put: (id, body) => call('updateComment', id, body),
        del: (id) => call('deleteComment', id),
        replies: (id, q = {}) => call('listCommentReplies', id, q),
        reply: (id, body) => call('postCommentReply', id, body),
        getReply: (id, rid, q) => call('getCommentReply', id, rid, q),
        putReply: (id, rid, body) => call('updateCommentReply', id, rid, body),
        delReply: (id, rid) => call('deleteCommentReply', id, rid),
        commenters: (q = {}) => call('listCommenters', q),
        path: `/v1/spaces/${spaceId}${inCr ? `/change-requests/${crId}` : ''}`,
    };
}

describe('comments', () => {
    let ctx, alice, bob, carol, dave, eve;
    let org;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice'); // organization admin: admin on every space
        bob = await ctx.user('bob'); // comment
        carol = await ctx.user('carol'); // comment
        dave = await ctx.user('dave'); // read
        eve = await ctx.user('eve'); // not a member
        ({ org } = await createOrg(ctx.url, alice.token, `Comments ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'comment');
        await addMember(alice.api, org.id, carol.email, 'comment');
        await addMember(alice.api, org.id, dave.email, 'read');
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    /** A space where bob and carol have the comment role and dave read (alice, an org admin, has admin). */
    async function newSpace(title) {
        const s = await ok(alice.api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        await empty(alice.api.spaces.inviteToSpace(s.id, { users: [bob.id, carol.id], role: 'comment' }), 204, 'inviteToSpace');
        await empty(alice.api.spaces.inviteToSpace(s.id, { users: [dave.id], role: 'read' }), 204, 'inviteToSpace');
        return s;
    }

    for (const kind of ['space', 'change request']) {
        describe(`on a ${kind}`, () => {
            const inCr = kind === 'change request';
            let space, cr, A, B, C, D, E;

            before(async () => {
                space = await newSpace(`Comments on a ${kind}`);
                if (inCr) cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Review me' }), 'createChangeRequest', 201);
                const at = (u) => place(u.api, space.id, cr?.id);
                [A, B, C, D, E] = [alice, bob, carol, dave, eve].map(at);
            });

            const post = (P, body) => created(P.post(body), P.op('postComment'));
            const say = (P, markdown, extra = {}) => post(P, { body: { markdown }, ...extra });
            const get = (P, id, q) => ok(P.get(id, q), P.op('getComment'));
            const put = (P, id, body) => ok(P.put(id, body), P.op('updateComment'));
            const del = (P, id) => empty(P.del(id), 204, P.op('deleteComment'));
            const reply = (P, id, markdown) => created(P.reply(id, { body: { markdown } }), P.op('postCommentReply'));
            const getReply = (P, id, rid, q) => ok(P.getReply(id, rid, q), P.op('getCommentReply'));
            const putReply = (P, id, rid, body) => ok(P.putReply(id, rid, body), P.op('updateCommentReply'));
            const delReply = (P, id, rid) => empty(P.delReply(id, rid), 204, P.op('deleteCommentReply'));
            const list = (P, q = {}) => ok(P.list({ limit: 1000, ...q }), P.op('listComments'));
            const ids = async (P, q) => (await list(P, q)).items.map((c) => c.id);
            const freshSpace = () => ok(alice.api.spaces.getSpaceById(space.id), 'getSpaceById');
            const openCount = async () =>
                inCr
                    ? (await ok(alice.api.spaces.getChangeRequestById(space.id, cr.id), 'getChangeRequestById')).comments
                    : (await freshSpace()).comments;
            const location = (id, rid) =>
                `${ctx.url}/s/${space.id}${inCr ? `/change-requests/${cr.id}` : ''}/comments/${id}${rid ? `/replies/${rid}` : ''}`;

            it('POST answers 201 with the Comment; GET answers the same, with the caller\'s permissions', async () => {
                const c = await say(B, 'Hello **world**');
                assert.equal(c.object, 'comment');
                assert.equal(typeof c.id, 'string');
                assert.ok(c.id.length > 0);
                assert.equal(c.postedBy.id, bob.id);
                assert.equal(c.postedBy.displayName, bob.name);
                assertRecent(c.postedAt, 'postedAt');
                assert.equal(c.editedAt, undefined);
                assert.deepEqual(c.reactions, []);
                assert.equal(c.replies, 0);
                assert.deepEqual(c.body, { markdown: 'Hello **world**' });
                assert.equal(c.status, 'open');
                assert.equal(c.resolvedAt, undefined);
                assert.equal(c.resolvedBy, undefined);
                assert.equal(c.target.space, space.id);
                assert.equal(c.target.revision, inCr ? cr.revision : space.revision);
                assert.equal(c.target.changeRequest, inCr ? cr.id : undefined);
                assert.equal(c.target.page, undefined);
                assert.equal(c.target.node, undefined);
                assert.equal(c.urls.location, location(c.id));
                assert.deepEqual(c.permissions, { view: true, edit: true, reply: true, delete: true });
                assert.deepEqual(await get(B, c.id), c, 'GET answers what POST did');
                // The permissions are the caller's.
                assert.deepEqual((await get(A, c.id)).permissions, { view: true, edit: false, reply: true, delete: true }, 'admin');
                assert.deepEqual((await get(C, c.id)).permissions, { view: true, edit: false, reply: true, delete: false }, 'commenter');
                assert.deepEqual((await get(D, c.id)).permissions, { view: true, edit: false, reply: false, delete: false }, 'reader');
                const asDave = await get(D, c.id);
                assert.deepEqual({ ...asDave, permissions: c.permissions }, c, 'the rest is the same for everyone');
                await del(B, c.id);
            });

            it('targets: node and tableCell are kept; an unknown page is a 400', async () => {
                const c = await say(C, 'On a cell', { node: 'node-1', tableCell: { record: 'rec1', definition: 'def1' } });
                assert.deepEqual(c.target.node, { id: 'node-1' });
                assert.deepEqual(c.target.tableCell, { record: 'rec1', definition: 'def1' });
                assert.deepEqual((await get(A, c.id)).target, c.target);
                const e = await expectError(C.post({ body: { markdown: 'x' }, page: 'nosuchpage' }), 400, 'unknown page');
                assert.match(e.error.message, /page/);
                await del(C, c.id);
            });

            it('the open count follows post, resolve, reopen and delete (the state table)', async () => {
                const base = await openCount();
                const c = await say(B, 'Please fix the typo');
                assert.equal(await openCount(), base + 1, 'a new comment is open');

                // open -> resolved: resolvedAt and resolvedBy set (carol may resolve: comment role).
                const r1 = await put(C, c.id, { resolved: true });
                assert.equal(r1.status, 'resolved');
                assertRecent(r1.resolvedAt, 'resolvedAt');
                assert.equal(r1.resolvedBy.id, carol.id);
                assert.equal(r1.editedAt, undefined, 'resolving is not editing');
                assert.deepEqual(r1.body, c.body);
                assert.equal(await openCount(), base);
                const asAlice = await get(A, c.id);
                assert.deepEqual({ ...asAlice, permissions: r1.permissions }, r1, 'GET shows the resolution');

                // resolved -> resolved: nothing changes (still carol's resolution).
                const r2 = await put(A, c.id, { resolved: true });
                assert.equal(r2.status, 'resolved');
                assert.equal(r2.resolvedBy.id, carol.id);
                assert.equal(r2.resolvedAt, r1.resolvedAt);
                assert.equal(await openCount(), base);

                // resolved -> open: both cleared.
                const o1 = await put(B, c.id, { resolved: false });
                assert.equal(o1.status, 'open');
                assert.equal(o1.resolvedAt, undefined);
                assert.equal(o1.resolvedBy, undefined);
                assert.equal(await openCount(), base + 1);
                const o2 = await put(B, c.id, { resolved: false });
                assert.equal(o2.status, 'open');
                assert.equal(await openCount(), base + 1);

                // Replies are not counted.
                await reply(C, c.id, 'Done');
                assert.equal(await openCount(), base + 1);

                // Deleting a resolved comment leaves the count; an open one takes it down.
                await put(A, c.id, { resolved: true });
                assert.equal(await openCount(), base);
                await del(A, c.id);
                assert.equal(await openCount(), base);
                const d = await say(B, 'Another one');
                assert.equal(await openCount(), base + 1);
                await del(B, d.id);
                assert.equal(await openCount(), base);
            });

            it(inCr ? "a change request's comments are its own: the space's list and count do not show them" : "the organization's space list shows the count (its admin cache follows)", async () => {
                if (inCr) {
                    const c = await say(B, 'Only in the change request');
                    assert.equal((await freshSpace()).comments, 0, 'Space.comments counts the space\'s own comments');
                    const own = place(alice.api, space.id);
                    assert.ok(!(await ids(own)).includes(c.id), 'not among the space\'s comments');
                    await expectError(own.get(c.id), 404, 'GET through the space');
                    assert.ok((await ids(A)).includes(c.id));
                    await del(A, c.id);
                    return;
                }
                const listed = async () =>
                    (await ok(alice.api.orgs.listSpacesInOrganizationById(org.id, { limit: 1000 }), 'listSpacesInOrganizationById')).items.find(
                        (s) => s.id === space.id,
                    ).comments;
                const before = await listed();
                const c = await say(B, 'Counted in the list');
                assert.equal(await listed(), before + 1);
                await put(C, c.id, { resolved: true });
                assert.equal(await listed(), before);
                await put(C, c.id, { resolved: false });
                assert.equal(await listed(), before + 1);
                await del(B, c.id);
                assert.equal(await listed(), before);
            });

            it('concurrent resolves, reopens and deletes count each change once', async () => {
                const base = await openCount();
                const cs = [];
                for (let i = 0; i < 6; i++) cs.push(await say(B, `Race ${i}`));
                assert.equal(await openCount(), base + 6);
                // Every comment resolved by two requests at once, then reopened by two at once.
                await Promise.all(cs.flatMap((c) => [put(A, c.id, { resolved: true }), put(C, c.id, { resolved: true })]));
                assert.equal(await openCount(), base);
                await Promise.all(cs.flatMap((c) => [put(A, c.id, { resolved: false }), put(B, c.id, { resolved: false })]));
                assert.equal(await openCount(), base + 6);
                // Replies posted and deleted at once are counted once each.
                const rs = await Promise.all(Array.from({ length: 8 }, (_, i) => reply(i % 2 ? B : C, cs[0].id, `Reply ${i}`)));
                assert.equal((await get(A, cs[0].id)).replies, 8);
                await Promise.all(rs.flatMap((r) => [delReply(A, cs[0].id, r.id), delReply(A, cs[0].id, r.id)]));
                assert.equal((await get(A, cs[0].id)).replies, 0);
                // Replies being written while their comment goes.
                const late = await Promise.all([
                    ...Array.from({ length: 4 }, () => C.reply(cs[1].id, { body: { markdown: 'late' } }).catch((e) => e)),
                    del(A, cs[1].id),
                ]);
                for (const r of late.slice(0, 4)) {
                    const status = r instanceof GitBookAPIError ? r.code : r.status;
                    assert.ok(status === 201 || status === 404, `a reply racing its comment's deletion: 201 or 404, got ${status}`);
                }
                await expectError(A.get(cs[1].id), 404, 'deleted while replied to');
                // Deleted twice at once: one of each pair deletes, both answer 204.
                await Promise.all(cs.flatMap((c) => [del(A, c.id), del(B, c.id)]));
                assert.equal(await openCount(), base);
            });

            it('only the author edits the body; editedAt is set', async () => {
                const c = await say(B, 'First draft');
                const e1 = await expectError(C.put(c.id, { body: { markdown: 'Hijacked' } }), 403, 'another commenter');
                assert.match(e1.error.message, /author/);
                await expectError(A.put(c.id, { body: { markdown: 'Admin edit' } }), 403, 'an admin is not the author');
                const u = await put(B, c.id, { body: { markdown: 'Second draft' } });
                assert.deepEqual(u.body, { markdown: 'Second draft' });
                assertRecent(u.editedAt, 'editedAt');
                assert.equal(u.postedAt, c.postedAt);
                assert.deepEqual(await get(B, c.id), u);
                // Several changes at once.
                const both = await put(B, c.id, { body: { markdown: 'Final' }, resolved: true, addedReactions: ['✅'] });
                assert.deepEqual(both.body, { markdown: 'Final' });
                assert.equal(both.status, 'resolved');
                assert.deepEqual(both.reactions.map((r) => r.emoji), ['✅']);
                // An empty PUT changes nothing.
                assert.deepEqual(await put(B, c.id, {}), both);
                await del(B, c.id);
            });

            it('reactions: added and removed per user, grouped by emoji with counts', async () => {
                const c = await say(B, 'React to me');
                let r = await put(B, c.id, { addedReactions: ['👍'] });
                assert.equal(r.reactions.length, 1);
                assert.equal(r.reactions[0].emoji, '👍');
                assert.equal(r.reactions[0].count, 1);
                assert.equal(r.reactions[0].users[0].user.id, bob.id);
                assertRecent(r.reactions[0].users[0].reactedAt, 'reactedAt');
                await sleep(3); // reactions are ordered by time (to the millisecond)
                r = await put(C, c.id, { addedReactions: ['👍', '🎉'] });
                assert.deepEqual(
                    r.reactions.map((x) => [x.emoji, x.count, x.users.map((u) => u.user.id)]),
                    [
                        ['👍', 2, [bob.id, carol.id]],
                        ['🎉', 1, [carol.id]],
                    ],
                );
                // Adding again keeps one reaction per user and emoji; removing one not there is a no-op.
                const again = await put(C, c.id, { addedReactions: ['👍'], removedReactions: ['🚀'] });
                assert.deepEqual(again.reactions, r.reactions);
                r = await put(B, c.id, { removedReactions: ['👍'] });
                // Both are now first used in one request: their order is not defined.
                assert.deepEqual(
                    r.reactions.map((x) => [x.emoji, x.count, x.users.map((u) => u.user.id)]).sort((a, b) => (a[0] < b[0] ? 1 : -1)),
                    [
                        ['👍', 1, [carol.id]],
                        ['🎉', 1, [carol.id]],
                    ],
                );
                r = await put(C, c.id, { removedReactions: ['👍', '🎉'] });
                assert.deepEqual(r.reactions, []);
                // A reaction of 50 characters is fine; the admin may react too.
                r = await put(A, c.id, { addedReactions: ['a'.repeat(50), '👨‍👩‍👧‍👦'] });
                assert.equal(r.reactions.length, 2);
                assert.deepEqual((await get(D, c.id)).reactions, r.reactions, 'a reader sees the reactions');
                await del(B, c.id);
            });

            it('bad reactions are a 400 naming the field', async () => {
                const c = await say(B, 'Bad reactions');
                const cases = [
                    [{ addedReactions: '👍' }, /addedReactions/],
                    [{ addedReactions: [''] }, /addedReactions\[0\]/],
                    [{ addedReactions: ['👍', 'a'.repeat(51)] }, /addedReactions\[1\]/],
                    [{ addedReactions: [7] }, /addedReactions\[0\]/],
                    [{ removedReactions: [' '] }, /removedReactions\[0\]/],
                    [{ addedReactions: Array.from({ length: 51 }, (_, i) => `e${i}`) }, /addedReactions/],
                    [{ addedReactions: ['👍'], removedReactions: ['👍'] }, /removedReactions/],
                ];
                for (const [body, re] of cases) {
                    const e = await expectError(B.put(c.id, body), 400, JSON.stringify(body).slice(0, 60));
                    assert.match(e.error.message, re);
                }
                assert.deepEqual((await get(B, c.id)).reactions, [], 'nothing was applied');
                await del(B, c.id);
            });

            it('a reader cannot post, reply, resolve, react, edit or delete (403); a non-member gets 404', async () => {
                const c = await say(B, 'Readers read');
                await expectError(D.post({ body: { markdown: 'Hi' } }), 403, 'reader post');
                await expectError(D.reply(c.id, { body: { markdown: 'Hi' } }), 403, 'reader reply');
                await expectError(D.put(c.id, { resolved: true }), 403, 'reader resolve');
                await expectError(D.put(c.id, { addedReactions: ['👍'] }), 403, 'reader react');
                await expectError(D.del(c.id), 403, 'reader delete');
                await expectError(D.del(NO_SUCH_COMMENT), 403, 'reader delete of nothing');
                await ok(D.list(), D.op('listComments'));
                await ok(D.commenters(), D.op('listCommenters'));
                // Not a member: the space does not exist for eve.
                await expectError(E.list(), 404, 'non-member list');
                await expectError(E.get(c.id), 404, 'non-member get');
                await expectError(E.post({ body: { markdown: 'Hi' } }), 404, 'non-member post');
                await expectError(E.del(c.id), 404, 'non-member delete');
                await expectError(E.commenters(), 404, 'non-member commenters');
                assert.equal((await get(A, c.id)).status, 'open');
                await del(B, c.id);
            });

            it('delete: by the author or an admin, 403 for another member, 204 again, replies go too', async () => {
                const c1 = await say(B, 'Delete me');
                const r1 = await reply(C, c1.id, 'A reply');
                const e = await expectError(C.del(c1.id), 403, "carol deletes bob's comment");
                assert.match(e.error.message, /author|admin/);
                await del(B, c1.id);
                await expectError(B.get(c1.id), 404, 'gone');
                await expectError(B.getReply(c1.id, r1.id), 404, 'its reply is gone');
                await del(B, c1.id); // did not exist: 204 too
                await del(A, NO_SUCH_COMMENT);
                await delReply(B, c1.id, r1.id); // its reply went with it
                assert.ok(!(await ids(A)).includes(c1.id));
                const c2 = await say(B, 'An admin deletes me');
                await del(A, c2.id);
                await expectError(A.get(c2.id), 404, 'deleted by the admin');
            });

            it('replies: post, get, list, edit, react and delete; the comment counts them', async () => {
                const c = await say(B, 'Thread');
                const r1 = await reply(C, c.id, 'First reply');
                assert.equal(r1.object, 'comment-reply');
                assert.equal(r1.postedBy.id, carol.id);
                assertRecent(r1.postedAt, 'postedAt');
                assert.deepEqual(r1.body, { markdown: 'First reply' });
                assert.deepEqual(r1.reactions, []);
                assert.equal(r1.urls.location, location(c.id, r1.id));
                assert.deepEqual(r1.permissions, { view: true, edit: true, reply: true, delete: true });
                for (const k of ['replies', 'target', 'status', 'resolvedAt', 'resolvedBy']) assert.equal(r1[k], undefined, k);
                assert.deepEqual(await getReply(C, c.id, r1.id), r1);
                assert.deepEqual((await getReply(B, c.id, r1.id)).permissions, { view: true, edit: false, reply: true, delete: false });
                assert.deepEqual((await getReply(A, c.id, r1.id)).permissions, { view: true, edit: false, reply: true, delete: true });
                assert.deepEqual((await getReply(D, c.id, r1.id)).permissions, { view: true, edit: false, reply: false, delete: false });
                await sleep(3);
                const r2 = await reply(B, c.id, 'Second reply');
                assert.equal((await get(A, c.id)).replies, 2);

                const page = await ok(D.replies(c.id), D.op('listCommentReplies'));
                assert.deepEqual(page.items.map((r) => r.id), [r1.id, r2.id], 'oldest first');
                assert.equal(page.count, 2);
                await checkPagination((q) => A.replies(c.id, q), A.op('listCommentReplies'));

                // Edit: the author only.
                await expectError(B.putReply(c.id, r1.id, { body: { markdown: 'Not mine' } }), 403, 'not the author');
                const u = await putReply(C, c.id, r1.id, { body: { markdown: 'First reply, edited' } });
                assert.deepEqual(u.body, { markdown: 'First reply, edited' });
                assertRecent(u.editedAt, 'editedAt');
                // Reactions on a reply.
                const x = await putReply(B, c.id, r1.id, { addedReactions: ['❤️'] });
                assert.deepEqual(x.reactions.map((y) => [y.emoji, y.count]), [['❤️', 1]]);
                await expectError(D.putReply(c.id, r1.id, { addedReactions: ['❤️'] }), 403, 'reader reacts');
                await expectError(D.reply(c.id, { body: { markdown: 'x' } }), 403, 'reader replies');

                // Delete: not by another member; by the author; by an admin; again 204.
                await expectError(B.delReply(c.id, r1.id), 403, 'another member');
                await expectError(D.delReply(c.id, r1.id), 403, 'a reader');
                await delReply(C, c.id, r1.id);
                await expectError(C.getReply(c.id, r1.id), 404, 'deleted reply');
                await delReply(C, c.id, r1.id);
                await delReply(A, c.id, r2.id);
                assert.equal((await get(A, c.id)).replies, 0);
                assert.deepEqual((await ok(A.replies(c.id), A.op('listCommentReplies'))).items, []);
                // A reply on a resolved comment is fine and leaves it resolved.
                await put(A, c.id, { resolved: true });
                await reply(B, c.id, 'Reopen?');
                const after = await get(A, c.id);
                assert.equal(after.status, 'resolved');
                assert.equal(after.replies, 1);
                await del(B, c.id);
            });

            it(inCr ? 'a reply PUT on a change request accepts resolved (UpdateCommentSchema) and it changes nothing' : 'a reply PUT with resolved is a 400 (UpdateCommentReplySchema has none)', async () => {
                const c = await say(B, 'Resolve a reply?');
                const r = await reply(B, c.id, 'Me');
                if (inCr) {
                    const u = await putReply(B, c.id, r.id, { resolved: true });
                    assert.equal(u.status, undefined);
                    assert.equal((await get(A, c.id)).status, 'open', 'the comment stays open');
                    await expectError(B.putReply(c.id, r.id, { resolved: 'yes' }), 400, 'resolved not a boolean');
                } else {
                    const e = await expectError(B.putReply(c.id, r.id, { resolved: true }), 400, 'resolved on a reply');
                    assert.match(e.error.message, /resolved/);
                }
                await del(B, c.id);
            });

            describe('lists', () => {
                let c1, c2, c3, c4;
                let ownSpace, L;

                before(async () => {
                    // A place of their own, so that the counts and orders are exact.
                    ownSpace = await newSpace(`Lists on a ${kind}`);
                    let crId;
                    if (inCr) crId = (await ok(alice.api.spaces.createChangeRequest(ownSpace.id, { subject: 'Lists' }), 'createChangeRequest', 201)).id;
                    L = {
                        A: place(alice.api, ownSpace.id, crId),
                        B: place(bob.api, ownSpace.id, crId),
                        C: place(carol.api, ownSpace.id, crId),
                        D: place(dave.api, ownSpace.id, crId),
                    };
                    c1 = await say(L.B, 'one');
                    await sleep(3);
                    c2 = await say(L.C, 'two');
                    await sleep(3);
                    c3 = await say(L.B, 'three');
                    await sleep(3);
                    c4 = await say(L.A, 'four');
                    await put(L.C, c2.id, { resolved: true });
                    await reply(L.A, c1.id, 'a reply by alice');
                });

                it('newest first by default, oldest first with order=asc', async () => {
                    const page = await list(L.D);
                    assert.deepEqual(page.items.map((c) => c.id), [c4.id, c3.id, c2.id, c1.id]);
                    assert.equal(page.count, 4);
                    assert.equal(page.next, undefined);
                    assert.deepEqual(await ids(L.D, { order: 'desc' }), [c4.id, c3.id, c2.id, c1.id]);
                    assert.deepEqual(await ids(L.D, { order: 'asc' }), [c1.id, c2.id, c3.id, c4.id]);
                    const first = page.items[3];
                    assert.equal(first.replies, 1, 'replies are counted, not listed');
                    assert.deepEqual(first.permissions, { view: true, edit: false, reply: false, delete: false }, "the reader's permissions");
                });

                it('status: all (default), open, resolved', async () => {
                    assert.deepEqual(await ids(L.A, { status: 'all' }), [c4.id, c3.id, c2.id, c1.id]);
                    assert.deepEqual(await ids(L.A, { status: 'open' }), [c4.id, c3.id, c1.id]);
                    assert.deepEqual(await ids(L.A, { status: 'resolved' }), [c2.id]);
                    const resolved = (await list(L.A, { status: 'resolved' })).items[0];
                    assert.equal(resolved.resolvedBy.id, carol.id);
                });

                it('authors: repeated or comma-separated user ids', async () => {
                    assert.deepEqual(await ids(L.A, { authors: [bob.id] }), [c3.id, c1.id]);
                    assert.deepEqual(await ids(L.A, { authors: [bob.id, alice.id] }), [c4.id, c3.id, c1.id]);
                    assert.deepEqual(await ids(L.A, { authors: ['nosuchuser'] }), []);
                    const r = await raw(ctx.url, 'GET', `${L.A.path}/comments?authors=${carol.id},${alice.id}&order=asc`, { token: alice.token });
                    assert.equal(r.status, 200, r.text);
                    validate(L.A.op('listComments'), 200, r.json);
                    assert.deepEqual(r.json.items.map((c) => c.id), [c2.id, c4.id]);
                    const both = await ids(L.A, { authors: [bob.id], status: 'open', order: 'asc' });
                    assert.deepEqual(both, [c1.id, c3.id], 'filters combine');
                    await checkPagination((q) => L.A.list(q), L.A.op('listComments'), { query: { authors: [bob.id, carol.id] } });
                });

                it('targetPage: only comments on that page', async () => {
                    assert.deepEqual(await ids(L.A, { targetPage: 'nosuchpage' }), []);
                });

                it('format: markdown or document bodies', async () => {
                    const md = await list(L.A, { format: 'markdown' });
                    assert.deepEqual(md.items.map((c) => c.body), [{ markdown: 'four' }, { markdown: 'three' }, { markdown: 'two' }, { markdown: 'one' }]);
                    const doc = await list(L.A, { format: 'document' });
                    for (const c of doc.items) {
                        assert.equal(c.body.markdown, undefined);
                        assert.equal(c.body.document.object, 'document');
                        assert.ok(Array.isArray(c.body.document.nodes));
                    }
                    const one = await get(L.A, c1.id, { format: 'document' });
                    assert.equal(one.body.document.object, 'document');
                    const rep = await ok(L.A.replies(c1.id, { format: 'document' }), L.A.op('listCommentReplies'));
                    assert.equal(rep.items[0].body.document.object, 'document');
                    assert.deepEqual((await get(L.A, c1.id, { format: 'markdown' })).body, { markdown: 'one' });
                });

                it('pagination: limit and page walk the same items in both orders', async () => {
                    await checkPagination((q) => L.D.list(q), L.D.op('listComments'));
                    await checkPagination((q) => L.D.list(q), L.D.op('listComments'), { query: { order: 'asc' } });
                    await checkPagination((q) => L.D.list(q), L.D.op('listComments'), { query: { status: 'open' } });
                    const p1 = await ok(L.D.list({ limit: 3 }), L.D.op('listComments'));
                    assert.equal(p1.items.length, 3);
                    assert.equal(typeof p1.next.page, 'string');
                    const p2 = await ok(L.D.list({ limit: 3, page: p1.next.page }), L.D.op('listComments'));
                    assert.deepEqual(p2.items.map((c) => c.id), [c1.id]);
                    assert.equal(p2.next, undefined);
                });

                it('commenters: the members who posted comments or replies, in order of their first post', async () => {
                    const page = await ok(L.D.commenters({ limit: 1000 }), L.D.op('listCommenters'));
                    assert.deepEqual(page.items.map((m) => m.user.id), [bob.id, carol.id, alice.id]);
                    const bobMember = page.items[0];
                    assert.equal(bobMember.object, 'member');
                    assert.equal(bobMember.id, bob.id);
                    assert.equal(bobMember.role, 'comment');
                    assert.equal(bobMember.user.email, bob.email, 'members see emails');
                    await checkPagination((q) => L.D.commenters(q), L.D.op('listCommenters'), { key: (m) => m.id });
                    // A reply makes its author a commenter.
                    const c5 = await say(L.A, 'five');
                    await reply(L.B, c5.id, 'ok');
                    assert.deepEqual(
                        (await ok(L.D.commenters(), L.D.op('listCommenters'))).items.map((m) => m.id),
                        [bob.id, carol.id, alice.id],
                    );
                    await del(L.A, c5.id);
                });

                it('bad query parameters are a 400 naming the parameter', async () => {
                    const cases = [
                        ['status=closed', /status/],
                        ['order=sideways', /order/],
                        ['format=html', /format/],
                        ['limit=0', /limit/],
                        ['limit=1001', /limit/],
                        ['limit=two', /limit/],
                        ['page=notacursor', /page/],
                        ['authors=', /authors/],
                    ];
                    for (const [q, re] of cases) {
                        const e = await expectError(raw(ctx.url, 'GET', `${L.A.path}/comments?${q}`, { token: alice.token }), 400, q);
                        assert.match(e.error.message, re, q);
                    }
                    for (const q of ['limit=0', 'page=notacursor']) {
                        await expectError(raw(ctx.url, 'GET', `${L.A.path}/comments/${c1.id}/replies?${q}`, { token: alice.token }), 400, `replies ${q}`);
                        await expectError(raw(ctx.url, 'GET', `${L.A.path}/commenters?${q}`, { token: alice.token }), 400, `commenters ${q}`);
                    }
                    await expectError(raw(ctx.url, 'GET', `${L.A.path}/comments/${c1.id}?format=pdf`, { token: alice.token }), 400, 'get format');
                });
            });

            it('bad bodies are a 400 naming the field', async () => {
                const c = await say(B, 'Valid');
                const cases = [
                    [{}, /body/],
                    [{ body: 'text' }, /body/],
                    [{ body: {} }, /body\.markdown/],
                    [{ body: { markdown: 7 } }, /body\.markdown/],
                    [{ body: { markdown: '' } }, /body\.markdown/],
                    [{ body: { markdown: '  \n ' } }, /body\.markdown/],
                    [{ body: { markdown: 'x'.repeat(10001) } }, /body\.markdown/],
                    [{ body: { document: { object: 'document', data: {}, nodes: [] } } }, /markdown/],
                    [{ body: { markdown: 'x' }, node: 5 }, /node/],
                    [{ body: { markdown: 'x' }, node: '' }, /node/],
                    [{ body: { markdown: 'x' }, page: 42 }, /page/],
                    [{ body: { markdown: 'x' }, tableCell: 'a' }, /tableCell/],
                    [{ body: { markdown: 'x' }, tableCell: { record: 'r' } }, /tableCell\.definition/],
                ];
                for (const [body, re] of cases) {
                    const e = await expectError(B.post(body), 400, `POST ${JSON.stringify(body).slice(0, 80)}`);
                    assert.match(e.error.message, re);
                }
                assert.equal((await say(B, 'x'.repeat(10000))).body.markdown.length, 10000, '10000 characters are fine');
                for (const [body, re] of [
                    [{ resolved: 'yes' }, /resolved/],
                    [{ body: { markdown: '' } }, /body\.markdown/],
                    [{ body: null }, /body/],
                ]) {
                    const e = await expectError(B.put(c.id, body), 400, `PUT ${JSON.stringify(body)}`);
                    assert.match(e.error.message, re);
                }
                for (const body of [{}, { body: { markdown: '' } }]) {
                    const e = await expectError(B.reply(c.id, body), 400, `reply ${JSON.stringify(body)}`);
                    assert.match(e.error.message, /body/);
                }
                const r = await raw(ctx.url, 'POST', `${B.path}/comments`, { token: bob.token, body: 'not json', headers: { 'Content-Type': 'application/json' } });
                await expectError(Promise.resolve(r), 400, 'not JSON');
                await del(B, c.id);
            });

            it('unknown ids are a 404', async () => {
                const c = await say(B, 'Known');
                const r = await reply(B, c.id, 'Known reply');
                await expectError(B.get(NO_SUCH_COMMENT), 404, 'GET unknown comment');
                await expectError(B.put(NO_SUCH_COMMENT, { resolved: true }), 404, 'PUT unknown comment');
                await expectError(B.replies(NO_SUCH_COMMENT), 404, 'replies of unknown comment');
                await expectError(B.reply(NO_SUCH_COMMENT, { body: { markdown: 'x' } }), 404, 'reply to unknown comment');
                await expectError(B.getReply(c.id, NO_SUCH_COMMENT), 404, 'unknown reply');
                await expectError(B.putReply(c.id, NO_SUCH_COMMENT, { body: { markdown: 'x' } }), 404, 'PUT unknown reply');
                await expectError(B.getReply(NO_SUCH_COMMENT, r.id), 404, 'reply under another comment');
                await expectError(B.get(r.id), 404, 'a reply is not a comment');
                const other = place(bob.api, NO_SUCH_SPACE, cr?.id);
                await expectError(other.list(), 404, 'unknown space');
                await expectError(other.get(c.id), 404, 'unknown space, known comment');
                await expectError(other.post({ body: { markdown: 'x' } }), 404, 'POST in unknown space');
                await expectError(other.commenters(), 404, 'commenters of unknown space');
                if (inCr) {
                    const noCr = place(bob.api, space.id, NO_SUCH_CR);
                    await expectError(noCr.list(), 404, 'unknown change request');
                    await expectError(noCr.get(c.id), 404, 'unknown change request, known comment');
                    await expectError(noCr.post({ body: { markdown: 'x' } }), 404, 'POST on unknown change request');
                    await expectError(noCr.commenters(), 404, 'commenters of unknown change request');
                } else {
                    // A comment of another space is not found through this one.
                    const s2 = await newSpace('Elsewhere');
                    await expectError(place(bob.api, s2.id).get(c.id), 404, 'comment of another space');
                    await empty(place(alice.api, s2.id).del(c.id), 204, 'DELETE through another space deletes nothing');
                    await get(B, c.id);
                }
                await del(B, c.id);
            });
        });
    }

    describe('page targets', () => {
        let s, cr, pageId, otherId;

        /** Writes page changes into the change request (updateChangeRequestContent, @gitbook/api 0.202.0). */
        async function change(changes) {
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content?compat=false`, {
                token: alice.token,
                json: { changes },
            });
            assert.equal(r.status, 200, `updateChangeRequestContent: ${r.text}`);
            return r.json;
        }

        before(async () => {
            s = await newSpace('Pages with comments');
            cr = await ok(alice.api.spaces.createChangeRequest(s.id, { subject: 'Add pages' }), 'createChangeRequest', 201);
            const out = await change([
                { operation: 'insert_page', title: 'Guide', document: { markdown: '# Guide\n\nRead me.' } },
                { operation: 'insert_page', title: 'Other', document: { markdown: 'Other page.' } },
            ]);
            [pageId, otherId] = out.changes.map((c) => c.page.id);
        });

        it('on a change request: target.page shows the page; outdated once it is deleted there', async () => {
            const P = place(bob.api, s.id, cr.id);
            const c = await created(P.post({ body: { markdown: 'About the guide' }, page: pageId, node: 'n1' }), 'postCommentInChangeRequest');
            assert.equal(c.target.page.id, pageId);
            assert.equal(c.target.page.title, 'Guide');
            assert.equal(typeof c.target.page.path, 'string');
            assert.ok(c.target.page.path.length > 0);
            assert.equal(c.target.page.outdated, false);
            assert.deepEqual(c.target.node, { id: 'n1' });
            const fresh = await ok(alice.api.spaces.getChangeRequestById(s.id, cr.id), 'getChangeRequestById');
            assert.equal(c.target.revision, fresh.revision, 'posted on the head revision');
            const o = await created(P.post({ body: { markdown: 'About the other' }, page: otherId }), 'postCommentInChangeRequest');
            const onPage = await ok(P.list({ targetPage: pageId }), 'listCommentsInChangeRequest');
            assert.deepEqual(onPage.items.map((x) => x.id), [c.id]);
            // The page goes: the comment stays, pointing at the revision that had it.
            await change([{ operation: 'delete_page', page: pageId }]);
            const after = await ok(P.get(c.id), 'getCommentInChangeRequest');
            assert.equal(after.target.page.outdated, true);
            assert.equal(after.target.page.title, 'Guide');
            assert.equal(after.target.revision, c.target.revision);
            assert.equal((await ok(P.get(o.id), 'getCommentInChangeRequest')).target.page.outdated, false);
            // A deleted page cannot get new comments.
            const e = await expectError(P.post({ body: { markdown: 'x' }, page: pageId }), 400, 'deleted page');
            assert.match(e.error.message, /page/);
        });

        it('on the space: pages of the current revision (after the merge)', async () => {
            const P = place(bob.api, s.id);
            await expectError(P.post({ body: { markdown: 'x' }, page: otherId }), 400, 'not merged yet');
            await ok(alice.api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest');
            const space = await ok(alice.api.spaces.getSpaceById(s.id), 'getSpaceById');
            const c = await created(P.post({ body: { markdown: 'Merged' }, page: otherId }), 'postCommentInSpace');
            assert.equal(c.target.page.id, otherId);
            assert.equal(c.target.page.title, 'Other');
            assert.equal(c.target.page.outdated, false);
            assert.equal(c.target.revision, space.revision);
            assert.deepEqual((await ok(P.list({ targetPage: otherId }), 'listCommentsInSpace')).items.map((x) => x.id), [c.id]);
            assert.deepEqual((await ok(P.list({ targetPage: pageId }), 'listCommentsInSpace')).items, []);
        });
    });

    it("a deleted space's comments can be read, not changed (409)", async () => {
        const s = await newSpace('Deleted with comments');
        const P = place(bob.api, s.id);
        const c = await created(P.post({ body: { markdown: 'Before' } }), 'postCommentInSpace');
        await empty(alice.api.spaces.deleteSpaceById(s.id), 204, 'deleteSpaceById');
        assert.deepEqual((await ok(P.get(c.id), 'getCommentInSpace')).body, { markdown: 'Before' });
        await ok(P.list(), 'listCommentsInSpace');
        await expectError(P.post({ body: { markdown: 'After' } }), 409, 'post');
        await expectError(P.put(c.id, { resolved: true }), 409, 'resolve');
        await expectError(P.reply(c.id, { body: { markdown: 'x' } }), 409, 'reply');
        await expectError(P.del(c.id), 409, 'delete');
        await ok(alice.api.spaces.restoreSpace(s.id), 'restoreSpace');
        await ok(P.put(c.id, { resolved: true }), 'updateCommentInSpace');
    });

    it('a space admin who is not an organization admin may delete any comment there', async () => {
        const s = await newSpace('Carol administers');
        await empty(alice.api.spaces.inviteToSpace(s.id, { users: [carol.id], role: 'admin' }), 204, 'inviteToSpace');
        const c = await created(place(bob.api, s.id).post({ body: { markdown: 'Mine' } }), 'postCommentInSpace');
        const asCarol = await ok(place(carol.api, s.id).get(c.id), 'getCommentInSpace');
        assert.deepEqual(asCarol.permissions, { view: true, edit: false, reply: true, delete: true });
        await empty(place(carol.api, s.id).del(c.id), 204, 'deleteCommentInSpace');
        assert.equal((await ok(alice.api.spaces.getSpaceById(s.id), 'getSpaceById')).comments, 0);
    });

    it("the create role (GitBook's content admin) deletes anyone's comments and replies; review does not", async () => {
        const s = await newSpace('Content admins');
        await empty(alice.api.spaces.inviteToSpace(s.id, { users: [carol.id], role: 'create' }), 204, 'inviteToSpace');
        await empty(alice.api.spaces.inviteToSpace(s.id, { users: [dave.id], role: 'review' }), 204, 'inviteToSpace');
        const B = place(bob.api, s.id), C = place(carol.api, s.id), D = place(dave.api, s.id);
        const c = await created(B.post({ body: { markdown: 'Mine' } }), 'postCommentInSpace');
        const r = await created(B.reply(c.id, { body: { markdown: 'Also mine' } }), 'postCommentReplyInSpace');
        assert.deepEqual((await ok(C.get(c.id), 'getCommentInSpace')).permissions, { view: true, edit: false, reply: true, delete: true }, 'create');
        assert.deepEqual((await ok(D.get(c.id), 'getCommentInSpace')).permissions, { view: true, edit: false, reply: true, delete: false }, 'review');
        assert.deepEqual((await ok(D.getReply(c.id, r.id), 'getCommentReplyInSpace')).permissions, { view: true, edit: false, reply: true, delete: false });
        const e = await expectError(D.del(c.id), 403, 'review deletes');
        assert.match(e.error.message, /author/);
        await expectError(D.delReply(c.id, r.id), 403, 'review deletes a reply');
        await expectError(C.put(c.id, { body: { markdown: 'Not mine' } }), 403, 'create does not edit the body');
        await empty(C.delReply(c.id, r.id), 204, 'deleteCommentReplyInSpace');
        assert.equal((await ok(B.get(c.id), 'getCommentInSpace')).replies, 0);
        await empty(C.del(c.id), 204, 'deleteCommentInSpace');
        await expectError(B.get(c.id), 404, 'gone');
        assert.equal((await ok(alice.api.spaces.getSpaceById(s.id), 'getSpaceById')).comments, 0);
    });

    it('tableCell ids with characters JSON escapes come back as they were sent', async () => {
        const s = await newSpace('Cells');
        const P = place(bob.api, s.id);
        const cell = { record: 'rec "1" \\ /', definition: 'déf\tnition ✓' };
        const c = await created(P.post({ body: { markdown: 'Cell' }, tableCell: cell }), 'postCommentInSpace');
        assert.deepEqual(c.target.tableCell, cell);
        assert.deepEqual((await ok(P.get(c.id), 'getCommentInSpace')).target.tableCell, cell);
        const listed = await ok(P.list(), 'listCommentsInSpace');
        assert.deepEqual(listed.items.find((x) => x.id === c.id).target.tableCell, cell);
        const e = await expectError(P.post({ body: { markdown: 'x' }, tableCell: { record: 'r', definition: 'd'.repeat(257) } }), 400, 'long definition');
        assert.match(e.error.message, /tableCell\.definition/);
    });
});

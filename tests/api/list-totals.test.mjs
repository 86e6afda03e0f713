// List totals: GitBook's List.count is the "Total count of objects in the list" the caller
// can see, the same on every page, following writes (docsd caches organization lists'
// totals against the organization's generation: each write below must show at once).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, createOrg, addMember, walk } from './lib/api.mjs';

describe('list totals', () => {
    let ctx, alice, bob, carol;
    let org;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        ({ org } = await createOrg(ctx.url, alice.token, `Totals ${ctx.run}`));
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    // The count on the first page (limit 1) and on the page after it, and the walked total.
    async function totals(fetchPage, operationId, query = {}) {
        const first = await ok(fetchPage({ ...query, limit: 1 }), operationId);
        const key = (x) => x.id ?? JSON.stringify(x);
        const walked = await walk(fetchPage, operationId, { limit: 2, query, key });
        assert.equal(first.count, walked.length, `${operationId}: count on page 1 is the total`);
        if (first.next) {
            const second = await ok(fetchPage({ ...query, limit: 1, page: first.next.page }), operationId);
            assert.equal(second.count, first.count, `${operationId}: the same count on page 2`);
        }
        return first.count;
    }

    it('members: the total of the organization, with filters, following joins and removals', async () => {
        const members = (q) => alice.api.orgs.listMembersInOrganizationById(org.id, q);
        const op = 'listMembersInOrganizationById';
        assert.equal(await totals(members, op), 1);
        await addMember(alice.api, org.id, bob.email, 'read');
        assert.equal(await totals(members, op), 2, 'a join shows at once');
        await addMember(alice.api, org.id, carol.email, 'edit');
        assert.equal(await totals(members, op), 3);
        assert.equal(await totals(members, op, { role: 'edit' }), 1, 'filtered: the filter\'s total');
        assert.equal(await totals(members, op, { search: 'nobody-matches-this' }), 0);
        // A page past the first: same total.
        const page = await ok(members({ limit: 2 }), op);
        assert.equal(page.items.length, 2);
        assert.equal(page.count, 3, 'count is not the page size');
        await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, carol.id), 205, 'remove carol');
        assert.equal(await totals(members, op), 2, 'a removal shows at once');
        await addMember(alice.api, org.id, carol.email, 'edit');
    });

    it('teams and team members: totals follow creation, membership and deletion', async () => {
        const teams = (q) => alice.api.orgs.listTeamsInOrganizationById(org.id, q);
        const op = 'listTeamsInOrganizationById';
        assert.equal(await totals(teams, op), 0);
        const t1 = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'One', members: [bob.id, carol.id] }), 'createOrganizationTeam', 201);
        const t2 = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Two' }), 'createOrganizationTeam', 201);
        assert.equal(await totals(teams, op), 2);
        assert.equal(await totals(teams, op, { title: 'one' }), 1);
        const tm = (q) => alice.api.orgs.listTeamMembersInOrganizationById(org.id, t1.id, q);
        assert.equal(await totals(tm, 'listTeamMembersInOrganizationById', {}), 2);
        const mt = (q) => alice.api.orgs.listTeamsForOrganizationMember(org.id, bob.id, q);
        assert.equal(await totals(mt, 'listTeamsForOrganizationMember'), 1);
        await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, t2.id), 204);
        assert.equal(await totals(teams, op), 1, 'a deleted team leaves the total');
    });

    describe('spaces and collections', () => {
        let closed, inClosed, open1, open2;
        const op = 'listSpacesInOrganizationById';

        before(async () => {
            closed = await ok(alice.api.orgs.createCollection(org.id, { title: 'Closed', defaultLevel: null }), 'createCollection', 201);
            await ok(alice.api.orgs.createCollection(org.id, { title: 'Open' }), 'createCollection', 201);
            inClosed = await ok(alice.api.orgs.createSpace(org.id, { title: 'Hidden', parent: closed.id }), 'createSpace', 201);
            open1 = await ok(alice.api.orgs.createSpace(org.id, { title: 'Visible 1' }), 'createSpace', 201);
            open2 = await ok(alice.api.orgs.createSpace(org.id, { title: 'Visible 2' }), 'createSpace', 201);
        });

        it('an admin: every space; creation and deletion show at once', async () => {
            const spaces = (q) => alice.api.orgs.listSpacesInOrganizationById(org.id, q);
            assert.equal(await totals(spaces, op), 3);
            const extra = await ok(alice.api.orgs.createSpace(org.id, { title: 'Extra' }), 'createSpace', 201);
            assert.equal(await totals(spaces, op), 4, 'a new space shows at once');
            await empty(alice.api.spaces.deleteSpaceById(extra.id), 204, 'delete the extra space');
            assert.equal(await totals(spaces, op), 3, 'a deleted space leaves the total');
            const inColl = (q) => alice.api.collections.listSpacesInCollectionById(closed.id, q);
            assert.equal(await totals(inColl, 'listSpacesInCollectionById'), 1);
            const colls = (q) => alice.api.orgs.listCollectionsInOrganizationById(org.id, q);
            assert.equal(await totals(colls, 'listCollectionsInOrganizationById'), 2);
        });

        it('a reader: the spaces and collections the reader can see, following grants', async () => {
            const spaces = (q) => bob.api.orgs.listSpacesInOrganizationById(org.id, q);
            assert.equal(await totals(spaces, op), 2, 'the closed collection hides its space');
            const colls = (q) => bob.api.orgs.listCollectionsInOrganizationById(org.id, q);
            assert.equal(await totals(colls, 'listCollectionsInOrganizationById'), 1, 'only the open collection');
            await empty(alice.api.spaces.inviteToSpace(inClosed.id, { users: [bob.id], role: 'read' }), 204, 'inviteToSpace');
            assert.equal(await totals(spaces, op), 3, 'a grant shows at once');
            // The admin's count is its own (a different viewer, the same generation).
            assert.equal(await totals((q) => alice.api.orgs.listSpacesInOrganizationById(org.id, q), op), 3);
            const mine = (q) => alice.api.orgs.listSpacesForOrganizationMember(org.id, carol.id, q);
            assert.equal(await totals(mine, 'listSpacesForOrganizationMember'), 2, "the member's spaces, as the member sees them");
            const grants = (q) => alice.api.spaces.listUserPermissionsInSpace(inClosed.id, q);
            const granted = await totals(grants, 'listUserPermissionsInSpace', {});
            await empty(alice.api.spaces.inviteToSpace(inClosed.id, { users: [carol.id], role: 'comment' }), 204, 'inviteToSpace');
            assert.equal(await totals(grants, 'listUserPermissionsInSpace', {}), granted + 1, 'a grant joins the space\'s users');
            assert.equal(await totals(mine, 'listSpacesForOrganizationMember'), 3, "the member's new grant counts");
            await empty(alice.api.spaces.deleteSpaceById(open2.id), 204, 'delete a visible space');
            assert.equal(await totals(spaces, op), 2, "a deletion shows in the reader's total");
            assert.ok(open1.id);
        });
    });

    it('comments and replies: the space\'s totals', async () => {
        const s = await ok(alice.api.orgs.createSpace(org.id, { title: 'Talk' }), 'createSpace', 201);
        const list = (q) => alice.api.spaces.listCommentsInSpace(s.id, q);
        assert.equal(await totals(list, 'listCommentsInSpace'), 0);
        const posted = [];
        for (let i = 0; i < 3; i++) {
            const res = await alice.api.spaces.postCommentInSpace(s.id, { body: { markdown: `Comment ${i}` } });
            assert.ok([200, 201].includes(res.status));
            posted.push(res.data);
        }
        assert.equal(await totals(list, 'listCommentsInSpace'), 3);
        assert.equal(await totals(list, 'listCommentsInSpace', { authors: [bob.id] }), 0, 'the authors filter counts its own');
        assert.equal(await totals(list, 'listCommentsInSpace', { authors: [alice.id] }), 3);
        for (let i = 0; i < 2; i++) {
            const res = await alice.api.spaces.postCommentReplyInSpace(s.id, posted[0].id, { body: { markdown: `Reply ${i}` } });
            assert.ok([200, 201].includes(res.status));
        }
        const replies = (q) => alice.api.spaces.listCommentRepliesInSpace(s.id, posted[0].id, q);
        assert.equal(await totals(replies, 'listCommentRepliesInSpace'), 2);
        assert.equal(await totals(list, 'listCommentsInSpace'), 3, 'replies are not comments of the list');
    });

    it('sites, site spaces and share links', async () => {
        const sites = (q) => alice.api.orgs.listSites(org.id, q);
        const before = await totals(sites, 'listSites');
        const site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs' }), 'createSite', 201);
        await ok(alice.api.orgs.createSite(org.id, { title: 'More docs' }), 'createSite', 201);
        assert.equal(await totals(sites, 'listSites'), before + 2);
        const s1 = await ok(alice.api.orgs.createSpace(org.id, { title: 'Site 1' }), 'createSpace', 201);
        const s2 = await ok(alice.api.orgs.createSpace(org.id, { title: 'Site 2' }), 'createSpace', 201);
        for (const sp of [s1, s2]) await ok(alice.api.orgs.addSpaceToSite(org.id, site.id, { spaceId: sp.id }), 'addSpaceToSite', 201);
        const ss = (q) => alice.api.orgs.listSiteSpaces(org.id, site.id, q);
        assert.equal(await totals(ss, 'listSiteSpaces'), 2);
        const links = (q) => alice.api.orgs.listSiteShareLinks(org.id, site.id, q);
        assert.equal(await totals(links, 'listSiteShareLinks'), 0);
        for (const name of ['A', 'B', 'C']) await ok(alice.api.orgs.createSiteShareLink(org.id, site.id, { name }), 'createSiteShareLink', 201);
        assert.equal(await totals(links, 'listSiteShareLinks'), 3);
    });

    it('organizations of the user', async () => {
        const orgs = (q) => carol.api.orgs.listOrganizationsForAuthenticatedUser(q);
        const n = await totals(orgs, 'listOrganizationsForAuthenticatedUser');
        await createOrg(ctx.url, carol.token, `Carol's ${ctx.run}`);
        assert.equal(await totals(orgs, 'listOrganizationsForAuthenticatedUser'), n + 1);
    });
    it('invite links, change requests (space and organization), reviews, requested reviewers, contributors', async () => {
        // bob reads, carol edits (members from the first test).
        const links = (q) => alice.api.orgs.listOrganizationInviteLinks(org.id, q);
        const before = await totals(links, 'listOrganizationInviteLinks');
        await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'read' }), 'createOrganizationInvite', 201);
        await ok(alice.api.orgs.createOrganizationInvite(org.id, { role: 'edit' }), 'createOrganizationInvite', 201);
        assert.equal(await totals(links, 'listOrganizationInviteLinks'), before + 2);

        const s1 = await ok(alice.api.orgs.createSpace(org.id, { title: 'CR totals one' }), 'createSpace', 201);
        const s2 = await ok(alice.api.orgs.createSpace(org.id, { title: 'CR totals two' }), 'createSpace', 201);
        await ok(alice.api.spaces.updateSpaceById(s2.id, { defaultLevel: null }), 'updateSpaceById'); // only admins read it
        const crs = [];
        for (const title of ['a', 'b', 'c']) crs.push(await ok(alice.api.spaces.createChangeRequest(s1.id, { subject: title }), 'createChangeRequest', 201));
        await ok(carol.api.spaces.createChangeRequest(s1.id, { subject: 'by carol' }), 'createChangeRequest', 201);
        await ok(alice.api.spaces.createChangeRequest(s2.id, { subject: 'hidden' }), 'createChangeRequest', 201);
        const inSpace = (q) => alice.api.spaces.listChangeRequestsForSpace(s1.id, { status: 'draft', ...q });
        assert.equal(await totals(inSpace, 'listChangeRequestsForSpace'), 4);
        assert.equal(await totals(inSpace, 'listChangeRequestsForSpace', { creator: carol.id }), 1, 'the creator filter\'s total');
        const inOrg = (api) => (q) => api.orgs.listChangeRequestsForOrganization(org.id, { status: 'draft', ...q });
        assert.equal(await totals(inOrg(alice.api), 'listChangeRequestsForOrganization'), 5, 'an admin counts every space');
        assert.equal(await totals(inOrg(bob.api), 'listChangeRequestsForOrganization'), 4, 'a reader counts what they read');

        const cr = crs[0];
        const reviewers = (q) => alice.api.spaces.getRequestedReviewersByChangeRequestId(s1.id, cr.id, q);
        assert.equal(await totals(reviewers, 'getRequestedReviewersByChangeRequestId'), 0);
        await ok(alice.api.spaces.requestReviewersForChangeRequest(s1.id, cr.id, { users: [bob.id, carol.id] }), 'requestReviewersForChangeRequest');
        assert.equal(await totals(reviewers, 'getRequestedReviewersByChangeRequestId'), 2);
        const reviews = (q) => alice.api.spaces.getReviewsByChangeRequestId(s1.id, cr.id, q);
        await ok(alice.api.orgs.updateMemberInOrganizationById(org.id, carol.id, { role: 'review' }), 'updateMemberInOrganizationById');
        await ok(carol.api.spaces.submitChangeRequestReview(s1.id, cr.id, { status: 'approved' }), 'submitChangeRequestReview', 201);
        await ok(carol.api.spaces.submitChangeRequestReview(s1.id, cr.id, { status: 'changes-requested' }), 'submitChangeRequestReview', 201);
        assert.equal(await totals(reviews, 'getReviewsByChangeRequestId'), 2);
        assert.equal(await totals(reviews, 'getReviewsByChangeRequestId', { outdated: true }), 1, 'the outdated filter\'s total');

        const contributors = (q) => alice.api.spaces.getContributorsByChangeRequestId(s1.id, cr.id, q);
        const c0 = await totals(contributors, 'getContributorsByChangeRequestId');
        await alice.api.spaces.postCommentInChangeRequest(s1.id, cr.id, { body: { markdown: 'Mine' } });
        assert.equal(await totals(contributors, 'getContributorsByChangeRequestId'), c0 + 1, 'a commenter is counted once');
        await alice.api.spaces.postCommentInChangeRequest(s1.id, cr.id, { body: { markdown: 'Mine again' } });
        assert.equal(await totals(contributors, 'getContributorsByChangeRequestId'), c0 + 1);
    });
});

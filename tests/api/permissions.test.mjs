// Permissions on spaces and collections, as GitBook resolves them (model/access.h), by
// precedence, nearest first: organization admins are admin everywhere and non-members see
// nothing; the object's own grants to the user and the user's teams (the highest of them) win
// over everything below, lowering as well as raising; else its defaultLevel when not inherit
// (a role, or null: no access); else the same for each parent collection, nearest first; else
// the member's own organization role (guests: nothing). Organization.defaultRole is only the
// role of new members who join without one.
//
// Sections: who may call what (one table row per operation, spaces, collections, grants,
// change requests and comments, one expected status per org role), each precedence step,
// change requests and comments under grants and levels, moves and transfers, defaultRole,
// members/{userId}/spaces, and the permission operations themselves.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination, sleep, validate, GitBookAPIError } from './lib/api.mjs';

const NO_ID = 'nosuchid000000000000';
const CALLERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'];
/** Each caller's organization role (null: a guest, or not a member). */
const ORG_ROLE = { admin: 'admin', create: 'create', review: 'review', edit: 'edit', comment: 'comment', read: 'read', guest: null, outsider: null };
const LEVELS = ['read', 'comment', 'edit', 'review', 'create', 'admin'];
const rank = (role) => LEVELS.indexOf(role);

/** The `permissions` object of a Space for an effective role (null: none). create is a content admin. */
function spacePerms(role, { locked = false } = {}) {
    const l = role ? rank(role) : -1;
    assert.ok(role === null || l >= 0, `unknown role ${role}`);
    return {
        view: l >= 0,
        access: l >= 0,
        admin: l >= 4,
        viewInviteLinks: l >= 4,
        edit: l >= 2 && !locked,
        triggerGitSync: l >= 2 && !locked,
        comment: l >= 1,
        merge: l >= 3 && !locked,
        review: l >= 3,
        installIntegration: l === 5,
    };
}

/** The `permissions` object of a Collection for an effective role. */
function collectionPerms(role) {
    const l = rank(role);
    return { view: l >= 0, admin: l >= 4, viewInviteLinks: l >= 4, create: l >= 4 };
}

/**
 * Expected status per caller on content that inherits everywhere, where each member's role is
 * their organization role: `success` from role `need` up, 403 for members below it (they read
 * it), 404 for guests and outsiders; `over` overrides single callers.
 */
function need(role, success, over = {}) {
    const exp = {};
    for (const c of CALLERS) {
        const r = ORG_ROLE[c];
        exp[c] = r === null ? 404 : rank(r) >= rank(role) ? success : 403;
    }
    return { ...exp, ...over };
}

/**
 * Asserts the status of a client call or a raw() request: an error envelope, an empty 204/205,
 * or a body valid against operationId (its `schema` status: docsd answers 201 where GitBook's
 * document has only 200 for some creations).
 */
async function expectStatus(promise, status, operationId, what, schema = status) {
    if (status >= 400) {
        await expectError(promise, status, what);
        return undefined;
    }
    if (status === 204 || status === 205) {
        await empty(promise, status, what);
        return undefined;
    }
    let res;
    try {
        res = await promise;
    } catch (e) {
        if (e instanceof GitBookAPIError) assert.fail(`${what}: expected ${status}, got ${e.code}: ${e.message}`);
        throw e;
    }
    const isRaw = 'text' in res && !('data' in res);
    assert.equal(res.status, status, `${what}: expected ${status}, got ${res.status}${isRaw ? `: ${res.text}` : ''}`);
    return validate(operationId, schema, isRaw ? res.json : res.data);
}

const ids = (items) => items.map((x) => x.id).sort();
const PAGE = (title) => ({ changes: [{ operation: 'insert_page', title, document: { markdown: `${title} text` } }] });

describe('permissions', () => {
    let ctx, alice;
    let cr, rv, ed, cm, rd, gu, out; // the callers of the table besides alice (admin)
    let nm, nm2, rm; // users that start outside organization B

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        cr = await ctx.user('creator');
        rv = await ctx.user('reviewer');
        ed = await ctx.user('editor');
        cm = await ctx.user('commenter');
        rd = await ctx.user('reader');
        gu = await ctx.user('guest');
        out = await ctx.user('outsider');
        nm = await ctx.user('newcomer');
        nm2 = await ctx.user('newcomer2');
        rm = await ctx.user('leaver');
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const getSpace = (who, id) => ok(who.api.spaces.getSpaceById(id), 'getSpaceById');
    const getCollection = (who, id) => ok(who.api.collections.getCollectionById(id), 'getCollectionById');
    // Items of the same millisecond list in id order: a short pause keeps creation order.
    const newSpace = async (orgId, body = {}) => {
        const s = await ok(alice.api.orgs.createSpace(orgId, { title: 'Space', ...body }), 'createSpace', 201);
        await sleep(2);
        return s;
    };
    const newCollection = (orgId, body = {}) =>
        ok(alice.api.orgs.createCollection(orgId, { title: 'Collection', ...body }), 'createCollection', 201);
    const patchSpace = (id, body) => ok(alice.api.spaces.updateSpaceById(id, body), 'updateSpaceById');
    const patchCollection = (id, body) => ok(alice.api.collections.updateCollectionById(id, body), 'updateCollectionById');
    const grantSpace = (id, body) => empty(alice.api.spaces.inviteToSpace(id, body), 204, 'inviteToSpace');
    const grantCollection = (id, body) => empty(alice.api.collections.inviteToCollection(id, body), 204, 'inviteToCollection');
    /** A new organization of alice's with these [user, role] members. */
    async function newOrg(title, members = []) {
        const { org } = await createOrg(ctx.url, alice.token, `${title} ${ctx.run}`);
        for (const [u, role] of members) await addMember(alice.api, org.id, u.email, role);
        return org;
    }
    const newTeam = (orgId, title, members) =>
        ok(alice.api.orgs.createOrganizationTeam(orgId, { title, members: members.map((m) => m.id) }), 'createOrganizationTeam', 201);
    const orgSpaces = async (who, orgId) =>
        ids((await ok(who.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 }), 'listSpacesInOrganizationById')).items);
    const orgCollections = async (who, orgId, query = {}) =>
        ids(
            (await ok(who.api.orgs.listCollectionsInOrganizationById(orgId, { limit: 1000, ...query }), 'listCollectionsInOrganizationById'))
                .items,
        );
    const collectionSpaces = async (who, id) =>
        ids((await ok(who.api.collections.listSpacesInCollectionById(id, { limit: 1000 }), 'listSpacesInCollectionById')).items);

    // Change requests and comments, as any caller.
    const openCR = (who, spaceId, subject = 'Change') => who.api.spaces.createChangeRequest(spaceId, { subject });
    const newCR = (who, spaceId, subject) => ok(openCR(who, spaceId, subject), 'createChangeRequest', 201);
    const writeCR = (who, spaceId, crId, title = 'Page') =>
        raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, { token: who.token, json: PAGE(title) });
    /** A space with an open change request (by alice) that adds one page. */
    async function spaceWithCR(orgId, title = 'With a change request') {
        const space = await newSpace(orgId, { title });
        const c = await newCR(alice, space.id);
        await expectStatus(writeCR(alice, space.id, c.id, 'Added'), 200, 'updateChangeRequestContent', 'seed the change request');
        return { space, cr: c };
    }
    const crStatus = async (spaceId, crId) => (await ok(alice.api.spaces.getChangeRequestById(spaceId, crId), 'getChangeRequestById')).status;
    const comment = (who, spaceId, markdown = 'A comment') => who.api.spaces.postCommentInSpace(spaceId, { body: { markdown } });
    const commented = (who, spaceId, markdown) => expectStatus(comment(who, spaceId, markdown), 201, 'postCommentInSpace', 'post a comment', 200);
    const comments = async (spaceId) =>
        (await ok(alice.api.spaces.listCommentsInSpace(spaceId, { limit: 1000 }), 'listCommentsInSpace')).items;

    /** Effective role of `who` on a space: GET answers 404 without read, else the permissions object says it. */
    async function assertSpaceRole(who, id, role, what) {
        if (role === null) {
            await expectError(who.api.spaces.getSpaceById(id), 404, `${what}: GET space`);
            return;
        }
        const s = await getSpace(who, id);
        assert.deepEqual(s.permissions, spacePerms(role, { locked: s.editMode === 'locked' }), `${what}: permissions of a ${role}`);
    }
    async function assertCollectionRole(who, id, role, what) {
        if (role === null) {
            await expectError(who.api.collections.getCollectionById(id), 404, `${what}: GET collection`);
            return;
        }
        const c = await getCollection(who, id);
        assert.deepEqual(c.permissions, collectionPerms(role), `${what}: permissions of a ${role}`);
    }
    /** PATCH as `who` must answer `status` (create needed). */
    const patchSpaceAs = (who, id, status, what) =>
        expectStatus(who.api.spaces.updateSpaceById(id, { title: `By ${who.name}`.slice(0, 50) }), status, 'updateSpaceById', what);
    const userGrants = async (kind, id) => {
        const res = await ok(
            kind === 'space' ? alice.api.spaces.listUserPermissionsInSpace(id) : alice.api.collections.listUserPermissionsInCollection(id),
            kind === 'space' ? 'listUserPermissionsInSpace' : 'listUserPermissionsInCollection',
        );
        return Object.fromEntries(res.items.map((x) => [x.user.id, x.permission]));
    };
    const teamGrants = async (kind, id) => {
        const res = await ok(
            kind === 'space' ? alice.api.spaces.listTeamPermissionsInSpace(id) : alice.api.collections.listTeamPermissionsInCollection(id),
            kind === 'space' ? 'listTeamPermissionsInSpace' : 'listTeamPermissionsInCollection',
        );
        return Object.fromEntries(res.items.map((x) => [x.team.id, x.permission]));
    };

    // ------------------------------------------------------------------------------------
    describe('who may call what: a member\'s organization role is their role on content that inherits', () => {
        let org, target, coll, inColl, top, team, extra, who;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Access ${ctx.run}`));
            ({ org: target } = await createOrg(ctx.url, alice.token, `Target ${ctx.run}`));
            // every caller has the same role in the target organization of transfers
            for (const [u, role] of [[cr, 'create'], [rv, 'review'], [ed, 'edit'], [cm, 'comment'], [rd, 'read'], [gu, null]]) {
                await addMember(alice.api, org.id, u.email, role);
                await addMember(alice.api, target.id, u.email, role);
            }
            // the subject of grants in the table: a member who is none of the callers
            extra = await ctx.user('extra');
            await addMember(alice.api, org.id, extra.email, 'read');
            team = await newTeam(org.id, 'Grantees', [extra]);
            // defaultRole takes no part in access: null (guest) here, yet every member has their own role
            const o = await ok(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: null }), 'updateOrganizationById');
            assert.equal(o.defaultRole ?? null, null);
            coll = await newCollection(org.id, { title: 'Shared' });
            inColl = await newSpace(org.id, { title: 'In collection', parent: coll.id });
            top = await newSpace(org.id, { title: 'Top level' });
            who = { admin: alice, create: cr, review: rv, edit: ed, comment: cm, read: rd, guest: gu, outsider: out };
            for (const x of [coll, inColl, top]) assert.equal(x.defaultLevel, 'inherit');
        });

        it('GET space and collection: the permissions object of each caller is their org role\'s', async () => {
            for (const c of CALLERS) {
                for (const s of [inColl, top]) await assertSpaceRole(who[c], s.id, ORG_ROLE[c], `${c} on ${s.title}`);
                await assertCollectionRole(who[c], coll.id, ORG_ROLE[c], `${c} on the collection`);
            }
        });

        it('lists: members see every space and collection with their role\'s permissions, guests none', async () => {
            const all = await orgSpaces(alice, org.id);
            assert.deepEqual(all, ids([inColl, top]));
            for (const c of ['admin', 'create', 'review', 'edit', 'comment', 'read']) {
                const res = await ok(who[c].api.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById');
                assert.deepEqual(ids(res.items), all, `${c}: org spaces`);
                for (const s of res.items) assert.deepEqual(s.permissions, spacePerms(c), `${c}: list item permissions`);
                const cols = await ok(who[c].api.orgs.listCollectionsInOrganizationById(org.id), 'listCollectionsInOrganizationById');
                assert.deepEqual(ids(cols.items), [coll.id], `${c}: org collections`);
                assert.deepEqual(cols.items[0].permissions, collectionPerms(c));
                const inside = await ok(who[c].api.collections.listSpacesInCollectionById(coll.id), 'listSpacesInCollectionById');
                assert.deepEqual(ids(inside.items), [inColl.id], `${c}: collection spaces`);
                assert.deepEqual(inside.items[0].permissions, spacePerms(c));
            }
            assert.deepEqual(await orgSpaces(gu, org.id), [], 'guest: no spaces');
            assert.deepEqual(await orgCollections(gu, org.id), [], 'guest: no collections');
        });

        // Fresh objects for the rows that change something, so that rows and callers are independent.
        const fresh = {
            space: async () => ({ space: await newSpace(org.id, { title: 'Fresh' }) }),
            deleted: async () => {
                const space = await newSpace(org.id, { title: 'Deleted' });
                await empty(alice.api.spaces.deleteSpaceById(space.id), 204, 'delete');
                return { space };
            },
            collection: async () => ({ collection: await newCollection(org.id, { title: 'Fresh' }) }),
            spaceGrants: async () => {
                const space = await newSpace(org.id, { title: 'Granted' });
                await grantSpace(space.id, { role: 'comment', users: [extra.id], teams: [team.id] });
                return { space };
            },
            collectionGrants: async () => {
                const collection = await newCollection(org.id, { title: 'Granted' });
                await grantCollection(collection.id, { role: 'comment', users: [extra.id], teams: [team.id] });
                return { collection };
            },
            cr: async () => spaceWithCR(org.id),
            comment: async () => {
                const space = await newSpace(org.id, { title: 'Commented' });
                return { space, comment: await commented(alice, space.id, 'By alice') };
            },
        };
        const spaceTitle = async (f) => (await getSpace(alice, f.space.id)).title;
        const newSite = (orgId, title) => ok(alice.api.orgs.createSite(orgId, { title }), 'createSite', 201);
        Object.assign(fresh, {
            site: async () => ({ site: await newSite(org.id, 'Fresh site') }),
            // a site here, and a site of the target organization with a share link
            foreignShareLink: async () => {
                const foreign = await newSite(target.id, 'Foreign site');
                const link = await ok(alice.api.orgs.createSiteShareLink(target.id, foreign.id, { name: 'Theirs' }), 'createSiteShareLink', 201);
                return { site: await newSite(org.id, 'Fresh site'), foreign, link };
            },
            translation: async () => ({
                translation: await ok(
                    alice.api.orgs.createTranslation(org.id, { source: { space: top.id, language: 'en' }, language: 'es' }),
                    'createTranslation',
                    201,
                ),
            }),
        });
        const siteExists = async (orgId, id) => {
            const r = await raw(ctx.url, 'GET', `/v1/orgs/${orgId}/sites/${id}`, { token: alice.token });
            assert.ok(r.status === 200 || r.status === 404, `GET site: ${r.status}`);
            return r.status === 200;
        };
        const translationExists = async (id) => {
            const r = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/translations/${id}`, { token: alice.token });
            assert.ok(r.status === 200 || r.status === 404, `GET translation: ${r.status}`);
            return r.status === 200;
        };

        const rows = [
            { name: 'GET /spaces/{id} (in a collection)', op: 'getSpaceById', exp: need('read', 200), call: (api) => api.spaces.getSpaceById(inColl.id) },
            { name: 'GET /spaces/{id} (top level)', op: 'getSpaceById', exp: need('read', 200), call: (api) => api.spaces.getSpaceById(top.id) },
            {
                name: 'PATCH /spaces/{id}',
                op: 'updateSpaceById',
                exp: need('create', 200),
                fresh: fresh.space,
                call: (api, f) => api.spaces.updateSpaceById(f.space.id, { title: 'Renamed' }),
                check: async (f, st) => assert.equal(await spaceTitle(f), st === 200 ? 'Renamed' : 'Fresh'),
            },
            {
                name: 'PATCH /spaces/{id} editMode',
                op: 'updateSpaceById',
                exp: need('create', 200),
                fresh: fresh.space,
                call: (api, f) => api.spaces.updateSpaceById(f.space.id, { editMode: 'locked' }),
                check: async (f, st) => assert.equal((await getSpace(alice, f.space.id)).editMode, st === 200 ? 'locked' : 'live'),
            },
            {
                name: 'DELETE /spaces/{id}',
                op: 'deleteSpaceById',
                exp: need('create', 204),
                fresh: fresh.space,
                call: (api, f) => api.spaces.deleteSpaceById(f.space.id),
                check: async (f, st) => assert.equal(typeof (await getSpace(alice, f.space.id)).deletedAt, st === 204 ? 'string' : 'undefined'),
            },
            {
                name: 'POST /spaces/{id}/restore',
                op: 'restoreSpace',
                exp: need('create', 200),
                fresh: fresh.deleted,
                call: (api, f) => api.spaces.restoreSpace(f.space.id),
                check: async (f, st) => assert.equal(typeof (await getSpace(alice, f.space.id)).deletedAt, st === 200 ? 'undefined' : 'string'),
            },
            {
                // docsd answers 200 like the seed (GitBook documents 201): the body is checked as a Space
                name: 'POST /spaces/{id}/duplicate (top level: create in the org)',
                op: 'getSpaceById',
                exp: need('create', 200),
                call: (api) => api.spaces.duplicateSpace(top.id),
            },
            {
                name: 'POST /spaces/{id}/duplicate (in a collection: create on it, inherited from the org role)',
                op: 'getSpaceById',
                exp: need('create', 200),
                call: (api) => api.spaces.duplicateSpace(inColl.id),
            },
            {
                name: 'POST /spaces/{id}/move',
                op: 'moveSpace',
                exp: need('create', 200),
                fresh: fresh.space,
                call: (api, f) => api.spaces.moveSpace(f.space.id, { parent: coll.id }),
                check: async (f, st) => assert.equal((await getSpace(alice, f.space.id)).parent, st === 200 ? coll.id : undefined),
            },
            {
                name: 'POST /spaces/{id}/transfer (create in the target organization too)',
                op: 'transferSpace',
                exp: need('create', 200),
                fresh: fresh.space,
                call: (api, f) => api.spaces.transferSpace(f.space.id, { organization: target.id }),
                check: async (f, st) => assert.equal((await getSpace(alice, f.space.id)).organization, st === 200 ? target.id : org.id),
            },
            {
                name: 'GET /orgs/{org}/spaces',
                op: 'listSpacesInOrganizationById',
                exp: need('read', 200, { guest: 200 }),
                call: (api) => api.orgs.listSpacesInOrganizationById(org.id),
            },
            {
                name: 'GET /collections/{id}/spaces',
                op: 'listSpacesInCollectionById',
                exp: need('read', 200),
                call: (api) => api.collections.listSpacesInCollectionById(coll.id),
            },
            {
                name: 'GET /orgs/{org}/collections',
                op: 'listCollectionsInOrganizationById',
                exp: need('read', 200, { guest: 200 }),
                call: (api) => api.orgs.listCollectionsInOrganizationById(org.id),
            },
            { name: 'GET /collections/{id}', op: 'getCollectionById', exp: need('read', 200), call: (api) => api.collections.getCollectionById(coll.id) },
            {
                name: 'PATCH /collections/{id}',
                op: 'updateCollectionById',
                exp: need('create', 200),
                fresh: fresh.collection,
                call: (api, f) => api.collections.updateCollectionById(f.collection.id, { title: 'Renamed' }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).title, st === 200 ? 'Renamed' : 'Fresh'),
            },
            {
                name: 'DELETE /collections/{id}',
                op: 'deleteCollectionById',
                exp: need('create', 204),
                fresh: fresh.collection,
                call: (api, f) => api.collections.deleteCollectionById(f.collection.id),
                check: async (f, st) => {
                    if (st === 204) await expectError(alice.api.collections.getCollectionById(f.collection.id), 404, 'deleted collection');
                    else await getCollection(alice, f.collection.id);
                },
            },
            {
                name: 'POST /collections/{id}/move',
                op: 'moveCollection',
                exp: need('create', 200),
                fresh: fresh.collection,
                call: (api, f) => api.collections.moveCollection(f.collection.id, { parent: coll.id }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).parent, st === 200 ? coll.id : undefined),
            },
            {
                name: 'POST /collections/{id}/transfer',
                op: 'transferCollection',
                exp: need('create', 200),
                fresh: fresh.collection,
                call: (api, f) => api.collections.transferCollection(f.collection.id, { organization: target.id }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).organization, st === 200 ? target.id : org.id),
            },
            {
                name: 'POST /orgs/{org}/spaces (top level)',
                op: 'createSpace',
                exp: need('create', 201, { guest: 403 }),
                call: (api) => api.orgs.createSpace(org.id, { title: 'Made' }),
            },
            {
                // a guest cannot see the collection: 400 like an unknown parent
                name: 'POST /orgs/{org}/spaces (in a collection)',
                op: 'createSpace',
                exp: need('create', 201, { guest: 400 }),
                call: (api) => api.orgs.createSpace(org.id, { title: 'Made', parent: coll.id }),
            },
            {
                name: 'POST /orgs/{org}/collections (top level)',
                op: 'createCollection',
                exp: need('create', 201, { guest: 403 }),
                call: (api) => api.orgs.createCollection(org.id, { title: 'Made' }),
            },
            {
                name: 'POST /orgs/{org}/collections (in a collection)',
                op: 'createCollection',
                exp: need('create', 201, { guest: 400 }),
                call: (api) => api.orgs.createCollection(org.id, { title: 'Made', parent: coll.id }),
            },
            ...['space', 'collection'].flatMap((kind) => {
                const S = kind === 'space';
                const T = S ? 'Space' : 'Collection';
                const path = S ? '/spaces/{id}' : '/collections/{id}';
                const sub = S ? 'spaces' : 'collections';
                const obj = (f) => (S ? f.space : f.collection);
                const shared = () => (S ? inColl : coll);
                return [
                    {
                        name: `POST ${path}/permissions`,
                        op: `inviteTo${T}`,
                        exp: need('create', 204),
                        fresh: S ? fresh.space : fresh.collection,
                        call: (api, f) => api[sub][`inviteTo${T}`](obj(f).id, { role: 'edit', users: [extra.id], teams: [team.id] }),
                        check: async (f, st) => {
                            assert.deepEqual(await userGrants(kind, obj(f).id), st === 204 ? { [extra.id]: 'edit' } : {});
                            assert.deepEqual(await teamGrants(kind, obj(f).id), st === 204 ? { [team.id]: 'edit' } : {});
                        },
                    },
                    {
                        name: `GET ${path}/permissions/users`,
                        op: `listUserPermissionsIn${T}`,
                        exp: need('read', 200),
                        call: (api) => api[sub][`listUserPermissionsIn${T}`](shared().id),
                    },
                    {
                        name: `GET ${path}/permissions/teams`,
                        op: `listTeamPermissionsIn${T}`,
                        exp: need('read', 200),
                        call: (api) => api[sub][`listTeamPermissionsIn${T}`](shared().id),
                    },
                    {
                        name: `PATCH ${path}/permissions/users/{userId}`,
                        op: `updateUserPermissionIn${T}`,
                        exp: need('create', 204),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`updateUserPermissionIn${T}`](obj(f).id, extra.id, { role: 'review' }),
                        check: async (f, st) => assert.deepEqual(await userGrants(kind, obj(f).id), { [extra.id]: st === 204 ? 'review' : 'comment' }),
                    },
                    {
                        name: `DELETE ${path}/permissions/users/{userId}`,
                        op: `removeUserFrom${T}`,
                        exp: need('create', 205),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`removeUserFrom${T}`](obj(f).id, extra.id),
                        check: async (f, st) => assert.deepEqual(await userGrants(kind, obj(f).id), st === 205 ? {} : { [extra.id]: 'comment' }),
                    },
                    {
                        name: `PATCH ${path}/permissions/teams/{teamId}`,
                        op: `updateTeamPermissionIn${T}`,
                        exp: need('create', 204),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`updateTeamPermissionIn${T}`](obj(f).id, team.id, { role: 'read' }),
                        check: async (f, st) => assert.deepEqual(await teamGrants(kind, obj(f).id), { [team.id]: st === 204 ? 'read' : 'comment' }),
                    },
                    {
                        name: `DELETE ${path}/permissions/teams/{teamId}`,
                        op: `removeTeamFrom${T}`,
                        exp: need('create', 205),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`removeTeamFrom${T}`](obj(f).id, team.id),
                        check: async (f, st) => assert.deepEqual(await teamGrants(kind, obj(f).id), st === 205 ? {} : { [team.id]: 'comment' }),
                    },
                ];
            }),
            {
                // every member, guests included, may list their own spaces
                name: 'GET /orgs/{org}/members/{self}/spaces',
                op: 'listSpacesForOrganizationMember',
                exp: need('read', 200, { guest: 200 }),
                call: (api, f, c) => api.orgs.listSpacesForOrganizationMember(org.id, who[c].id),
            },
            {
                name: 'GET /orgs/{org}/members/{other}/spaces',
                op: 'listSpacesForOrganizationMember',
                exp: need('admin', 200, { guest: 403 }),
                call: (api) => api.orgs.listSpacesForOrganizationMember(org.id, extra.id),
            },
            // change requests: edit opens them and writes their content; review merges
            {
                name: 'POST /spaces/{id}/change-requests',
                op: 'createChangeRequest',
                exp: need('edit', 201),
                fresh: fresh.space,
                call: (api, f) => api.spaces.createChangeRequest(f.space.id, { subject: 'By the caller' }),
                check: async (f, st) => {
                    const list = await ok(alice.api.spaces.listChangeRequestsForSpace(f.space.id, { status: 'draft' }), 'listChangeRequestsForSpace');
                    assert.equal(list.items.length, st === 201 ? 1 : 0);
                },
            },
            {
                name: 'GET /spaces/{id}/change-requests',
                op: 'listChangeRequestsForSpace',
                exp: need('read', 200),
                call: (api) => api.spaces.listChangeRequestsForSpace(top.id),
            },
            {
                name: 'POST /spaces/{id}/change-requests/{cr}/content',
                op: 'updateChangeRequestContent',
                exp: need('edit', 200),
                fresh: fresh.cr,
                call: (api, f, c) => writeCR(who[c], f.space.id, f.cr.id, 'By the caller'),
                check: async (f, st) => {
                    const res = await ok(alice.api.spaces.listPagesInChangeRequest(f.space.id, f.cr.id), 'listPagesInChangeRequest');
                    assert.deepEqual(res.pages.map((p) => p.title).sort(), st === 200 ? ['Added', 'By the caller'] : ['Added']);
                },
            },
            {
                name: 'PATCH /spaces/{id}/change-requests/{cr}',
                op: 'updateChangeRequestById',
                exp: need('edit', 200),
                fresh: fresh.cr,
                call: (api, f) => api.spaces.updateChangeRequestById(f.space.id, f.cr.id, { subject: 'Renamed' }),
                check: async (f, st) =>
                    assert.equal((await ok(alice.api.spaces.getChangeRequestById(f.space.id, f.cr.id), 'getChangeRequestById')).subject, st === 200 ? 'Renamed' : 'Change'),
            },
            {
                name: 'POST /spaces/{id}/change-requests/{cr}/merge',
                op: 'mergeChangeRequest',
                exp: need('review', 200),
                fresh: fresh.cr,
                call: (api, f) => api.spaces.mergeChangeRequest(f.space.id, f.cr.id),
                check: async (f, st) => assert.equal(await crStatus(f.space.id, f.cr.id), st === 200 ? 'merged' : 'draft'),
            },
            {
                name: 'POST /spaces/{id}/change-requests/{cr}/update',
                op: 'updateChangeRequest',
                exp: need('review', 200),
                fresh: fresh.cr,
                call: (api, f) => api.spaces.updateChangeRequest(f.space.id, f.cr.id),
            },
            // comments: comment posts, replies and resolves
            {
                name: 'GET /spaces/{id}/comments',
                op: 'listCommentsInSpace',
                exp: need('read', 200),
                call: (api) => api.spaces.listCommentsInSpace(top.id),
            },
            {
                name: 'POST /spaces/{id}/comments',
                op: 'postCommentInSpace',
                schema: 200,
                exp: need('comment', 201),
                fresh: fresh.space,
                call: (api, f) => api.spaces.postCommentInSpace(f.space.id, { body: { markdown: 'By the caller' } }),
                check: async (f, st) => assert.equal((await comments(f.space.id)).length, st === 201 ? 1 : 0),
            },
            {
                name: 'POST /spaces/{id}/change-requests/{cr}/comments',
                op: 'postCommentInChangeRequest',
                schema: 200,
                exp: need('comment', 201),
                fresh: fresh.cr,
                call: (api, f) => api.spaces.postCommentInChangeRequest(f.space.id, f.cr.id, { body: { markdown: 'By the caller' } }),
            },
            {
                name: 'PUT /spaces/{id}/comments/{comment} (resolve another\'s comment)',
                op: 'updateCommentInSpace',
                exp: need('comment', 200),
                fresh: fresh.comment,
                call: (api, f) => api.spaces.updateCommentInSpace(f.space.id, f.comment.id, { resolved: true }),
                check: async (f, st) => assert.equal((await comments(f.space.id))[0].status, st === 200 ? 'resolved' : 'open'),
            },
            {
                name: 'POST /spaces/{id}/comments/{comment}/replies',
                op: 'postCommentReplyInSpace',
                schema: 200,
                exp: need('comment', 201),
                fresh: fresh.comment,
                call: (api, f) => api.spaces.postCommentReplyInSpace(f.space.id, f.comment.id, { body: { markdown: 'A reply' } }),
            },
            // Sites (README, "Docs sites"): the site role is the organization role; guests and
            // outsiders get 404 for everything, the list included; the role is checked before the
            // site (or its share link) is looked up, so a member without it gets 403 for a missing
            // one too; with it, deletes of what is not there (here) answer 204 and touch nothing.
            { name: 'GET /orgs/{org}/sites', op: 'listSites', exp: need('read', 200), call: (api) => api.orgs.listSites(org.id) },
            {
                name: 'DELETE /orgs/{org}/sites/{site}',
                op: 'deleteSiteById',
                exp: need('admin', 204),
                fresh: fresh.site,
                call: (api, f) => api.orgs.deleteSiteById(org.id, f.site.id),
                check: async (f, st) => assert.equal(await siteExists(org.id, f.site.id), st !== 204),
            },
            { name: 'DELETE /orgs/{org}/sites/{missing}', op: 'deleteSiteById', exp: need('admin', 204), call: (api) => api.orgs.deleteSiteById(org.id, NO_ID) },
            {
                name: 'DELETE /orgs/{org}/sites/{another organization\'s site}',
                op: 'deleteSiteById',
                exp: need('admin', 204),
                fresh: fresh.foreignShareLink,
                call: (api, f) => api.orgs.deleteSiteById(org.id, f.foreign.id),
                check: async (f) => assert.ok(await siteExists(target.id, f.foreign.id), 'the other organization\'s site is kept'),
            },
            {
                name: 'DELETE /orgs/{org}/sites/{site}/share-links/{missing}',
                op: 'deleteSiteShareLinkById',
                exp: need('admin', 204),
                fresh: fresh.site,
                call: (api, f) => api.orgs.deleteSiteShareLinkById(org.id, f.site.id, NO_ID),
            },
            {
                name: 'DELETE /orgs/{org}/sites/{site}/share-links/{another organization\'s link}: like a missing one, and kept',
                op: 'deleteSiteShareLinkById',
                exp: need('admin', 204),
                fresh: fresh.foreignShareLink,
                call: (api, f) => api.orgs.deleteSiteShareLinkById(org.id, f.site.id, f.link.id),
                check: async (f) => {
                    const links = await ok(alice.api.orgs.listSiteShareLinks(target.id, f.foreign.id), 'listSiteShareLinks');
                    assert.deepEqual(ids(links.items), [f.link.id], 'the other organization\'s link is kept');
                },
            },
            // Translations (README, "Translations"): deleting needs the create role in the
            // organization, checked first: members and guests without it get 403 for any id; with
            // it, 205 when deleted, 204 when there was none (or none they can see).
            {
                name: 'DELETE /orgs/{org}/translations/{id}',
                op: 'deleteTranslation',
                exp: need('create', 205, { guest: 403 }),
                fresh: fresh.translation,
                call: (api, f) => api.orgs.deleteTranslation(org.id, f.translation.id),
                check: async (f, st) => assert.equal(await translationExists(f.translation.id), st !== 205),
            },
            {
                name: 'DELETE /orgs/{org}/translations/{missing}',
                op: 'deleteTranslation',
                exp: need('create', 204, { guest: 403 }),
                call: (api) => api.orgs.deleteTranslation(org.id, NO_ID),
            },
        ];

        for (const row of rows) {
            it(row.name, async () => {
                for (const c of CALLERS) {
                    const status = row.exp[c];
                    const f = row.fresh ? await row.fresh() : undefined;
                    await expectStatus(row.call(who[c].api, f, c), status, row.op, `${row.name} as ${c}`, row.schema ?? status);
                    if (row.check) await row.check(f, status, c);
                }
            });
        }

        it('the creator of a space or collection gets an admin grant on it', async () => {
            const s = await ok(cr.api.orgs.createSpace(org.id, { title: 'Mine' }), 'createSpace', 201);
            assert.deepEqual(s.permissions, spacePerms('admin'));
            assert.deepEqual(await userGrants('space', s.id), { [cr.id]: 'admin' });
            await patchSpaceAs(cr, s.id, 200, 'the creator patches');
            const c = await ok(cr.api.orgs.createCollection(org.id, { title: 'Mine' }), 'createCollection', 201);
            assert.deepEqual(c.permissions, collectionPerms('admin'));
            assert.deepEqual(await userGrants('collection', c.id), { [cr.id]: 'admin' });
            // an org admin gets no grant: they are admin everywhere anyway
            const a = await newSpace(org.id, { title: 'Alice' });
            assert.deepEqual(await userGrants('space', a.id), {});
            // the others keep their org role on it
            await assertSpaceRole(rd, s.id, 'read', 'reader on the creator\'s space');
            await assertSpaceRole(ed, s.id, 'edit', 'editor on the creator\'s space');
        });
    });

    // ------------------------------------------------------------------------------------
    describe('precedence, nearest first', () => {
        let org; // B: defaultRole read (which takes no part)

        before(async () => {
            org = await newOrg('Rules', [[cr, 'create'], [rv, 'review'], [ed, 'edit'], [cm, 'comment'], [rd, 'read'], [gu, null]]);
        });

        it('1. organization admins are admin everywhere, over any grant or level; non-members see nothing', async () => {
            const c = await newCollection(org.id, { title: 'Closed collection', defaultLevel: null });
            const s = await newSpace(org.id, { title: 'Closed', parent: c.id });
            await patchSpace(s.id, { defaultLevel: null });
            await grantSpace(s.id, { role: 'read', users: [alice.id] });
            await assertSpaceRole(alice, s.id, 'admin', 'an admin with a read grant on a null-level space');
            await assertCollectionRole(alice, c.id, 'admin', 'an admin on a null-level collection');
            await grantSpace(s.id, { role: 'admin', users: [out.id] });
            // a grant to a non-member made them a guest; removed from the org, they see nothing again
            await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, out.id), 205, 'remove the outsider again');
            await assertSpaceRole(out, s.id, null, 'a non-member');
            await expectError(out.api.orgs.listSpacesInOrganizationById(org.id), 404, 'a non-member lists');
            await expectError(out.api.collections.getCollectionById(c.id), 404, 'a non-member');
        });

        it('2. a direct grant on the space wins over the org role, raising or lowering it', async () => {
            const s = await newSpace(org.id, { title: 'Direct' });
            await assertSpaceRole(ed, s.id, 'edit', 'an edit member without a grant');
            await assertSpaceRole(rd, s.id, 'read', 'a read member without a grant');

            await grantSpace(s.id, { role: 'read', users: [ed.id] });
            await assertSpaceRole(ed, s.id, 'read', 'a read grant lowers an edit member');
            await expectError(openCR(ed, s.id), 403, 'lowered: no change requests');
            await expectError(comment(ed, s.id), 403, 'lowered: no comments');

            await grantSpace(s.id, { role: 'create', users: [rd.id] });
            await assertSpaceRole(rd, s.id, 'create', 'a create grant raises a read member');
            await patchSpaceAs(rd, s.id, 200, 'create manages the space');
            await empty(rd.api.spaces.inviteToSpace(s.id, { role: 'edit', users: [cm.id] }), 204, 'create manages its permissions');
            await assertSpaceRole(cm, s.id, 'edit', 'raised by the read member\'s grant');
            await newCR(cm, s.id, 'Raised commenter');
            await assertSpaceRole(cr, s.id, 'create', 'the others keep their org role');

            // the grant is on this space only
            const other = await newSpace(org.id, { title: 'Other' });
            await assertSpaceRole(ed, other.id, 'edit', 'another space');
            await assertSpaceRole(rd, other.id, 'read', 'another space');
            await patchSpaceAs(rd, other.id, 403, 'another space');

            // a locked space takes edits and merges from nobody, whatever their role
            await empty(alice.api.spaces.updateUserPermissionInSpace(s.id, rd.id, { role: 'review' }), 204, 'review');
            await patchSpace(s.id, { editMode: 'locked' });
            let got = await getSpace(rd, s.id);
            assert.deepEqual(got.permissions, { ...spacePerms('review'), edit: false, triggerGitSync: false, merge: false });
            got = await getSpace(alice, s.id);
            assert.deepEqual(got.permissions, { ...spacePerms('admin'), edit: false, triggerGitSync: false, merge: false });
            await patchSpace(s.id, { editMode: 'live' });
            await assertSpaceRole(rd, s.id, 'review', 'unlocked');

            // revoking puts the member back in the inheritance
            await empty(alice.api.spaces.removeUserFromSpace(s.id, ed.id), 205, 'revoke the lowering grant');
            await assertSpaceRole(ed, s.id, 'edit', 'back to the org role');
            await empty(alice.api.spaces.removeUserFromSpace(s.id, rd.id), 205, 'revoke the raising grant');
            await assertSpaceRole(rd, s.id, 'read', 'back to the org role');
            await patchSpaceAs(rd, s.id, 403, 'after revoking');
        });

        it('2. team grants: the highest of the member\'s own grant and their teams\' grants, only while in the team', async () => {
            const a = await newTeam(org.id, 'Readers', [cm, ed]);
            const b = await newTeam(org.id, 'Reviewers', [ed]);
            const s = await newSpace(org.id, { title: 'Team space' });
            await grantSpace(s.id, { role: 'read', teams: [a.id] });
            await assertSpaceRole(cm, s.id, 'read', 'a team grant lowers a comment member');
            await assertSpaceRole(ed, s.id, 'read', 'and an edit member');
            await assertSpaceRole(rd, s.id, 'read', 'not in the team: the org role');
            await assertSpaceRole(cr, s.id, 'create', 'not in the team: the org role');
            await grantSpace(s.id, { role: 'review', teams: [b.id] });
            await assertSpaceRole(ed, s.id, 'review', 'the highest of two teams');
            await assertSpaceRole(cm, s.id, 'read', 'one team');
            await grantSpace(s.id, { role: 'comment', users: [ed.id] });
            await assertSpaceRole(ed, s.id, 'review', 'a lower own grant does not lower the teams\'');
            await patchSpaceAs(ed, s.id, 403, 'review is not create');

            await empty(alice.api.spaces.updateTeamPermissionInSpace(s.id, b.id, { role: 'create' }), 204, 'team to create');
            await assertSpaceRole(ed, s.id, 'create', 'team create');
            await patchSpaceAs(ed, s.id, 200, 'team create patches');

            await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, b.id, ed.id), 205, 'ed leaves team b');
            await assertSpaceRole(ed, s.id, 'comment', 'own comment over team a\'s read');
            await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, b.id, ed.id, {}), 204, 'ed joins again');
            await assertSpaceRole(ed, s.id, 'create', 'joined again');
            await empty(alice.api.spaces.removeTeamFromSpace(s.id, a.id), 205, 'revoke team a');
            await assertSpaceRole(cm, s.id, 'comment', 'back to the org role');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, b.id), 204, 'delete team b');
            await assertSpaceRole(ed, s.id, 'comment', 'own grant only');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, a.id), 204, 'cleanup');
        });

        it('3. the space\'s defaultLevel: a role for every member without a grant, null for none, inherit for the rest', async () => {
            const col = await newCollection(org.id, { title: 'Levels' });
            const s = await newSpace(org.id, { title: 'Leveled', parent: col.id });
            const sibling = await newSpace(org.id, { title: 'Sibling', parent: col.id });
            const members = [cr, rv, ed, cm, rd];

            let got = await patchSpace(s.id, { defaultLevel: 'comment' });
            assert.equal(got.defaultLevel, 'comment');
            for (const m of members) await assertSpaceRole(m, s.id, 'comment', `${m.name}: the level raises and lowers`);
            await expectError(openCR(ed, s.id), 403, 'an edit member on a comment space');
            await commented(rd, s.id, 'a read member comments on a comment space');
            await patchSpaceAs(cr, s.id, 403, 'a create member on a comment space');
            await assertSpaceRole(gu, s.id, null, 'a level gives guests nothing');
            await assertSpaceRole(alice, s.id, 'admin', 'org admin');
            await assertSpaceRole(ed, sibling.id, 'edit', 'the level is this space\'s only');

            got = await patchSpace(s.id, { defaultLevel: 'review' });
            for (const m of members) await assertSpaceRole(m, s.id, 'review', `${m.name}: review`);

            got = await patchSpace(s.id, { defaultLevel: null });
            assert.equal(got.defaultLevel, null);
            for (const m of members) {
                await assertSpaceRole(m, s.id, null, `${m.name}: hidden`);
                await patchSpaceAs(m, s.id, 404, `${m.name}: PATCH hidden`);
                const listed = await orgSpaces(m, org.id);
                assert.ok(!listed.includes(s.id) && listed.includes(sibling.id), `${m.name}: not in the org list`);
                assert.deepEqual(await collectionSpaces(m, col.id), [sibling.id], `${m.name}: not in the collection list`);
                const mine = await ok(m.api.orgs.listSpacesForOrganizationMember(org.id, m.id, { limit: 1000 }), 'listSpacesForOrganizationMember');
                assert.ok(!mine.items.some((x) => x.space.id === s.id), `${m.name}: not among their own spaces`);
            }
            assert.deepEqual(await collectionSpaces(alice, col.id), ids([s, sibling]));

            // a grant still opens it, for that member only
            await grantSpace(s.id, { role: 'comment', users: [rd.id] });
            await assertSpaceRole(rd, s.id, 'comment', 'granted');
            assert.deepEqual(await collectionSpaces(rd, col.id), ids([s, sibling]));
            await assertSpaceRole(cm, s.id, null, 'still hidden for others');

            // inherit: the org role again, but the grant still comes first
            got = await patchSpace(s.id, { defaultLevel: 'inherit' });
            assert.equal(got.defaultLevel, 'inherit');
            await assertSpaceRole(ed, s.id, 'edit', 'inherit: the org role');
            await assertSpaceRole(cr, s.id, 'create', 'inherit: the org role');
            await assertSpaceRole(rd, s.id, 'comment', 'the grant over the org role');
        });

        it('3. a grant or level on a parent collection does not reach a space that does not inherit', async () => {
            const col = await newCollection(org.id, { title: 'Granting' });
            await grantCollection(col.id, { role: 'admin', users: [rd.id] });
            await patchCollection(col.id, { defaultLevel: 'edit' });
            const inherits = await newSpace(org.id, { title: 'Inherits', parent: col.id });
            const own = await newSpace(org.id, { title: 'Own read', parent: col.id });
            const none = await newSpace(org.id, { title: 'Own null', parent: col.id });
            await patchSpace(own.id, { defaultLevel: 'read' });
            await patchSpace(none.id, { defaultLevel: null });

            await assertSpaceRole(rd, inherits.id, 'admin', 'the collection grant reaches a space that inherits');
            await assertSpaceRole(cm, inherits.id, 'edit', 'the collection level reaches it');
            await assertSpaceRole(cr, inherits.id, 'edit', 'and lowers a create member there');
            await assertSpaceRole(rd, own.id, 'read', 'no grant past the space\'s own level');
            await assertSpaceRole(cm, own.id, 'read', 'no level past the space\'s own level');
            await patchSpaceAs(rd, own.id, 403, 'the collection admin grant does not reach');
            await assertSpaceRole(rd, none.id, null, 'no grant past null');
            await assertSpaceRole(cr, none.id, null, 'null hides from a create member');
            assert.deepEqual(await collectionSpaces(rd, col.id), ids([inherits, own]));
            // the collection itself: its grant, then its level
            await assertCollectionRole(rd, col.id, 'admin', 'granted on the collection');
            await assertCollectionRole(cm, col.id, 'edit', 'the collection\'s level');
            await assertCollectionRole(cr, col.id, 'edit', 'the collection\'s level lowers a create member');
            await expectError(cr.api.orgs.createSpace(org.id, { title: 'No', parent: col.id }), 403, 'edit on the collection: no create in it');
        });

        it('4. parent collections, nearest first: a nearer grant or level wins over a farther one', async () => {
            const p = await newCollection(org.id, { title: 'Parent' });
            const q = await newCollection(org.id, { title: 'Nested', parent: p.id });
            const inP = await newSpace(org.id, { title: 'In parent', parent: p.id });
            const inQ = await newSpace(org.id, { title: 'In nested', parent: q.id });
            const outside = await newSpace(org.id, { title: 'Outside' });

            // a grant on the parent reaches all that inherits below it
            await grantCollection(p.id, { role: 'admin', users: [rd.id] });
            await assertCollectionRole(rd, p.id, 'admin', 'the granted collection');
            await assertCollectionRole(rd, q.id, 'admin', 'a nested collection');
            await assertSpaceRole(rd, inP.id, 'admin', 'a space inside');
            await assertSpaceRole(rd, inQ.id, 'admin', 'a space two levels down');
            await assertSpaceRole(rd, outside.id, 'read', 'a space outside');
            await patchSpaceAs(rd, inQ.id, 200, 'admin through the parent');
            await ok(rd.api.collections.updateCollectionById(q.id, { title: 'Renamed by reader' }), 'updateCollectionById');
            const made = await ok(rd.api.orgs.createSpace(org.id, { title: 'Reader made', parent: q.id }), 'createSpace', 201);
            assert.equal(made.parent, q.id);
            await ok(rd.api.orgs.createCollection(org.id, { title: 'Reader made', parent: p.id }), 'createCollection', 201);
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'Top' }), 403, 'the top level needs create in the org');

            // a nearer grant wins over a farther one, even a lower one
            await grantCollection(q.id, { role: 'comment', users: [rd.id] });
            await assertCollectionRole(rd, q.id, 'comment', 'the nested grant');
            await assertSpaceRole(rd, inQ.id, 'comment', 'the nearest grant');
            await assertSpaceRole(rd, inP.id, 'admin', 'the parent grant still reaches its own spaces');
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'No', parent: q.id }), 403, 'comment on the nested collection');

            // a nearer level wins over a farther grant
            await empty(alice.api.collections.removeUserFromCollection(q.id, rd.id), 205, 'revoke the nested grant');
            await patchCollection(q.id, { defaultLevel: 'read' });
            await assertCollectionRole(rd, q.id, 'read', 'the nested level before the parent grant');
            await assertSpaceRole(rd, inQ.id, 'read', 'the nested level before the parent grant');
            await assertSpaceRole(ed, inQ.id, 'read', 'the nested level lowers an edit member');
            await assertSpaceRole(ed, inP.id, 'edit', 'the parent inherits: the org role');

            // a nearer grant wins over a farther level; a null level hides what inherits from it
            await patchCollection(q.id, { defaultLevel: 'inherit' });
            await patchCollection(p.id, { defaultLevel: null });
            await assertSpaceRole(ed, inQ.id, null, 'the parent\'s null hides what inherits');
            await assertCollectionRole(ed, q.id, null, 'and the nested collection');
            await expectError(ed.api.collections.listSpacesInCollectionById(q.id), 404, 'spaces of a hidden collection');
            assert.ok(!(await orgCollections(ed, org.id)).includes(q.id), 'hidden collections are not listed');
            await expectError(ed.api.orgs.createSpace(org.id, { title: 'X', parent: q.id }), 400, 'create in a collection one cannot see');
            await assertSpaceRole(rd, inQ.id, 'admin', 'the grant on the parent comes before its null');
            await grantCollection(q.id, { role: 'edit', users: [cm.id] });
            await assertSpaceRole(cm, inQ.id, 'edit', 'a grant on the nested collection before the parent\'s null');
            await assertSpaceRole(cm, inP.id, null, 'not in the nested collection');
            await assertCollectionRole(alice, p.id, 'admin', 'org admin');

            // moving a space out of the collections takes what it inherited away
            await ok(alice.api.spaces.moveSpace(inQ.id, { parent: null }), 'moveSpace');
            await assertSpaceRole(rd, inQ.id, 'read', 'moved out: the org role');
            await assertSpaceRole(cm, inQ.id, 'comment', 'moved out: the org role');
            await assertSpaceRole(ed, inQ.id, 'edit', 'moved out: the org role');
        });

        it('5. the member\'s own organization role, which changes with it', async () => {
            const open = await newSpace(org.id, { title: 'Open' });
            const closed = await newSpace(org.id, { title: 'Closed' });
            const granted = await newSpace(org.id, { title: 'Granted' });
            await patchSpace(closed.id, { defaultLevel: null });
            await patchSpace(granted.id, { defaultLevel: null });
            const u = await ctx.user('mover');
            await addMember(alice.api, org.id, u.email, 'read');
            await grantSpace(granted.id, { role: 'comment', users: [u.id] });
            const setRole = (role) => ok(alice.api.orgs.updateMemberInOrganizationById(org.id, u.id, { role }), 'updateMemberInOrganizationById');
            await assertSpaceRole(u, open.id, 'read', 'read member');
            await assertSpaceRole(u, closed.id, null, 'read member');
            await assertSpaceRole(u, granted.id, 'comment', 'read member');
            await setRole('edit');
            await assertSpaceRole(u, open.id, 'edit', 'edit member');
            await assertSpaceRole(u, closed.id, null, 'edit member');
            await assertSpaceRole(u, granted.id, 'comment', 'the grant over the org role');
            await newCR(u, open.id, 'As an edit member');
            await setRole('create');
            await assertSpaceRole(u, open.id, 'create', 'create member');
            await patchSpaceAs(u, open.id, 200, 'create member');
            await setRole('admin');
            await assertSpaceRole(u, open.id, 'admin', 'org admin');
            await assertSpaceRole(u, closed.id, 'admin', 'org admin sees hidden spaces');
            await assertSpaceRole(u, granted.id, 'admin', 'org admin over a lower grant');
            await setRole(null);
            await assertSpaceRole(u, open.id, null, 'guest');
            await assertSpaceRole(u, closed.id, null, 'guest');
            await assertSpaceRole(u, granted.id, 'comment', 'a guest keeps the grant');
            assert.deepEqual(await orgSpaces(u, org.id), [granted.id]);
        });

        it('guests get only what grants give them, never a level', async () => {
            const g1 = await newSpace(org.id, { title: 'G read' });
            const g2 = await newSpace(org.id, { title: 'G edit' });
            const gc = await newCollection(org.id, { title: 'G collection' });
            const gc2 = await newCollection(org.id, { title: 'G nested', parent: gc.id });
            const g3 = await newSpace(org.id, { title: 'G in collection', parent: gc.id });
            const g4 = await newSpace(org.id, { title: 'G in nested', parent: gc2.id });
            const g5 = await newSpace(org.id, { title: 'G not granted' });
            const g6 = await newSpace(org.id, { title: 'G own level', parent: gc.id });
            await patchSpace(g5.id, { defaultLevel: 'edit' });
            await patchSpace(g6.id, { defaultLevel: 'edit' });
            await newCollection(org.id, { title: 'G other collection' });

            assert.deepEqual(await orgSpaces(gu, org.id), [], 'nothing granted yet');
            await grantSpace(g1.id, { role: 'read', users: [gu.id] });
            await grantSpace(g2.id, { role: 'edit', users: [gu.id] });
            await grantCollection(gc.id, { role: 'comment', users: [gu.id] });

            assert.deepEqual(await orgSpaces(gu, org.id), ids([g1, g2, g3, g4]), 'exactly the granted spaces');
            await checkPagination((q) => gu.api.orgs.listSpacesInOrganizationById(org.id, q), 'listSpacesInOrganizationById');
            assert.deepEqual(await orgCollections(gu, org.id), ids([gc, gc2]));
            assert.deepEqual(await orgCollections(gu, org.id, { nested: false }), [gc.id]);
            assert.deepEqual(await collectionSpaces(gu, gc.id), [g3.id]);
            await assertSpaceRole(gu, g1.id, 'read', 'guest g1');
            await assertSpaceRole(gu, g2.id, 'edit', 'guest g2');
            await newCR(gu, g2.id, 'A guest with edit');
            await assertSpaceRole(gu, g3.id, 'comment', 'guest g3');
            await assertSpaceRole(gu, g4.id, 'comment', 'guest g4');
            await commented(gu, g4.id, 'a guest comments through the collection grant');
            await assertCollectionRole(gu, gc2.id, 'comment', 'guest gc2');
            await assertSpaceRole(gu, g5.id, null, 'a level gives guests nothing');
            await assertSpaceRole(gu, g6.id, null, 'a space with its own level: the collection grant does not reach it');
            await patchSpaceAs(gu, g5.id, 404, 'not granted');
            await expectError(gu.api.spaces.duplicateSpace(g5.id), 404, 'not granted');
            await expectError(gu.api.spaces.listUserPermissionsInSpace(g5.id), 404, 'not granted');
            await expectError(gu.api.orgs.createSpace(org.id, { title: 'Guest' }), 403, 'guest at the top level');
            await expectError(gu.api.orgs.createSpace(org.id, { title: 'Guest', parent: gc.id }), 403, 'comment on the collection');
            await empty(alice.api.collections.updateUserPermissionInCollection(gc.id, gu.id, { role: 'create' }), 204, 'raise');
            const made = await ok(gu.api.orgs.createSpace(org.id, { title: 'Guest made', parent: gc.id }), 'createSpace', 201);
            assert.deepEqual(made.permissions, spacePerms('admin'));
            assert.deepEqual(await orgSpaces(gu, org.id), ids([g1, g2, g3, g4, made]));
            // a guest's role in the org itself does not change
            const m = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, gu.id), 'getMemberInOrganizationById');
            assert.equal(m.role, null);
        });

        it('inviting a non-member makes them a guest of the organization with access to that space only', async () => {
            const s = await newSpace(org.id, { title: 'For a newcomer' });
            const c = await newCollection(org.id, { title: 'For newcomer 2' });
            const cs = await newSpace(org.id, { title: 'In newcomer 2 collection', parent: c.id });
            const other = await newSpace(org.id, { title: 'Not for newcomers' });
            await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, nm.id), 404, 'not a member yet');
            await expectError(nm.api.spaces.getSpaceById(s.id), 404, 'before the invite');

            await grantSpace(s.id, { role: 'edit', users: [nm.id] });
            const m = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, nm.id), 'getMemberInOrganizationById');
            assert.equal(m.role, null, 'a guest');
            await assertSpaceRole(nm, s.id, 'edit', 'the invited space');
            await assertSpaceRole(nm, other.id, null, 'another space');
            assert.deepEqual(await orgSpaces(nm, org.id), [s.id]);
            assert.deepEqual(await orgCollections(nm, org.id), []);
            await ok(nm.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
            assert.deepEqual(await userGrants('space', s.id), { [nm.id]: 'edit' });

            await grantCollection(c.id, { role: 'read', users: [nm2.id] });
            const m2 = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, nm2.id), 'getMemberInOrganizationById');
            assert.equal(m2.role, null);
            assert.deepEqual(await orgSpaces(nm2, org.id), [cs.id]);
            assert.deepEqual(await orgCollections(nm2, org.id), [c.id]);
            await assertCollectionRole(nm2, c.id, 'read', 'the invited collection');
            await assertSpaceRole(nm2, cs.id, 'read', 'a space in it');
            await assertSpaceRole(nm2, s.id, null, 'another space');

            // inviting an existing member does not change their org role
            await grantSpace(other.id, { role: 'comment', users: [rd.id] });
            const r = await ok(alice.api.orgs.getMemberInOrganizationById(org.id, rd.id), 'getMemberInOrganizationById');
            assert.equal(r.role, 'read');
        });

        it('removing a member from the organization or deleting a team removes their grants', async () => {
            await addMember(alice.api, org.id, rm.email, 'read');
            const r1 = await newSpace(org.id, { title: 'Leaver admin' });
            const r2 = await newSpace(org.id, { title: 'Leaver team' });
            const rc = await newCollection(org.id, { title: 'Leaver collection' });
            const rcs = await newSpace(org.id, { title: 'In leaver collection', parent: rc.id });
            const team = await newTeam(org.id, 'Leavers', [rm, ed]);
            await grantSpace(r1.id, { role: 'admin', users: [rm.id] });
            await grantCollection(rc.id, { role: 'edit', users: [rm.id] });
            await grantSpace(r2.id, { role: 'admin', teams: [team.id] });
            await assertSpaceRole(rm, r1.id, 'admin', 'granted');
            await assertSpaceRole(rm, rcs.id, 'edit', 'granted on the collection');
            await assertSpaceRole(rm, r2.id, 'admin', 'through the team');

            await empty(alice.api.orgs.removeMemberFromOrganizationById(org.id, rm.id), 205, 'remove the member');
            assert.deepEqual(await userGrants('space', r1.id), {}, 'space grant gone');
            assert.deepEqual(await userGrants('collection', rc.id), {}, 'collection grant gone');
            await assertSpaceRole(rm, r1.id, null, 'not a member');
            await expectError(rm.api.orgs.listSpacesInOrganizationById(org.id), 404, 'not a member');
            // back as a plain member: only the org role, no grant came back
            await addMember(alice.api, org.id, rm.email, 'read');
            await assertSpaceRole(rm, r1.id, 'read', 'back without the grant');
            await assertSpaceRole(rm, rcs.id, 'read', 'back without the collection grant');
            await assertSpaceRole(rm, r2.id, 'read', 'back without the team');
            await patchSpaceAs(rm, r1.id, 403, 'back without the grant');

            await assertSpaceRole(ed, r2.id, 'admin', 'through the team');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, team.id), 204, 'delete the team');
            assert.deepEqual(await teamGrants('space', r2.id), {}, 'team grant gone');
            await assertSpaceRole(ed, r2.id, 'edit', 'the team is gone: the org role');
            await patchSpaceAs(ed, r2.id, 403, 'the team is gone');
        });

        it('a user path does not reach a team\'s grant, nor a team path a user\'s', async () => {
            const team = await newTeam(org.id, 'Paths', [rv]);
            for (const kind of ['space', 'collection']) {
                const S = kind === 'space';
                const x = S ? await newSpace(org.id, { title: 'Paths' }) : await newCollection(org.id, { title: 'Paths' });
                const api = alice.api[S ? 'spaces' : 'collections'];
                const T = S ? 'Space' : 'Collection';
                await empty(api[`inviteTo${T}`](x.id, { role: 'comment', users: [rd.id], teams: [team.id] }), 204, 'invite');
                await expectError(api[`updateUserPermissionIn${T}`](x.id, team.id, { role: 'admin' }), 404, `${kind}: team id on the users path`);
                await expectError(api[`updateTeamPermissionIn${T}`](x.id, rd.id, { role: 'admin' }), 404, `${kind}: user id on the teams path`);
                await empty(api[`removeUserFrom${T}`](x.id, team.id), 204, `${kind}: remove a team id on the users path`);
                await empty(api[`removeTeamFrom${T}`](x.id, rd.id), 204, `${kind}: remove a user id on the teams path`);
                assert.deepEqual(await userGrants(kind, x.id), { [rd.id]: 'comment' });
                assert.deepEqual(await teamGrants(kind, x.id), { [team.id]: 'comment' });
            }
        });

        it('filtered lists paginate over hidden items', async () => {
            const c = await newCollection(org.id, { title: 'Mixed' });
            const made = [];
            for (let i = 0; i < 6; i++) {
                made.push(await newSpace(org.id, { title: `Mixed ${i}`, parent: c.id }));
                const sub = await newCollection(org.id, { title: `Sub ${i}`, parent: c.id });
                if (i % 2) {
                    await patchSpace(made[i].id, { defaultLevel: null });
                    await patchCollection(sub.id, { defaultLevel: null });
                }
            }
            const seen = await checkPagination((q) => rd.api.collections.listSpacesInCollectionById(c.id, q), 'listSpacesInCollectionById');
            assert.deepEqual(seen.map((x) => x.id), made.filter((_, i) => i % 2 === 0).map((x) => x.id), 'visible spaces in position order');
            const cols = await checkPagination((q) => rd.api.orgs.listCollectionsInOrganizationById(org.id, q), 'listCollectionsInOrganizationById');
            const all = await ok(alice.api.orgs.listCollectionsInOrganizationById(org.id, { limit: 1000 }), 'listCollectionsInOrganizationById');
            const hidden = all.items.filter((x) => !cols.some((y) => y.id === x.id)).map((x) => x.title);
            assert.deepEqual(hidden.filter((t) => t.startsWith('Sub ')).sort(), ['Sub 1', 'Sub 3', 'Sub 5'], 'the null-level collections are hidden');
            await checkPagination((q) => rd.api.orgs.listSpacesInOrganizationById(org.id, q), 'listSpacesInOrganizationById');
            await checkPagination((q) => rd.api.orgs.listSpacesForOrganizationMember(org.id, rd.id, q), 'listSpacesForOrganizationMember', {
                key: (x) => x.space.id,
            });
        });
    });

    // ------------------------------------------------------------------------------------
    describe('change requests and comments follow the effective role', () => {
        let org;

        before(async () => {
            org = await newOrg('Content roles', [[rv, 'review'], [ed, 'edit'], [cm, 'comment'], [rd, 'read'], [gu, null]]);
        });

        it('an edit member without grants comments, opens change requests and writes them; merging needs review', async () => {
            const s = await newSpace(org.id, { title: 'Everyday' });
            await assertSpaceRole(ed, s.id, 'edit', 'edit member');
            const c = await commented(ed, s.id, 'An editor\'s remark');
            const mine = await newCR(ed, s.id, 'An editor\'s change');
            await expectStatus(writeCR(ed, s.id, mine.id, 'Editor page'), 200, 'updateChangeRequestContent', 'the editor writes');
            const renamed = await ok(ed.api.spaces.updateChangeRequestById(s.id, mine.id, { subject: 'Renamed by the editor', status: 'open' }), 'updateChangeRequestById');
            assert.equal(renamed.subject, 'Renamed by the editor');
            await expectError(ed.api.spaces.mergeChangeRequest(s.id, mine.id), 403, 'edit cannot merge');
            await expectError(ed.api.spaces.updateChangeRequest(s.id, mine.id), 403, 'edit cannot update from main');
            assert.equal(await crStatus(s.id, mine.id), 'open');

            // comment: post, reply, resolve; no change requests
            await commented(cm, s.id, 'A commenter\'s remark');
            await expectStatus(cm.api.spaces.postCommentReplyInSpace(s.id, c.id, { body: { markdown: 'Agreed' } }), 201, 'postCommentReplyInSpace', 'reply', 200);
            const resolved = await ok(cm.api.spaces.updateCommentInSpace(s.id, c.id, { resolved: true }), 'updateCommentInSpace');
            assert.equal(resolved.status, 'resolved');
            await expectError(openCR(cm, s.id), 403, 'comment cannot open a change request');
            await expectError(writeCR(cm, s.id, mine.id, 'No'), 403, 'comment cannot write a change request');
            await expectStatus(
                cm.api.spaces.postCommentInChangeRequest(s.id, mine.id, { body: { markdown: 'On the change' } }),
                201,
                'postCommentInChangeRequest',
                'comment on a change request',
                200,
            );

            // read: reads, nothing more
            assert.equal((await ok(rd.api.spaces.listCommentsInSpace(s.id), 'listCommentsInSpace')).items.length, 2);
            await expectError(comment(rd, s.id), 403, 'read cannot comment');
            await expectError(openCR(rd, s.id), 403, 'read cannot open a change request');
            await expectError(gu.api.spaces.listCommentsInSpace(s.id), 404, 'a guest without a grant');
            await expectError(openCR(gu, s.id), 404, 'a guest without a grant');

            // review: update from main and merge
            const upd = await ok(rv.api.spaces.updateChangeRequest(s.id, mine.id), 'updateChangeRequest');
            assert.equal(upd.result, 'update');
            const merged = await ok(rv.api.spaces.mergeChangeRequest(s.id, mine.id), 'mergeChangeRequest');
            assert.equal(merged.result, 'merge');
            assert.equal(await crStatus(s.id, mine.id), 'merged');
            const pages = await ok(rd.api.spaces.listPages(s.id), 'listPages');
            assert.deepEqual(pages.pages.map((p) => p.title), ['Editor page']);
        });

        it('a grant or a level changes what a member may do with content, in either direction', async () => {
            // a read grant takes an edit member's change requests and comments away
            const s1 = await newSpace(org.id, { title: 'Lowered' });
            await grantSpace(s1.id, { role: 'read', users: [ed.id] });
            await expectError(openCR(ed, s1.id), 403, 'edit member with a read grant');
            await expectError(comment(ed, s1.id), 403, 'edit member with a read grant');
            // a review grant lets a read member open, write and merge
            await grantSpace(s1.id, { role: 'review', users: [rd.id] });
            const c1 = await newCR(rd, s1.id, 'By a reviewer');
            await expectStatus(writeCR(rd, s1.id, c1.id, 'Reviewed'), 200, 'updateChangeRequestContent', 'write');
            assert.equal((await ok(rd.api.spaces.mergeChangeRequest(s1.id, c1.id), 'mergeChangeRequest')).result, 'merge');

            // a comment level: edit and review members only comment
            const s2 = await newSpace(org.id, { title: 'Comment level' });
            await patchSpace(s2.id, { defaultLevel: 'comment' });
            const c2 = await newCR(alice, s2.id, 'By the admin');
            await expectError(openCR(ed, s2.id), 403, 'edit member on a comment-level space');
            await expectError(rv.api.spaces.mergeChangeRequest(s2.id, c2.id), 403, 'review member on a comment-level space');
            await commented(ed, s2.id, 'still comments');
            await commented(rd, s2.id, 'a read member comments through the level');

            // a collection grant reaches a space that inherits, not one with its own level
            const col = await newCollection(org.id, { title: 'Writers' });
            await grantCollection(col.id, { role: 'edit', users: [cm.id, gu.id] });
            const s3 = await newSpace(org.id, { title: 'Inherits', parent: col.id });
            const s4 = await newSpace(org.id, { title: 'Own level', parent: col.id });
            await patchSpace(s4.id, { defaultLevel: 'read' });
            await newCR(cm, s3.id, 'Through the collection');
            await newCR(gu, s3.id, 'A guest through the collection');
            await expectError(openCR(cm, s4.id), 403, 'not past the space\'s level');
            await expectError(openCR(gu, s4.id), 404, 'a guest: not past the space\'s level');

            // a locked space: no content writes or merges, comments go on
            const { space: s5, cr: c5 } = await spaceWithCR(org.id, 'Locked');
            await patchSpace(s5.id, { editMode: 'locked' });
            await expectError(writeCR(ed, s5.id, c5.id, 'No'), 403, 'locked: no writes');
            await expectError(rv.api.spaces.mergeChangeRequest(s5.id, c5.id), 403, 'locked: no merge');
            await commented(cm, s5.id, 'locked spaces take comments');
            await patchSpace(s5.id, { editMode: 'live' });
            assert.equal((await ok(rv.api.spaces.mergeChangeRequest(s5.id, c5.id), 'mergeChangeRequest')).result, 'merge');
        });
    });

    // ------------------------------------------------------------------------------------
    describe('access follows the content as it moves, and members as their role changes', () => {
        let org, target;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Moves ${ctx.run}`));
            ({ org: target } = await createOrg(ctx.url, alice.token, `Moves target ${ctx.run}`));
            await addMember(alice.api, org.id, rd.email, 'read');
            await addMember(alice.api, org.id, cm.email, 'comment');
            await addMember(alice.api, org.id, ed.email, 'edit');
            await addMember(alice.api, org.id, rv.email, 'review');
            await addMember(alice.api, org.id, cr.email, 'create');
            await addMember(alice.api, target.id, ed.email, 'read'); // a member of both
        });

        it('moving a space needs create on it and create at the destination', async () => {
            const s = await newSpace(org.id, { title: 'Movable' });
            const readable = await newCollection(org.id, { title: 'Read only', defaultLevel: 'read' });
            const writable = await newCollection(org.id, { title: 'Writable' });
            const hidden = await newCollection(org.id, { title: 'Hidden', defaultLevel: null });
            await grantSpace(s.id, { role: 'create', users: [rd.id] });
            await grantCollection(writable.id, { role: 'create', users: [rd.id] });
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: readable.id }), 403, 'read on the destination');
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: hidden.id }), 400, 'a destination one cannot see');
            await expectError(rv.api.spaces.moveSpace(s.id, { parent: writable.id }), 403, 'review on the space');
            const moved = await ok(rd.api.spaces.moveSpace(s.id, { parent: writable.id }), 'moveSpace');
            assert.equal(moved.parent, writable.id);
            assert.deepEqual(moved.permissions, spacePerms('create'), 'the space\'s own grant');
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: null }), 403, 'the top level needs create in the org');
            // a create member needs no grant for what inherits, but not past a level
            const t = await newSpace(org.id, { title: 'Movable by create' });
            await expectError(cr.api.spaces.moveSpace(t.id, { parent: readable.id }), 403, 'create member into a read-level collection');
            assert.equal((await ok(cr.api.spaces.moveSpace(t.id, { parent: writable.id }), 'moveSpace')).parent, writable.id);
            assert.equal((await ok(cr.api.spaces.moveSpace(t.id, { parent: null }), 'moveSpace')).parent, undefined);
            // a collection moves the same way
            const c = await newCollection(org.id, { title: 'Movable collection' });
            await grantCollection(c.id, { role: 'create', users: [rd.id] });
            await expectError(rd.api.collections.moveCollection(c.id, { parent: readable.id }), 403, 'read on the destination');
            const cm2 = await ok(rd.api.collections.moveCollection(c.id, { parent: writable.id }), 'moveCollection');
            assert.equal(cm2.parent, writable.id);
            assert.deepEqual(cm2.permissions, collectionPerms('create'));
        });

        it('a duplicate keeps the grants of the original; a non-admin duplicator becomes its admin', async () => {
            const team = await newTeam(org.id, 'Dup team', [rv]);
            const s = await newSpace(org.id, { title: 'Original' });
            await patchSpace(s.id, { defaultLevel: null });
            await grantSpace(s.id, { role: 'comment', users: [cm.id], teams: [team.id] });
            await grantSpace(s.id, { role: 'edit', users: [rd.id] });
            // rd reads it and has the org role read: no create at the top level
            await expectError(rd.api.spaces.duplicateSpace(s.id), 403, 'no create where it lives');
            const copy = await ok(alice.api.spaces.duplicateSpace(s.id), 'getSpaceById');
            assert.notEqual(copy.id, s.id);
            assert.equal(copy.defaultLevel, null);
            assert.deepEqual(await userGrants('space', copy.id), { [cm.id]: 'comment', [rd.id]: 'edit' });
            assert.deepEqual(await teamGrants('space', copy.id), { [team.id]: 'comment' });
            await assertSpaceRole(rv, copy.id, 'comment', 'through the copied team grant');
            await assertSpaceRole(ed, copy.id, null, 'hidden like the original');
            // in a collection where cm may create
            const c = await newCollection(org.id, { title: 'Dup collection' });
            const inC = await newSpace(org.id, { title: 'Original in collection', parent: c.id });
            await grantCollection(c.id, { role: 'create', users: [cm.id] });
            const copy2 = await ok(cm.api.spaces.duplicateSpace(inC.id), 'getSpaceById');
            assert.equal(copy2.parent, c.id);
            assert.deepEqual(copy2.permissions, spacePerms('admin'));
            assert.deepEqual(await userGrants('space', copy2.id), { [cm.id]: 'admin' });
            await assertSpaceRole(cm, inC.id, 'create', 'the original is unchanged');
            // a create member duplicates where their org role reaches
            const copy3 = await ok(cr.api.spaces.duplicateSpace(inC.id), 'getSpaceById');
            assert.equal(copy3.parent, c.id);
            assert.deepEqual(await userGrants('space', copy3.id), { [cr.id]: 'admin' });
        });

        it('transfers keep the grants that still mean something', async () => {
            const team = await newTeam(org.id, 'Stay home', [rv]);
            const s = await newSpace(org.id, { title: 'Transferred' });
            await grantSpace(s.id, { role: 'edit', users: [ed.id, cm.id], teams: [team.id] });
            const dest = await newCollection(org.id, { title: 'Same org destination' });
            // within the organization: a move into a collection; every grant stays
            const t1 = await ok(alice.api.spaces.transferSpace(s.id, { organization: org.id, parent: dest.id }), 'transferSpace');
            assert.equal(t1.parent, dest.id);
            assert.deepEqual(await userGrants('space', s.id), { [ed.id]: 'edit', [cm.id]: 'edit' });
            assert.deepEqual(await teamGrants('space', s.id), { [team.id]: 'edit' }, 'a transfer within the org keeps team grants');
            await assertSpaceRole(rv, s.id, 'edit', 'through the team, lower than the org role');

            // to another organization: teams stay behind, and users who are not members there
            const t2 = await ok(alice.api.spaces.transferSpace(s.id, { organization: target.id }), 'transferSpace');
            assert.equal(t2.organization, target.id);
            assert.equal(t2.parent, undefined);
            assert.deepEqual(await userGrants('space', s.id), { [ed.id]: 'edit' });
            assert.deepEqual(await teamGrants('space', s.id), {});
            await assertSpaceRole(ed, s.id, 'edit', 'the grant works in the new organization');
            await assertSpaceRole(cm, s.id, null, 'not a member of the new organization');
            await assertSpaceRole(rv, s.id, null, 'the team stayed behind');
            assert.ok((await orgSpaces(ed, target.id)).includes(s.id));
            assert.ok(!(await orgSpaces(rd, org.id)).includes(s.id));
            const listed = await ok(alice.api.orgs.listSpacesForOrganizationMember(target.id, ed.id, { limit: 1000 }), 'listSpacesForOrganizationMember');
            assert.deepEqual(listed.items.filter((x) => x.space.id === s.id).map((x) => x.permission), ['edit']);
            // the grant can be managed in the new organization
            await empty(alice.api.spaces.updateUserPermissionInSpace(s.id, ed.id, { role: 'admin' }), 204, 'patch after transfer');
            await assertSpaceRole(ed, s.id, 'admin', 'patched after transfer');
            await empty(alice.api.spaces.removeUserFromSpace(s.id, ed.id), 205, 'remove after transfer');
            await assertSpaceRole(ed, s.id, 'read', 'their org role in the new organization');
        });

        it('a collection transfer takes the grants of its members along', async () => {
            const team = await newTeam(org.id, 'Col team', [rv]);
            const c = await newCollection(org.id, { title: 'Transferred collection' });
            const n = await newCollection(org.id, { title: 'Nested', parent: c.id });
            const s = await newSpace(org.id, { title: 'Deep', parent: n.id });
            await grantCollection(c.id, { role: 'review', users: [ed.id, cm.id], teams: [team.id] });
            await grantSpace(s.id, { role: 'admin', users: [cm.id, ed.id] });
            await empty(alice.api.spaces.updateUserPermissionInSpace(s.id, ed.id, { role: 'comment' }), 204, 'lower');
            const moved = await ok(alice.api.collections.transferCollection(c.id, { organization: target.id }), 'transferCollection');
            assert.equal(moved.organization, target.id);
            assert.deepEqual(await userGrants('collection', c.id), { [ed.id]: 'review' });
            assert.deepEqual(await teamGrants('collection', c.id), {});
            assert.deepEqual(await userGrants('space', s.id), { [ed.id]: 'comment' });
            await assertCollectionRole(ed, n.id, 'review', 'nested collection after the transfer');
            await assertSpaceRole(ed, s.id, 'comment', 'the space\'s own grant before the collection\'s, in the new org');
            await assertSpaceRole(cm, s.id, null, 'not a member of the new organization');
            await assertSpaceRole(rv, s.id, null, 'the team stayed behind');
            assert.deepEqual((await orgCollections(ed, target.id)).sort(), ids([c, n]));
        });
    });

    // ------------------------------------------------------------------------------------
    describe('Organization.defaultRole: the role of members who join without one, not an access level', () => {
        let org, top, col, inCol;

        before(async () => {
            org = await newOrg('Defaults', [[rd, 'read'], [cr, 'create'], [gu, null]]);
            top = await newSpace(org.id, { title: 'Top' });
            col = await newCollection(org.id, { title: 'Collection' });
            inCol = await newSpace(org.id, { title: 'In collection', parent: col.id });
        });
        const setDefault = async (role) => {
            const o = await ok(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: role }), 'updateOrganizationById');
            assert.equal(o.defaultRole ?? null, role);
        };
        const memberRole = async (userId) => (await ok(alice.api.orgs.getMemberInOrganizationById(org.id, userId), 'getMemberInOrganizationById')).role ?? null;

        it('changing it changes no member\'s access', async () => {
            for (const role of ['admin', 'edit', null, 'comment', 'read']) {
                await setDefault(role);
                await assertSpaceRole(rd, top.id, 'read', `defaultRole ${role}: a read member`);
                await assertSpaceRole(cr, inCol.id, 'create', `defaultRole ${role}: a create member`);
                await assertCollectionRole(rd, col.id, 'read', `defaultRole ${role}: a read member`);
                await assertSpaceRole(gu, top.id, null, `defaultRole ${role}: a guest`);
                await expectError(rd.api.orgs.createSpace(org.id, { title: 'No' }), 403, `defaultRole ${role}: a read member creates`);
                assert.equal(await memberRole(rd.id), 'read');
            }
        });

        it('a member invited without a role joins with it, and has it on content that inherits', async () => {
            await setDefault('edit');
            const j1 = await ctx.user('joiner');
            const res = await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [j1.email] }), 'inviteUsersToOrganization');
            assert.deepEqual(res.users, [j1.id]);
            assert.equal(await memberRole(j1.id), 'edit');
            await assertSpaceRole(j1, top.id, 'edit', 'joined with the default edit');
            await newCR(j1, top.id, 'A new editor');

            await setDefault(null);
            const j2 = await ctx.user('joiner2');
            await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [j2.email] }), 'inviteUsersToOrganization');
            assert.equal(await memberRole(j2.id), null, 'the default null: a guest');
            await assertSpaceRole(j2, top.id, null, 'a guest');
            // an explicit role wins over the default
            const j3 = await ctx.user('joiner3');
            await ok(alice.api.orgs.inviteUsersToOrganization(org.id, { emails: [j3.email], role: 'comment' }), 'inviteUsersToOrganization');
            assert.equal(await memberRole(j3.id), 'comment');
            // joining through SSO without a role: the default too (SSO takes in users of the
            // organization's verified email domains only)
            await setDefault('review');
            const j4 = await ctx.user('joiner4');
            await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [j4.email.split('@')[1]] }), 'updateOrganizationById');
            const m = await ok(alice.api.orgs.setUserAsSsoMemberForOrganization(org.id, j4.id), 'setUserAsSSOMemberForOrganization');
            await ok(alice.api.orgs.updateOrganizationById(org.id, { emailDomains: [] }), 'updateOrganizationById');
            assert.equal(m.role, 'review');
            await assertSpaceRole(j4, inCol.id, 'review', 'an SSO member with the default review');
            // members who joined before keep their role
            assert.equal(await memberRole(j1.id), 'edit');
            await setDefault('read');
        });
    });

    // ------------------------------------------------------------------------------------
    describe('GET /orgs/{org}/members/{userId}/spaces', () => {
        let org, lr, a, b, c, d, e, col;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Listing ${ctx.run}`));
            lr = rd;
            await addMember(alice.api, org.id, lr.email, 'read');
            await addMember(alice.api, org.id, cm.email, 'comment');
            await addMember(alice.api, org.id, ed.email, 'edit');
            await addMember(alice.api, org.id, gu.email, null);
            a = await newSpace(org.id, { title: 'A inherits' });
            b = await newSpace(org.id, { title: 'B hidden' });
            c = await newSpace(org.id, { title: 'C hidden, granted edit' });
            col = await newCollection(org.id, { title: 'Comment collection', defaultLevel: 'comment' });
            d = await newSpace(org.id, { title: 'D in collection', parent: col.id });
            e = await newSpace(org.id, { title: 'E review' });
            await patchSpace(b.id, { defaultLevel: null });
            await patchSpace(c.id, { defaultLevel: null });
            await patchSpace(e.id, { defaultLevel: 'review' });
            await grantSpace(c.id, { role: 'edit', users: [lr.id] });
            await grantSpace(b.id, { role: 'comment', users: [gu.id] });
        });
        const list = async (caller, userId, query = {}) =>
            (await ok(caller.api.orgs.listSpacesForOrganizationMember(org.id, userId, { limit: 1000, ...query }), 'listSpacesForOrganizationMember')).items;
        const perms = (items) => Object.fromEntries(items.map((x) => [x.space.id, x.permission]));
        it('lists exactly the accessible spaces with the member\'s permission on each', async () => {
            const expected = { [a.id]: 'read', [c.id]: 'edit', [d.id]: 'comment', [e.id]: 'review' };
            let items = await list(alice, lr.id);
            assert.deepEqual(perms(items), expected, 'as the admin');
            for (const x of items) assert.deepEqual(x.space.permissions, spacePerms('admin'), 'the embedded space has the caller\'s permissions');
            items = await list(lr, lr.id);
            assert.deepEqual(perms(items), expected, 'as the member');
            for (const x of items) assert.deepEqual(x.space.permissions, spacePerms(x.permission), 'the member\'s own permissions');
            assert.deepEqual(perms(await list(alice, cm.id)), { [a.id]: 'comment', [d.id]: 'comment', [e.id]: 'review' }, 'a comment member');
            assert.deepEqual(perms(await list(alice, ed.id)), { [a.id]: 'edit', [d.id]: 'comment', [e.id]: 'review' }, 'an edit member: lowered by the collection level');
            assert.deepEqual(perms(await list(alice, gu.id)), { [b.id]: 'comment' }, 'a guest: grants only');
            const own = await list(alice, alice.id);
            assert.deepEqual(perms(own), Object.fromEntries([a, b, c, d, e].map((s) => [s.id, 'admin'])), 'the admin: everything');

            // order: desc by default, asc reverses it; pagination
            const desc = await checkPagination((q) => alice.api.orgs.listSpacesForOrganizationMember(org.id, lr.id, q), 'listSpacesForOrganizationMember', {
                key: (x) => x.space.id,
            });
            const asc = await checkPagination((q) => alice.api.orgs.listSpacesForOrganizationMember(org.id, lr.id, q), 'listSpacesForOrganizationMember', {
                key: (x) => x.space.id,
                query: { order: 'asc' },
            });
            assert.deepEqual(
                asc.map((x) => x.space.id),
                desc.map((x) => x.space.id).reverse(),
            );
            assert.deepEqual(asc.map((x) => x.space.id), [a.id, c.id, d.id, e.id], 'oldest first with order=asc');

            // changes show at once
            await grantSpace(b.id, { role: 'admin', users: [lr.id] });
            assert.equal(perms(await list(lr, lr.id))[b.id], 'admin');
            await empty(alice.api.spaces.removeUserFromSpace(b.id, lr.id), 205, 'revoke');
            await empty(alice.api.spaces.deleteSpaceById(e.id), 204, 'delete e');
            assert.deepEqual(perms(await list(lr, lr.id)), { [a.id]: 'read', [c.id]: 'edit', [d.id]: 'comment' }, 'deleted spaces are not listed');
            await ok(alice.api.spaces.restoreSpace(e.id), 'restoreSpace');
        });

        it('only an admin or the member themself may ask', async () => {
            await expectError(lr.api.orgs.listSpacesForOrganizationMember(org.id, cm.id), 403, 'a member asks for another');
            await expectError(lr.api.orgs.listSpacesForOrganizationMember(org.id, alice.id), 403, 'a member asks for the admin');
            await expectError(gu.api.orgs.listSpacesForOrganizationMember(org.id, lr.id), 403, 'a guest asks for another');
            await expectError(out.api.orgs.listSpacesForOrganizationMember(org.id, lr.id), 404, 'a non-member');
            await expectError(alice.api.orgs.listSpacesForOrganizationMember(org.id, out.id), 404, 'not a member of the org');
            await expectError(alice.api.orgs.listSpacesForOrganizationMember(org.id, NO_ID), 404, 'unknown user');
        });
    });

    // ------------------------------------------------------------------------------------
    describe('the permission operations', () => {
        let org, otherTeam;
        let u1, u2, u3, u4, u5, t1, t2, t3;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Grants ${ctx.run}`));
            [u1, u2, u3, u4, u5] = [rd, cm, ed, cr, rv];
            for (const u of [u1, u2, u3, u4, u5]) await addMember(alice.api, org.id, u.email, 'read');
            t1 = await newTeam(org.id, 'T1', [u5]);
            t2 = await newTeam(org.id, 'T2', []);
            t3 = await newTeam(org.id, 'T3', []);
            const { org: other } = await createOrg(ctx.url, alice.token, `Other grants ${ctx.run}`);
            otherTeam = await ok(alice.api.orgs.createOrganizationTeam(other.id, { title: 'Elsewhere' }), 'createOrganizationTeam', 201);
        });

        for (const kind of ['space', 'collection']) {
            const S = kind === 'space';
            const T = S ? 'Space' : 'Collection';
            const sub = S ? 'spaces' : 'collections';
            const call = (who, name, ...args) => who.api[sub][name](...args);
            const make = () => (S ? newSpace(org.id, { title: 'Granted' }) : newCollection(org.id, { title: 'Granted' }));
            const role = (who, id, r, what) => (S ? assertSpaceRole(who, id, r, what) : assertCollectionRole(who, id, r, what));

            it(`${kind}: invite users and teams, list, paginate`, async () => {
                const x = await make();
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'comment', users: [u1.id, u2.id] }), 204, 'invite two users');
                let res = await ok(call(alice, `listUserPermissionsIn${T}`, x.id), `listUserPermissionsIn${T}`);
                assert.deepEqual(Object.fromEntries(res.items.map((g) => [g.user.id, g.permission])), { [u1.id]: 'comment', [u2.id]: 'comment' });
                assert.equal(res.items.find((g) => g.user.id === u1.id).user.displayName, u1.name);
                await sleep(3); // grants of the same millisecond are ordered by id
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'read', users: [u3.id, u4.id], teams: [t1.id, t2.id] }), 204, 'users and teams at once');
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'read', teams: [t3.id] }), 204, 'a team alone');
                assert.deepEqual(await userGrants(kind, x.id), { [u1.id]: 'comment', [u2.id]: 'comment', [u3.id]: 'read', [u4.id]: 'read' });
                assert.deepEqual(await teamGrants(kind, x.id), { [t1.id]: 'read', [t2.id]: 'read', [t3.id]: 'read' });
                res = await ok(call(alice, `listTeamPermissionsIn${T}`, x.id), `listTeamPermissionsIn${T}`);
                assert.equal(res.items.find((g) => g.team.id === t1.id).team.title, 'T1');

                const users = await checkPagination((q) => call(alice, `listUserPermissionsIn${T}`, x.id, q), `listUserPermissionsIn${T}`, {
                    key: (g) => g.user.id,
                });
                assert.equal(users.length, 4);
                assert.deepEqual(users.slice(2).map((g) => g.user.id).sort(), [u3.id, u4.id].sort(), 'oldest grant first');
                const teams = await checkPagination((q) => call(alice, `listTeamPermissionsIn${T}`, x.id, q), `listTeamPermissionsIn${T}`, {
                    key: (g) => g.team.id,
                });
                assert.deepEqual(teams.map((g) => g.team.id).sort(), [t1.id, t2.id, t3.id].sort());
                // a reader may list
                await ok(call(u5, `listUserPermissionsIn${T}`, x.id), `listUserPermissionsIn${T}`);

                // inviting again changes the role, with no duplicate
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'edit', users: [u1.id] }), 204, 'invite again');
                assert.deepEqual(await userGrants(kind, x.id), { [u1.id]: 'edit', [u2.id]: 'comment', [u3.id]: 'read', [u4.id]: 'read' });
                res = await ok(call(alice, `listUserPermissionsIn${T}`, x.id), `listUserPermissionsIn${T}`);
                assert.equal(res.items.length, 4);
                await expectError(call(alice, `listUserPermissionsIn${T}`, NO_ID), 404, 'unknown target');
                await expectError(call(alice, `listTeamPermissionsIn${T}`, NO_ID), 404, 'unknown target');
                await expectError(call(alice, `inviteTo${T}`, NO_ID, { role: 'read', users: [u1.id] }), 404, 'unknown target');
            });

            it(`${kind}: PATCH a grant`, async () => {
                const x = await make();
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id], teams: [t1.id] }), 204, 'invite');
                await role(u2, x.id, 'read', 'granted read');
                await empty(call(alice, `updateUserPermissionIn${T}`, x.id, u2.id, { role: 'admin' }), 204, 'user to admin');
                assert.deepEqual(await userGrants(kind, x.id), { [u2.id]: 'admin' });
                await role(u2, x.id, 'admin', 'patched to admin');
                await empty(call(alice, `updateTeamPermissionIn${T}`, x.id, t1.id, { role: 'create' }), 204, 'team to create');
                assert.deepEqual(await teamGrants(kind, x.id), { [t1.id]: 'create' });
                await role(u5, x.id, 'create', 'through the patched team');
                // create (here through a team) manages the grants
                await empty(call(u5, `updateUserPermissionIn${T}`, x.id, u2.id, { role: 'comment' }), 204, 'a create member lowers to comment');
                await role(u2, x.id, 'comment', 'lowered');

                await expectError(call(alice, `updateUserPermissionIn${T}`, x.id, u3.id, { role: 'edit' }), 404, 'member without a grant');
                await expectError(call(alice, `updateUserPermissionIn${T}`, x.id, NO_ID, { role: 'edit' }), 404, 'unknown user');
                await expectError(call(alice, `updateTeamPermissionIn${T}`, x.id, t2.id, { role: 'edit' }), 404, 'team without a grant');
                await expectError(call(alice, `updateTeamPermissionIn${T}`, x.id, otherTeam.id, { role: 'edit' }), 404, 'team of another org');
                await expectError(call(alice, `updateUserPermissionIn${T}`, NO_ID, u2.id, { role: 'edit' }), 404, 'unknown target');
                await expectError(call(alice, `updateUserPermissionIn${T}`, x.id, u2.id, {}), 400, 'missing role');
                await expectError(call(alice, `updateUserPermissionIn${T}`, x.id, u2.id, { role: null }), 400, 'role null');
                await expectError(call(alice, `updateUserPermissionIn${T}`, x.id, u2.id, { role: 'owner' }), 400, 'bad role');
                await expectError(call(alice, `updateTeamPermissionIn${T}`, x.id, t1.id, { role: 7 }), 400, 'numeric role');
                // a grant of a user to themself does not let a non-admin raise it
                await expectError(call(u2, `updateUserPermissionIn${T}`, x.id, u2.id, { role: 'admin' }), 403, 'comment raises itself');
                assert.deepEqual(await userGrants(kind, x.id), { [u2.id]: 'comment' });
                assert.deepEqual(await teamGrants(kind, x.id), { [t1.id]: 'create' });
            });

            it(`${kind}: DELETE a grant: 205, then 204`, async () => {
                const x = await make();
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'admin', users: [u3.id, u4.id], teams: [t1.id, t2.id] }), 204, 'invite');
                await role(u3, x.id, 'admin', 'granted');
                await empty(call(alice, `removeUserFrom${T}`, x.id, u3.id), 205, 'remove');
                await empty(call(alice, `removeUserFrom${T}`, x.id, u3.id), 204, 'remove again');
                await empty(call(alice, `removeUserFrom${T}`, x.id, NO_ID), 204, 'remove an unknown user');
                assert.deepEqual(await userGrants(kind, x.id), { [u4.id]: 'admin' });
                await role(u3, x.id, 'read', 'revoked');
                await role(u5, x.id, 'admin', 'through t1');
                await empty(call(alice, `removeTeamFrom${T}`, x.id, t1.id), 205, 'remove team');
                await empty(call(alice, `removeTeamFrom${T}`, x.id, t1.id), 204, 'remove team again');
                await empty(call(alice, `removeTeamFrom${T}`, x.id, t3.id), 204, 'a team never granted');
                assert.deepEqual(await teamGrants(kind, x.id), { [t2.id]: 'admin' });
                await role(u5, x.id, 'read', 'team revoked');
                // an admin through a grant may revoke others, and a member below create may not
                await empty(call(u4, `removeTeamFrom${T}`, x.id, t2.id), 205, 'admin grant revokes');
                await expectError(call(u5, `removeUserFrom${T}`, x.id, u4.id), 403, 'read member revokes');
                assert.deepEqual(await userGrants(kind, x.id), { [u4.id]: 'admin' });
                await expectError(call(out, `removeUserFrom${T}`, x.id, u4.id), 404, 'non-member revokes');
            });

            it(`${kind}: invite validation`, async () => {
                const x = await make();
                await empty(call(alice, `inviteTo${T}`, x.id, { role: 'read', users: [u1.id] }), 204, 'invite');
                const bad = [
                    [{ users: [u2.id] }, 'missing role', /role/],
                    [{ role: null, users: [u2.id] }, 'role null', /role/],
                    [{ role: 'owner', users: [u2.id] }, 'bad role', /role/],
                    [{ role: 'READ', users: [u2.id] }, 'role in capitals', /role/],
                    [{ role: 'read', users: [], teams: [] }, 'empty arrays', null],
                    [{ role: 'read' }, 'no users or teams', null],
                    [{ role: 'read', users: [] }, 'empty users', null],
                    [{ role: 'read', users: [NO_ID] }, 'unknown user', /user/],
                    [{ role: 'read', users: [u2.id, NO_ID] }, 'one unknown user among known ones', /user/],
                    [{ role: 'read', teams: [NO_ID] }, 'unknown team', /team/],
                    [{ role: 'read', teams: [otherTeam.id] }, 'team of another org', /team/],
                    [{ role: 'read', users: u2.id }, 'users not an array', /users/],
                    [{ role: 'read', users: [42] }, 'user id not a string', /users/],
                    [{ role: 'read', teams: 'T1' }, 'teams not an array', /teams/],
                    // one bad id fails the whole request: nothing before it is kept
                    [{ role: 'read', users: [nm.id, NO_ID] }, 'a non-member then an unknown user', /user/],
                    [{ role: 'read', users: [u2.id], teams: [otherTeam.id] }, 'a user then a team of another org', /team/],
                ];
                for (const [body, what, re] of bad) {
                    const e = await expectError(call(alice, `inviteTo${T}`, x.id, body), 400, what);
                    if (re) assert.match(e.error.message, re, what);
                }
                assert.deepEqual(await userGrants(kind, x.id), { [u1.id]: 'read' }, 'failed invites changed nothing');
                assert.deepEqual(await teamGrants(kind, x.id), {});
                await expectError(alice.api.orgs.getMemberInOrganizationById(org.id, nm.id), 404, 'nobody became a guest');
                await expectError(call(alice, `listUserPermissionsIn${T}`, x.id, { limit: 1001 }), 400, 'limit 1001');
                await expectError(call(alice, `listTeamPermissionsIn${T}`, x.id, { page: 'not-a-cursor' }), 400, 'bad cursor');
                // below create
                await expectError(call(u1, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id] }), 403, 'a read member invites');
                await empty(call(alice, `updateUserPermissionIn${T}`, x.id, u1.id, { role: 'review' }), 204, 'raise to review');
                await expectError(call(u1, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id] }), 403, 'a review grant invites');
                await empty(call(alice, `updateUserPermissionIn${T}`, x.id, u1.id, { role: 'create' }), 204, 'raise to create');
                await empty(call(u1, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id] }), 204, 'a create grant invites');
                assert.deepEqual(await userGrants(kind, x.id), { [u1.id]: 'create', [u2.id]: 'read' });
                await expectError(call(out, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id] }), 404, 'a non-member invites');
            });
        }

        it('space: grants on a deleted space', async () => {
            const x = await newSpace(org.id, { title: 'Deleted with grants' });
            await grantSpace(x.id, { role: 'edit', users: [u1.id] });
            await empty(alice.api.spaces.deleteSpaceById(x.id), 204, 'delete');
            const res = await ok(alice.api.spaces.listUserPermissionsInSpace(x.id), 'listUserPermissionsInSpace');
            assert.deepEqual(res.items.map((g) => [g.user.id, g.permission]), [[u1.id, 'edit']], 'listed while deleted');
            await expectError(alice.api.spaces.inviteToSpace(x.id, { role: 'read', users: [u2.id] }), 409, 'invite on a deleted space');
            await expectError(alice.api.spaces.updateUserPermissionInSpace(x.id, u1.id, { role: 'read' }), 409, 'patch on a deleted space');
            await ok(alice.api.spaces.restoreSpace(x.id), 'restoreSpace');
            await assertSpaceRole(u1, x.id, 'edit', 'the grant survives deletion and restore');
        });

        it('a deleted collection takes its grants along; its spaces keep theirs', async () => {
            const c = await newCollection(org.id, { title: 'To delete' });
            const s = await newSpace(org.id, { title: 'In deleted', parent: c.id });
            await grantCollection(c.id, { role: 'admin', users: [u1.id] });
            await grantSpace(s.id, { role: 'comment', users: [u2.id] });
            await assertSpaceRole(u1, s.id, 'admin', 'through the collection');
            await empty(alice.api.collections.deleteCollectionById(c.id), 204, 'delete the collection');
            await expectError(alice.api.collections.listUserPermissionsInCollection(c.id), 404, 'grants of a deleted collection');
            await ok(alice.api.spaces.restoreSpace(s.id), 'restoreSpace');
            await assertSpaceRole(u1, s.id, 'read', 'the collection grant went with it');
            await assertSpaceRole(u2, s.id, 'comment', 'the space grant stays');
        });
    });
});

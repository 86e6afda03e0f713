// Permissions on spaces and collections: who may call what (one table row per operation,
// one expected status per kind of caller), the access model's rules (grants to users and
// teams, grants on parent collections, default levels, the org's defaultRole, guests,
// members leaving), members/{userId}/spaces, and the permission operations themselves.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, expectError, createOrg, addMember, checkPagination, sleep } from './lib/api.mjs';

const NO_ID = 'nosuchid000000000000';
const CALLERS = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'];
const LEVELS = ['read', 'comment', 'edit', 'review', 'create', 'admin'];

/** The `permissions` object of a Space for an effective role (null: none). */
function spacePerms(role, { locked = false } = {}) {
    const l = role ? LEVELS.indexOf(role) : -1;
    assert.ok(role === null || l >= 0, `unknown role ${role}`);
    return {
        view: l >= 0,
        access: l >= 0,
        admin: l === 5,
        viewInviteLinks: l === 5,
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
    const l = LEVELS.indexOf(role);
    return { view: l >= 0, admin: l === 5, viewInviteLinks: l === 5, create: l >= 4 };
}

/** Expected status per caller; `member` covers the review..read members, `create` defaults to it. */
function by({ admin, create, member, guest = 404, outsider = 404 }) {
    return { admin, create: create ?? member, review: member, edit: member, comment: member, read: member, guest, outsider };
}

/** Asserts the status of a client call: an error envelope, an empty 204/205, or a valid body. */
async function expectStatus(promise, status, operationId, what) {
    if (status >= 400) {
        await expectError(promise, status, what);
        return undefined;
    }
    if (status === 204 || status === 205) {
        await empty(promise, status, what);
        return undefined;
    }
    return ok(promise, operationId, status);
}

const ids = (items) => items.map((x) => x.id).sort();

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
    const orgSpaces = async (who, orgId) =>
        ids((await ok(who.api.orgs.listSpacesInOrganizationById(orgId, { limit: 1000 }), 'listSpacesInOrganizationById')).items);
    const orgCollections = async (who, orgId, query = {}) =>
        ids(
            (await ok(who.api.orgs.listCollectionsInOrganizationById(orgId, { limit: 1000, ...query }), 'listCollectionsInOrganizationById'))
                .items,
        );
    const collectionSpaces = async (who, id) =>
        ids((await ok(who.api.collections.listSpacesInCollectionById(id, { limit: 1000 }), 'listSpacesInCollectionById')).items);

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
    /** PATCH as `who` must answer `status` (admin needed). */
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
    describe('who may call what (org defaultRole read, defaultLevel inherit everywhere)', () => {
        let org, target, coll, inColl, top, team, extra, who;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Access ${ctx.run}`));
            ({ org: target } = await createOrg(ctx.url, alice.token, `Target ${ctx.run}`));
            await addMember(alice.api, org.id, cr.email, 'create');
            await addMember(alice.api, org.id, rv.email, 'review');
            await addMember(alice.api, org.id, ed.email, 'edit');
            await addMember(alice.api, org.id, cm.email, 'comment');
            await addMember(alice.api, org.id, rd.email, 'read');
            await addMember(alice.api, org.id, gu.email, null);
            // the subject of grants in the table: a member who is none of the callers
            extra = await ctx.user('extra');
            await addMember(alice.api, org.id, extra.email, 'read');
            team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Grantees', members: [extra.id] }), 'createOrganizationTeam', 201);
            coll = await newCollection(org.id, { title: 'Shared' });
            inColl = await newSpace(org.id, { title: 'In collection', parent: coll.id });
            top = await newSpace(org.id, { title: 'Top level' });
            who = { admin: alice, create: cr, review: rv, edit: ed, comment: cm, read: rd, guest: gu, outsider: out };
            const o = await ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
            assert.equal(o.defaultRole, 'read', 'new organizations default to read');
            for (const x of [coll, inColl, top]) assert.equal(x.defaultLevel, 'inherit');
        });

        it('GET space and collection: the permissions object of each caller', async () => {
            for (const c of CALLERS) {
                const role = c === 'admin' ? 'admin' : c === 'guest' || c === 'outsider' ? null : 'read';
                for (const s of [inColl, top]) await assertSpaceRole(who[c], s.id, role, `${c} on ${s.title}`);
                if (role) await assertCollectionRole(who[c], coll.id, role, `${c} on the collection`);
                else await expectError(who[c].api.collections.getCollectionById(coll.id), 404, `${c}: GET collection`);
            }
        });

        it('lists: members see every space and collection with read permissions, guests none', async () => {
            const all = await orgSpaces(alice, org.id);
            assert.deepEqual(all, ids([inColl, top]));
            for (const c of ['create', 'review', 'edit', 'comment', 'read']) {
                const res = await ok(who[c].api.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById');
                assert.deepEqual(ids(res.items), all, `${c}: org spaces`);
                for (const s of res.items) assert.deepEqual(s.permissions, spacePerms('read'), `${c}: list item permissions`);
                const cols = await ok(who[c].api.orgs.listCollectionsInOrganizationById(org.id), 'listCollectionsInOrganizationById');
                assert.deepEqual(ids(cols.items), [coll.id], `${c}: org collections`);
                assert.deepEqual(cols.items[0].permissions, collectionPerms('read'));
                assert.deepEqual(await collectionSpaces(who[c], coll.id), [inColl.id], `${c}: collection spaces`);
            }
            const asAdmin = await ok(alice.api.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById');
            for (const s of asAdmin.items) assert.deepEqual(s.permissions, spacePerms('admin'));
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
        };
        const spaceTitle = async (f) => (await getSpace(alice, f.space.id)).title;

        const rows = [
            { name: 'GET /spaces/{id} (in a collection)', op: 'getSpaceById', exp: by({ admin: 200, member: 200 }), call: (api) => api.spaces.getSpaceById(inColl.id) },
            { name: 'GET /spaces/{id} (top level)', op: 'getSpaceById', exp: by({ admin: 200, member: 200 }), call: (api) => api.spaces.getSpaceById(top.id) },
            {
                name: 'PATCH /spaces/{id}',
                op: 'updateSpaceById',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.space,
                call: (api, f) => api.spaces.updateSpaceById(f.space.id, { title: 'Renamed' }),
                check: async (f, st) => assert.equal(await spaceTitle(f), st === 200 ? 'Renamed' : 'Fresh'),
            },
            {
                name: 'DELETE /spaces/{id}',
                op: 'deleteSpaceById',
                exp: by({ admin: 204, member: 403 }),
                fresh: fresh.space,
                call: (api, f) => api.spaces.deleteSpaceById(f.space.id),
                check: async (f, st) => assert.equal(typeof (await getSpace(alice, f.space.id)).deletedAt, st === 204 ? 'string' : 'undefined'),
            },
            {
                name: 'POST /spaces/{id}/restore',
                op: 'restoreSpace',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.deleted,
                call: (api, f) => api.spaces.restoreSpace(f.space.id),
                check: async (f, st) => assert.equal(typeof (await getSpace(alice, f.space.id)).deletedAt, st === 200 ? 'undefined' : 'string'),
            },
            {
                // docsd answers 200 like the seed (GitBook documents 201): the body is checked as a Space
                name: 'POST /spaces/{id}/duplicate (top level: create in the org)',
                op: 'getSpaceById',
                exp: by({ admin: 200, create: 200, member: 403 }),
                call: (api) => api.spaces.duplicateSpace(top.id),
            },
            {
                name: 'POST /spaces/{id}/duplicate (in a collection: create on it)',
                op: 'getSpaceById',
                exp: by({ admin: 200, member: 403 }),
                call: (api) => api.spaces.duplicateSpace(inColl.id),
            },
            {
                name: 'POST /spaces/{id}/move',
                op: 'moveSpace',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.space,
                call: (api, f) => api.spaces.moveSpace(f.space.id, { parent: coll.id }),
                check: async (f, st) => assert.equal((await getSpace(alice, f.space.id)).parent, st === 200 ? coll.id : undefined),
            },
            {
                name: 'POST /spaces/{id}/transfer',
                op: 'transferSpace',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.space,
                call: (api, f) => api.spaces.transferSpace(f.space.id, { organization: target.id }),
                check: async (f, st) => assert.equal((await getSpace(alice, f.space.id)).organization, st === 200 ? target.id : org.id),
            },
            {
                name: 'GET /orgs/{org}/spaces',
                op: 'listSpacesInOrganizationById',
                exp: by({ admin: 200, member: 200, guest: 200 }),
                call: (api) => api.orgs.listSpacesInOrganizationById(org.id),
            },
            {
                name: 'GET /collections/{id}/spaces',
                op: 'listSpacesInCollectionById',
                exp: by({ admin: 200, member: 200 }),
                call: (api) => api.collections.listSpacesInCollectionById(coll.id),
            },
            {
                name: 'GET /orgs/{org}/collections',
                op: 'listCollectionsInOrganizationById',
                exp: by({ admin: 200, member: 200, guest: 200 }),
                call: (api) => api.orgs.listCollectionsInOrganizationById(org.id),
            },
            { name: 'GET /collections/{id}', op: 'getCollectionById', exp: by({ admin: 200, member: 200 }), call: (api) => api.collections.getCollectionById(coll.id) },
            {
                name: 'PATCH /collections/{id}',
                op: 'updateCollectionById',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.collection,
                call: (api, f) => api.collections.updateCollectionById(f.collection.id, { title: 'Renamed' }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).title, st === 200 ? 'Renamed' : 'Fresh'),
            },
            {
                name: 'DELETE /collections/{id}',
                op: 'deleteCollectionById',
                exp: by({ admin: 204, member: 403 }),
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
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.collection,
                call: (api, f) => api.collections.moveCollection(f.collection.id, { parent: coll.id }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).parent, st === 200 ? coll.id : undefined),
            },
            {
                name: 'POST /collections/{id}/transfer',
                op: 'transferCollection',
                exp: by({ admin: 200, member: 403 }),
                fresh: fresh.collection,
                call: (api, f) => api.collections.transferCollection(f.collection.id, { organization: target.id }),
                check: async (f, st) => assert.equal((await getCollection(alice, f.collection.id)).organization, st === 200 ? target.id : org.id),
            },
            {
                name: 'POST /orgs/{org}/spaces (top level)',
                op: 'createSpace',
                exp: by({ admin: 201, create: 201, member: 403, guest: 403 }),
                call: (api) => api.orgs.createSpace(org.id, { title: 'Made' }),
            },
            {
                // the collection inherits read: only admins may create in it; a guest cannot see it (400 like an unknown parent)
                name: 'POST /orgs/{org}/spaces (in a collection)',
                op: 'createSpace',
                exp: by({ admin: 201, member: 403, guest: 400 }),
                call: (api) => api.orgs.createSpace(org.id, { title: 'Made', parent: coll.id }),
            },
            {
                name: 'POST /orgs/{org}/collections (top level)',
                op: 'createCollection',
                exp: by({ admin: 201, create: 201, member: 403, guest: 403 }),
                call: (api) => api.orgs.createCollection(org.id, { title: 'Made' }),
            },
            {
                name: 'POST /orgs/{org}/collections (in a collection)',
                op: 'createCollection',
                exp: by({ admin: 201, member: 403, guest: 400 }),
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
                        exp: by({ admin: 204, member: 403 }),
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
                        exp: by({ admin: 200, member: 200 }),
                        call: (api) => api[sub][`listUserPermissionsIn${T}`](shared().id),
                    },
                    {
                        name: `GET ${path}/permissions/teams`,
                        op: `listTeamPermissionsIn${T}`,
                        exp: by({ admin: 200, member: 200 }),
                        call: (api) => api[sub][`listTeamPermissionsIn${T}`](shared().id),
                    },
                    {
                        name: `PATCH ${path}/permissions/users/{userId}`,
                        op: `updateUserPermissionIn${T}`,
                        exp: by({ admin: 204, member: 403 }),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`updateUserPermissionIn${T}`](obj(f).id, extra.id, { role: 'review' }),
                        check: async (f, st) => assert.deepEqual(await userGrants(kind, obj(f).id), { [extra.id]: st === 204 ? 'review' : 'comment' }),
                    },
                    {
                        name: `DELETE ${path}/permissions/users/{userId}`,
                        op: `removeUserFrom${T}`,
                        exp: by({ admin: 205, member: 403 }),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`removeUserFrom${T}`](obj(f).id, extra.id),
                        check: async (f, st) => assert.deepEqual(await userGrants(kind, obj(f).id), st === 205 ? {} : { [extra.id]: 'comment' }),
                    },
                    {
                        name: `PATCH ${path}/permissions/teams/{teamId}`,
                        op: `updateTeamPermissionIn${T}`,
                        exp: by({ admin: 204, member: 403 }),
                        fresh: S ? fresh.spaceGrants : fresh.collectionGrants,
                        call: (api, f) => api[sub][`updateTeamPermissionIn${T}`](obj(f).id, team.id, { role: 'read' }),
                        check: async (f, st) => assert.deepEqual(await teamGrants(kind, obj(f).id), { [team.id]: st === 204 ? 'read' : 'comment' }),
                    },
                    {
                        name: `DELETE ${path}/permissions/teams/{teamId}`,
                        op: `removeTeamFrom${T}`,
                        exp: by({ admin: 205, member: 403 }),
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
                exp: by({ admin: 200, member: 200, guest: 200 }),
                call: (api, f, c) => api.orgs.listSpacesForOrganizationMember(org.id, who[c].id),
            },
            {
                name: 'GET /orgs/{org}/members/{other}/spaces',
                op: 'listSpacesForOrganizationMember',
                exp: by({ admin: 200, member: 403, guest: 403 }),
                call: (api) => api.orgs.listSpacesForOrganizationMember(org.id, extra.id),
            },
        ];

        for (const row of rows) {
            it(row.name, async () => {
                for (const c of CALLERS) {
                    const status = row.exp[c];
                    const f = row.fresh ? await row.fresh() : undefined;
                    await expectStatus(row.call(who[c].api, f, c), status, row.op, `${row.name} as ${c}`);
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
            // others still read it
            await assertSpaceRole(rd, s.id, 'read', 'reader on the creator\'s space');
        });
    });

    // ------------------------------------------------------------------------------------
    describe('the access model', () => {
        let org; // B: defaultRole read

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Rules ${ctx.run}`));
            await addMember(alice.api, org.id, cr.email, 'create');
            await addMember(alice.api, org.id, ed.email, 'edit');
            await addMember(alice.api, org.id, cm.email, 'comment');
            await addMember(alice.api, org.id, rd.email, 'read');
            await addMember(alice.api, org.id, gu.email, null);
        });

        it('a user grant on a space raises the member to that role', async () => {
            const s = await newSpace(org.id, { title: 'Granted to reader' });
            await assertSpaceRole(rd, s.id, 'read', 'before');
            await patchSpaceAs(rd, s.id, 403, 'read member patches');

            await grantSpace(s.id, { role: 'edit', users: [rd.id] });
            await assertSpaceRole(rd, s.id, 'edit', 'granted edit');
            await patchSpaceAs(rd, s.id, 403, 'edit is not enough to PATCH');
            await expectError(rd.api.spaces.inviteToSpace(s.id, { role: 'read', users: [cm.id] }), 403, 'edit cannot grant');

            await empty(alice.api.spaces.updateUserPermissionInSpace(s.id, rd.id, { role: 'admin' }), 204, 'raise to admin');
            await assertSpaceRole(rd, s.id, 'admin', 'granted admin');
            await patchSpaceAs(rd, s.id, 200, 'admin grant patches');
            await empty(rd.api.spaces.inviteToSpace(s.id, { role: 'comment', users: [cm.id] }), 204, 'an admin grant may grant');
            await assertSpaceRole(cm, s.id, 'comment', 'granted by the reader');
            // the grant is on this space only
            const other = await newSpace(org.id, { title: 'Other' });
            await assertSpaceRole(rd, other.id, 'read', 'another space');
            await patchSpaceAs(rd, other.id, 403, 'another space');

            // a locked space takes edits from nobody, whatever their role
            await empty(alice.api.spaces.updateUserPermissionInSpace(s.id, rd.id, { role: 'review' }), 204, 'review');
            await patchSpace(s.id, { editMode: 'locked' });
            let got = await getSpace(rd, s.id);
            assert.deepEqual(got.permissions, { ...spacePerms('review'), edit: false, triggerGitSync: false, merge: false });
            got = await getSpace(alice, s.id);
            assert.deepEqual(got.permissions, { ...spacePerms('admin'), edit: false, triggerGitSync: false, merge: false });
            await patchSpace(s.id, { editMode: 'live' });
            await assertSpaceRole(rd, s.id, 'review', 'unlocked');

            await empty(alice.api.spaces.removeUserFromSpace(s.id, rd.id), 205, 'revoke');
            await assertSpaceRole(rd, s.id, 'read', 'after revoking');
            await patchSpaceAs(rd, s.id, 403, 'after revoking');
        });

        it('a team grant applies to every member of the team, and only while they are in it', async () => {
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Reviewers', members: [cm.id, ed.id] }), 'createOrganizationTeam', 201);
            const s = await newSpace(org.id, { title: 'Team space' });
            await empty(alice.api.spaces.inviteToSpace(s.id, { role: 'review', teams: [team.id] }), 204, 'grant the team');
            await assertSpaceRole(cm, s.id, 'review', 'commenter through the team');
            await assertSpaceRole(ed, s.id, 'review', 'editor through the team');
            await assertSpaceRole(rd, s.id, 'read', 'not in the team');
            await patchSpaceAs(cm, s.id, 403, 'review is not admin');

            await empty(alice.api.spaces.updateTeamPermissionInSpace(s.id, team.id, { role: 'admin' }), 204, 'team to admin');
            await assertSpaceRole(cm, s.id, 'admin', 'team admin');
            await patchSpaceAs(cm, s.id, 200, 'team admin patches');

            await empty(alice.api.orgs.deleteMemberFromOrganizationTeamById(org.id, team.id, cm.id), 205, 'cm leaves the team');
            await assertSpaceRole(cm, s.id, 'read', 'left the team');
            await patchSpaceAs(cm, s.id, 403, 'left the team');
            await assertSpaceRole(ed, s.id, 'admin', 'still in the team');
            await empty(alice.api.orgs.addMemberToOrganizationTeamById(org.id, team.id, cm.id, {}), 204, 'cm joins again');
            await assertSpaceRole(cm, s.id, 'admin', 'joined again');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, team.id), 204, 'cleanup');
        });

        it('a grant on a collection applies to the spaces and collections inside it', async () => {
            const p = await newCollection(org.id, { title: 'Parent' });
            const q = await newCollection(org.id, { title: 'Nested', parent: p.id });
            const inP = await newSpace(org.id, { title: 'In parent', parent: p.id });
            const inQ = await newSpace(org.id, { title: 'In nested', parent: q.id });
            const outside = await newSpace(org.id, { title: 'Outside' });

            await grantCollection(p.id, { role: 'admin', users: [rd.id] });
            await assertCollectionRole(rd, p.id, 'admin', 'the granted collection');
            await assertCollectionRole(rd, q.id, 'admin', 'a nested collection');
            await assertSpaceRole(rd, inP.id, 'admin', 'a space inside');
            await assertSpaceRole(rd, inQ.id, 'admin', 'a space two levels down');
            await assertSpaceRole(rd, outside.id, 'read', 'a space outside');
            await patchSpaceAs(rd, inQ.id, 200, 'admin through the parent');
            await patchSpaceAs(rd, outside.id, 403, 'outside');
            await ok(rd.api.collections.updateCollectionById(q.id, { title: 'Renamed by reader' }), 'updateCollectionById');
            const made = await ok(rd.api.orgs.createSpace(org.id, { title: 'Reader made', parent: q.id }), 'createSpace', 201);
            assert.equal(made.parent, q.id);
            await ok(rd.api.orgs.createCollection(org.id, { title: 'Reader made', parent: p.id }), 'createCollection', 201);
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'Top' }), 403, 'the top level still needs the org create role');

            // create on the nested collection only
            await grantCollection(q.id, { role: 'create', users: [cm.id] });
            await assertCollectionRole(cm, q.id, 'create', 'create on nested');
            await assertCollectionRole(cm, p.id, 'read', 'the parent is not affected');
            await assertSpaceRole(cm, inQ.id, 'create', 'a space in it');
            await assertSpaceRole(cm, inP.id, 'read', 'a space in the parent');
            await ok(cm.api.orgs.createSpace(org.id, { title: 'Commenter made', parent: q.id }), 'createSpace', 201);
            await expectError(cm.api.orgs.createSpace(org.id, { title: 'Commenter made', parent: p.id }), 403, 'create in the parent');
            await patchSpaceAs(cm, inQ.id, 403, 'create is not admin');

            // moving a space out of the collection takes the inherited grant away
            await ok(alice.api.spaces.moveSpace(inQ.id, { parent: null }), 'moveSpace');
            await assertSpaceRole(rd, inQ.id, 'read', 'moved out');
            await assertSpaceRole(cm, inQ.id, 'read', 'moved out');
        });

        it('the highest of several grants wins', async () => {
            const h = await newCollection(org.id, { title: 'Highest' });
            const s = await newSpace(org.id, { title: 'Several grants', parent: h.id });
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Editors', members: [ed.id] }), 'createOrganizationTeam', 201);
            await grantSpace(s.id, { role: 'comment', users: [ed.id] });
            await assertSpaceRole(ed, s.id, 'comment', 'direct comment');
            await grantSpace(s.id, { role: 'edit', teams: [team.id] });
            await assertSpaceRole(ed, s.id, 'edit', 'comment + team edit');
            await grantCollection(h.id, { role: 'review', users: [ed.id] });
            await assertSpaceRole(ed, s.id, 'review', 'comment + team edit + collection review');
            await empty(alice.api.collections.removeUserFromCollection(h.id, ed.id), 205, 'revoke the collection grant');
            await assertSpaceRole(ed, s.id, 'edit', 'comment + team edit');
            await empty(alice.api.spaces.removeTeamFromSpace(s.id, team.id), 205, 'revoke the team grant');
            await assertSpaceRole(ed, s.id, 'comment', 'direct comment only');
            // a grant lower than the default level does not lower it
            await patchSpace(s.id, { defaultLevel: 'edit' });
            await assertSpaceRole(ed, s.id, 'edit', 'default edit over a comment grant');
            await assertSpaceRole(rd, s.id, 'edit', 'default edit');
            await empty(alice.api.spaces.removeUserFromSpace(s.id, ed.id), 205, 'revoke');
            await patchSpace(s.id, { defaultLevel: 'inherit' });
            await assertSpaceRole(ed, s.id, 'read', 'nothing but the org default');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, team.id), 204, 'cleanup');
        });

        it('space defaultLevel: null hides the space from members without a grant, a role raises them', async () => {
            const col = await newCollection(org.id, { title: 'Levels' });
            const hidden = await newSpace(org.id, { title: 'Hidden', parent: col.id });
            const raised = await newSpace(org.id, { title: 'Raised', parent: col.id });
            const hiddenTop = await newSpace(org.id, { title: 'Hidden top' });

            let s = await patchSpace(hidden.id, { defaultLevel: null });
            assert.equal(s.defaultLevel, null);
            s = await patchSpace(hiddenTop.id, { defaultLevel: null });
            assert.equal(s.defaultLevel, null);
            for (const m of [rd, cm, ed, cr]) {
                await assertSpaceRole(m, hidden.id, null, `${m.name}: hidden`);
                await assertSpaceRole(m, hiddenTop.id, null, `${m.name}: hidden top`);
                await patchSpaceAs(m, hidden.id, 404, `${m.name}: PATCH hidden`);
                const listed = await orgSpaces(m, org.id);
                assert.ok(!listed.includes(hidden.id) && !listed.includes(hiddenTop.id), `${m.name}: hidden spaces not in the org list`);
                assert.ok(listed.includes(raised.id));
                assert.deepEqual(await collectionSpaces(m, col.id), [raised.id], `${m.name}: collection list`);
                const mine = await ok(m.api.orgs.listSpacesForOrganizationMember(org.id, m.id, { limit: 1000 }), 'listSpacesForOrganizationMember');
                assert.ok(!mine.items.some((x) => x.space.id === hidden.id), `${m.name}: not among their own spaces`);
            }
            await assertSpaceRole(alice, hidden.id, 'admin', 'org admin');
            assert.ok((await orgSpaces(alice, org.id)).includes(hidden.id));
            assert.deepEqual((await collectionSpaces(alice, col.id)).sort(), ids([hidden, raised]));

            // a grant still opens it
            await grantSpace(hidden.id, { role: 'comment', users: [rd.id] });
            await assertSpaceRole(rd, hidden.id, 'comment', 'granted');
            assert.ok((await orgSpaces(rd, org.id)).includes(hidden.id));
            assert.deepEqual(await collectionSpaces(rd, col.id), ids([hidden, raised]));
            await assertSpaceRole(cm, hidden.id, null, 'still hidden for others');

            s = await patchSpace(raised.id, { defaultLevel: 'edit' });
            assert.equal(s.defaultLevel, 'edit');
            for (const m of [rd, cm, ed, cr]) await assertSpaceRole(m, raised.id, 'edit', `${m.name}: raised`);
            await patchSpaceAs(rd, raised.id, 403, 'edit is not admin');
            await assertSpaceRole(gu, raised.id, null, 'a guest gets nothing from a default level');
            await assertSpaceRole(alice, raised.id, 'admin', 'org admin');
        });

        it('a collection defaultLevel is inherited by what inherits below it', async () => {
            const cl = await newCollection(org.id, { title: 'Comment level', defaultLevel: 'comment' });
            assert.equal(cl.defaultLevel, 'comment');
            const cl2 = await newCollection(org.id, { title: 'Inherits', parent: cl.id });
            const s1 = await newSpace(org.id, { title: 'Inherits', parent: cl2.id });
            const s2 = await newSpace(org.id, { title: 'Explicit read', parent: cl2.id });
            const s3 = await newSpace(org.id, { title: 'Explicit none', parent: cl.id });
            await patchSpace(s2.id, { defaultLevel: 'read' });
            await patchSpace(s3.id, { defaultLevel: null });

            await assertSpaceRole(rd, s1.id, 'comment', 'inherits comment two levels up');
            await assertSpaceRole(rd, s2.id, 'read', 'its own level wins');
            await assertSpaceRole(rd, s3.id, null, 'its own null wins');
            await assertCollectionRole(rd, cl2.id, 'comment', 'the nested collection inherits');
            await assertCollectionRole(rd, cl.id, 'comment', 'the collection itself');

            // the nearest level that is not inherit counts
            await patchCollection(cl2.id, { defaultLevel: 'create' });
            await assertCollectionRole(rd, cl2.id, 'create', 'nested create');
            await assertSpaceRole(rd, s1.id, 'create', 'inherits create');
            await assertSpaceRole(rd, s2.id, 'read', 'still its own');
            const made = await ok(rd.api.orgs.createSpace(org.id, { title: 'Reader made', parent: cl2.id }), 'createSpace', 201);
            await assertSpaceRole(rd, made.id, 'admin', 'the creator');
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'Reader made', parent: cl.id }), 403, 'comment on the parent');
            await patchCollection(cl2.id, { defaultLevel: 'inherit' });

            // null on the top collection hides everything that inherits
            const c = await patchCollection(cl.id, { defaultLevel: null });
            assert.equal(c.defaultLevel, null);
            await assertCollectionRole(rd, cl.id, null, 'hidden collection');
            await assertCollectionRole(rd, cl2.id, null, 'nested in a hidden one');
            await assertSpaceRole(rd, s1.id, null, 'space in a hidden one');
            await assertSpaceRole(rd, s2.id, 'read', 'a space with its own level stays readable');
            await expectError(rd.api.collections.listSpacesInCollectionById(cl2.id), 404, 'spaces of a hidden collection');
            const cols = await orgCollections(rd, org.id);
            assert.ok(!cols.includes(cl.id) && !cols.includes(cl2.id), 'hidden collections are not listed');
            const listed = await orgSpaces(rd, org.id);
            assert.ok(!listed.includes(s1.id) && listed.includes(s2.id));
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'X', parent: cl2.id }), 400, 'create in a collection one cannot see');
            await assertCollectionRole(alice, cl.id, 'admin', 'org admin');
            await assertSpaceRole(alice, s1.id, 'admin', 'org admin');
            // a grant on the hidden collection brings all of it back for that user
            await grantCollection(cl.id, { role: 'read', users: [rd.id] });
            await assertCollectionRole(rd, cl2.id, 'read', 'granted read on the parent');
            await assertSpaceRole(rd, s1.id, 'read', 'granted read on the parent');
            await assertSpaceRole(rd, s3.id, 'read', 'a grant beats the space\'s null');
            await assertSpaceRole(cm, s1.id, null, 'still hidden for others');
        });

        it('guests see only the spaces granted to them', async () => {
            const g1 = await newSpace(org.id, { title: 'G read' });
            const g2 = await newSpace(org.id, { title: 'G edit' });
            const gc = await newCollection(org.id, { title: 'G collection' });
            const gc2 = await newCollection(org.id, { title: 'G nested', parent: gc.id });
            const g3 = await newSpace(org.id, { title: 'G in collection', parent: gc.id });
            const g4 = await newSpace(org.id, { title: 'G in nested', parent: gc2.id });
            const g5 = await newSpace(org.id, { title: 'G not granted' });
            await ok(alice.api.spaces.updateSpaceById(g5.id, { defaultLevel: 'edit' }), 'updateSpaceById');
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
            await assertSpaceRole(gu, g3.id, 'comment', 'guest g3');
            await assertSpaceRole(gu, g4.id, 'comment', 'guest g4');
            await assertCollectionRole(gu, gc2.id, 'comment', 'guest gc2');
            await assertSpaceRole(gu, g5.id, null, 'not granted: a default level gives guests nothing');
            await patchSpaceAs(gu, g5.id, 404, 'not granted');
            await expectError(gu.api.spaces.duplicateSpace(g5.id), 404, 'not granted');
            await expectError(gu.api.spaces.listUserPermissionsInSpace(g5.id), 404, 'not granted');
            await expectError(gu.api.orgs.createSpace(org.id, { title: 'Guest' }), 403, 'guest at the top level');
            await expectError(gu.api.orgs.createSpace(org.id, { title: 'Guest', parent: gc.id }), 403, 'comment on the collection');
            await empty(alice.api.collections.updateUserPermissionInCollection(gc.id, gu.id, { role: 'create' }), 204, 'raise');
            const made = await ok(gu.api.orgs.createSpace(org.id, { title: 'Guest made', parent: gc.id }), 'createSpace', 201);
            assert.deepEqual(made.permissions, spacePerms('admin'));
            assert.deepEqual(await orgSpaces(gu, org.id), ids([g1, g2, g3, g4, made]));
            // a guest's permissions in the org itself do not change
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
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Leavers', members: [rm.id, ed.id] }), 'createOrganizationTeam', 201);
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
            // back as a plain member: only the org default, no grant came back
            await addMember(alice.api, org.id, rm.email, 'read');
            await assertSpaceRole(rm, r1.id, 'read', 'back without the grant');
            await assertSpaceRole(rm, rcs.id, 'read', 'back without the collection grant');
            await assertSpaceRole(rm, r2.id, 'read', 'back without the team');
            await patchSpaceAs(rm, r1.id, 403, 'back without the grant');

            await assertSpaceRole(ed, r2.id, 'admin', 'through the team');
            await empty(alice.api.orgs.removeTeamFromOrganizationById(org.id, team.id), 204, 'delete the team');
            assert.deepEqual(await teamGrants('space', r2.id), {}, 'team grant gone');
            await assertSpaceRole(ed, r2.id, 'read', 'the team is gone');
            await patchSpaceAs(ed, r2.id, 403, 'the team is gone');
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
            await addMember(alice.api, target.id, ed.email, 'read'); // a member of both
        });

        it('moving a space needs admin on it and create at the destination', async () => {
            const s = await newSpace(org.id, { title: 'Movable' });
            const readable = await newCollection(org.id, { title: 'Read only' });
            const writable = await newCollection(org.id, { title: 'Writable' });
            const hidden = await newCollection(org.id, { title: 'Hidden', defaultLevel: null });
            await grantSpace(s.id, { role: 'admin', users: [rd.id] });
            await grantCollection(writable.id, { role: 'create', users: [rd.id] });
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: readable.id }), 403, 'read on the destination');
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: hidden.id }), 400, 'a destination one cannot see');
            await expectError(cm.api.spaces.moveSpace(s.id, { parent: writable.id }), 403, 'not admin on the space');
            const moved = await ok(rd.api.spaces.moveSpace(s.id, { parent: writable.id }), 'moveSpace');
            assert.equal(moved.parent, writable.id);
            assert.deepEqual(moved.permissions, spacePerms('admin'));
            await expectError(rd.api.spaces.moveSpace(s.id, { parent: null }), 403, 'the top level needs the org create role');
            // a collection moves the same way
            const c = await newCollection(org.id, { title: 'Movable collection' });
            await grantCollection(c.id, { role: 'admin', users: [rd.id] });
            await expectError(rd.api.collections.moveCollection(c.id, { parent: readable.id }), 403, 'read on the destination');
            const cm2 = await ok(rd.api.collections.moveCollection(c.id, { parent: writable.id }), 'moveCollection');
            assert.equal(cm2.parent, writable.id);
            assert.deepEqual(cm2.permissions, collectionPerms('admin'));
        });

        it('a duplicate keeps the grants of the original; a non-admin duplicator becomes its admin', async () => {
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Dup team', members: [rv.id] }), 'createOrganizationTeam', 201);
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
        });

        it('transfers keep the grants that still mean something', async () => {
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Stay home', members: [rv.id] }), 'createOrganizationTeam', 201);
            const s = await newSpace(org.id, { title: 'Transferred' });
            await grantSpace(s.id, { role: 'edit', users: [ed.id, cm.id], teams: [team.id] });
            const dest = await newCollection(org.id, { title: 'Same org destination' });
            // within the organization: a move into a collection; every grant stays
            const t1 = await ok(alice.api.spaces.transferSpace(s.id, { organization: org.id, parent: dest.id }), 'transferSpace');
            assert.equal(t1.parent, dest.id);
            assert.deepEqual(await userGrants('space', s.id), { [ed.id]: 'edit', [cm.id]: 'edit' });
            assert.deepEqual(await teamGrants('space', s.id), { [team.id]: 'edit' }, 'a transfer within the org keeps team grants');
            await assertSpaceRole(rv, s.id, 'edit', 'through the team');

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
            await assertSpaceRole(ed, s.id, 'read', 'the new org default');
        });

        it('a collection transfer takes the grants of its members along', async () => {
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Col team', members: [rv.id] }), 'createOrganizationTeam', 201);
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
            await assertSpaceRole(ed, s.id, 'review', 'the highest of the grants, in the new org');
            await assertSpaceRole(cm, s.id, null, 'not a member of the new organization');
            await assertSpaceRole(rv, s.id, null, 'the team stayed behind');
            assert.deepEqual((await orgCollections(ed, target.id)).sort(), ids([c, n]));
        });

        it('changing a member\'s org role changes their access', async () => {
            const open = await newSpace(org.id, { title: 'Open' });
            const closed = await newSpace(org.id, { title: 'Closed' });
            const granted = await newSpace(org.id, { title: 'Granted' });
            await patchSpace(closed.id, { defaultLevel: null });
            await patchSpace(granted.id, { defaultLevel: null });
            const u = await ctx.user('mover');
            await addMember(alice.api, org.id, u.email, 'read');
            await grantSpace(granted.id, { role: 'comment', users: [u.id] });
            const setRole = (role) => ok(alice.api.orgs.updateMemberInOrganizationById(org.id, u.id, { role }), 'updateMemberInOrganizationById');
            await assertSpaceRole(u, open.id, 'read', 'member');
            await assertSpaceRole(u, closed.id, null, 'member');
            await setRole('admin');
            await assertSpaceRole(u, open.id, 'admin', 'org admin');
            await assertSpaceRole(u, closed.id, 'admin', 'org admin sees hidden spaces');
            await assertSpaceRole(u, granted.id, 'admin', 'org admin over a lower grant');
            await setRole(null);
            await assertSpaceRole(u, open.id, null, 'guest');
            await assertSpaceRole(u, closed.id, null, 'guest');
            await assertSpaceRole(u, granted.id, 'comment', 'guest keeps the grant');
            assert.deepEqual(await orgSpaces(u, org.id), [granted.id]);
            await setRole('edit');
            await assertSpaceRole(u, open.id, 'read', 'the org default, not the org role');
            await assertSpaceRole(u, granted.id, 'comment', 'grant');
        });

        it('a user path does not reach a team\'s grant, nor a team path a user\'s', async () => {
            const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Paths', members: [rv.id] }), 'createOrganizationTeam', 201);
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
            assert.equal(all.items.length - cols.length, 4, 'three hidden collections and one hidden destination');
            await checkPagination((q) => rd.api.orgs.listSpacesInOrganizationById(org.id, q), 'listSpacesInOrganizationById');
            await checkPagination((q) => rd.api.orgs.listSpacesForOrganizationMember(org.id, rd.id, q), 'listSpacesForOrganizationMember', {
                key: (x) => x.space.id,
            });
        });
    });

    // ------------------------------------------------------------------------------------
    describe('the org defaultRole', () => {
        let org, top, col, inCol, explicit;

        before(async () => {
            ({ org } = await createOrg(ctx.url, alice.token, `Defaults ${ctx.run}`));
            await addMember(alice.api, org.id, rd.email, 'read');
            await addMember(alice.api, org.id, cr.email, 'create');
            await addMember(alice.api, org.id, gu.email, null);
            top = await newSpace(org.id, { title: 'Top' });
            col = await newCollection(org.id, { title: 'Collection' });
            inCol = await newSpace(org.id, { title: 'In collection', parent: col.id });
            explicit = await newSpace(org.id, { title: 'Explicit comment' });
            await patchSpace(explicit.id, { defaultLevel: 'comment' });
        });
        const setDefault = async (role) => {
            const o = await ok(alice.api.orgs.updateOrganizationById(org.id, { defaultRole: role }), 'updateOrganizationById');
            assert.equal(o.defaultRole, role);
        };

        it('applies to members where everything inherits; org admins keep admin', async () => {
            for (const m of [rd, cr]) {
                await assertSpaceRole(m, top.id, 'read', 'default read');
                await assertSpaceRole(m, explicit.id, 'comment', 'explicit comment');
            }
            await setDefault('edit');
            for (const m of [rd, cr]) {
                await assertSpaceRole(m, top.id, 'edit', `${m.name}: default edit`);
                await assertSpaceRole(m, inCol.id, 'edit', `${m.name}: default edit in a collection`);
                await assertCollectionRole(m, col.id, 'edit', `${m.name}: default edit on a collection`);
                await assertSpaceRole(m, explicit.id, 'comment', `${m.name}: the space's own level wins`);
                await patchSpaceAs(m, top.id, 403, `${m.name}: edit is not admin`);
            }
            await assertSpaceRole(gu, top.id, null, 'guests do not get the default');
            await assertSpaceRole(alice, explicit.id, 'admin', 'org admin');

            await setDefault('create');
            await assertCollectionRole(rd, col.id, 'create', 'default create');
            const made = await ok(rd.api.orgs.createSpace(org.id, { title: 'Reader in collection', parent: col.id }), 'createSpace', 201);
            await expectError(rd.api.orgs.createSpace(org.id, { title: 'Reader at the top' }), 403, 'the top level needs the org role');

            await setDefault(null);
            for (const m of [rd, cr]) {
                await assertSpaceRole(m, top.id, null, `${m.name}: no default`);
                await assertSpaceRole(m, inCol.id, null, `${m.name}: no default`);
                await assertCollectionRole(m, col.id, null, `${m.name}: no default`);
                await assertSpaceRole(m, explicit.id, 'comment', `${m.name}: explicit level`);
                const expected = m === rd ? ids([explicit, made]) : [explicit.id];
                assert.deepEqual(await orgSpaces(m, org.id), expected, `${m.name}: only the explicit space (and their own)`);
                assert.deepEqual(await orgCollections(m, org.id), []);
            }
            for (const s of [top, inCol, explicit]) await assertSpaceRole(alice, s.id, 'admin', 'org admin');
            await assertCollectionRole(alice, col.id, 'admin', 'org admin');
            assert.deepEqual(await orgSpaces(alice, org.id), ids([top, inCol, explicit, made]));
            await assertSpaceRole(rd, made.id, 'admin', 'the creator keeps the grant');

            await setDefault('read');
            await assertSpaceRole(rd, top.id, 'read', 'back to read');
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
            assert.deepEqual(perms(await list(alice, cm.id)), { [a.id]: 'read', [d.id]: 'comment', [e.id]: 'review' });
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
            t1 = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'T1', members: [u5.id] }), 'createOrganizationTeam', 201);
            t2 = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'T2' }), 'createOrganizationTeam', 201);
            t3 = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'T3' }), 'createOrganizationTeam', 201);
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
                await empty(call(alice, `updateUserPermissionIn${T}`, x.id, u2.id, { role: 'comment' }), 204, 'lower to comment');
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
                // an admin through a grant may revoke others, and a non-admin may not
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
                // non-admins
                await expectError(call(u1, `inviteTo${T}`, x.id, { role: 'read', users: [u2.id] }), 403, 'a read member invites');
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

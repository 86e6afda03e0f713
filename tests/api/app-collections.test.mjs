// The web interface's merge rules on a space's settings (src/app/pages_admin_space.c: POST
// /s/{id}/~/merge-rules, updateSpaceById's domain function dom_space_update) and a collection's
// settings and permissions (src/app/pages_admin_collection.c: /c/{id}/settings, the grants table and
// forms shared with a space's settings in src/app/grants_form.c; dom_collection_update,
// dom_grants_invite, dom_grant_remove). Everything written through a form is read back through the
// API with the official client; the effect of a collection grant is checked (the granted member
// now reads a space of a collection whose default level is none, and not after the removal).
// Hostile cases: another organization's ids (404 page, nothing changed), a missing CSRF token (403,
// nothing changed), a member without the role (no forms, POSTs refused with 403), malformed and
// oversized fields (400 page naming the field, nothing changed). A grant's role is changed in place
// (POST {base}/{user|team}/{id}/role, dom_grant_update) on a space and on a collection, read back
// with the official client; refused for a bad role (400), a grant that does not exist (404), a member
// without the role (no select, 403), a missing token (403) and another organization (404).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { raw, validate, ok, empty, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

describe('web interface: merge rules, a collection\'s settings and permissions', () => {
    let ctx, alice, bob, carol, eve, org, space, coll, inner, aliceS, bobS, carolS, eveS;

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = (who, path, fields, csrf = who.csrf) => raw(ctx.url, 'POST', path, {
        body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
    });
    const rules = async () => (await ok(alice.api.spaces.getSpaceById(space.id), 'getSpaceById')).mergeRules;
    const collection = async () => ok(alice.api.collections.getCollectionById(coll.id), 'getCollectionById');
    const userGrants = async () => (await ok(alice.api.collections.listUserPermissionsInCollection(coll.id), 'listUserPermissionsInCollection')).items;
    const teamGrants = async () => (await ok(alice.api.collections.listTeamPermissionsInCollection(coll.id), 'listTeamPermissionsInCollection')).items;
    const alert = (r, re) => assert.match(r.text, new RegExp(`role="alert"><p>${re}`), r.text.slice(0, 600));

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob', { name: 'Bob <b>Reader</b>' });
        carol = await ctx.user('carol');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Perms ${ctx.run}`));
        await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, carol.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        coll = await ok(alice.api.orgs.createCollection(org.id, { title: 'Handbooks' }), 'createCollection', 201);
        inner = await ok(alice.api.orgs.createSpace(org.id, { title: 'Inner', parent: coll.id }), 'createSpace', 201);
        for (const u of [alice, bob, carol, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        [aliceS, bobS, carolS, eveS] = await Promise.all([alice, bob, carol, eve].map((u) => signIn(ctx.url, u.email, PASSWORD)));
    });
    after(() => ctx?.server.stop());

    it('merge rules: set through the form, read back through the API, a blocked change request says why', async () => {
        const settings = `/s/${space.id}/~/settings`;
        let f = (await page(aliceS, settings)).text;
        assert.match(f, /<h3>In force<\/h3><p>The organization's merge rules:<\/p><p>No merge rules: whoever may merge merges\.<\/p>/);
        assert.match(f, new RegExp(`<form method="post" action="/s/${space.id}/~/merge-rules">`));
        assert.match(f, /<input type="radio" name="type" id="mr-type-inherit" value="inherit" checked> <label for="mr-type-inherit">/);
        const idx = f.match(new RegExp(`name="require_one_of_specific_reviewers\\.(\\d+)" value="${bob.id}"`))?.[1];
        assert.ok(idx !== undefined, 'bob is offered as a reviewer');
        const r = await post(aliceS, `/s/${space.id}/~/merge-rules`, {
            type: 'rules', require_change_request_subject: 'on', require_at_least_one_review: 'on',
            'require_one_of_specific_reviewers.n': '50', [`require_one_of_specific_reviewers.${idx}`]: bob.id,
        });
        assert.equal(r.status, 303, r.text.slice(0, 600));
        assert.equal(r.headers.location, `${settings}#merge-rules`);
        const sp = await ok(alice.api.spaces.getSpaceById(space.id), 'getSpaceById');
        validate('getSpaceById', 200, sp);
        assert.deepEqual(sp.mergeRules, {
            type: 'rules',
            rules: [{ rule: 'require_at_least_one_review' }, { rule: 'require_change_request_subject' },
                { rule: 'require_one_of_specific_reviewers', users: [bob.id] }],
        });
        f = (await page(aliceS, settings)).text;
        assert.match(f, /id="mr-type-rules" value="rules" checked> <label/);
        assert.match(f, /name="require_change_request_subject" value="on" checked>/);
        assert.match(f, /name="require_all_reviews_approved" value="on">/);
        assert.match(f, new RegExp(`value="${bob.id}" checked>`));
        assert.match(f, /One of these members approves: Bob &lt;b&gt;Reader&lt;\/b&gt; <span class="mute">\(<code>require_one_of_specific_reviewers<\/code>\)/, 'the rule names its users, escaped');

        // a change request without a subject or a review: its page says why merging is blocked
        const cr = await ok(alice.api.spaces.createChangeRequest(space.id, {}), 'createChangeRequest', 201);
        const t = (await page(aliceS, `/s/${space.id}/~/changes/${cr.number}`)).text;
        assert.match(t, /Merging is blocked\.<\/strong> merge blocked by merge rules: [^<]*require_at_least_one_review/);
        assert.match(t, /Merging is blocked\.<\/strong> [^<]*require_change_request_subject/);

        // rules the form does not offer (set through the API) are kept when it is saved
        await ok(alice.api.spaces.updateSpaceById(space.id, {
            mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'a <b>' }, { rule: 'allow_bypass', users: ['u-not-a-member'] }] },
        }), 'updateSpaceById');
        f = (await page(aliceS, settings)).text;
        assert.match(f, /<code>custom<\/code>: <code>a &lt;b&gt;<\/code>/);
        assert.match(f, /are kept as they are/);
        const extra = f.match(/name="allow_bypass\.(\d+)" value="u-not-a-member" checked>/)?.[1];
        assert.ok(extra !== undefined, 'a listed id beyond the members is shown, ticked');
        assert.equal((await post(aliceS, `/s/${space.id}/~/merge-rules`, {
            type: 'rules', require_all_reviews_approved: 'on', 'allow_bypass.n': String(Number(extra) + 1), [`allow_bypass.${extra}`]: 'u-not-a-member',
        })).status, 303);
        assert.deepEqual(await rules(), {
            type: 'rules',
            rules: [{ rule: 'require_all_reviews_approved' }, { rule: 'allow_bypass', users: ['u-not-a-member'] }, { rule: 'custom', expression: 'a <b>' }],
        });
        assert.equal((await post(aliceS, `/s/${space.id}/~/merge-rules`, { type: 'none' })).status, 303);
        assert.deepEqual(await rules(), { type: 'none' });
        assert.match((await page(aliceS, settings)).text, /No merge rules: whoever may merge merges\./);
        assert.equal((await post(aliceS, `/s/${space.id}/~/merge-rules`, { type: 'inherit' })).status, 303);
        assert.deepEqual(await rules(), { type: 'inherit' });
        // inherit shows the organization's rules
        await ok(alice.api.orgs.updateOrganizationById(org.id, { mergeRules: { type: 'rules', rules: [{ rule: 'require_change_request_description' }] } }), 'updateOrganizationById');
        assert.match((await page(carolS, settings)).text, /The organization's merge rules:<\/p><ul class="list"><li>The change request has a description <span class="mute">\(<code>require_change_request_description<\/code>\)<\/span><\/li><\/ul>/);
        await ok(alice.api.orgs.updateOrganizationById(org.id, { mergeRules: { type: 'none' } }), 'updateOrganizationById');
    });

    it('merge rules refused: bad fields 400, an editor 403 without a form, CSRF 403, another organization 404', async () => {
        const path = `/s/${space.id}/~/merge-rules`;
        const cases = [
            [{}, 'mergeRules\\.type: '],
            [{ type: 'all' }, 'mergeRules\\.type: '],
            [{ type: 'rules', 'allow_bypass.n': 'abc' }, 'mergeRules\\.allow_bypass: '],
            [{ type: 'rules', 'allow_bypass.n': '301' }, 'mergeRules\\.allow_bypass: '],
            [{ type: 'rules', filler: 'x'.repeat(130 * 1024) }, 'mergeRules: the form is larger'],
            [{ type: 'rules', 'allow_bypass.n': '1', 'allow_bypass.0': 'x'.repeat(65) }, 'mergeRules\\.allow_bypass: '],
            [`csrf=${aliceS.csrf}&type=rules&require_at_least_one_review=%ff`, 'mergeRules\\.require_at_least_one_review: '],
        ];
        for (const [fields, re] of cases) {
            const r = await post(aliceS, path, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields)}: ${r.status} ${r.text.slice(0, 300)}`);
            alert(r, re);
            assert.match(r.text, /Save merge rules/, 'the form is shown again');
        }
        const c = (await page(carolS, `/s/${space.id}/~/settings`)).text;
        assert.match(c, /<h2 id="merge-rules">Merge rules<\/h2>/, 'an editor sees the rules in force');
        assert.doesNotMatch(c, /action="[^"]*merge-rules"|name="type"/, 'but no form');
        const byEditor = await post(carolS, path, { type: 'none' });
        assert.equal(byEditor.status, 403, byEditor.text.slice(0, 300));
        alert(byEditor, '');
        assert.equal((await post(aliceS, path, { type: 'none' }, null)).status, 403);
        assert.equal((await post(aliceS, path, { type: 'none' }, 'f'.repeat(64))).status, 403);
        assert.equal((await post(eveS, path, { type: 'none' })).status, 404);
        assert.equal((await post(eveS, path, { type: 'bogus' })).status, 404, 'another organization: 404 before the fields');
        assert.deepEqual(await rules(), { type: 'inherit' }, 'nothing changed');
    });

    it('a collection\'s settings: linked from its page, saved by an admin, read back through the API', async () => {
        const cp = (await page(aliceS, `/c/${coll.id}`)).text;
        assert.match(cp, new RegExp(`href="/c/${coll.id}/settings">Settings and permissions</a>`));
        const f = (await page(aliceS, `/c/${coll.id}/settings`)).text;
        assert.match(f, /<label for="set-title">/);
        assert.match(f, /<option value="inherit" selected>/);
        assert.match(f, /No member or team has a role on this collection of its own\./);
        // bob (an organization reader) reads the inner space before the level changes
        assert.equal((await raw(ctx.url, 'GET', `/v1/spaces/${inner.id}`, { token: bob.token })).status, 200);
        const r = await post(aliceS, `/c/${coll.id}/settings`, { title: 'Handbooks <2>', description: 'All & sundry', defaultLevel: 'none' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        assert.equal(r.headers.location, `/c/${coll.id}/settings`);
        let c = await collection();
        validate('getCollectionById', 200, c);
        assert.equal(c.title, 'Handbooks <2>');
        assert.equal(c.description, 'All & sundry');
        assert.equal(c.defaultLevel, null);
        assert.match((await page(aliceS, `/c/${coll.id}/settings`)).text, /value="Handbooks &lt;2&gt;"[\s\S]*<option value="none" selected>/);
        // an empty description removes it; an absent field stays
        assert.equal((await post(aliceS, `/c/${coll.id}/settings`, { description: '' })).status, 303);
        c = await collection();
        assert.ok(!c.description, 'no description');
        assert.equal(c.title, 'Handbooks <2>');
        assert.equal(c.defaultLevel, null);
    });

    it('a collection\'s grants: granted and removed through the forms, read back, and their effect on a space inside', async () => {
        // the collection's level is none now: bob reads nothing inside
        assert.equal((await raw(ctx.url, 'GET', `/v1/spaces/${inner.id}`, { token: bob.token })).status, 404);
        await page(bobS, `/s/${inner.id}`, 404);
        const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Writers' }), 'createOrganizationTeam', 201);
        const f = (await page(aliceS, `/c/${coll.id}/settings`)).text;
        assert.match(f, new RegExp(`<form class="search" method="post" action="/c/${coll.id}/permissions">`));
        assert.match(f, new RegExp(`<option value="user:${bob.id}">Bob &lt;b&gt;Reader&lt;/b&gt;</option>`));
        assert.match(f, new RegExp(`<option value="team:${team.id}">Team: Writers</option>`));
        let r = await post(aliceS, `/c/${coll.id}/permissions`, { principal: `user:${bob.id}`, role: 'read' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        assert.equal(r.headers.location, `/c/${coll.id}/settings`);
        r = await post(aliceS, `/c/${coll.id}/permissions`, { principal: `team:${team.id}`, role: 'edit' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        const users = await userGrants();
        assert.ok(users.some((g) => g.user?.id === bob.id && g.permission === 'read'), JSON.stringify(users));
        assert.ok((await teamGrants()).some((g) => g.team?.id === team.id && g.permission === 'edit'));
        const g = (await page(aliceS, `/c/${coll.id}/settings`)).text;
        assert.match(g, new RegExp(`<td>Bob &lt;b&gt;Reader&lt;/b&gt;</td><td><form class="inline" method="post" action="/c/${coll.id}/permissions/user/${bob.id}/role">.*?<option value="read" selected>read</option></select> <button type="submit">Change</button></form></td><td><form class="inline" method="post" action="/c/${coll.id}/permissions/user/${bob.id}/remove">`));
        assert.match(g, /<td>Team: Writers<\/td><td><form [^>]*>.*?<option value="edit" selected>edit<\/option>/);
        // the effect: bob reads the space inside, through the API and the web interface
        assert.equal((await raw(ctx.url, 'GET', `/v1/spaces/${inner.id}`, { token: bob.token })).status, 200);
        await page(bobS, `/s/${inner.id}`);
        // a reader of the collection sees its settings without a form
        const b = (await page(bobS, `/c/${coll.id}/settings`)).text;
        assert.match(b, /Only an administrator of this collection/);
        assert.doesNotMatch(b, /name="title"|name="principal"|\/remove"/);

        assert.equal((await post(aliceS, `/c/${coll.id}/permissions/team/${team.id}/remove`, {})).status, 303);
        assert.equal((await teamGrants()).length, 0);
        assert.equal((await post(aliceS, `/c/${coll.id}/permissions/user/${bob.id}/remove`, {})).status, 303);
        assert.ok(!(await userGrants()).some((u) => u.user?.id === bob.id), 'bob\'s grant is gone');
        assert.equal((await post(aliceS, `/c/${coll.id}/permissions/user/${bob.id}/remove`, {})).status, 404, 'no such grant');
        assert.equal((await raw(ctx.url, 'GET', `/v1/spaces/${inner.id}`, { token: bob.token })).status, 404);
        assert.match((await page(aliceS, `/c/${coll.id}/settings`)).text, /No member or team has a role on this collection/);
    });

    it('a collection refused: bad fields 400, a member without the role 403 and no form, CSRF 403, another organization 404', async () => {
        // back to inherit (through the API): carol, an editor of the organization, reads it again
        await ok(alice.api.collections.updateCollectionById(coll.id, { defaultLevel: 'inherit' }), 'updateCollectionById');
        const before = await collection();
        const settings = `/c/${coll.id}/settings`, grant = `/c/${coll.id}/permissions`;
        for (const [fields, re] of [
            [{ title: 'x'.repeat(51) }, 'title: '],
            [{ description: 'd'.repeat(101) }, 'description: '],
            [{ defaultLevel: 'guest' }, 'defaultLevel: '],
            [`csrf=${aliceS.csrf}&title=%ff`, 'title: '],
        ]) {
            const r = await post(aliceS, settings, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields)}: ${r.status}`);
            alert(r, re);
            assert.match(r.text, /name="title"/, 'the form is shown again');
        }
        for (const [fields, re] of [
            [{ principal: 'user:', role: 'read' }, 'principal: '],
            [{ principal: bob.id, role: 'read' }, 'principal: '],
            [{ principal: `user:${bob.id}`, role: 'owner' }, 'role: '],
            [{ principal: `user:${bob.id}` }, 'role: '],
            [{ principal: 'user:nobody', role: 'read' }, 'users\\[0\\]'],
            [{ principal: 'team:nothing', role: 'read' }, 'teams\\[0\\]'],
        ]) {
            const r = await post(aliceS, grant, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields)}: ${r.status} ${r.text.slice(0, 300)}`);
            alert(r, re);
        }
        // carol (an editor of the organization) reads the collection but does not administer it
        const c = (await page(carolS, settings)).text;
        assert.doesNotMatch(c, /name="title"|name="principal"/);
        for (const [path, fields] of [[settings, { title: 'Carol' }], [grant, { principal: `user:${carol.id}`, role: 'admin' }]]) {
            const r = await post(carolS, path, fields);
            assert.equal(r.status, 403, `${path}: ${r.status} ${r.text.slice(0, 300)}`);
            alert(r, '');
        }
        // a missing or wrong token
        assert.equal((await post(aliceS, settings, { title: 'No token' }, null)).status, 403);
        assert.equal((await post(aliceS, grant, { principal: `user:${bob.id}`, role: 'read' }, null)).status, 403);
        assert.equal((await post(aliceS, `${grant}/user/${bob.id}/remove`, {}, 'f'.repeat(64))).status, 403);
        // another organization's member: the 404 page, for reading and every form
        await page(eveS, settings, 404);
        for (const [path, fields] of [[settings, { title: 'Eve' }], [settings, { title: 'x'.repeat(51) }],
            [grant, { principal: `user:${eve.id}`, role: 'admin' }], [`${grant}/user/${alice.id}/remove`, {}]]) {
            const r = await post(eveS, path, fields);
            assert.equal(r.status, 404, `${path}: ${r.status}`);
        }
        assert.equal((await post(aliceS, `${grant}/robot/${bob.id}/remove`, {})).status, 404);
        await page(aliceS, `/c/c-does-not-exist/settings`, 404);
        assert.deepEqual(await collection(), before, 'nothing changed');
        assert.equal((await userGrants()).length, 0, 'no grant was made');
        assert.equal((await teamGrants()).length, 0);
    });

    it('a grant\'s role changed in place on a space and a collection; refusals change nothing', async () => {
        const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Editors' }), 'createOrganizationTeam', 201);
        await empty(alice.api.spaces.inviteToSpace(space.id, { role: 'read', users: [bob.id], teams: [team.id] }), 204, 'inviteToSpace');
        await empty(alice.api.collections.inviteToCollection(coll.id, { role: 'comment', users: [bob.id] }), 204, 'inviteToCollection');
        const spaceUsers = async () => (await ok(alice.api.spaces.listUserPermissionsInSpace(space.id), 'listUserPermissionsInSpace')).items;
        const spaceTeams = async () => (await ok(alice.api.spaces.listTeamPermissionsInSpace(space.id), 'listTeamPermissionsInSpace')).items;
        const roleOf = (items, id) => items.find((g) => (g.user ?? g.team)?.id === id)?.permission;
        const sBase = `/s/${space.id}/~/permissions`, cBase = `/c/${coll.id}/permissions`;

        const f = (await page(aliceS, `/s/${space.id}/~/settings`)).text;
        assert.match(f, new RegExp(`<form class="inline" method="post" action="${sBase}/user/${bob.id}/role"><input type="hidden" name="csrf" value="[^"]+"><label class="mute" for="grant-role-user-${bob.id}">Role of Bob &lt;b&gt;Reader&lt;/b&gt;</label> <select name="role" id="grant-role-user-${bob.id}">`));
        assert.match(f, new RegExp(`id="grant-role-user-${bob.id}">[^]*?<option value="read" selected>read</option>[^]*?</select> <button type="submit">Change</button>`));
        assert.match(f, new RegExp(`action="${sBase}/team/${team.id}/role">`));
        let r = await post(aliceS, `${sBase}/user/${bob.id}/role`, { role: 'review' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        assert.equal(r.headers.location, `/s/${space.id}/~/settings`);
        assert.equal(roleOf(await spaceUsers(), bob.id), 'review');
        assert.equal((await post(aliceS, `${sBase}/team/${team.id}/role`, { role: 'admin' })).status, 303);
        assert.equal(roleOf(await spaceTeams(), team.id), 'admin');
        r = await post(aliceS, `${cBase}/user/${bob.id}/role`, { role: 'edit' });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        assert.equal(r.headers.location, `/c/${coll.id}/settings`);
        assert.equal(roleOf(await userGrants(), bob.id), 'edit');
        assert.match((await page(aliceS, `/c/${coll.id}/settings`)).text, new RegExp(`action="${cBase}/user/${bob.id}/role">[^]*?<option value="edit" selected>edit</option>[^]*?<button type="submit">Change</button>`));

        // refusals: nothing changes
        for (const [path, fields, status, re] of [
            [`${sBase}/user/${bob.id}/role`, { role: 'owner' }, 400, 'role: '],
            [`${cBase}/user/${bob.id}/role`, {}, 400, 'role: '],
            [`${cBase}/user/${bob.id}/role`, `csrf=${aliceS.csrf}&role=%ff`, 400, 'role: '],
            [`${cBase}/user/${carol.id}/role`, { role: 'read' }, 404, null],
            [`${sBase}/robot/${bob.id}/role`, { role: 'read' }, 404, null],
        ]) {
            r = await post(aliceS, path, fields);
            assert.equal(r.status, status, `${path} ${JSON.stringify(fields)}: ${r.status} ${r.text.slice(0, 300)}`);
            if (re) alert(r, re);
        }
        // carol (an editor) sees the space's settings without the grants' forms; her post is refused
        assert.doesNotMatch((await page(carolS, `/s/${space.id}/~/settings`)).text, /\/role"|name="role"/);
        r = await post(carolS, `${sBase}/user/${bob.id}/role`, { role: 'admin' });
        assert.equal(r.status, 403, r.text.slice(0, 300));
        alert(r, '');
        assert.equal((await post(aliceS, `${sBase}/user/${bob.id}/role`, { role: 'admin' }, null)).status, 403);
        assert.equal((await post(aliceS, `${cBase}/user/${bob.id}/role`, { role: 'admin' }, 'f'.repeat(64))).status, 403);
        assert.equal((await post(eveS, `${sBase}/user/${bob.id}/role`, { role: 'admin' })).status, 404);
        assert.equal((await post(eveS, `${cBase}/user/${bob.id}/role`, { role: 'bogus' })).status, 404);
        assert.equal(roleOf(await spaceUsers(), bob.id), 'review', 'unchanged');
        assert.equal(roleOf(await userGrants(), bob.id), 'edit', 'unchanged');

        // the grants to users a page at a time: ?limit=1 walks them, each once; teams on the first page
        await empty(alice.api.spaces.inviteToSpace(space.id, { role: 'comment', users: [carol.id] }), 204, 'inviteToSpace');
        const seen = [];
        let next = `/s/${space.id}/~/settings?limit=1`;
        for (let i = 0; next && i < 10; i++) {
            const t = (await page(aliceS, next)).text;
            const ids = [...t.matchAll(/action="[^"]*\/permissions\/user\/([^/"]+)\/role"/g)].map((m) => m[1]);
            assert.equal(ids.length, 1, `one grant a page: ${ids}`);
            seen.push(...ids);
            assert.equal(/permissions\/team\//.test(t), i === 0, 'teams on the first page only');
            next = t.match(/<a rel="next" href="([^"]+)">More members with a role<\/a>/)?.[1]?.replace(/&amp;/g, '&');
        }
        assert.deepEqual([...seen].sort(), (await spaceUsers()).map((g) => g.user.id).sort());
        assert.equal(seen.length, 2);
        await page(aliceS, `/s/${space.id}/~/settings?limit=abc`, 400);
    });
});

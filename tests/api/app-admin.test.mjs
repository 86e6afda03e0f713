// The web interface's personal API tokens (issue 25, src/app/pages_tokens.c, domain/tokens.c):
// /settings/tokens lists the signed-in user's tokens (name, created, an identifier that is the
// first 16 hex digits of the token's hash), creates one (the secret shown once, on the answer to
// the POST, never on the list) and revokes one. A created token works against the API at once; a
// revoked one fails at its next request even though the token cache had it (http/tokens.c's
// epoch flush). Hostile cases: no CSRF token or a wrong one (403, nothing created or revoked),
// another user's token id (404, still working), a malformed id, an empty, oversized or
// control-character name and malformed form data (400 page naming the field), signed out (303 to
// /signin).
// Then an organization's members (/o/{id}/members: change a role, remove) and teams
// (/o/{id}/teams, /o/{id}/teams/{teamId}: create, add and remove members) through the API's domain
// functions: a reader sees the lists without a form and is refused (403 page, nothing changed) when
// posting anyway; the last admin cannot demote herself (400 page with the domain's message, rolled
// back); another organization's ids are the 404 page; bad roles and malformed fields are 400.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { raw, validate, ok, createOrg, addMember } from './lib/api.mjs';
import { HTML, FORM, appClient, signInAll } from './lib/app.mjs';

describe('web interface: personal API tokens', () => {
    let ctx, alice, bob, aliceS, bobS;

    const get = async (who, status = 200) => {
        const r = await raw(ctx.url, 'GET', '/settings/tokens', { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET /settings/tokens: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = (...a) => appClient(ctx).post(...a);
    const create = async (who, name) => {
        const r = await post(who, '/settings/tokens', { name });
        assert.equal(r.status, 201, `create: ${r.status}: ${r.text.slice(0, 400)}`);
        const secret = r.text.match(/id="new-token"[^>]*value="(gb_api_[A-Za-z0-9]+)"/)?.[1];
        assert.ok(secret, 'the answer shows the new token');
        return { secret, page: r.text };
    };
    const ids = (html) => [...html.matchAll(/action="\/settings\/tokens\/([0-9a-f]{16})\/revoke"/g)].map((m) => m[1]);
    const whoami = (token) => raw(ctx.url, 'GET', '/v1/user', { token });

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        [aliceS, bobS] = await signInAll(ctx, [alice, bob]);
    });
    after(() => ctx?.server.stop());

    it('signed out: the page and its forms redirect to /signin; the header links the page', async () => {
        const r = await raw(ctx.url, 'GET', '/settings/tokens', { headers: HTML });
        assert.equal(r.status, 303);
        assert.equal(r.headers.location, '/signin?next=/settings/tokens');
        const p = await raw(ctx.url, 'POST', '/settings/tokens', { body: 'name=x', headers: FORM });
        assert.equal(p.status, 303);
        const home = await raw(ctx.url, 'GET', '/', { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.match(home.text, /href="\/settings\/tokens"/);
        const unknown = await raw(ctx.url, 'GET', '/settings/nothing', { headers: { ...HTML, Cookie: aliceS.cookie } });
        assert.equal(unknown.status, 404);
        assert.match(unknown.headers['content-type'], /^text\/html/);
    });

    it('lists the tokens by name (the one docsd token made has none), creates one shown once, which works at once', async () => {
        const before = await get(aliceS);
        assert.match(before.headers['cache-control'], /no-store/);
        assert.equal(ids(before.text).length, 1, 'the token the fixture made');
        assert.match(before.text, /no name: made by docsd token/);
        assert.doesNotMatch(before.text, /gb_api_/);

        const { secret, page } = await create(aliceS, '  CI <publishing> & "docs"  ');
        assert.match(page, /not be shown again/);
        assert.match(page, /CI &lt;publishing&gt; &amp; &quot;docs&quot;/, 'the name is escaped, trimmed');
        const me = await whoami(secret);
        assert.equal(me.status, 200, me.text);
        validate('getAuthenticatedUser', 200, me.json);
        assert.equal(me.json.id, alice.id);

        const after = await get(aliceS);
        assert.equal(ids(after.text).length, 2);
        assert.ok(!after.text.includes(secret), 'the list never shows a token');
        assert.match(after.text, /<td>CI &lt;publishing&gt; &amp; &quot;docs&quot;<\/td>/);
        // nor does any other page, nor the store as is (only its hash)
        assert.ok(!(await get(aliceS)).text.includes(secret.slice(7)));
    });

    it('revoking stops the token at its next request, although the token cache had it', async () => {
        const { secret } = await create(aliceS, 'to revoke');
        // used twice: the second answer comes from the token cache
        for (let i = 0; i < 2; i++) assert.equal((await whoami(secret)).status, 200);
        const list = await get(aliceS);
        const id = ids(list.text)[0]; // newest first
        const r = await post(aliceS, `/settings/tokens/${id}/revoke`, {});
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, '/settings/tokens');
        const me = await whoami(secret);
        assert.equal(me.status, 401, 'a revoked token fails at once');
        assert.ok(!ids((await get(aliceS)).text).includes(id));
        // revoking again: the 404 page
        assert.equal((await post(aliceS, `/settings/tokens/${id}/revoke`, {})).status, 404);
        // the fixture's own token still works (a flush is not a revocation)
        assert.equal((await whoami(alice.token)).status, 200);
    });

    it('another user cannot see or revoke a token (404, it keeps working); malformed ids are 404', async () => {
        const { secret } = await create(aliceS, 'mine');
        const id = ids((await get(aliceS)).text)[0];
        assert.ok(!(await get(bobS)).text.includes(id), "bob's list has only his tokens");
        const r = await post(bobS, `/settings/tokens/${id}/revoke`, {});
        assert.equal(r.status, 404);
        assert.match(r.text, /Not found/);
        assert.equal((await whoami(secret)).status, 200);
        for (const bad of ['zzzz', id.toUpperCase(), `${id}0`, '%00', '..']) {
            const b = await post(aliceS, `/settings/tokens/${bad}/revoke`, {});
            assert.equal(b.status, 404, `${bad}: ${b.status}`);
        }
    });

    it('CSRF: missing or wrong token is a 403 page, nothing created or revoked', async () => {
        const n = ids((await get(aliceS)).text).length;
        const missing = await post(aliceS, '/settings/tokens', { name: "x" }, null);
        assert.equal(missing.status, 403);
        assert.match(missing.headers['content-type'], /^text\/html/);
        const wrong = await post(aliceS, '/settings/tokens', { name: 'x' }, 'f'.repeat(64));
        assert.equal(wrong.status, 403);
        // bob's token in alice's session
        assert.equal((await post(aliceS, '/settings/tokens', { name: 'x' }, bobS.csrf)).status, 403);
        const id = ids((await get(aliceS)).text)[0];
        assert.equal((await post(aliceS, `/settings/tokens/${id}/revoke`, {}, null)).status, 403);
        assert.equal(ids((await get(aliceS)).text).length, n);
        // a JSON body is not a form: no CSRF field read, 403
        const json = await raw(ctx.url, 'POST', '/settings/tokens', {
            body: JSON.stringify({ csrf: aliceS.csrf, name: 'x' }),
            headers: { ...HTML, 'Content-Type': 'application/json', Cookie: aliceS.cookie },
        });
        assert.equal(json.status, 403);
    });

    it('bad names are the form again with a 400 naming the field; nothing is created', async () => {
        const n = ids((await get(aliceS)).text).length;
        for (const name of ['', '   ', 'x'.repeat(65), 'a\u0007b', 'é'.repeat(65)]) {
            const r = await post(aliceS, '/settings/tokens', { name });
            assert.equal(r.status, 400, `${JSON.stringify(name)}: ${r.status}`);
            assert.match(r.text, /role="alert"><p>name: /);
            assert.match(r.text, /id="token-name"/, 'the form is shown again');
            assert.doesNotMatch(r.text, /gb_api_/);
        }
        assert.equal((await post(aliceS, '/settings/tokens', {})).status, 400, 'no name field');
        const malformed = await post(aliceS, '/settings/tokens', `csrf=${aliceS.csrf}&name=%zz`);
        assert.equal(malformed.status, 400);
        assert.match(malformed.text, /malformed/);
        const huge = await post(aliceS, '/settings/tokens', { name: 'y'.repeat(200_000) });
        assert.ok([400, 413].includes(huge.status), `${huge.status}`);
        // exactly 64 characters is fine
        await create(aliceS, 'é'.repeat(64));
        assert.equal(ids((await get(aliceS)).text).length, n + 1);
    });
});

describe('web interface: members and teams', () => {
    let ctx, alice, bob, carol, eve, org, otherOrg, aliceS, bobS, eveS;

    const page = (...a) => appClient(ctx).page(...a);
    const post = (...a) => appClient(ctx).post(...a);
    const roleOf = async (userId) => {
        const r = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/members/${userId}`, { token: alice.token });
        if (r.status === 404) return null;
        assert.equal(r.status, 200, r.text);
        validate('getMemberInOrganizationById', 200, r.json);
        return r.json.role;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob', { name: 'Bob <b>' });
        carol = await ctx.user('carol');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        ({ org: otherOrg } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await addMember(alice.api, org.id, carol.email, 'edit');
        [aliceS, bobS, eveS] = await signInAll(ctx, [alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('the organization page links members and teams; the lists escape names; a reader sees no form', async () => {
        const o = await page(aliceS, `/o/${org.id}`);
        assert.match(o.text, new RegExp(`href="/o/${org.id}/members"`));
        assert.match(o.text, new RegExp(`href="/o/${org.id}/teams"`));
        const a = await page(aliceS, `/o/${org.id}/members`);
        assert.match(a.text, /Bob &lt;b&gt;/);
        assert.match(a.text, new RegExp(`action="/o/${org.id}/members/${bob.id}/role"`));
        assert.match(a.text, new RegExp(`action="/o/${org.id}/members/${bob.id}/remove"`));
        assert.match(a.text, /<label[^>]*for="role-/);
        const b = await page(bobS, `/o/${org.id}/members`);
        assert.match(b.text, /Bob &lt;b&gt;/);
        assert.doesNotMatch(b.text, /method="post" action="\/o\//, 'no admin forms for a reader');
        const t = await page(bobS, `/o/${org.id}/teams`);
        assert.doesNotMatch(t.text, /name="title"/);
        assert.match(t.text, /no teams yet/);
    });

    it('an admin changes a role and removes a member; the API sees it', async () => {
        const r = await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, { role: 'review' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, `/o/${org.id}/members`);
        assert.equal(await roleOf(carol.id), 'review');
        const g = await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, { role: 'guest' });
        assert.equal(g.status, 303);
        assert.equal(await roleOf(carol.id), null, 'a guest has no role');
        assert.equal((await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, { role: 'edit' })).status, 303);
        assert.equal(await roleOf(carol.id), 'edit');
    });

    it('refusals: the last admin, a reader, bad roles, CSRF, another organization', async () => {
        const last = await post(aliceS, `/o/${org.id}/members/${alice.id}/role`, { role: 'read' });
        assert.equal(last.status, 400, last.text.slice(0, 300));
        assert.match(last.text, /role="alert"><p>[^<]*at least one admin/);
        assert.equal(await roleOf(alice.id), 'admin', 'rolled back');
        const byReader = await post(bobS, `/o/${org.id}/members/${carol.id}/role`, { role: 'admin' });
        assert.equal(byReader.status, 403, byReader.text.slice(0, 300));
        assert.equal(await roleOf(carol.id), 'edit');
        assert.equal((await post(bobS, `/o/${org.id}/members/${carol.id}/remove`, {})).status, 403);
        assert.equal(await roleOf(carol.id), 'edit');
        for (const role of ['owner', '', 'ADMIN']) {
            const r = await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, { role });
            assert.equal(r.status, 400, `${role}: ${r.status}`);
            assert.match(r.text, /role: /);
        }
        assert.equal((await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, `csrf=${aliceS.csrf}&role=%zz`)).status, 400);
        assert.equal((await post(aliceS, `/o/${org.id}/members/${carol.id}/role`, { role: 'read' }, null)).status, 403);
        assert.equal(await roleOf(carol.id), 'edit');
        // eve, admin of her own organization, at alice's: the 404 page
        assert.equal((await page(eveS, `/o/${org.id}/members`, 404)).status, 404);
        assert.equal((await post(eveS, `/o/${org.id}/members/${carol.id}/role`, { role: 'read' })).status, 404);
        assert.equal((await post(eveS, `/o/${org.id}/members/${carol.id}/remove`, {})).status, 404);
        // alice with a member of eve's organization, in her own and in eve's
        assert.equal((await post(aliceS, `/o/${otherOrg.id}/members/${eve.id}/remove`, {})).status, 404);
        assert.equal((await post(aliceS, `/o/${org.id}/members/${eve.id}/remove`, {})).status, 404);
        assert.equal(await roleOf(carol.id), 'edit');
    });

    it('invitations: by email, invite links created, joined through their page and deleted; admins only', async () => {
        const inv = await page(aliceS, `/o/${org.id}/invites`);
        assert.match(inv.text, /Invite by email/);
        assert.match((await page(aliceS, `/o/${org.id}/members`)).text, new RegExp(`href="/o/${org.id}/invites"`));
        assert.doesNotMatch((await page(bobS, `/o/${org.id}/members`)).text, /\/invites"/, 'no tab for a reader');
        await page(bobS, `/o/${org.id}/invites`, 404);
        await page(eveS, `/o/${org.id}/invites`, 404);
        // by email: two addresses, one new
        const dave = `dave-${ctx.run}@example.com`;
        const r = await post(aliceS, `/o/${org.id}/invites`, { emails: `${dave}, ${carol.email}`, role: 'comment' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        const m = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/members?search=dave-${ctx.run}`, { token: alice.token });
        assert.equal(m.json.items.length, 1);
        assert.equal(m.json.items[0].role, 'comment');
        const bad = await post(aliceS, `/o/${org.id}/invites`, { emails: 'not-an-email', role: 'read' });
        assert.equal(bad.status, 400);
        assert.match(bad.text, /role="alert"><p>emails/);
        assert.equal((await post(aliceS, `/o/${org.id}/invites`, { emails: 'x@example.com', role: 'king' })).status, 400);
        assert.equal((await post(aliceS, `/o/${org.id}/invites`, { emails: ' , ' })).status, 400);
        const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.com`).join(',');
        assert.equal((await post(aliceS, `/o/${org.id}/invites`, { emails: many })).status, 400);
        assert.equal((await post(bobS, `/o/${org.id}/invites`, { emails: 'z@example.com' })).status, 404, 'the page is not there for a reader');
        assert.equal((await post(eveS, `/o/${org.id}/invites`, { emails: 'z@example.com' })).status, 404);
        // links
        const c = await post(aliceS, `/o/${org.id}/invites/links`, { role: 'read' });
        assert.equal(c.status, 303, c.text.slice(0, 300));
        const list = await page(aliceS, `/o/${org.id}/invites`);
        const link = list.text.match(new RegExp(`/o/${org.id}/join/([A-Za-z0-9]+)</code>`));
        assert.ok(link, 'the link to share is shown');
        const api = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/link-invites`, { token: alice.token });
        assert.equal(api.status, 200, api.text);
        validate('listOrganizationInviteLinks', 200, api.json);
        assert.deepEqual(api.json.items.map((i) => [i.id, i.role]), [[link[1], 'read']]);
        // eve joins through the link's page
        const j = await page(eveS, `/o/${org.id}/join/${link[1]}`);
        assert.match(j.text, /<button type="submit">Join<\/button>/);
        const joined = await post(eveS, `/o/${org.id}/join/${link[1]}`, {});
        assert.equal(joined.status, 303, joined.text.slice(0, 300));
        assert.equal(joined.headers.location, `/o/${org.id}`);
        assert.equal(await roleOf(eve.id), 'read');
        assert.equal((await post(eveS, `/o/${org.id}/join/nope`, {})).status, 404);
        assert.equal((await post(eveS, `/o/${org.id}/join/${link[1]}`, {}, null)).status, 403);
        // delete: bob (a reader) cannot, another organization's path is 404, alice can
        assert.equal((await post(bobS, `/o/${org.id}/invites/links/${link[1]}/delete`, {})).status, 404);
        assert.equal((await post(aliceS, `/o/${otherOrg.id}/invites/links/${link[1]}/delete`, {})).status, 404);
        const d = await post(aliceS, `/o/${org.id}/invites/links/${link[1]}/delete`, {});
        assert.equal(d.status, 303);
        assert.equal((await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/link-invites`, { token: alice.token })).json.items.length, 0);
        assert.equal((await post(aliceS, `/o/${org.id}/invites/links/${link[1]}/delete`, {})).status, 404);
        // eve leaves again (removed by alice) for the tests that follow
        assert.equal((await post(aliceS, `/o/${org.id}/members/${eve.id}/remove`, {})).status, 303);
    });

    it('teams: create, add by email, remove; non-members and readers refused; other organization 404', async () => {
        const c = await post(aliceS, `/o/${org.id}/teams`, { title: 'Writers <x>' });
        assert.equal(c.status, 303, c.text.slice(0, 300));
        const teamPath = c.headers.location;
        assert.match(teamPath, new RegExp(`^/o/${org.id}/teams/[A-Za-z0-9]+$`));
        const teamId = teamPath.split('/').pop();
        const t = await page(aliceS, teamPath);
        assert.match(t.text, /<h1>Writers &lt;x&gt;<\/h1>/);
        assert.match(t.text, /no members yet/);
        const add = await post(aliceS, `${teamPath}/members`, { user: carol.email, role: 'owner' });
        assert.equal(add.status, 303, add.text.slice(0, 300));
        const api = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/teams/${teamId}/members`, { token: alice.token });
        assert.equal(api.status, 200, api.text);
        assert.deepEqual(api.json.items.map((m) => m.organization.user.id), [carol.id]);
        assert.equal(api.json.items[0].team.role, 'owner');
        assert.match((await page(aliceS, teamPath)).text, new RegExp(`${teamPath}/members/${carol.id}/remove`));
        // a reader reads the team but has no form, and is refused when posting
        const bt = await page(bobS, teamPath);
        assert.doesNotMatch(bt.text, /name="user"/);
        assert.equal((await post(bobS, `${teamPath}/members`, { user: bob.email })).status, 403);
        assert.equal((await post(bobS, `/o/${org.id}/teams`, { title: 'Mine' })).status, 403);
        // hostile input
        const stranger = await post(aliceS, `${teamPath}/members`, { user: eve.email });
        assert.equal(stranger.status, 400);
        assert.match(stranger.text, /user: no member/);
        assert.equal((await post(aliceS, `${teamPath}/members`, { user: carol.email, role: 'boss' })).status, 400);
        assert.equal((await post(aliceS, `/o/${org.id}/teams`, { title: '' })).status, 400);
        assert.equal((await post(aliceS, `/o/${org.id}/teams`, {})).status, 400);
        assert.equal((await post(aliceS, `/o/${org.id}/teams`, { title: 't'.repeat(5000) })).status, 400);
        // another organization
        await page(eveS, teamPath, 404);
        assert.equal((await post(eveS, `${teamPath}/members`, { user: eve.email })).status, 404);
        assert.equal((await post(eveS, `${teamPath}/members/${carol.id}/remove`, {})).status, 404);
        await page(aliceS, `/o/${otherOrg.id}/teams`, 404);
        // remove
        const rm = await post(aliceS, `${teamPath}/members/${carol.id}/remove`, {});
        assert.equal(rm.status, 303);
        assert.equal(rm.headers.location, teamPath);
        assert.equal((await post(aliceS, `${teamPath}/members/${carol.id}/remove`, {})).status, 404, 'not in the team any more');
        // finally removing a member of the organization
        const out = await post(aliceS, `/o/${org.id}/members/${bob.id}/remove`, {});
        assert.equal(out.status, 303);
        assert.equal(await roleOf(bob.id), null);
        assert.equal((await post(aliceS, `/o/${org.id}/members/${bob.id}/remove`, {})).status, 404);
    });
});

describe('web interface: space settings', () => {
    let ctx, alice, bob, eve, org, space, aliceS, bobS, eveS;

    const page = (...a) => appClient(ctx).page(...a);
    const post = (...a) => appClient(ctx).post(...a);
    const apiSpace = async () => {
        const r = await raw(ctx.url, 'GET', `/v1/spaces/${space.id}`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        validate('getSpaceById', 200, r.json);
        return r.json;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        [aliceS, bobS, eveS] = await signInAll(ctx, [alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('an admin changes title, emoji, visibility and edit mode; the API sees them', async () => {
        const sp = await page(aliceS, `/s/${space.id}`);
        assert.match(sp.text, new RegExp(`href="/s/${space.id}/~/settings"`));
        const f = await page(aliceS, `/s/${space.id}/~/settings`);
        assert.match(f.text, /<label for="set-title">/);
        const r = await post(aliceS, `/s/${space.id}/~/settings`, { title: 'Guide <v2>', emoji: '1f4d8', visibility: 'unlisted', editMode: 'locked' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, `/s/${space.id}/~/settings`);
        let s = await apiSpace();
        assert.equal(s.title, 'Guide <v2>');
        assert.equal(s.emoji, '1f4d8');
        assert.equal(s.visibility, 'unlisted');
        assert.equal(s.editMode, 'locked');
        assert.match((await page(aliceS, `/s/${space.id}/~/settings`)).text, /value="Guide &lt;v2&gt;"/);
        // an empty emoji removes it; absent fields stay
        assert.equal((await post(aliceS, `/s/${space.id}/~/settings`, { emoji: '', editMode: 'live' })).status, 303);
        s = await apiSpace();
        assert.ok(!s.emoji, 'no emoji');
        assert.equal(s.title, 'Guide <v2>');
        assert.equal(s.editMode, 'live');
    });

    it('refusals: an editor sees no form and gets 403; bad fields 400; CSRF 403; another organization 404', async () => {
        const b = await page(bobS, `/s/${space.id}/~/settings`);
        assert.doesNotMatch(b.text, /name="title"/);
        assert.match(b.text, /Only an administrator/);
        const byEditor = await post(bobS, `/s/${space.id}/~/settings`, { title: 'Mine' });
        assert.equal(byEditor.status, 403, byEditor.text.slice(0, 300));
        assert.match(byEditor.text, /role="alert"/);
        for (const fields of [{ title: 'x'.repeat(51) }, { visibility: 'everyone' }, { editMode: 'frozen' }, { emoji: 'e'.repeat(51) }]) {
            const r = await post(aliceS, `/s/${space.id}/~/settings`, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields)}: ${r.status}`);
            assert.match(r.text, new RegExp(`role="alert"><p>${Object.keys(fields)[0]}: `));
        }
        assert.equal((await post(aliceS, `/s/${space.id}/~/settings`, `csrf=${aliceS.csrf}&title=%ff`)).status, 400);
        assert.equal((await post(aliceS, `/s/${space.id}/~/settings`, { title: 'x' }, null)).status, 403);
        await page(eveS, `/s/${space.id}/~/settings`, 404);
        assert.equal((await post(eveS, `/s/${space.id}/~/settings`, { title: 'Eve' })).status, 404);
        assert.equal((await apiSpace()).title, 'Guide <v2>', 'nothing changed');
    });

    it('permissions: an admin grants a member and a team a role and removes it; others refused', async () => {
        const team = await ok(alice.api.orgs.createOrganizationTeam(org.id, { title: 'Docs team' }), 'createOrganizationTeam', 201);
        assert.equal((await post(bobS, `/s/${space.id}/~/permissions`, { principal: `user:${bob.id}`, role: 'admin' })).status, 403);
        const f = await page(aliceS, `/s/${space.id}/~/settings`);
        assert.match(f.text, new RegExp(`<option value="user:${bob.id}">`));
        assert.match(f.text, new RegExp(`<option value="team:${team.id}">Team: Docs team`));
        assert.match(f.text, /No member or team has a role on this space/);
        const g = await post(aliceS, `/s/${space.id}/~/permissions`, { principal: `user:${bob.id}`, role: 'admin' });
        assert.equal(g.status, 303, g.text.slice(0, 300));
        const t = await post(aliceS, `/s/${space.id}/~/permissions`, { principal: `team:${team.id}`, role: 'comment' });
        assert.equal(t.status, 303, t.text.slice(0, 300));
        const users = await raw(ctx.url, 'GET', `/v1/spaces/${space.id}/permissions/users`, { token: alice.token });
        assert.equal(users.status, 200, users.text);
        assert.ok(users.json.items.some((u) => u.user?.id === bob.id && u.permission === 'admin'), users.text);
        // bob, admin of the space now, has the form
        assert.match((await page(bobS, `/s/${space.id}/~/settings`)).text, /name="title"/);
        for (const fields of [{ principal: 'user:', role: 'read' }, { principal: bob.id, role: 'read' }, { principal: `user:${bob.id}`, role: 'guest' }, { principal: `user:${bob.id}` }]) {
            assert.equal((await post(aliceS, `/s/${space.id}/~/permissions`, fields)).status, 400, JSON.stringify(fields));
        }
        const unknown = await post(aliceS, `/s/${space.id}/~/permissions`, { principal: 'user:nobody', role: 'read' });
        assert.equal(unknown.status, 400);
        assert.match(unknown.text, /role="alert"><p>users\[0\]/);
        assert.equal((await post(eveS, `/s/${space.id}/~/permissions`, { principal: `user:${eve.id}`, role: 'admin' })).status, 404);
        assert.equal((await post(eveS, `/s/${space.id}/~/permissions/user/${bob.id}/remove`, {})).status, 404);
        assert.equal((await post(aliceS, `/s/${space.id}/~/permissions/robot/${bob.id}/remove`, {})).status, 404);
        assert.equal((await post(aliceS, `/s/${space.id}/~/permissions/team/${team.id}/remove`, {}, null)).status, 403);
        assert.equal((await post(aliceS, `/s/${space.id}/~/permissions/team/${team.id}/remove`, {})).status, 303);
        assert.equal((await post(aliceS, `/s/${space.id}/~/permissions/user/${bob.id}/remove`, {})).status, 303);
        assert.equal((await post(aliceS, `/s/${space.id}/~/permissions/user/${bob.id}/remove`, {})).status, 404);
        assert.match((await page(aliceS, `/s/${space.id}/~/settings`)).text, /No member or team has a role/);
    });

    it('Git sync: not linked, then a failed import\'s state and error, for readers too', async () => {
        assert.match((await page(bobS, `/s/${space.id}/~/settings`)).text, /not linked to a Git repository/);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/git/import`, {
            token: alice.token, json: { url: `https://nonexistent-${ctx.run}.invalid/repo.git`, ref: 'refs/heads/main' },
        });
        assert.ok([200, 204].includes(r.status), `${r.status} ${r.text}`);
        let text = '';
        for (let i = 0; i < 100; i++) {
            text = (await page(bobS, `/s/${space.id}/~/settings`)).text;
            if (/<strong>failure<\/strong>/.test(text)) break;
            await new Promise((res) => setTimeout(res, 100));
        }
        assert.match(text, /import: <strong>failure<\/strong>/);
        assert.match(text, /<dt>Error<\/dt><dd class="hint hint-danger">[^<]+</);
        assert.ok(text.includes(`nonexistent-${ctx.run}`), 'the repository is named');
    });
});

describe('web interface: a site\'s publishing and share links', () => {
    let ctx, alice, bob, eve, org, site, aliceS, bobS, eveS;

    const page = (...a) => appClient(ctx).page(...a);
    const post = (...a) => appClient(ctx).post(...a);
    const apiSite = async () => {
        const r = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sites/${site.id}`, { token: alice.token });
        assert.equal(r.status, 200, r.text);
        validate('getSiteById', 200, r.json);
        return r.json;
    };

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`);
        await addMember(alice.api, org.id, bob.email, 'edit');
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs <site>' }), 'createSite', 201);
        [aliceS, bobS, eveS] = await signInAll(ctx, [alice, bob, eve]);
    });
    after(() => ctx?.server.stop());

    it('an admin publishes and unpublishes; share links are created and deleted; the API sees it', async () => {
        const base = `/o/${org.id}/sites/${site.id}`;
        assert.match((await page(aliceS, base)).text, new RegExp(`href="${base}/settings"`));
        const before = await page(aliceS, `${base}/settings`);
        assert.match(before.text, /not published/);
        assert.match(before.text, /No share links/);
        const pub = await post(aliceS, `${base}/publish`, {});
        assert.equal(pub.status, 303, pub.text.slice(0, 300));
        assert.equal(pub.headers.location, `${base}/settings`);
        assert.equal((await apiSite()).published, true);
        const sl = await post(aliceS, `${base}/share-links`, { name: 'Partners <x>' });
        assert.equal(sl.status, 303, sl.text.slice(0, 300));
        const list = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/sites/${site.id}/share-links`, { token: alice.token });
        assert.equal(list.status, 200, list.text);
        assert.equal(list.json.items.length, 1);
        const link = list.json.items[0];
        const shown = await page(aliceS, `${base}/settings`);
        assert.match(shown.text, /Partners &lt;x&gt;/);
        assert.match(link.urls.published, /\/~share\/[A-Za-z0-9]+$/);
        assert.ok(shown.text.includes(`<code>${link.urls.published}</code>`), 'the link to share is the API\'s urls.published');
        assert.equal((await post(aliceS, `${base}/share-links`, { name: 'n'.repeat(51) })).status, 400);
        assert.equal((await post(aliceS, `${base}/share-links`, `csrf=${aliceS.csrf}&name=%zz`)).status, 400);
        // others
        assert.doesNotMatch((await page(bobS, `${base}/settings`)).text, /name="name"|Unpublish/);
        assert.equal((await post(bobS, `${base}/unpublish`, {})).status, 403);
        assert.equal((await post(bobS, `${base}/share-links/${link.id}/delete`, {})).status, 403);
        await page(eveS, `${base}/settings`, 404);
        assert.equal((await post(eveS, `${base}/unpublish`, {})).status, 404);
        assert.equal((await post(aliceS, `${base}/unpublish`, {}, null)).status, 403);
        assert.equal((await apiSite()).published, true, 'nothing changed');
        // delete and unpublish
        assert.equal((await post(aliceS, `${base}/share-links/${link.id}/delete`, {})).status, 303);
        assert.equal((await post(aliceS, `${base}/share-links/${link.id}/delete`, {})).status, 404);
        assert.equal((await post(aliceS, `${base}/unpublish`, {})).status, 303);
        assert.equal((await apiSite()).published, false);
    });
});

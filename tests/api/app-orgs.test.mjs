// The web interface's organization settings (src/app/pages_admin_org.c): /o/{id}/settings, linked
// from the organization's page; the form calls updateOrganizationById's domain function
// (dom_org_update) and the organization's merge rules use the space settings' merge-rules code with
// the organization as the target (POST /o/{id}/merge-rules). Everything written through a form is
// read back through the API with the official client. Hostile cases: another organization (404
// page, nothing changed), a member who is not an admin (values without a form; POSTs refused with
// 403 on the page), a missing or wrong CSRF token (403, nothing changed), malformed and out-of-bound
// fields (400 naming the field, the domain's message for a bad hostname / logo / site / domain).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, empty, createOrg, addMember, validate } from './lib/api.mjs';
import { signInAll, appClient } from './lib/app.mjs';

describe('web interface: an organization\'s settings', () => {
    let ctx, alice, bob, eve, gus, org, eveOrg, site, aliceS, bobS, eveS, gusS, app;
    const get = async () => ok(alice.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
    const alert = (r, re) => assert.match(r.text, new RegExp(`role="alert"><p>${re}`), r.text.slice(0, 600));

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        gus = await ctx.user('gus');
        ({ org } = await createOrg(ctx.url, alice.token, `Org ${ctx.run}`));
        ({ org: eveOrg } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'edit');
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Docs <site>' }), 'createSite', 201);
        // gus: a guest of the organization (a grant on one space only)
        const shared = await ok(alice.api.orgs.createSpace(org.id, { title: 'Shared' }), 'createSpace', 201);
        await empty(alice.api.spaces.inviteToSpace(shared.id, { role: 'read', users: [gus.id] }), 204, 'inviteToSpace');
        [aliceS, bobS, eveS, gusS] = await signInAll(ctx, [alice, bob, eve, gus]);
        app = appClient(ctx);
    });
    after(() => ctx?.server.stop());

    it('an admin saves every field through the form; the API reads them back', async () => {
        const home = (await app.page(aliceS, `/o/${org.id}`)).text;
        assert.match(home, new RegExp(`href="/o/${org.id}/settings">Organization settings</a>`));
        let f = (await app.page(aliceS, `/o/${org.id}/settings`)).text;
        assert.match(f, new RegExp(`<form method="post" action="/o/${org.id}/settings">`));
        assert.match(f, /<option value="read" selected>read<\/option>/, 'the default role is read');
        assert.match(f, new RegExp(`<option value="${site.id}">Docs &lt;site&gt;</option>`));
        assert.match(f, /<label for="org-inviteLinks">/);
        // the way to the domain verification page (SAML creates accounts only for verified domains)
        assert.match(f, new RegExp(`<a href="/o/${org.id}/domains">verify the email domains</a>`));
        assert.match(f, /<a href="\/settings\/sso">Sign-in providers<\/a>/, 'the top bar links the sign-in providers page');
        assert.equal((await app.page(aliceS, `/o/${org.id}/domains`)).status, 200);
        assert.equal((await app.page(aliceS, '/settings/sso')).status, 200);
        const title = `Renamed <${ctx.run}>`;
        const r = await app.post(aliceS, `/o/${org.id}/settings`, {
            switches: '1', title, hostname: `h${ctx.run}`.toLowerCase().slice(0, 32), defaultRole: 'guest',
            defaultContent: site.id, logo: 'https://example.com/logo.png',
            emailDomains: `${ctx.domain}\r\ndocs.${ctx.domain}\r\n\r\n`, ai: 'on', inviteLinks: 'on',
        });
        assert.equal(r.status, 303, r.text.slice(0, 600));
        assert.equal(r.headers.location, `/o/${org.id}/settings`);
        let o = await get();
        validate('getOrganizationById', 200, o);
        assert.equal(o.title, title);
        assert.equal(o.hostname, `h${ctx.run}`.toLowerCase().slice(0, 32));
        assert.equal(o.defaultRole, null);
        assert.deepEqual(o.defaultContent, { type: 'site', site: site.id });
        assert.deepEqual([...o.emailDomains].sort(), [ctx.domain, `docs.${ctx.domain}`].sort());
        assert.equal(o.sso, false);
        assert.equal(o.ai, true);
        assert.equal(o.inviteLinks, true);
        f = (await app.page(aliceS, `/o/${org.id}/settings`)).text;
        assert.match(f, /value="Renamed &lt;/);
        assert.match(f, /<option value="guest" selected>/);
        assert.match(f, new RegExp(`<option value="${site.id}" selected>`));
        assert.match(f, /name="ai" value="on" checked>/);
        assert.match(f, /name="sso" value="on">/);
        // unticked switches turn off; empty logo and content remove them; absent fields stay
        assert.equal((await app.post(aliceS, `/o/${org.id}/settings`, { switches: '1', logo: '', defaultContent: '', defaultRole: 'review' })).status, 303);
        o = await get();
        assert.equal(o.ai, false);
        assert.equal(o.inviteLinks, false);
        assert.equal(o.defaultRole, 'review');
        assert.ok(!o.defaultContent, 'no default content');
        assert.equal(o.title, title, 'title unchanged');
        assert.equal(o.emailDomains.length, 2, 'domains unchanged');
        // a post without the switches marker leaves them alone
        await ok(alice.api.orgs.updateOrganizationById(org.id, { ai: true }), 'updateOrganizationById');
        assert.equal((await app.post(aliceS, `/o/${org.id}/settings`, { title })).status, 303);
        assert.equal((await get()).ai, true);
    });

    it('the organization\'s merge rules: the shared form without inherit, kept rules, read back', async () => {
        let f = (await app.page(aliceS, `/o/${org.id}/settings`)).text;
        assert.match(f, new RegExp(`<form method="post" action="/o/${org.id}/merge-rules">`));
        assert.doesNotMatch(f, /id="mr-type-inherit"/, 'an organization inherits nothing');
        assert.match(f, /id="mr-type-none" value="none" checked>/);
        const idx = f.match(new RegExp(`name="allow_bypass\\.(\\d+)" value="${bob.id}"`))?.[1];
        assert.ok(idx !== undefined, 'bob is offered');
        let r = await app.post(aliceS, `/o/${org.id}/merge-rules`, {
            type: 'rules', require_change_request_subject: 'on', 'allow_bypass.n': '10', [`allow_bypass.${idx}`]: bob.id,
        });
        assert.equal(r.status, 303, r.text.slice(0, 600));
        assert.equal(r.headers.location, `/o/${org.id}/settings#merge-rules`);
        assert.deepEqual((await get()).mergeRules, {
            type: 'rules', rules: [{ rule: 'require_change_request_subject' }, { rule: 'allow_bypass', users: [bob.id] }],
        });
        // a space that inherits describes them
        const space = await ok(alice.api.orgs.createSpace(org.id, { title: 'S' }), 'createSpace', 201);
        assert.match((await app.page(aliceS, `/s/${space.id}/~/settings`)).text, /The organization's merge rules:<\/p><ul class="list"><li>The change request has a subject/);
        // a custom rule set through the API is kept by the form
        await ok(alice.api.orgs.updateOrganizationById(org.id, { mergeRules: { type: 'rules', rules: [{ rule: 'custom', expression: 'x' }] } }), 'updateOrganizationById');
        assert.equal((await app.post(aliceS, `/o/${org.id}/merge-rules`, { type: 'rules', require_at_least_one_review: 'on' })).status, 303);
        assert.deepEqual((await get()).mergeRules, { type: 'rules', rules: [{ rule: 'require_at_least_one_review' }, { rule: 'custom', expression: 'x' }] });
        r = await app.post(aliceS, `/o/${org.id}/merge-rules`, { type: 'inherit' });
        assert.equal(r.status, 400);
        alert(r, 'mergeRules\\.type: must be &#39;none&#39; or &#39;rules&#39;');
        assert.equal((await app.post(aliceS, `/o/${org.id}/merge-rules`, { type: 'none' })).status, 303);
        assert.deepEqual((await get()).mergeRules, { type: 'none' });
        f = (await app.page(bobS, `/o/${org.id}/settings`)).text;
        assert.match(f, /No merge rules: whoever may merge merges\./, 'a member reads the rules');
    });

    it('refused: bad fields 400 with the domain\'s message, a non-admin 403, CSRF 403, another organization 404', async () => {
        await ok(alice.api.orgs.updateOrganizationById(org.id, { defaultContent: { type: 'site', site: site.id } }), 'updateOrganizationById');
        const before = await get();
        const path = `/o/${org.id}/settings`;
        for (const [fields, re] of [
            [{ title: 'x' }, 'title: must be 2 to 255'],
            [{ title: 'x'.repeat(256) }, 'title: must be 2 to 255'],
            [{ hostname: 'ab' }, 'hostname: must be 3 to 32'],
            [{ hostname: 'Not_Valid' }, 'hostname: only lower-case'],
            [{ logo: 'javascript:alert(1)' }, 'logo: must be an absolute http'],
            [{ logo: `https://e.com/${'x'.repeat(2048)}` }, 'logo: at most 2048'],
            [{ defaultRole: 'owner' }, 'defaultRole: '],
            [{ defaultContent: eveOrg.id }, 'defaultContent: site'],
            [{ emailDomains: 'not a domain' }, 'emailDomains'],
            [{ emailDomains: Array.from({ length: 101 }, (_, i) => `d${i}.example.com`).join('\n') }, 'emailDomains: at most 100'],
            [{ emailDomains: `${'x'.repeat(254)}.com` }, 'emailDomains\\[0\\]: at most 253'],
            [`csrf=${aliceS.csrf}&title=%ff%fe`, 'title: '],
        ]) {
            const r = await app.post(aliceS, path, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields).slice(0, 80)}: ${r.status} ${r.text.slice(0, 300)}`);
            alert(r, re);
            assert.match(r.text, /Save settings/, 'the form is shown again');
        }
        // a hostname another organization uses: the domain's 409 on the form
        const taken = `t${ctx.run}`;
        await ok(eve.api.orgs.updateOrganizationById(eveOrg.id, { hostname: taken }), 'updateOrganizationById');
        const conflict = await app.post(aliceS, path, { hostname: taken });
        assert.equal(conflict.status, 409, conflict.text.slice(0, 300));
        alert(conflict, '[^<]*hostname');
        // bob (an editor) reads the values, no form; his posts are refused on the page
        const b = (await app.page(bobS, path)).text;
        assert.match(b, /Only an administrator of this organization can change its settings/);
        assert.match(b, /<dt>Default content<\/dt><dd>Docs &lt;site&gt;<\/dd>/, 'the site by its title');
        assert.doesNotMatch(b, /name="title"|name="type"|action="[^"]*merge-rules"/);
        for (const [p, fields] of [[path, { title: 'Bob was here' }], [`/o/${org.id}/merge-rules`, { type: 'none' }]]) {
            const r = await app.post(bobS, p, fields);
            assert.equal(r.status, 403, `${p}: ${r.status}`);
            alert(r, '');
        }
        // a guest reads the settings (as getOrganizationById shows them to guests), without names or forms
        const g = (await app.page(gusS, path)).text;
        assert.match(g, /Only an administrator of this organization/);
        assert.match(g, /<h2 id="merge-rules">Merge rules<\/h2>/);
        assert.doesNotMatch(g, /<form method="post"|name="type"/);
        assert.equal((await app.post(gusS, path, { title: 'Guest' })).status, 403);
        // tokens
        assert.equal((await app.post(aliceS, path, { title: 'No token' }, null)).status, 403);
        assert.equal((await app.post(aliceS, `/o/${org.id}/merge-rules`, { type: 'none' }, 'f'.repeat(64))).status, 403);
        // eve: the 404 page for the page and both forms (before the fields are read)
        await app.page(eveS, path, 404);
        for (const [p, fields] of [[path, { title: 'Eve' }], [path, { title: 'x' }], [`/o/${org.id}/merge-rules`, { type: 'bogus' }]]) {
            assert.equal((await app.post(eveS, p, fields)).status, 404, p);
        }
        assert.deepEqual(await get(), before, 'nothing changed');
    });
});

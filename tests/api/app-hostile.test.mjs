// Every form of the web interface against hostile input (issue 25; "bad input gets a clear 4xx,
// never a crash or a 500"). The POST routes are read from the app's own route table
// (src/app/app.c), so a new form is covered the day it is added; their path parameters are
// filled with real ids of a small organization (or an unknown id). For each form: signed out
// (303 to /signin), without the CSRF token (403, except multipart forms, which check their own
// token: 4xx), then with the token and bodies a browser would never send: malformed percent
// escapes and NUL bytes, invalid UTF-8, every common field name 20 KB long, a body past
// --max-body, a multipart body without its boundary. None may answer 5xx or drop the
// connection; the server still answers /healthz at the end (and, under ASan, its log is clean).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';
import { FORM, HTML, signInAll } from './lib/app.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ROUTES = [...readFileSync(join(here, '../../src/app/app.c'), 'utf8').matchAll(/\{\s*"POST",\s*"([^"]+)",\s*\w+,\s*([A-Z_ |]+)\}/g)]
    .map((m) => ({ path: m[1], flags: m[2] }));
const FIELDS = ['title', 'name', 'markdown', 'subject', 'role', 'email', 'emails', 'url', 'ref', 'visibility',
    'configuration', 'instructions', 'spaceId', 'sectionId', 'section', 'path', 'line', 'on', 'page', 'text',
    'body', 'user', 'team', 'language', 'sourceLanguage', 'space', 'into', 'at', 'description', 'basename',
    'hostname', 'emoji', 'editMode', 'mergeRules', 'rule', 'back', 'position', 'direction', 'confirm', 'status'];

describe('web interface: every form against hostile input', () => {
    let ctx, alice, bob, org, space, cr, comment, site, aliceS, ids;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        ({ org } = await createOrg(ctx.url, alice.token, `Hostile ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'edit');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Target' }), 'createSpace', 201);
        cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Hostile' }), 'createChangeRequest', 201);
        const w = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [{ operation: 'insert_page', title: 'A page', document: { markdown: 'Text.\n' } }] },
        });
        assert.equal(w.status, 200, w.text);
        const pages = (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, cr.id), 'listPagesInChangeRequest')).pages;
        const c = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/comments`, {
            token: alice.token, json: { body: { markdown: 'A comment' } },
        });
        assert.equal(c.status, 201, c.text);
        comment = c.json;
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Hostile site' }), 'createSite', 201);
        ids = {
            organizationId: org.id, spaceId: space.id, number: String(cr.number), pageId: pages[0].id,
            commentId: comment.id, siteId: site.id, userId: bob.id, principalId: bob.id, kind: 'user',
        };
        [aliceS] = await signInAll(ctx, [alice]);
    });
    after(() => ctx?.server.stop());

    const fill = (path) => path.replace(/\{(\w+)\*?\}/g, (_, k) => encodeURIComponent(ids[k] ?? 'nosuchthing'));
    const never5xx = (r, what) => {
        assert.ok(r.status >= 200 && r.status < 500, `${what}: ${r.status} ${r.text.slice(0, 300)}`);
        // an empty body carries no type (the listener's rule: the preview of nothing, a redirect)
        if (r.text.length) assert.match(r.headers['content-type'] ?? '', /^text\/html/, what);
    };

    it('the route table was read (every POST form of the app)', () => {
        assert.ok(ROUTES.length >= 60, `found ${ROUTES.length} POST routes`);
    });

    it('signed out: every form sends the visitor to sign in, nothing else', async () => {
        for (const r0 of ROUTES) {
            const path = fill(r0.path);
            const r = await raw(ctx.url, 'POST', path, { body: 'a=b', headers: FORM });
            assert.equal(r.status, 303, `${path}: ${r.status}`);
            assert.match(r.headers.location, /^\/signin\?next=/, path);
        }
    });

    it('without the CSRF token: 403 (a multipart form refuses it itself: 4xx), nothing else', async () => {
        for (const r0 of ROUTES) {
            const path = fill(r0.path);
            const r = await raw(ctx.url, 'POST', path, { body: 'title=x', headers: { ...FORM, Cookie: aliceS.cookie } });
            if (r0.flags.includes('APP_CSRF_SELF')) never5xx(r, path);
            else assert.equal(r.status, 403, `${path}: ${r.status} ${r.text.slice(0, 200)}`);
        }
    });

    it('with the token and bodies no browser sends: 2xx/3xx/4xx, never 5xx', async () => {
        const csrf = `csrf=${aliceS.csrf}`;
        const long = 'x'.repeat(20_000);
        const bodies = [
            `${csrf}&title=%zz&name=%&markdown=%00%00&email=a%00b&line=-1&on=%2e%2e%2f`,
            `${csrf}&${FIELDS.map((f) => `${f}=%ff%fe%c0%af`).join('&')}`,
            `${csrf}&${FIELDS.map((f) => `${f}=${long}`).join('&')}`,
            `${csrf}&${FIELDS.map((f) => `${f}=`).join('&')}&${FIELDS.map((f) => `${f}=second`).join('&')}`,
            `${csrf}&configuration=${encodeURIComponent('{"a":'.repeat(5000))}&mergeRules=${encodeURIComponent('[[[[')}&line=99999999999999999999`,
        ];
        for (const r0 of ROUTES) {
            const path = fill(r0.path);
            for (const body of bodies) {
                const r = await raw(ctx.url, 'POST', path, { body, headers: { ...FORM, Cookie: aliceS.cookie } });
                never5xx(r, `${path} (${body.slice(0, 40)}...)`);
            }
            // multipart without a boundary, and a body past --max-body
            const mp = await raw(ctx.url, 'POST', path, {
                body: `--x\r\nContent-Disposition: form-data; name="csrf"\r\n\r\n${aliceS.csrf}\r\n`,
                headers: { ...HTML, 'Content-Type': 'multipart/form-data', Cookie: aliceS.cookie },
            });
            never5xx(mp, `${path} (multipart, no boundary)`);
        }
        const big = await raw(ctx.url, 'POST', fill('/s/{spaceId}/~/settings'), {
            body: `${csrf}&title=${'y'.repeat(12 * 1024 * 1024)}`, headers: { ...FORM, Cookie: aliceS.cookie },
        });
        assert.equal(big.status, 413, `a body past --max-body: ${big.status}`);
        assert.match(big.text, /larger than this server accepts/);
        const health = await raw(ctx.url, 'GET', '/healthz');
        assert.equal(health.status, 200);
    });
});

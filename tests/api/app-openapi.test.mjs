// The web interface's OpenAPI specifications (issue 25, src/app/pages_openapi.c):
// /o/{org}/openapi lists an organization's specs and adds one by pasted text, by URL (fetched by
// the domain's job through util/fetch; this test's own server on 127.0.0.1, so the server runs
// with --allow-private-network) or by an uploaded file (multipart, its own CSRF part);
// /o/{org}/openapi/{slug} shows the versions, the errors of a failed run, refreshes itself while a
// run is pending, and lets an editor replace the source, change the visibility and delete.
// Every result is read back through the official client. Hostile: another organization's slug
// (404 page, nothing changed), a missing or wrong CSRF token (403, nothing created), a reader (no
// forms, a POST refused with 403 and nothing changed), a guest (404 pages), a bad slug, both
// sources, a taken slug, a NUL byte in an upload (4xx with the message), a paste larger than
// --max-body (413 shown).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { raw, ok, expectError, createOrg, addMember, sleep } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

const PETSTORE = `openapi: 3.0.3
info: { title: Petstore, version: 1.0.0 }
paths:
  /pets:
    get:
      summary: List all pets
      responses: { '200': { description: A page of pets } }
`;
const PETSTORE2 = PETSTORE.replace('List all pets', 'List every pet');

describe('web interface: OpenAPI specifications', () => {
    let ctx, alice, bob, eve, aliceS, bobS, org, other, files, filesUrl;
    const slow = new Set();

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r.text;
    };
    const post = (who, path, fields, csrf = who.csrf) => raw(ctx.url, 'POST', path, {
        body: new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
    });
    /** A multipart/form-data POST: fields are strings, files {filename, type, data}. */
    const upload = (who, path, fields) => {
        const b = `----docsd${Math.random().toString(16).slice(2)}`;
        const parts = Object.entries(fields).map(([k, v]) => {
            const head = typeof v === 'string'
                ? `Content-Disposition: form-data; name="${k}"\r\n\r\n`
                : `Content-Disposition: form-data; name="${k}"; filename="${v.filename}"\r\nContent-Type: ${v.type}\r\n\r\n`;
            return Buffer.concat([Buffer.from(`--${b}\r\n${head}`), Buffer.from(typeof v === 'string' ? v : v.data), Buffer.from('\r\n')]);
        });
        const body = Buffer.concat([...parts, Buffer.from(`--${b}--\r\n`)]);
        return raw(ctx.url, 'POST', path, { body, headers: { ...HTML, 'Content-Type': `multipart/form-data; boundary=${b}`, Cookie: who.cookie } });
    };
    const base = () => `/o/${org.id}/openapi`;
    const spec = (slug, as = alice.api, orgId = org.id) => as.orgs.getOpenApiSpecBySlug(orgId, slug);
    const versions = async (slug) => (await ok(alice.api.orgs.listOpenApiSpecVersions(org.id, slug), 'listOpenAPISpecVersions')).items;
    const missing = (slug, orgId = org.id, as = alice.api) => expectError(spec(slug, as, orgId), 404, `spec ${slug}`);
    /** Polls the API until the spec's run after `before` is complete. */
    async function processed(slug, before) {
        const deadline = Date.now() + 20_000;
        for (;;) {
            const s = await ok(spec(slug), 'getOpenAPISpecBySlug');
            if (s.processingState === 'complete' && s.lastProcessedAt && s.lastProcessedAt !== before) return s;
            if (Date.now() > deadline) assert.fail(`spec ${slug} was not processed in time: ${JSON.stringify(s)}`);
            await sleep(100);
        }
    }
    const created = (r, slug) => {
        assert.equal(r.status, 303, `create ${slug}: ${r.status}: ${r.text.slice(0, 400)}`);
        assert.equal(r.headers.location, `${base()}/${slug}`);
    };
    const refused = (r, status, message) => {
        assert.equal(r.status, status, `${r.status}: ${r.text.slice(0, 400)}`);
        assert.match(r.headers['content-type'], /^text\/html/);
        assert.match(r.text, message);
    };

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        for (const u of [alice, bob]) await setPassword(ctx.server, u.email, PASSWORD);
        ({ org } = await createOrg(ctx.url, alice.token, `OpenAPI app ${ctx.run}`));
        ({ org: other } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        await ok(eve.api.orgs.createOpenApiSpec(other.id, { slug: 'theirs', source: { text: PETSTORE } }), 'createOpenAPISpec', 201);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        files = createServer((req, res) => {
            // Answered after 0.8 s: the spec stays pending that long.
            const t = setTimeout(() => {
                slow.delete(t);
                res.writeHead(200, { 'Content-Type': 'application/yaml' });
                res.end(PETSTORE);
            }, 800);
            slow.add(t);
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesUrl = `http://127.0.0.1:${files.address().port}`;
    });
    after(async () => {
        for (const t of slow) clearTimeout(t);
        if (files) {
            files.closeAllConnections?.();
            await new Promise((r) => files.close(r));
        }
        await ctx?.server.stop();
    });

    it('the organization page links the list; signed out is sent to /signin', async () => {
        const o = await page(aliceS, `/o/${org.id}`);
        assert.ok(o.includes(`href="${base()}"`), 'link to the specs');
        assert.ok(o.includes(`href="/o/${org.id}/integrations"`), 'link to the integrations');
        const r = await raw(ctx.url, 'GET', base(), { headers: HTML });
        assert.equal(r.status, 303);
        assert.match(r.headers.location, /^\/signin\?next=/);
        const empty = await page(aliceS, base());
        assert.match(empty, /No OpenAPI specification yet/);
        assert.match(empty, /<textarea id="text-n" name="text"/);
        assert.match(empty, /enctype="multipart\/form-data"/);
    });

    it('a pasted spec is added, processed into a version the page shows; the list shows it', async () => {
        created(await post(aliceS, base(), { slug: 'petstore', text: PETSTORE }), 'petstore');
        const s = await processed('petstore');
        assert.equal(s.lastProcessErrorCode, undefined);
        const vs = await versions('petstore');
        assert.equal(vs.length, 1);
        const html = await page(aliceS, `${base()}/petstore`);
        assert.ok(html.includes(vs[0].id), 'the version id is shown');
        assert.match(html, /badge st-open">processed/);
        assert.match(html, /a pasted or uploaded text/);
        assert.doesNotMatch(html, /http-equiv="refresh"/, 'a processed spec does not refresh');
        assert.match(html, /action="[^"]*\/petstore\/visibility"/);
        const list = await page(aliceS, base());
        assert.ok(list.includes(`href="${base()}/petstore"`));
        assert.ok(list.includes(`<code>${s.lastVersion}</code>`), 'the current version is listed');
        assert.match(list, /private/);
    });

    it('a URL source is fetched by the job: the page refreshes itself while it is pending', async () => {
        created(await post(aliceS, base(), { slug: 'remote', url: `${filesUrl}/remote.yaml` }), 'remote');
        const busy = await page(aliceS, `${base()}/remote`);
        assert.match(busy, /<meta http-equiv="refresh" content="2">/);
        assert.match(busy, /processing/);
        assert.ok(busy.includes(`${filesUrl}/remote.yaml`), 'the source URL is shown');
        // A refused form's answer (its URL is the form's) does not reload itself.
        const bad = await post(aliceS, `${base()}/remote/visibility`, { visibility: 'secret' });
        refused(bad, 400, /visibility/);
        assert.doesNotMatch(bad.text, /http-equiv="refresh"/);
        const s = await processed('remote');
        assert.equal(s.sourceURL, `${filesUrl}/remote.yaml`);
        const done = await page(aliceS, `${base()}/remote`);
        assert.doesNotMatch(done, /http-equiv="refresh"/);
        assert.ok(done.includes((await versions('remote'))[0].id));
    });

    it('a spec that does not parse shows the errors of its run', async () => {
        created(await post(aliceS, base(), { slug: 'broken', text: 'just <some> text\n' }), 'broken');
        const s = await processed('broken');
        assert.equal(s.lastProcessErrorCode, 'PARSE_ERROR');
        assert.ok(s.lastProcessedErrors?.length > 0);
        const html = await page(aliceS, `${base()}/broken`);
        assert.match(html, /badge st-archived">failed/);
        assert.match(html, /The last run failed \(PARSE_ERROR\)/);
        const msg = s.lastProcessedErrors[0].message.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
        assert.ok(html.includes(msg), `the error message is shown: ${msg}`);
        assert.match(html, /No version/);
        assert.match(await page(aliceS, base()), /PARSE_ERROR/);
    });

    it('an uploaded file is added (multipart, its CSRF part checked first)', async () => {
        const file = { filename: 'api.yaml', type: 'application/yaml', data: PETSTORE };
        let r = await upload(aliceS, base(), { slug: 'uploaded', file });
        refused(r, 403, /out of date/);
        await missing('uploaded');
        r = await upload(aliceS, base(), { csrf: 'f'.repeat(64), slug: 'uploaded', file });
        refused(r, 403, /out of date/);
        r = await upload(aliceS, base(), { csrf: aliceS.csrf, slug: 'uploaded', file: { ...file, data: Buffer.from('openapi: 3.0.0\0') } });
        refused(r, 400, /file: must be UTF-8 text without NUL bytes/);
        await missing('uploaded');
        created(await upload(aliceS, base(), { csrf: aliceS.csrf, slug: 'uploaded', file }), 'uploaded');
        await processed('uploaded');
        assert.equal((await versions('uploaded')).length, 1);
    });

    it('refusals are shown on the form and change nothing: bad slug, both sources, none, a taken slug, no token', async () => {
        let r = await post(aliceS, base(), { slug: 'Bad Slug', text: PETSTORE });
        refused(r, 400, /slug: must match/);
        assert.match(r.text, /value="Bad Slug"/, 'the form keeps what was sent');
        await missing('Bad Slug');
        r = await post(aliceS, base(), { slug: 'both', text: PETSTORE, url: 'https://example.com/a.yaml' });
        refused(r, 400, /source/);
        await missing('both');
        r = await post(aliceS, base(), { slug: 'none' });
        refused(r, 400, /source/);
        await missing('none');
        r = await post(aliceS, base(), { slug: 'petstore', text: PETSTORE2 });
        refused(r, 409, /already/);
        assert.equal((await versions('petstore')).length, 1);
        r = await post(aliceS, base(), { slug: 'nocsrf', text: PETSTORE }, null);
        refused(r, 403, /out of date/);
        r = await post(aliceS, base(), { slug: 'nocsrf', text: PETSTORE }, 'x'.repeat(64));
        refused(r, 403, /out of date/);
        await missing('nocsrf');
        r = await post(aliceS, base(), 'slug=x&text=%ZZ');
        assert.ok(r.status === 403 || r.status === 400, `malformed: ${r.status}`);
    });

    it('a paste larger than the server takes is a 413 on the form, nothing created', async () => {
        const big = 'x'.repeat(9 * 1024 * 1024);
        const r = await post(aliceS, base(), { slug: 'huge', text: `openapi: 3.0.0\n#${big}` });
        refused(r, 413, /too large/);
        await missing('huge');
    });

    it('visibility: public shows the published URL; a bad value is refused and changes nothing', async () => {
        let r = await post(aliceS, `${base()}/petstore/visibility`, { visibility: 'secret' });
        refused(r, 400, /visibility/);
        assert.equal((await ok(spec('petstore'), 'getOpenAPISpecBySlug')).visibility, 'private');
        r = await post(aliceS, `${base()}/petstore/visibility`, { visibility: 'public' });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        const s = await ok(spec('petstore'), 'getOpenAPISpecBySlug');
        assert.equal(s.visibility, 'public');
        const html = await page(aliceS, `${base()}/petstore`);
        assert.ok(html.includes(`href="${s.urls.published}"`), `the published URL ${s.urls.published}`);
        const pub = await raw(ctx.url, 'GET', new URL(s.urls.published).pathname);
        assert.equal(pub.status, 200);
        r = await post(aliceS, `${base()}/petstore/visibility`, { visibility: 'private' });
        assert.equal(r.status, 303);
        assert.equal((await ok(spec('petstore'), 'getOpenAPISpecBySlug')).visibility, 'private');
    });

    it('replacing the source (pasted, then uploaded) processes new versions', async () => {
        const before = await ok(spec('petstore'), 'getOpenAPISpecBySlug');
        const r = await post(aliceS, `${base()}/petstore/source`, { text: PETSTORE2 });
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, `${base()}/petstore`);
        await processed('petstore', before.lastProcessedAt);
        const vs = await versions('petstore');
        assert.equal(vs.length, 2);
        let html = await page(aliceS, `${base()}/petstore`);
        for (const v of vs) assert.ok(html.includes(v.id));
        // The replace form's upload: a third version.
        const s2 = await ok(spec('petstore'), 'getOpenAPISpecBySlug');
        const up = await upload(aliceS, `${base()}/petstore/source`, { csrf: aliceS.csrf, file: { filename: 'api.yaml', type: 'application/yaml', data: PETSTORE } });
        assert.equal(up.status, 303, up.text.slice(0, 300));
        await processed('petstore', s2.lastProcessedAt);
        assert.equal((await versions('petstore')).length, 3);
        html = await page(aliceS, `${base()}/petstore`);
        assert.equal([...html.matchAll(/<span class="kind">latest<\/span>/g)].length, 1);
        // No source replaces a spec that is not there (PUT would create it).
        const none = await post(aliceS, `${base()}/nothing-here/source`, { text: PETSTORE });
        assert.equal(none.status, 404);
        await missing('nothing-here');
    });

    it("the specs and a spec's versions are paged: ?limit=1 walks them all by the next links", async () => {
        /** The pages from `first` on, following each rel="next" link. */
        const walkPages = async (first) => {
            const texts = [];
            for (let path = first; path;) {
                const html = await page(aliceS, path);
                texts.push(html);
                const m = html.match(/<a rel="next" href="([^"]+)"/);
                path = m ? m[1].replaceAll('&amp;', '&') : null;
                assert.ok(texts.length <= 20, 'the next links end');
            }
            return texts;
        };
        const all = (await ok(alice.api.orgs.listOpenApiSpecs(org.id), 'listOpenAPISpecs')).items.map((s) => s.slug);
        assert.ok(all.length >= 3, `specs: ${all}`);
        const listed = (await walkPages(`${base()}?limit=1`)).map((html) => {
            const slugs = new Set([...html.matchAll(new RegExp(`href="${base()}/([a-z0-9-]+)"`, 'g'))].map((m) => m[1]));
            assert.equal(slugs.size, 1, `one spec a page: ${[...slugs]}`);
            return [...slugs][0];
        });
        assert.deepEqual(listed, all, "every spec once, in the API's order");

        const vs = (await versions('petstore')).map((v) => v.id);
        assert.equal(vs.length, 3);
        const shown = (await walkPages(`${base()}/petstore?limit=1`)).map((html) => {
            const here = vs.filter((id) => html.includes(id));
            assert.equal(here.length, 1, `one version a page: ${here}`);
            return here[0];
        });
        assert.deepEqual(shown, vs, 'every version once, newest first');
        await page(aliceS, `${base()}?limit=0`, 400);
        await page(aliceS, `${base()}/petstore?page=not-a-cursor`, 400);
    });

    it('a reader sees the specs without forms; her POSTs are refused and change nothing', async () => {
        const list = await page(bobS, base());
        assert.ok(list.includes(`href="${base()}/petstore"`));
        assert.doesNotMatch(list, /<form[^>]*method="post"[^>]*action="[^"]*openapi/);
        const one = await page(bobS, `${base()}/petstore`);
        assert.doesNotMatch(one, /<form[^>]*method="post"[^>]*action="[^"]*openapi/);
        let r = await post(bobS, base(), { slug: 'bobs', text: PETSTORE });
        refused(r, 403, /create/);
        await missing('bobs');
        r = await post(bobS, `${base()}/petstore/delete`, {});
        assert.equal(r.status, 403, r.text.slice(0, 300));
        r = await post(bobS, `${base()}/petstore/visibility`, { visibility: 'public' });
        assert.equal(r.status, 403);
        r = await upload(bobS, `${base()}/petstore/source`, { csrf: bobS.csrf, file: { filename: 'a.yaml', type: 'application/yaml', data: PETSTORE } });
        assert.equal(r.status, 403);
        const s = await ok(spec('petstore'), 'getOpenAPISpecBySlug');
        assert.equal(s.visibility, 'private');
        assert.equal((await versions('petstore')).length, 3);
    });

    it('a guest of the organization (no role) sees neither the link nor the specs', async () => {
        const gina = await ctx.user('gina');
        await addMember(alice.api, org.id, gina.email, null);
        await setPassword(ctx.server, gina.email, PASSWORD);
        const ginaS = await signIn(ctx.url, gina.email, PASSWORD);
        assert.ok(!(await page(ginaS, `/o/${org.id}`)).includes(`href="${base()}"`));
        await page(ginaS, base(), 404);
        await page(ginaS, `${base()}/petstore`, 404);
        const r = await post(ginaS, base(), { slug: 'ginas', text: PETSTORE });
        assert.equal(r.status, 404);
        await missing('ginas');
    });

    it("another organization's specs are the 404 page, and its forms change nothing", async () => {
        await page(aliceS, `/o/${other.id}/openapi`, 404);
        await page(aliceS, `/o/${other.id}/openapi/theirs`, 404);
        await page(aliceS, `${base()}/theirs`, 404);
        for (const [path, fields] of [
            [`/o/${other.id}/openapi/theirs/delete`, {}],
            [`/o/${other.id}/openapi/theirs/visibility`, { visibility: 'public' }],
            [`/o/${other.id}/openapi/theirs/source`, { text: PETSTORE2 }],
            [`/o/${other.id}/openapi`, { slug: 'intruder', text: PETSTORE }],
        ]) {
            const r = await post(aliceS, path, fields);
            assert.equal(r.status, 404, `${path}: ${r.status}`);
            assert.match(r.text, /Not found/);
        }
        const s = await ok(spec('theirs', eve.api, other.id), 'getOpenAPISpecBySlug');
        assert.equal(s.visibility, 'private');
        await missing('intruder', other.id, eve.api);
        const r = await post(aliceS, `${base()}/theirs/delete`, {});
        assert.equal(r.status, 404);
    });

    it('delete: the spec and its versions are gone; a second delete is the 404 page', async () => {
        let r = await post(aliceS, `${base()}/broken/delete`, {}, null);
        refused(r, 403, /out of date/);
        await ok(spec('broken'), 'getOpenAPISpecBySlug');
        r = await post(aliceS, `${base()}/broken/delete`, {});
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, base());
        await missing('broken');
        r = await post(aliceS, `${base()}/broken/delete`, {});
        assert.equal(r.status, 404);
        assert.doesNotMatch(await page(aliceS, base()), /openapi\/broken"/);
    });
});

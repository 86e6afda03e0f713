// Computed pages backed by an OpenAPI spec: insert_page with `type: "computed"` and GitBook's
// ComputedContentSourceRevisionOpenAPI ({type: "builtin:openapi", dependencies.spec.ref, props})
// in updateChangeRequestContent; the page reads back as RevisionPageComputed (content reads,
// change request changes), its generated markdown through getPageById (unless computed=false);
// the 400s of a bad source; and the published site (site/) shows the spec's operations as an
// API reference that follows the spec's latest version.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, expectError, sleep } from './lib/api.mjs';

const SPEC = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.2.3
  description: The pet store's API.
servers:
  - url: https://petstore.example.com/v1
tags:
  - name: pets
    description: Everything about pets
paths:
  /pets:
    get:
      summary: List all pets
      tags: [pets]
      parameters:
        - { name: limit, in: query, description: How many to return, schema: { type: integer, format: int32 } }
      responses:
        '200':
          description: A page of pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
    post:
      summary: Create a pet
      tags: [pets]
      requestBody:
        required: true
        content:
          application/json:
            schema: { $ref: '#/components/schemas/Pet' }
      responses:
        '201': { description: Created }
  /store/inventory:
    get:
      summary: Returns pet inventories
      tags: [store]
      responses:
        '200': { description: The inventory <b>map</b> }
components:
  schemas:
    Pet:
      type: object
      required: [name]
      properties:
        id: { type: integer, format: int64 }
        name: { type: string, description: The pet's name }
`;

const source = (spec, models = false) => ({
    type: 'builtin:openapi',
    dependencies: { spec: { ref: { kind: 'openapi', spec } } },
    props: { models },
});

describe('computed OpenAPI pages', () => {
    let ctx, alice, api, org, space, site, base, apiPage;

    const get = (path, headers = {}) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path, { headers });
    async function processed(slug, before) {
        const deadline = Date.now() + 20_000;
        for (;;) {
            const s = await ok(api.orgs.getOpenApiSpecBySlug(org.id, slug), 'getOpenAPISpecBySlug');
            if (s.processingState === 'complete' && s.lastProcessedAt !== before) return s;
            if (Date.now() > deadline) assert.fail(`spec ${slug} not processed: ${JSON.stringify(s)}`);
            await sleep(100);
        }
    }
    async function batch(spaceId, changes, status = 200) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        assert.equal(r.status, status, r.text);
        return { cr, r };
    }

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `API pages ${ctx.run}`));
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'petstore', source: { text: SPEC } }), 'createOpenAPISpec', 201);
        await processed('petstore');
        space = await ok(api.orgs.createSpace(org.id, { title: 'Developers' }), 'createSpace', 201);
    });
    after(() => ctx?.server.stop());

    it('insert_page with a computed source; it reads back as RevisionPageComputed', async () => {
        const { cr } = await batch(space.id, [
            { operation: 'insert_page', title: 'Overview', document: { markdown: 'Read the [API reference](api).\n' } },
            { operation: 'insert_page', title: 'API reference', ref: 'api', type: 'computed', computed: source('petstore', true) },
        ]);
        const changes = await ok(api.spaces.getChangeRequestChanges(space.id, cr.id), 'getChangeRequestChanges');
        assert.ok(changes.changes.some((c) => c.type === 'page_created' && c.page.type === 'computed'));
        const m = await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
        const pages = (await ok(api.spaces.listPages(space.id), 'listPages')).pages;
        apiPage = pages.find((p) => p.title === 'API reference');
        assert.equal(apiPage.type, 'computed');
        assert.deepEqual(apiPage.computed, source('petstore', true));
        assert.equal(apiPage.slug, 'api-reference');
        const rev = await ok(api.spaces.getCurrentRevision(space.id), 'getCurrentRevision');
        assert.ok(rev.pages.some((p) => p.type === 'computed'));

        // the page alone carries its computed markdown (GitBook computes it by default)
        const md = await ok(api.spaces.getPageById(space.id, apiPage.id, { format: 'markdown' }), 'getPageById');
        assert.equal(md.type, 'computed');
        assert.match(md.markdown, /## pets/);
        assert.match(md.markdown, /### List all pets/);
        assert.match(md.markdown, /`POST \/pets`/);
        assert.match(md.markdown, /## Models/);
        const doc = await ok(api.spaces.getPageById(space.id, apiPage.id, { format: 'document' }), 'getPageById');
        assert.equal(doc.document.object, 'document');
        const plain = await ok(api.spaces.getPageById(space.id, apiPage.id, { computed: false }), 'getPageById');
        assert.equal(plain.markdown, undefined, 'computed=false: not computed');
        // by path (whose schema has documents and groups only): the document it computes to
        const byPath = await ok(api.spaces.getPageByPath(space.id, 'api-reference'), 'getPageByPath');
        assert.equal(byPath.id, apiPage.id);
        assert.equal(byPath.type, 'document');
        assert.match(byPath.markdown, /### List all pets/);
    });

    it('bad computed sources are 400s naming the field; nothing is written', async () => {
        const bad = [
            [{ operation: 'insert_page', title: 'X', type: 'computed', computed: source('nope') }, /computed\.dependencies\.spec\.ref\.spec/],
            [{ operation: 'insert_page', title: 'X', type: 'computed', computed: { type: 'builtin:translation', props: {}, dependencies: {} } }, /changes\[0\]\.computed\.type/],
            [{ operation: 'insert_page', title: 'X', type: 'computed' }, /changes\[0\]\.computed/],
            [{ operation: 'insert_page', title: 'X', type: 'computed', computed: source('petstore'), document: { markdown: 'x' } }, /changes\[0\]\.document/],
            [{ operation: 'insert_page', title: 'X', computed: source('petstore'), document: { markdown: 'x' } }, /changes\[0\]\.computed/],
            [{ operation: 'insert_page', title: 'X', type: 'sheet', document: { markdown: 'x' } }, /changes\[0\]\.type/],
            [{ operation: 'insert_page', title: 'X', into: apiPage.id, document: { markdown: 'x' } }, /changes\[0\]\.into/],
            [{ operation: 'update_page', page: apiPage.id, document: { markdown: 'x' } }, /changes\[0\]\.document/],
        ];
        for (const [change, re] of bad) {
            const { r } = await batch(space.id, [change], 400);
            assert.match(r.json.error.message, re, JSON.stringify(change));
        }
        // update_page may change the source of a computed page (models off here)
        const { cr } = await batch(space.id, [{ operation: 'update_page', page: apiPage.id, computed: source('petstore', false) }]);
        await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        const p = await ok(api.spaces.getPageById(space.id, apiPage.id), 'getPageById');
        assert.equal(p.computed.props.models, false);
        assert.doesNotMatch(p.markdown, /## Models/);
    });

    it('the published site shows the API reference from the latest version', async () => {
        site = await ok(api.orgs.createSite(org.id, { title: `Dev portal ${ctx.run}` }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, site.id, { basename: `dev-${ctx.run}` }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        base = `/sites/dev-${ctx.run}`;
        const r = await get(`${base}/api-reference`);
        assert.equal(r.status, 200, r.text.slice(0, 300));
        const t = r.text;
        assert.match(t, /<h1[^>]*>API reference<\/h1>/);
        assert.match(t, /The pet store(&#39;|')s API\./);
        assert.match(t, /<h2 id="pets">pets<\/h2>/);
        assert.match(t, /Everything about pets/);
        assert.match(t, /<h3 id="list-all-pets">List all pets<\/h3>/);
        assert.match(t, /<code>GET \/pets<\/code>/);
        assert.match(t, /<code>POST \/pets<\/code>/);
        assert.match(t, /<h2 id="store">store<\/h2>/);
        assert.match(t, /<code>GET \/store\/inventory<\/code>/);
        // the parameters table and the request body's properties
        assert.match(t, /<td><code>limit<\/code><\/td>\s*<td>query<\/td>\s*<td>integer \(int32\)<\/td>\s*<td>no<\/td>\s*<td>How many to return<\/td>/);
        assert.match(t, /<td><code>name<\/code><\/td>\s*<td>string<\/td>\s*<td>yes<\/td>\s*<td>The pet(&#39;|')s name<\/td>/);
        assert.match(t, /array of Pet/);
        // raw HTML of the spec goes through the site's HTML allowlist (format/html_allow.c): <b> stays
        assert.match(t, /The inventory <b>map<\/b>/);
        // the navigation lists it, the other page links to it
        assert.match(t, new RegExp(`<a href="${base}/api-reference" aria-current="page">API reference</a>`));
        assert.match((await get(base)).text, new RegExp(`<a href="${base}/api-reference">API reference</a>`));
        // its markdown twin
        const twin = await get(`${base}/api-reference.md`);
        assert.equal(twin.status, 200);
        assert.match(twin.text, /### List all pets/);

        // a new version of the spec shows at once (the render cache keys on it)
        const before = await ok(api.orgs.getOpenApiSpecBySlug(org.id, 'petstore'), 'getOpenAPISpecBySlug');
        await ok(api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'petstore', { source: { text: SPEC.replace('List all pets', 'List every pet') } }),
            'createOrUpdateOpenAPISpecBySlug');
        await processed('petstore', before.lastProcessedAt);
        const r2 = await get(`${base}/api-reference`);
        assert.notEqual(r2.headers.etag, r.headers.etag);
        assert.match(r2.text, /List every pet/);
        assert.doesNotMatch(r2.text, /List all pets/);
    });

    it('a spec that is gone or not processed yet shows a note, not an error', async () => {
        await ok(api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'later', { source: { url: 'http://127.0.0.1:1/never.yaml' } }),
            'createOrUpdateOpenAPISpecBySlug');
        const { cr } = await batch(space.id, [{ operation: 'insert_page', title: 'Later API', type: 'computed', computed: source('later') }]);
        await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        const r = await get(`${base}/later-api`);
        assert.equal(r.status, 200);
        assert.match(r.text, /has not been processed yet|does not exist/);
        assert.equal((await raw(ctx.url, 'DELETE', `/v1/orgs/${org.id}/openapi/later`, { token: alice.token })).status, 204);
        const r2 = await get(`${base}/later-api`);
        assert.equal(r2.status, 200);
        assert.match(r2.text, /does not exist/);
        await expectError(api.orgs.getOpenApiSpecBySlug(org.id, 'later'), 404, 'deleted spec');
    });

    // Issue 30, 6a: a tag with no name after a named one made the renderer strcmp a NULL name:
    // SIGSEGV for any anonymous visitor of a published page using the spec (and after every
    // restart, the spec being stored). Now the nameless tag names no section; the page is 200.
    it('a spec whose tag has no name after a named one renders; docsd stays up', async () => {
        const spec = 'openapi: 3.0.3\ninfo: {title: Tags, version: "1"}\ntags:\n  - name: alpha\n    description: First\n' +
            '  - description: A tag without a name\n  - name: 42\n  - {}\n' +
            'paths:\n  /a:\n    get:\n      tags: [alpha]\n      summary: Get a\n      responses: {"200": {description: ok}}\n' +
            '  /b:\n    get:\n      tags: [{name: x}]\n      summary: Get b\n      responses: {"200": {description: ok}}\n';
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'nameless', source: { text: spec } }), 'createOpenAPISpec', 201);
        await processed('nameless');
        const { cr } = await batch(space.id, [
            { operation: 'insert_page', title: 'Nameless API', type: 'computed', computed: source('nameless', true) },
            { operation: 'insert_page', title: 'Nameless op', document: { markdown: '{% openapi src="nameless" path="/a" method="get" %}\n{% endopenapi %}\n' } },
        ]);
        await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        for (const path of [`${base}/nameless-api`, `${base}/nameless-api.md`, `${base}/nameless-op`, `${base}/llms-full.txt`]) {
            const r = await get(path);
            assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
        }
        const page = (await get(`${base}/nameless-api`)).text;
        assert.match(page, /<h2 id="alpha">alpha<\/h2>/);
        assert.match(page, /Get a/);
        assert.match(page, /Get b/, 'an operation whose tag is not a string is listed under Other');
        assert.equal((await get('/healthz')).status, 200, 'docsd is alive');
    });
});

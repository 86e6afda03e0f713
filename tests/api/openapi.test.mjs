// OpenAPI specifications (GitBook's /orgs/{organizationId}/openapi, the seed's eleven
// operations): create, list, get, PUT (creates or updates), PATCH visibility, DELETE, versions
// (list, latest, by id) and their content {filesystem, url}; the 400s (slug pattern and length,
// both source forms, sourceURL length, visibility), 409 on a duplicate slug, 404s; access by
// organization role. Processing is a job (jobs.h): the state after each run is read back,
// pending -> progress -> complete, a version only when the content changed, and the failures
// (an unreachable URL: FETCH_ERROR; a URL that never answers: FETCH_TIMEOUT, with
// DOCSD_TEST_OPENAPI_TIMEOUT_MS lowering the fetch timeout; a file that is not OpenAPI:
// PARSE_ERROR) keep the last good version. A URL source's relative $ref files are fetched from
// this test's own server on 127.0.0.1 (the server runs with --allow-private-network).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { runCli, startServer } from './lib/server.mjs';
import { ok, empty, expectError, raw, createOrg, addMember, checkPagination, sleep, client } from './lib/api.mjs';

process.env.DOCSD_TEST_OPENAPI_TIMEOUT_MS = '1500';

const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
tags:
  - name: pets
    description: Everything about pets
paths:
  /pets:
    get:
      summary: List all pets
      tags: [pets]
      parameters:
        - { name: limit, in: query, schema: { type: integer } }
      responses:
        '200':
          description: A page of pets
          content:
            application/json:
              schema: { type: array, items: { $ref: '#/components/schemas/Pet' } }
components:
  schemas:
    Pet:
      type: object
      properties:
        id: { type: integer }
        name: { type: string }
`;

/** An API spec whose schema lives in two other files (one in a subdirectory, one beside it). */
const WITH_REFS = `openapi: 3.1.0
info: { title: Refs, version: '2' }
paths:
  /pets/{id}:
    get:
      summary: Get a pet
      responses:
        '200':
          description: The pet
          content:
            application/json:
              schema: { $ref: './schemas/pet.yaml' }
`;
const PET_SCHEMA = `type: object
properties:
  name: { $ref: '../../common.yaml#/Name' }
`;
const COMMON = `Name: { type: string, description: The pet's name }\n`;

/** Levels of ten YAML aliases over a string of `width` bytes: 10^levels copies written out. */
const aliasSpec = (levels, width, title = 'Aliases') =>
    `openapi: 3.0.0\ninfo: {title: ${title}, version: '1'}\npaths: {}\nx0: &x0 "${'y'.repeat(width)}"\n` +
    Array.from({ length: levels }, (_, i) => `x${i + 1}: &x${i + 1} [${Array(10).fill(`*x${i}`).join(', ')}]\n`).join('');
// 50 aliases, 2.6 KB of text, 50 MB written out: past the 32 MiB a file may expand to.
const ALIAS_BOMB = aliasSpec(5, 500, 'Bomb');

describe('OpenAPI specs', () => {
    let ctx, alice, api, org, who, files, filesUrl;
    const hanging = new Set();
    const served = new Map([
        ['/specs/api.yaml', WITH_REFS],
        ['/specs/schemas/pet.yaml', PET_SCHEMA],
        ['/common.yaml', COMMON],
        ['/plain.txt', 'just some text\n'],
        ['/petstore.json', JSON.stringify({ swagger: '2.0', info: { title: 'v2', version: '1' }, paths: {} })],
        ['/live.yaml', PETSTORE],
        ['/bomb.yaml', ALIAS_BOMB],
    ]);

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `OpenAPI ${ctx.run}`));
        who = { admin: alice };
        for (const [label, role] of [['create', 'create'], ['review', 'review'], ['edit', 'edit'], ['read', 'read'], ['guest', null]]) {
            who[label] = await ctx.user(label);
            await addMember(api, org.id, who[label].email, role);
        }
        who.outsider = await ctx.user('outsider');
        files = createServer((req, res) => {
            const path = new URL(req.url, 'http://x').pathname;
            if (path === '/hang') {
                hanging.add(res); // never answered: the fetch times out
                return;
            }
            const body = served.get(path);
            if (body === undefined) {
                res.writeHead(404, { 'Content-Type': 'text/plain' });
                res.end('not found');
                return;
            }
            res.writeHead(200, { 'Content-Type': path.endsWith('.json') ? 'application/json' : 'application/yaml' });
            res.end(body);
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesUrl = `http://127.0.0.1:${files.address().port}`;
    });
    after(async () => {
        for (const res of hanging) res.destroy();
        if (files) await new Promise((r) => files.close(r));
        if (ctx) await ctx.server.stop();
    });

    const get = (slug, as = api) => ok(as.orgs.getOpenApiSpecBySlug(org.id, slug), 'getOpenAPISpecBySlug');
    const put = (slug, source, as = api) =>
        ok(as.orgs.createOrUpdateOpenApiSpecBySlug(org.id, slug, { source }), 'createOrUpdateOpenAPISpecBySlug');
    const versions = async (slug) =>
        (await ok(api.orgs.listOpenApiSpecVersions(org.id, slug, { limit: 1000 }), 'listOpenAPISpecVersions')).items;

    /** Polls until the spec's run after `before` (a lastProcessedAt, or none) is complete. */
    async function processed(slug, before) {
        const deadline = Date.now() + 20_000;
        for (;;) {
            const s = await get(slug);
            if (s.processingState === 'complete' && s.lastProcessedAt && s.lastProcessedAt !== before) return s;
            assert.ok(['pending', 'progress', 'complete'].includes(s.processingState), s.processingState);
            if (Date.now() > deadline) assert.fail(`spec ${slug} was not processed in time: ${JSON.stringify(s)}`);
            await sleep(100);
        }
    }

    it('create: 201, pending, then processed into a first version with its content', async () => {
        const s = await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'petstore', source: { text: PETSTORE } }), 'createOpenAPISpec', 201);
        assert.equal(s.object, 'openapi-spec');
        assert.equal(s.slug, 'petstore');
        assert.equal(s.visibility, 'private');
        assert.ok(['pending', 'progress', 'complete'].includes(s.processingState));
        assert.equal(s.sourceURL, undefined, 'a text source has no sourceURL');
        assert.deepEqual(s.permissions, { view: true, edit: true });
        assert.equal(s.urls.location, `${ctx.url}/v1/orgs/${org.id}/openapi/petstore`);
        assert.equal(s.urls.published, undefined, 'only public specs have a published URL');

        const done = await processed('petstore');
        assert.equal(done.lastProcessErrorCode, undefined);
        assert.ok(done.lastVersion);
        const vs = await versions('petstore');
        assert.equal(vs.length, 1);
        assert.equal(vs[0].id, done.lastVersion);
        const latest = await ok(api.orgs.getLatestOpenApiSpecVersion(org.id, 'petstore'), 'getLatestOpenAPISpecVersion');
        assert.deepEqual(latest, vs[0]);
        const byId = await ok(api.orgs.getOpenApiSpecVersionById(org.id, 'petstore', latest.id), 'getOpenAPISpecVersionById');
        assert.deepEqual(byId, latest);
        assert.equal(byId.urls.location, `${ctx.url}/v1/orgs/${org.id}/openapi/petstore/versions/${latest.id}`);

        const content = await ok(api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'petstore'), 'getLatestOpenAPISpecVersionContent');
        assert.equal(content.url, latest.url);
        const entry = content.filesystem['openapi.yaml'];
        assert.equal(entry.isEntrypoint, true);
        assert.equal(entry.specification.info.title, 'Petstore');
        assert.equal(entry.specification.paths['/pets'].get.summary, 'List all pets');
        const again = await ok(api.orgs.getOpenApiSpecVersionContentById(org.id, 'petstore', latest.id), 'getOpenAPISpecVersionContentById');
        assert.deepEqual(again, content);
    });

    it('a second version only when the content changed; PUT creates or updates', async () => {
        const first = await get('petstore');
        // the same text again: processed, no new version
        const same = await put('petstore', { text: PETSTORE });
        assert.equal(same.id, first.id);
        const s1 = await processed('petstore', first.lastProcessedAt);
        assert.equal(s1.lastVersion, first.lastVersion);
        assert.equal((await versions('petstore')).length, 1);
        // changed: a second version, newest first
        await put('petstore', { text: PETSTORE.replace('List all pets', 'List every pet') });
        const s2 = await processed('petstore', s1.lastProcessedAt);
        assert.notEqual(s2.lastVersion, first.lastVersion);
        const vs = await versions('petstore');
        assert.deepEqual(vs.map((v) => v.id), [s2.lastVersion, first.lastVersion]);
        const c = await ok(api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'petstore'), 'getLatestOpenAPISpecVersionContent');
        assert.equal(c.filesystem['openapi.yaml'].specification.paths['/pets'].get.summary, 'List every pet');
        // the older version is still readable
        const old = await ok(api.orgs.getOpenApiSpecVersionContentById(org.id, 'petstore', first.lastVersion), 'getOpenAPISpecVersionContentById');
        assert.equal(old.filesystem['openapi.yaml'].specification.paths['/pets'].get.summary, 'List all pets');
        // PUT of a new slug creates (200, as the seed says)
        const created = await put('from-put', { text: PETSTORE });
        assert.equal(created.slug, 'from-put');
        await processed('from-put');
        // lists page through every spec, oldest first
        const all = await checkPagination((q) => api.orgs.listOpenApiSpecs(org.id, q), 'listOpenAPISpecs');
        assert.deepEqual(all.map((s) => s.slug).slice(0, 2), ['petstore', 'from-put']);
        await checkPagination((q) => api.orgs.listOpenApiSpecVersions(org.id, 'petstore', q), 'listOpenAPISpecVersions');
    });

    it('a URL source: fetched with its relative $ref files into the filesystem', async () => {
        const url = `${filesUrl}/specs/api.yaml`;
        const s = await put('refs', { url });
        assert.equal(s.sourceURL, url);
        const done = await processed('refs');
        assert.equal(done.lastProcessErrorCode, undefined, JSON.stringify(done));
        const c = await ok(api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'refs'), 'getLatestOpenAPISpecVersionContent');
        assert.equal(c.url, url, "a URL source's version is reachable at the URL");
        // keys are paths from the entry file's directory: a file above it starts with ../
        assert.deepEqual(Object.keys(c.filesystem).sort(), ['../common.yaml', 'api.yaml', 'schemas/pet.yaml']);
        assert.equal(c.filesystem['api.yaml'].isEntrypoint, true);
        assert.deepEqual(c.filesystem['api.yaml'].references, ['./schemas/pet.yaml']);
        assert.equal(c.filesystem['schemas/pet.yaml'].dir, 'schemas');
        assert.equal(c.filesystem['schemas/pet.yaml'].isEntrypoint, false);
        assert.deepEqual(c.filesystem['schemas/pet.yaml'].references, ['../../common.yaml']);
        assert.equal(c.filesystem['../common.yaml'].specification.Name.description, "The pet's name");
        // a URL source is fetched again 6 hours after each run: a queued job of the spec
        const jobs = await runCli(['job', 'list', ...ctx.server.storageArgs(), '--kind', 'openapi.process']);
        assert.equal(jobs.code, 0, jobs.stderr);
        const mine = jobs.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((j) => j.subject === s.id);
        const next = mine.filter((j) => j.state === 'queued');
        assert.equal(next.length, 1, JSON.stringify(mine));
        const in6h = Date.parse(done.lastProcessedAt) + 6 * 3600 * 1000;
        assert.ok(Math.abs(next[0].runAfter - in6h) < 5000, `runAfter ${next[0].runAfter} vs ${in6h}`);
        // fetched again with the same files: no new version; a Swagger 2.0 JSON document is taken too
        await put('refs', { url });
        const again = await processed('refs', done.lastProcessedAt);
        assert.equal(again.lastVersion, done.lastVersion);
        await put('refs', { url: `${filesUrl}/petstore.json` });
        const v2 = await processed('refs', again.lastProcessedAt);
        assert.notEqual(v2.lastVersion, done.lastVersion);
        assert.equal((await versions('refs')).length, 2);
    });

    it('failures end complete with lastProcessErrorCode and keep the last good version', async () => {
        const good = await get('petstore');
        // a file that is not OpenAPI
        await put('petstore', { text: 'title: not an API\n' });
        let s = await processed('petstore', good.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'PARSE_ERROR');
        assert.match(s.lastProcessedErrors[0].message, /openapi/);
        assert.equal(s.lastVersion, good.lastVersion, 'the last good version is kept');
        // text that is not YAML or JSON at all
        await put('petstore', { text: 'a: [1, 2\nb: c\n' });
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'PARSE_ERROR');
        // a URL that serves plain text
        await put('petstore', { url: `${filesUrl}/plain.txt` });
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'PARSE_ERROR');
        // an unreachable URL (nothing listens on port 1) and a 404
        await put('petstore', { url: 'http://127.0.0.1:1/api.yaml' });
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'FETCH_ERROR');
        assert.equal(s.lastVersion, good.lastVersion);
        await put('petstore', { url: `${filesUrl}/missing.yaml` });
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'FETCH_ERROR');
        assert.match(s.lastProcessedErrors[0].message, /404/);
        // a URL that never answers: in progress while the fetch waits, then FETCH_TIMEOUT
        await put('petstore', { url: `${filesUrl}/hang` });
        const deadline = Date.now() + 10_000;
        let seen;
        while ((seen = (await get('petstore')).processingState) !== 'progress' && Date.now() < deadline) await sleep(50);
        assert.equal(seen, 'progress');
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, 'FETCH_TIMEOUT');
        assert.equal(s.lastVersion, good.lastVersion);
        assert.equal((await versions('petstore')).length, 2);
        // the version content is the last good one still; a good source clears the error
        await put('petstore', { text: PETSTORE });
        s = await processed('petstore', s.lastProcessedAt);
        assert.equal(s.lastProcessErrorCode, undefined);
        assert.equal(s.lastProcessedErrors, undefined);
    });

    it('YAML aliases are bounded by the bytes they expand to: a bomb is PARSE_ERROR naming the limit, nothing stored', async () => {
        // under the limit: three levels (1,000 copies of 500 bytes) are expanded into the version
        const small = await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'aliases', source: { text: aliasSpec(3, 500) } }),
            'createOpenAPISpec', 201);
        const good = await processed('aliases', small.lastProcessedAt);
        assert.equal(good.lastProcessErrorCode, undefined, JSON.stringify(good.lastProcessedErrors));
        const content = await ok(api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'aliases'), 'getLatestOpenAPISpecVersionContent');
        const spec = content.filesystem['openapi.yaml'].specification;
        assert.equal(spec.x3.length, 10);
        assert.equal(spec.x3[9][9][9], 'y'.repeat(500));
        // the bomb, as text and from a URL (fetched again every 6 hours): refused while parsing
        for (const source of [{ text: ALIAS_BOMB }, { url: `${filesUrl}/bomb.yaml` }]) {
            const before = await get('aliases');
            const t0 = Date.now();
            await put('aliases', source);
            const s = await processed('aliases', before.lastProcessedAt);
            assert.equal(s.lastProcessErrorCode, 'PARSE_ERROR');
            assert.match(s.lastProcessedErrors[0].message,
                /^openapi\.yaml: line \d+, column \d+: the YAML expands to more than 33554432 bytes|^bomb\.yaml: line \d+, column \d+: the YAML expands to more than 33554432 bytes/);
            assert.equal(s.lastVersion, good.lastVersion, 'no version stored, the last good one kept');
            assert.ok(Date.now() - t0 < 10_000, 'refused at once');
        }
        assert.equal((await versions('aliases')).length, 1);
    });

    it('visibility: public specs have a published URL that needs no token', async () => {
        await expectError(api.orgs.updateOpenApiSpecBySlug(org.id, 'petstore', { visibility: 'unlisted' }), 400, 'bad visibility');
        await expectError(raw(ctx.url, 'PATCH', `/v1/orgs/${org.id}/openapi/petstore`, { token: alice.token, json: {} }), 400, 'no visibility');
        const before = await raw(ctx.url, 'GET', `/openapi/${org.id}/petstore`);
        assert.equal(before.status, 404, 'a private spec is not published');
        const s = await ok(api.orgs.updateOpenApiSpecBySlug(org.id, 'petstore', { visibility: 'public' }), 'updateOpenAPISpecBySlug');
        assert.equal(s.visibility, 'public');
        assert.equal(s.urls.published, `${ctx.url}/openapi/${org.id}/petstore`);
        const pub = await raw(ctx.url, 'GET', `/openapi/${org.id}/petstore`);
        assert.equal(pub.status, 200);
        assert.match(pub.headers['content-type'], /^application\/json/);
        assert.equal(pub.headers['x-content-type-options'], 'nosniff');
        assert.equal(pub.json.info.title, 'Petstore');
        // a text source's version URL serves that version's document
        const latest = await ok(api.orgs.getLatestOpenApiSpecVersion(org.id, 'petstore'), 'getLatestOpenAPISpecVersion');
        const v = await raw(ctx.url, 'GET', new URL(latest.url).pathname);
        assert.equal(v.status, 200);
        assert.equal(v.json.openapi, '3.0.3');
        const back = await ok(api.orgs.updateOpenApiSpecBySlug(org.id, 'petstore', { visibility: 'private' }), 'updateOpenAPISpecBySlug');
        assert.equal(back.urls.published, undefined);
        assert.equal((await raw(ctx.url, 'GET', `/openapi/${org.id}/petstore`)).status, 404);
    });

    it('400s: slug pattern and length, source forms, sourceURL length; 409 on a taken slug', async () => {
        const create = (body) => raw(ctx.url, 'POST', `/v1/orgs/${org.id}/openapi`, { token: alice.token, json: body });
        const text = { text: PETSTORE };
        for (const slug of ['Pets', 'a--b', '-a', 'a-', 'a_b', 'a b', '', 'x'.repeat(101)]) {
            const e = await expectError(create({ slug, source: text }), 400, `slug ${JSON.stringify(slug)}`);
            assert.match(e.error.message, /slug/);
        }
        assert.equal((await create({ slug: 'x'.repeat(100), source: text })).status, 201, 'a 100-character slug');
        await expectError(create({ source: text }), 400, 'no slug');
        await expectError(create({ slug: 5, source: text }), 400, 'slug not a string');
        for (const source of [undefined, null, 'text', {}, { url: 'x', text: 'y' }, { url: 5 }, { text: '' }, { text: 7 },
            { url: 'not a url' }, { url: 'ftp://example.com/x.yaml' }, { url: `https://example.com/${'a'.repeat(2030)}` }]) {
            const e = await expectError(create({ slug: 'bad-source', source }), 400, `source ${JSON.stringify(source)?.slice(0, 60)}`);
            assert.match(e.error.message, /source/);
        }
        // a URL of exactly 2048 characters is accepted
        const long = `https://example.com/${'a'.repeat(2048 - 20)}`;
        assert.equal(long.length, 2048);
        assert.equal((await create({ slug: 'long-url', source: { url: long } })).status, 201);
        await expectError(api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'Bad_Slug', { source: text }), 400, 'PUT bad slug');
        await expectError(api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'petstore', { source: {} }), 400, 'PUT no source');
        const dup = await expectError(api.orgs.createOpenApiSpec(org.id, { slug: 'petstore', source: text }), 409, 'duplicate slug');
        assert.match(dup.error.message, /petstore/);
        // the same slug in another organization is fine
        const { org: other } = await createOrg(ctx.url, alice.token, `Other ${ctx.run}`);
        await ok(api.orgs.createOpenApiSpec(other.id, { slug: 'petstore', source: text }), 'createOpenAPISpec', 201);
    });

    it('404s and DELETE (204 also when missing)', async () => {
        await expectError(api.orgs.getOpenApiSpecBySlug(org.id, 'nope'), 404, 'unknown spec');
        await expectError(api.orgs.listOpenApiSpecVersions(org.id, 'nope'), 404, 'versions of an unknown spec');
        await expectError(api.orgs.getOpenApiSpecVersionById(org.id, 'petstore', 'nope'), 404, 'unknown version');
        await expectError(api.orgs.getOpenApiSpecVersionContentById(org.id, 'petstore', 'nope'), 404, 'content of an unknown version');
        await expectError(api.orgs.updateOpenApiSpecBySlug(org.id, 'nope', { visibility: 'public' }), 404, 'PATCH unknown');
        // a version of another spec is not this spec's
        const other = await get('refs');
        await expectError(api.orgs.getOpenApiSpecVersionById(org.id, 'petstore', other.lastVersion), 404, "another spec's version");
        // a spec that has no version yet: latest is 404 (a URL that never answers keeps it from one)
        await put('never', { url: `${filesUrl}/hang` });
        await expectError(api.orgs.getLatestOpenApiSpecVersion(org.id, 'never'), 404, 'no version yet');
        await expectError(api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'never'), 404, 'no content yet');
        // delete: 204, again 204, then 404 everywhere
        await empty(api.orgs.deleteOpenApiSpecBySlug(org.id, 'from-put'), 204, 'delete');
        await empty(api.orgs.deleteOpenApiSpecBySlug(org.id, 'from-put'), 204, 'delete again');
        await empty(api.orgs.deleteOpenApiSpecBySlug(org.id, 'never-existed'), 204, 'delete a spec that never existed');
        await expectError(api.orgs.getOpenApiSpecBySlug(org.id, 'from-put'), 404, 'deleted');
        await expectError(api.orgs.getLatestOpenApiSpecVersion(org.id, 'from-put'), 404, 'versions of a deleted spec');
        // the slug can be used again
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'from-put', source: { text: PETSTORE } }), 'createOpenAPISpec', 201);
        await processed('from-put');
        // an unknown organization
        await expectError(api.orgs.listOpenApiSpecs('nope'), 404, 'unknown organization');
    });

    it('URL sources are fetched again 6 hours later (the server restarted with its clock moved)', async () => {
        await put('live', { url: `${filesUrl}/live.yaml` });
        const first = await processed('live');
        assert.equal((await versions('live')).length, 1);
        served.set('/live.yaml', PETSTORE.replace('List all pets', 'List the pets'));
        const dataDir = ctx.server.dataDir;
        await ctx.server.stop({ keepData: true });
        ctx.server = await startServer({ dataDir, extraArgs: ['--allow-private-network', '--clock-offset-ms', String(6 * 3600 * 1000 + 60_000)] });
        api = client(ctx.server.url, alice.token);
        const again = await processed('live', first.lastProcessedAt);
        assert.equal(again.lastProcessErrorCode, undefined);
        assert.notEqual(again.lastVersion, first.lastVersion);
        assert.equal((await versions('live')).length, 2);
        for (const u of Object.values(who)) u.api = client(ctx.server.url, u.token);
    });

    it('access: members with a role read, the create role writes; guests 403, outsiders 404', async () => {
        const text = { text: PETSTORE };
        for (const role of ['admin', 'create', 'review', 'edit', 'read']) {
            const u = who[role];
            const list = await ok(u.api.orgs.listOpenApiSpecs(org.id), 'listOpenAPISpecs');
            assert.ok(list.items.some((s) => s.slug === 'petstore'), `${role} lists`);
            const s = await get('petstore', u.api);
            const canEdit = role === 'admin' || role === 'create';
            assert.deepEqual(s.permissions, { view: true, edit: canEdit }, `${role}'s permissions`);
            await ok(u.api.orgs.listOpenApiSpecVersions(org.id, 'petstore'), 'listOpenAPISpecVersions');
            await ok(u.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'petstore'), 'getLatestOpenAPISpecVersionContent');
            const slug = `by-${role}`;
            if (canEdit) {
                await ok(u.api.orgs.createOpenApiSpec(org.id, { slug, source: text }), 'createOpenAPISpec', 201);
                await put(slug, text, u.api);
                await ok(u.api.orgs.updateOpenApiSpecBySlug(org.id, slug, { visibility: 'public' }), 'updateOpenAPISpecBySlug');
                await empty(u.api.orgs.deleteOpenApiSpecBySlug(org.id, slug), 204, `${role} deletes`);
            } else {
                await expectError(u.api.orgs.createOpenApiSpec(org.id, { slug, source: text }), 403, `${role} creates`);
                await expectError(u.api.orgs.createOrUpdateOpenApiSpecBySlug(org.id, 'petstore', { source: text }), 403, `${role} PUTs`);
                await expectError(u.api.orgs.updateOpenApiSpecBySlug(org.id, 'petstore', { visibility: 'public' }), 403, `${role} PATCHes`);
                await expectError(u.api.orgs.deleteOpenApiSpecBySlug(org.id, 'petstore'), 403, `${role} deletes`);
            }
        }
        for (const [label, status] of [['guest', 403], ['outsider', 404]]) {
            const u = who[label];
            await expectError(u.api.orgs.listOpenApiSpecs(org.id), status, `${label} lists`);
            await expectError(u.api.orgs.getOpenApiSpecBySlug(org.id, 'petstore'), status, `${label} reads`);
            await expectError(u.api.orgs.getLatestOpenApiSpecVersionContent(org.id, 'petstore'), status, `${label} reads content`);
            await expectError(u.api.orgs.createOpenApiSpec(org.id, { slug: 'x', source: text }), status, `${label} creates`);
            await expectError(u.api.orgs.deleteOpenApiSpecBySlug(org.id, 'petstore'), status, `${label} deletes`);
        }
        // the organization's permissions say the same
        const o = await ok(who.edit.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o.permissions.createOpenAPISpec, false);
        const o2 = await ok(who.create.api.orgs.getOrganizationById(org.id), 'getOrganizationById');
        assert.equal(o2.permissions.createOpenAPISpec, true);
        // the spec is still there
        assert.equal((await get('petstore')).slug, 'petstore');
    });
});

// Translations (issue 14): the seed's five operations plus GitBook's runTranslation, through the
// official client, every answer validated against GitBook's schema. A run is a job: Apertium
// (Debian's apertium + apertium-eng-spa, read from a copy of its modes directory so that a test
// can take the pair away) translates a small English space into Spanish. Known words change;
// code, inline code, URLs and the page tree do not. A second run translates only the page that
// changed. An engine failure leaves the translation pending with the reason on the job; a kill -9
// before or after a run's write loses nothing and writes one result revision.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import { startServer, runCli, DATABASE_URL } from './lib/server.mjs';
import { client, ok, empty, expectError, raw, createOrg, addMember, walk, sleep } from './lib/api.mjs';

const MODES = '/usr/share/apertium/modes';
const PAIRS = ['eng-spa.mode', 'spa-eng.mode'];

/** A private Apertium data directory holding the installed eng-spa pair's modes. */
function apertiumDir() {
    for (const m of PAIRS)
        assert.ok(existsSync(join(MODES, m)), `${MODES}/${m} is missing: install apertium and apertium-eng-spa (scripts/deps.sh test)`);
    const dir = mkdtempSync(join(tmpdir(), 'docsd-apertium-'));
    mkdirSync(join(dir, 'modes'));
    for (const m of PAIRS) copyFileSync(join(MODES, m), join(dir, 'modes', m));
    return dir;
}

async function waitFor(what, fn, ms = 60_000) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(150);
    }
}

const storage = (dataDir) => (DATABASE_URL ? ['--database', DATABASE_URL] : ['--data', dataDir]);

/** The jobs of a translation's runs, newest first (docsd job list). */
async function jobsOf(dataDir, translationId) {
    const r = await runCli(['job', 'list', ...storage(dataDir), '--kind', 'translation.run']);
    assert.equal(r.code, 0, `docsd job list: ${r.stderr}`);
    return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((j) => j.subject === translationId);
}

const SOURCE = [
    {
        title: 'Getting started',
        ref: 'start',
        markdown:
            '# Getting started\n\nThe house is red. Read [the guide](https://example.com/guide?x=1) and see ' +
            '![the diagram](https://img.example.com/diagram.png).\n\n```bash\necho "hello world" # the big dog\n```\n\n' +
            'Use `make install` to build the big dog.\n',
    },
    { title: 'The garden', into: 'start', markdown: 'The dog runs in the garden.\n\n- The cat\n- The red car\n' },
    { title: 'Contact', markdown: 'Write to the team.\n' },
];

/** Pages as a tree of {id, title, children}. */
const tree = (pages) => pages.map((p) => ({ id: p.id, title: p.title, children: tree(p.pages || []) }));
const shape = (pages) => pages.map((p) => ({ id: p.id, children: shape(p.children) }));
const flat = (pages) => pages.flatMap((p) => [p, ...flat(p.children)]);

describe('translations', () => {
    let ctx, alice, bob, carol, dave, api, org, space, modesDir;

    const content = (who, spaceId, crId, changes) =>
        raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, { token: who.token, json: { changes } });
    /** A space of org holding `pages` (merged through one change request), with its pages. */
    async function seeded(title, pages = SOURCE) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        await edit(s.id, pages.map((p) => ({ operation: 'insert_page', title: p.title, ref: p.ref, into: p.into, document: { markdown: p.markdown } })));
        return { space: await ok(api.spaces.getSpaceById(s.id), 'getSpaceById'), pages: await pagesOf(s.id) };
    }
    async function edit(spaceId, changes) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await content(alice, spaceId, cr.id, changes);
        assert.equal(r.status, 200, r.text);
        const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
    }
    const pagesOf = async (spaceId) => tree((await ok(api.spaces.listPages(spaceId), 'listPages')).pages);
    const markdown = async (spaceId, pageId) => (await ok(api.spaces.getPageById(spaceId, pageId, { format: 'markdown' }), 'getPageById')).markdown;
    const get = (id, who = api) => ok(who.orgs.getTranslation(org.id, id), 'getTranslation');
    const create = (body, who = api) => ok(who.orgs.createTranslation(org.id, body), 'createTranslation', 201);
    const run = (id, who = api) => empty(who.orgs.runTranslation(org.id, id), 204, 'runTranslation');
    /** Poll the translation until its runs reach `runs` and it is completed (statuses seen on the way). */
    async function completed(id, runs, seen = new Set()) {
        return waitFor(`translation ${id} to complete run ${runs}`, async () => {
            const t = await get(id);
            seen.add(t.status);
            assert.ok(['pending', 'running', 'completed'].includes(t.status), t.status);
            return t.status === 'completed' && t.stats.runs === runs ? t : null;
        });
    }

    before(async () => {
        modesDir = apertiumDir();
        ctx = await setup({ extraArgs: ['--apertium-dir', modesDir] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        carol = await ctx.user('carol');
        dave = await ctx.user('dave');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Translations ${ctx.run}`));
        await addMember(api, org.id, bob.email, 'read');
        await addMember(api, org.id, carol.email, 'create');
        ({ space } = await seeded('Handbook'));
    });
    after(async () => {
        await ctx?.server.stop();
        if (modesDir) rmSync(modesDir, { recursive: true, force: true });
    });

    it('create, list, get, update, delete: 400s, 404s and who may do what', async () => {
        const src = { space: space.id, language: 'en' };
        const bad = [
            [{ language: 'es' }, /source: is required/],
            [{ source: 'x', language: 'es' }, /source: must be an object/],
            [{ source: { language: 'en' }, language: 'es' }, /source\.space/],
            [{ source: { space: space.id, language: 'xx' }, language: 'es' }, /source\.language/],
            [{ source: src }, /language: is required/],
            [{ source: src, language: 'klingon' }, /language: must be one of/],
            [{ source: src, language: 'en' }, /language: must differ/],
            [{ source: { space: 'nosuchspace', language: 'en' }, language: 'es' }, /source\.space: no such space/],
            [{ source: src, language: 'es', instructions: 'be formal' }, /instructions: must be a document/],
            [{ source: src, language: 'es', instructions: { object: 'document', data: {}, nodes: [{ object: 'text' }] } }, /instructions: a node at the top level must be a block/],
            [{ source: src, language: 'es', instructions: { object: 'document', data: { schemaVersion: 'one' }, nodes: [] } }, /instructions: data\.schemaVersion/],
            [{ source: src, language: 'es', instructions: { object: 'document', nodes: [] } }, /instructions: data must be an object/],
        ];
        for (const [body, message] of bad) {
            const e = await expectError(api.orgs.createTranslation(org.id, body), 400, JSON.stringify(body));
            assert.match(e.error.message, message);
        }
        // A pair that is not installed (and no chain of pairs): 400 naming the languages reachable
        // from the source, with their routes.
        let e = await expectError(api.orgs.createTranslation(org.id, { source: src, language: 'fr' }), 400);
        assert.match(e.error.message, /^language: no apertium translation pair or chain of at most 3 pairs from en to fr is installed; reachable from en: es \(en→es\)$/);
        // A space of another organization is no source.
        const { org: other } = await createOrg(ctx.url, alice.token, `Other ${ctx.run}`);
        const foreign = await ok(api.orgs.createSpace(other.id, { title: 'Foreign' }), 'createSpace', 201);
        e = await expectError(api.orgs.createTranslation(org.id, { source: { space: foreign.id, language: 'en' }, language: 'es' }), 400);
        assert.match(e.error.message, /source\.space: no such space/);

        const instructions = {
            object: 'document',
            data: { schemaVersion: 1 },
            nodes: [{ object: 'block', type: 'paragraph', key: 'k1', isVoid: false, data: { align: 'start' }, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Use a formal tone.', marks: [] }] }] }],
        };
        const t = await create({ source: src, language: 'es', instructions });
        assert.equal(t.object, 'translation');
        assert.equal(t.status, 'pending');
        assert.deepEqual(t.source, src);
        assert.equal(t.language, 'es');
        assert.deepEqual(t.instructions, instructions);
        assert.equal(t.result, undefined);
        assert.deepEqual(t.stats, { runs: 0, totalWords: 0, totalPages: 0, totalDuration: 0, latestRunDuration: 0, latestPages: 0, latestWords: 0 });
        assert.deepEqual(t.permissions, { view: true, edit: true });
        assert.equal(t.urls.location, `${ctx.url}/v1/orgs/${org.id}/translations/${t.id}`);
        const plain = await create({ source: { space: space.id, language: 'en' }, language: 'es' }, carol.api);
        assert.deepEqual(plain.instructions, { object: 'document', data: {}, nodes: [] });

        assert.deepEqual(await get(t.id), t);
        const all = await walk((q) => api.orgs.listTranslations(org.id, q), 'listTranslations', { limit: 1 });
        assert.deepEqual(all.map((x) => x.id), [t.id, plain.id], 'oldest first');
        const page = await ok(api.orgs.listTranslations(org.id), 'listTranslations');
        assert.equal(page.count, 2);

        // update: instructions only, checked
        const changed = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Tutoiement.', marks: [{ object: 'mark', type: 'bold' }] }] }] }] };
        const u = await ok(api.orgs.updateTranslation(org.id, t.id, { instructions: changed }), 'updateTranslation');
        assert.deepEqual(u.instructions, changed);
        assert.ok(u.updatedAt >= t.updatedAt);
        await expectError(api.orgs.updateTranslation(org.id, t.id, {}), 400);
        await expectError(api.orgs.updateTranslation(org.id, t.id, { instructions: { object: 'document', data: {}, nodes: 'x' } }), 400);
        await expectError(raw(ctx.url, 'PUT', `/v1/orgs/${org.id}/translations/${t.id}`, { token: alice.token, body: 'not json', headers: { 'Content-Type': 'application/json' } }), 400);

        // a reader sees translations (no edit) and may change nothing
        const seen = await get(t.id, bob.api);
        assert.deepEqual(seen.permissions, { view: true, edit: false });
        assert.equal((await ok(bob.api.orgs.listTranslations(org.id), 'listTranslations')).count, 2);
        await expectError(bob.api.orgs.createTranslation(org.id, { source: src, language: 'es' }), 403);
        await expectError(bob.api.orgs.updateTranslation(org.id, t.id, { instructions: changed }), 403);
        await expectError(bob.api.orgs.runTranslation(org.id, t.id), 403);
        await expectError(bob.api.orgs.deleteTranslation(org.id, t.id), 403);
        // a member who cannot read the source space does not see its translations
        const hidden = await ok(api.orgs.createSpace(org.id, { title: 'Secret' }), 'createSpace', 201);
        await ok(api.spaces.updateSpaceById(hidden.id, { defaultLevel: null }), 'updateSpaceById');
        const secret = await create({ source: { space: hidden.id, language: 'en' }, language: 'es' });
        await expectError(bob.api.orgs.getTranslation(org.id, secret.id), 404);
        assert.equal((await ok(bob.api.orgs.listTranslations(org.id), 'listTranslations')).count, 2);
        assert.equal((await ok(api.orgs.listTranslations(org.id), 'listTranslations')).count, 3);
        await empty(api.orgs.deleteTranslation(org.id, secret.id), 205, 'deleteTranslation');
        // an outsider sees no organization
        await expectError(dave.api.orgs.getTranslation(org.id, t.id), 404);
        await expectError(dave.api.orgs.listTranslations(org.id), 404);
        await expectError(dave.api.orgs.createTranslation(org.id, { source: src, language: 'es' }), 404);

        // unknown ids
        await expectError(api.orgs.getTranslation(org.id, 'nosuchtranslation'), 404);
        await expectError(api.orgs.updateTranslation(org.id, 'nosuchtranslation', { instructions: changed }), 404);
        await expectError(api.orgs.runTranslation(org.id, 'nosuchtranslation'), 404);
        await expectError(api.orgs.getTranslation(other.id, t.id), 404, 'a translation of another organization');

        // delete: 205, then 204 (it did not exist), then 404
        await empty(api.orgs.deleteTranslation(org.id, t.id), 205, 'deleteTranslation');
        await empty(api.orgs.deleteTranslation(org.id, t.id), 204, 'deleteTranslation again');
        await expectError(api.orgs.getTranslation(org.id, t.id), 404);
        await empty(carol.api.orgs.deleteTranslation(org.id, plain.id), 205, 'deleteTranslation by a creator');
        assert.equal((await ok(api.orgs.listTranslations(org.id), 'listTranslations')).count, 0);
    });

    it('a run translates every page into a new space, keeping the tree, code and links; a second run only what changed', async () => {
        const { space: src, pages: srcPages } = await seeded('Guide');
        const t = await create({ source: { space: src.id, language: 'en' }, language: 'es' });
        await run(t.id);
        const seen = new Set();
        const done = await completed(t.id, 1, seen);
        assert.ok(done.result && done.result.space && done.result.revision);
        assert.equal(done.stats.runs, 1);
        assert.equal(done.stats.latestPages, 3);
        assert.equal(done.stats.totalPages, 3);
        assert.ok(done.stats.latestWords >= 30, `latestWords ${done.stats.latestWords}`);
        assert.equal(done.stats.totalWords, done.stats.latestWords);
        assert.ok(done.stats.latestRunDuration >= 1 && done.stats.totalDuration === done.stats.latestRunDuration);

        // the result space: beside the source, in Spanish, the same tree with the same page ids
        const rs = await ok(api.spaces.getSpaceById(done.result.space), 'getSpaceById');
        assert.equal(rs.title, 'Guide (es)');
        assert.equal(rs.language, 'es');
        assert.equal(rs.revision, done.result.revision);
        const result = await pagesOf(rs.id);
        assert.deepEqual(shape(result), shape(srcPages));
        const titles = Object.fromEntries(flat(result).map((p) => [p.id, p.title]));
        const byTitle = Object.fromEntries(flat(srcPages).map((p) => [p.title, p.id]));
        assert.equal(titles[byTitle['The garden']], 'El jardín');
        assert.equal(titles[byTitle.Contact], 'Contacto');

        const start = await markdown(rs.id, byTitle['Getting started']);
        assert.match(start, /La casa es roja/);
        assert.match(start, /\(https:\/\/example\.com\/guide\?x=1\)/, 'a link keeps its URL');
        assert.match(start, /!\[[^\]]*\]\(https:\/\/img\.example\.com\/diagram\.png\)/, 'an image keeps its URL');
        assert.ok(start.includes('echo "hello world" # the big dog\n'), `the code block is untouched:\n${start}`);
        assert.ok(start.includes('`make install`'), 'inline code is untouched');
        assert.match(start, /perro grande/);
        assert.doesNotMatch(start, /The house|Read|the big dog to/);
        const garden = await markdown(rs.id, byTitle['The garden']);
        assert.match(garden, /jardín/);
        assert.match(garden, /^ *- El gato$/m, 'the list is kept');
        assert.match(garden, /^ *- El coche rojo$/m);
        // the source is untouched
        assert.equal(await markdown(src.id, byTitle['The garden']), SOURCE[1].markdown);
        assert.ok(seen.has('completed'));

        // a run with nothing changed: no page translated, the same result revision
        await run(t.id);
        const same = await completed(t.id, 2);
        assert.equal(same.stats.latestPages, 0);
        assert.equal(same.stats.latestWords, 0);
        assert.equal(same.stats.totalPages, 3);
        assert.deepEqual(same.result, done.result);

        // one source page changes: only it is translated again
        await edit(src.id, [{ operation: 'update_page', page: byTitle.Contact, document: { markdown: 'Write to the big team.\n' } }]);
        await run(t.id);
        const again = await completed(t.id, 3);
        assert.equal(again.stats.latestPages, 1);
        assert.equal(again.stats.totalPages, 3, 'unique pages');
        assert.equal(again.stats.totalWords, done.stats.totalWords + again.stats.latestWords);
        assert.equal(again.result.space, done.result.space);
        assert.notEqual(again.result.revision, done.result.revision);
        assert.match(await markdown(rs.id, byTitle.Contact), /equipo grande/);
        assert.equal(await markdown(rs.id, byTitle['The garden']), garden, 'an unchanged page keeps its translation');
        const rev = await ok(api.spaces.getRevisionById(rs.id, again.result.revision), 'getRevisionById');
        assert.deepEqual(rev.parents, [done.result.revision], 'one new revision on top of the last result');
        // ask twice while a run waits: one run
        await run(t.id);
        await run(t.id);
        const fourth = await completed(t.id, 4);
        await sleep(1500);
        assert.equal((await get(t.id)).stats.runs, fourth.stats.runs);
    });

    it('a run keeps footnotes, control characters, tables, task lists and strikethrough as written (issue 19, 7b)', async () => {
        const md =
            'The house[^1] is red.\n\n[^1]: The dog.\n\n| Name | Colour |\n|:--|--:|\n| The cat | red |\n\n' +
            '- [x] The car\n- [ ] ~~The old~~ house\n\nHello\u0001world and the dog.\n';
        const { space: src, pages } = await seeded('Structures', [{ title: 'Notes', markdown: md }]);
        const source = await markdown(src.id, pages[0].id);
        const t = await create({ source: { space: src.id, language: 'en' }, language: 'es' });
        await run(t.id);
        const done = await completed(t.id, 1);
        const out = await markdown(done.result.space, pages[0].id);
        // every line that is markup is the source's; only words changed
        assert.match(out, /^La casa\[\^1\] es roj[ao]\.$/m, out);
        assert.match(out, /^\[\^1\]: El perro\.$/m, 'the footnote stays a definition, its text translated');
        assert.doesNotMatch(out, /\]\(|&#1;/, 'no footnote turned into a link, no control character into an entity');
        assert.match(out, /^\| \S.* \| \S.* \|\n\|:--\|--:\|\n\| El gato \| roj[ao] \|$/m, 'the table and its alignment');
        assert.match(out, /^- \[x\] El coche$/m);
        assert.match(out, /^- \[ \] ~~[^~\n]+~~ [^\n]+$/m, 'the task and its strikethrough');
        assert.ok(source.includes('Hello\u0001world'), 'the source keeps its control character');
        assert.match(out, /^Hola\u0001\S[^\n]* el perro\.$/m, `the control character comes back as itself:\n${JSON.stringify(out)}`);
        assert.equal(out.split('\n').length, source.split('\n').length, 'line for line');
    });

    it('an engine failure leaves the translation pending with the reason on the job; it runs again once fixed', async () => {
        const { space: src } = await seeded('Failing');
        const t = await create({ source: { space: src.id, language: 'en' }, language: 'es' });
        // the pair goes away (as if its package were removed)
        const mode = join(modesDir, 'modes', 'eng-spa.mode');
        const saved = readFileSync(mode);
        unlinkSync(mode);
        try {
            const e = await expectError(api.orgs.createTranslation(org.id, { source: { space: src.id, language: 'en' }, language: 'es' }), 400);
            assert.match(e.error.message, /reachable from en: none$/);
            await run(t.id);
            const job = await waitFor('the run to fail', async () => {
                const [j] = await jobsOf(ctx.server.dataDir, t.id);
                return j && j.state === 'failed' ? j : null;
            });
            assert.match(job.lastError, /no apertium translation pair or chain of at most 3 pairs from en to es is installed/);
            const after = await get(t.id);
            assert.equal(after.status, 'pending');
            assert.equal(after.stats.runs, 0);
            assert.equal(after.result, undefined);
            const log = readFileSync(ctx.server.logFile, 'utf8');
            assert.match(log, new RegExp(`job ${job.id} \\(translation\\.run\\) failed after 1 attempts: no apertium translation pair`));
        } finally {
            // copyFileSync from the system's modes restores it
            copyFileSync(join(MODES, 'eng-spa.mode'), mode);
            assert.deepEqual(readFileSync(mode), saved);
        }
        await run(t.id);
        const ok1 = await completed(t.id, 1);
        assert.ok(ok1.result);
    });
});

describe('translations: kill -9 during a run', () => {
    let modesDir;
    before(() => {
        modesDir = apertiumDir();
    });
    after(() => rmSync(modesDir, { recursive: true, force: true }));

    // when: before-write (killed while translating: nothing written yet) or after-write (killed
    // after the result's commit, before the job was marked done: the job runs again).
    for (const when of ['before-write', 'after-write']) {
        it(`killed ${when === 'before-write' ? 'before' : 'after'} its write, a run writes one result revision`, async () => {
            process.env.DOCSD_TEST_TRANSLATE_PAUSE = `${when}:30000`;
            let server;
            try {
                server = await startServer({ extraArgs: ['--apertium-dir', modesDir] });
            } finally {
                delete process.env.DOCSD_TEST_TRANSLATE_PAUSE;
            }
            const u = await server.createUser(`kill-${Date.now()}@k${Date.now()}.example.com`, 'Killer');
            let api = client(server.url, u.token);
            const { org } = await createOrg(server.url, u.token, `Kill ${when}`);
            const s = await ok(api.orgs.createSpace(org.id, { title: 'Killed' }), 'createSpace', 201);
            const cr = await ok(api.spaces.createChangeRequest(s.id, { subject: 'Seed' }), 'createChangeRequest', 201);
            const r = await raw(server.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
                token: u.token,
                json: { changes: SOURCE.map((p) => ({ operation: 'insert_page', title: p.title, ref: p.ref, into: p.into, document: { markdown: p.markdown } })) },
            });
            assert.equal(r.status, 200, r.text);
            await ok(api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest');
            const t = await ok(api.orgs.createTranslation(org.id, { source: { space: s.id, language: 'en' }, language: 'es' }), 'createTranslation', 201);
            await empty(api.orgs.runTranslation(org.id, t.id), 204);

            // the run pauses at `when`: kill -9 there
            await waitFor('the run to pause', async () => readFileSync(server.logFile, 'utf8').includes(`translation ${t.id}: pausing`), 60_000);
            const during = await ok(api.orgs.getTranslation(org.id, t.id), 'getTranslation');
            assert.equal(during.status, 'running');
            if (when === 'after-write') assert.ok(during.result, 'the result is written before the pause');
            else assert.equal(during.result, undefined, 'nothing is written before the pause');
            const dataDir = server.dataDir;
            server.process.kill('SIGKILL');
            await waitFor('docsd to die', async () => server.exited, 10_000);

            // restart past the dead process's lease (30 s): the job runs again
            server = await startServer({ dataDir, extraArgs: ['--apertium-dir', modesDir, '--clock-offset-ms', '60000'] });
            try {
                api = client(server.url, u.token);
                const t2 = await waitFor('the run to complete after the restart', async () => {
                    const x = await ok(api.orgs.getTranslation(org.id, t.id), 'getTranslation');
                    return x.status === 'completed' ? x : null;
                });
                assert.equal(t2.stats.runs, 1, 'the run is counted once');
                assert.equal(t2.stats.latestPages, 3);
                if (when === 'after-write') assert.deepEqual(t2.result, during.result, 'the result written before the kill stands');
                // one result space, and one result revision on top of its first (empty) one
                const spaces = (await ok(api.orgs.listSpacesInOrganizationById(org.id), 'listSpacesInOrganizationById')).items;
                assert.deepEqual(spaces.map((x) => x.title).sort(), ['Killed', 'Killed (es)']);
                const rs = spaces.find((x) => x.title === 'Killed (es)');
                assert.equal(rs.id, t2.result.space);
                assert.equal(rs.revision, t2.result.revision);
                const rev = await ok(api.spaces.getRevisionById(rs.id, rs.revision), 'getRevisionById');
                assert.equal(rev.parents.length, 1);
                const first = await ok(api.spaces.getRevisionById(rs.id, rev.parents[0]), 'getRevisionById');
                assert.deepEqual(first.pages, [], 'the result revision sits on the space\'s first, empty one');
                assert.equal(first.parents.length, 0);
                const [job] = await jobsOf(dataDir, t.id);
                assert.equal(job.state, 'done');
                assert.equal(job.attempts, 2, 'the killed attempt and the one after the restart');
                if (when === 'after-write') assert.deepEqual(job.result, { skipped: 'already applied' });
            } finally {
                await server.stop();
            }
        });
    }
});

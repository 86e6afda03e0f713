// Translations (issue 23): the HTTP engines against small fake servers started here on
// 127.0.0.1 (LibreTranslate's GET /languages + POST /translate, DeepL's POST /v2/translate;
// deterministic output: each segment upper-cased), batches, the key (LibreTranslate's api_key,
// DeepL's "Authorization: DeepL-Auth-Key") sent and never in the log, engine errors named in
// the job's reason, retries through the queue, the glossary of the instructions' table, the
// re-run a merge queues (coalesced), the route on the translation; then Apertium's pivots
// (en→es→fr, en→pt-br, the 400 listing what is reachable) with Debian's installed pairs.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { setup } from './lib/fixtures.mjs';
import { runCli, DATABASE_URL } from './lib/server.mjs';
import { ok, empty, expectError, raw, createOrg, sleep } from './lib/api.mjs';

const KEY = 'test-key-5f1e2d3c4b5a69788796a5b4c3d2e1f0';

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

async function jobsOf(dataDir, translationId) {
    const r = await runCli(['job', 'list', ...storage(dataDir), '--kind', 'translation.run']);
    assert.equal(r.code, 0, `docsd job list: ${r.stderr}`);
    return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((j) => j.subject === translationId);
}

/**
 * A fake translation server: `handle(req, body)` answers {status, json}; every request is
 * recorded ({method, path, headers, json}). `gate` (a promise) holds translations while set;
 * `failures` is a queue of answers given before the normal one.
 */
async function fakeServer(handle) {
    const fake = { requests: [], failures: [], gate: null };
    const srv = http.createServer((req, res) => {
        let data = '';
        req.on('data', (c) => (data += c));
        req.on('end', async () => {
            let json = null;
            try {
                json = data ? JSON.parse(data) : null;
            } catch {
                json = { unparsed: data };
            }
            const rec = { method: req.method, path: req.url, headers: req.headers, json };
            fake.requests.push(rec);
            if (req.method === 'POST' && fake.gate) await fake.gate;
            const answer = req.method === 'POST' && fake.failures.length ? fake.failures.shift() : handle(rec);
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(answer.json));
        });
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    fake.url = `http://127.0.0.1:${srv.address().port}`;
    fake.close = () => new Promise((r) => srv.close(r));
    fake.posts = () => fake.requests.filter((r) => r.method === 'POST');
    return fake;
}

const upper = (s) => s.toUpperCase();

const libre = () =>
    fakeServer((r) => {
        if (r.method === 'GET' && r.path === '/languages')
            return {
                status: 200,
                json: [
                    { code: 'en', name: 'English', targets: ['es', 'fr', 'nb', 'pb', 'de'] },
                    { code: 'es', name: 'Spanish', targets: ['en'] },
                    { code: 'xx', name: 'Not GitBook', targets: ['en'] },
                ],
            };
        if (r.method === 'POST' && r.path === '/translate') {
            if (r.json?.api_key !== KEY) return { status: 403, json: { error: 'Invalid API key' } };
            return { status: 200, json: { translatedText: r.json.q.map(upper) } };
        }
        return { status: 404, json: { error: 'Not Found' } };
    });

const deepl = () =>
    fakeServer((r) => {
        if (r.method === 'POST' && r.path === '/v2/translate') {
            if (r.headers.authorization !== `DeepL-Auth-Key ${KEY}`) return { status: 403, json: { message: 'Wrong authentication key' } };
            return { status: 200, json: { translations: r.json.text.map((t) => ({ detected_source_language: 'EN', text: upper(t) })) } };
        }
        return { status: 404, json: { message: 'Not found' } };
    });

const SOURCE = [
    {
        title: 'Getting started',
        markdown:
            '# Getting started\n\nThe garden is green. Read [the guide](https://example.com/guide).\n\n' +
            '```bash\necho "the garden"\n```\n\nUse `garden init` to start.\n',
    },
    { title: 'The garden', markdown: 'The dog runs in the garden.\n\n- The cat\n- The red car\n' },
];

/** The glossary: GitBook's table block in the instructions (columns Source | Target, a record a
 * term, each text cell a fragment), beside other instructions. */
const para = (text) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
function glossary(terms) {
    const records = {};
    const fragments = [];
    terms.forEach(([from, to], i) => {
        records[`r${i}`] = { orderIndex: `a${i}`, values: { src: `f${i}s`, dst: `f${i}d` } };
        fragments.push({ object: 'fragment', fragment: `f${i}s`, nodes: [para(from)] });
        fragments.push({ object: 'fragment', fragment: `f${i}d`, nodes: [para(to)] });
    });
    return {
        object: 'document',
        data: {},
        nodes: [
            para('Be formal.'),
            {
                object: 'block',
                type: 'table',
                isVoid: true,
                data: {
                    view: { type: 'grid', columns: ['src', 'dst'], hideHeader: false },
                    records,
                    definition: {
                        src: { id: 'src', title: 'Source', type: 'text', textAlignment: 'left' },
                        dst: { id: 'dst', title: 'Target', type: 'text', textAlignment: 'left' },
                    },
                },
                fragments,
            },
        ],
    };
}
const GLOSSARY = glossary([['garden', 'Jardín'], ['red car', 'coche-rojo']]);

/** One org with a seeded space, helpers bound to a server. */
async function world(ctx, label) {
    const alice = await ctx.user('alice');
    const api = alice.api;
    const { org } = await createOrg(ctx.url, alice.token, `${label} ${ctx.run}`);
    const content = (spaceId, crId, changes) =>
        raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${crId}/content`, { token: alice.token, json: { changes } });
    async function edit(spaceId, changes) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await content(spaceId, cr.id, changes);
        assert.equal(r.status, 200, r.text);
        const m = await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest');
        assert.equal(m.result, 'merge');
    }
    async function seeded(title, pages = SOURCE) {
        const s = await ok(api.orgs.createSpace(org.id, { title }), 'createSpace', 201);
        await edit(s.id, pages.map((p) => ({ operation: 'insert_page', title: p.title, document: { markdown: p.markdown } })));
        return s;
    }
    const get = (id) => ok(api.orgs.getTranslation(org.id, id), 'getTranslation');
    const create = (body) => ok(api.orgs.createTranslation(org.id, body), 'createTranslation', 201);
    const run = (id) => empty(api.orgs.runTranslation(org.id, id), 204, 'runTranslation');
    async function completed(id, runs) {
        return waitFor(`translation ${id} to complete run ${runs}`, async () => {
            const t = await get(id);
            return t.status === 'completed' && t.stats.runs >= runs ? t : null;
        });
    }
    const pages = async (spaceId) => (await ok(api.spaces.listPages(spaceId), 'listPages')).pages;
    const markdown = async (spaceId, pageId) => (await ok(api.spaces.getPageById(spaceId, pageId, { format: 'markdown' }), 'getPageById')).markdown;
    return { alice, api, org, edit, seeded, get, create, run, completed, pages, markdown };
}

describe('translations through LibreTranslate (a fake server)', () => {
    let fake, ctx, w;

    before(async () => {
        fake = await libre();
        ctx = await setup({ extraArgs: ['--translation-engine', 'libretranslate', '--translation-url', fake.url, '--translation-api-key', KEY] });
        w = await world(ctx, 'Libre');
    });
    after(async () => {
        await ctx?.server.stop();
        await fake?.close();
    });

    it('reads the languages once, translates in batches with the key, keeps code and links, shows its route', async () => {
        assert.equal(fake.requests.filter((r) => r.path === '/languages').length, 1, 'GET /languages once, at start');
        const src = await w.seeded('Handbook');
        // 120 paragraphs: three requests of at most 50 segments
        const long = Array.from({ length: 120 }, (_, i) => `Paragraph number ${i} talks.`).join('\n\n') + '\n';
        await w.edit(src.id, [{ operation: 'insert_page', title: 'Long', document: { markdown: long } }]);
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'fr' });
        assert.deepEqual(t.route, { engine: 'libretranslate', languages: ['en', 'fr'] });
        const before = fake.posts().length;
        await w.run(t.id);
        const done = await w.completed(t.id, 1);
        const posts = fake.posts().slice(before);
        assert.ok(posts.length >= 3, `batches: ${posts.length} requests`);
        for (const p of posts) {
            assert.equal(p.path, '/translate');
            assert.ok(Array.isArray(p.json.q) && p.json.q.length >= 1 && p.json.q.length <= 50, `q: ${p.json.q.length}`);
            assert.equal(p.json.source, 'en');
            assert.equal(p.json.target, 'fr');
            assert.equal(p.json.format, 'text');
            assert.equal(p.json.api_key, KEY);
        }
        const q = posts.flatMap((p) => p.json.q);
        assert.ok(q.includes('Paragraph number 119 talks.'));
        assert.ok(!q.some((s) => s.includes('echo')), 'code is not sent');
        const result = done.result.space;
        const ps = await w.pages(result);
        const start = ps.find((p) => p.title === 'GETTING STARTED');
        assert.ok(start, JSON.stringify(ps.map((p) => p.title)));
        const md = await w.markdown(result, start.id);
        assert.match(md, /^# GETTING STARTED$/m);
        assert.match(md, /THE GARDEN IS GREEN\. READ \[THE GUIDE\]\(https:\/\/example\.com\/guide\)\./);
        assert.match(md, /```bash\necho "the garden"\n```/);
        assert.match(md, /`garden init`/);
        // the key never reaches the log
        assert.ok(!readFileSync(ctx.server.logFile, 'utf8').includes(KEY), 'the API key is not in the log');
    });

    it('maps no to nb and pt-br to pb; a language it lacks is a 400 listing what it reaches', async () => {
        const src = await w.seeded('Codes', [SOURCE[1]]);
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'pt-br' });
        assert.deepEqual(t.route.languages, ['en', 'pt-br']);
        const before = fake.posts().length;
        await w.run(t.id);
        await w.completed(t.id, 1);
        assert.equal(fake.posts()[before].json.target, 'pb');
        const n = await w.create({ source: { space: src.id, language: 'en' }, language: 'no' });
        await w.run(n.id);
        await w.completed(n.id, 1);
        assert.equal(fake.posts().at(-1).json.target, 'nb');
        const e = await expectError(w.api.orgs.createTranslation(w.org.id, { source: { space: src.id, language: 'en' }, language: 'ja' }), 400);
        assert.match(e.error.message, /^language: no libretranslate translation pair or chain of at most 3 pairs from en to ja is installed; reachable from en: /);
        assert.match(e.error.message, /fr \(en→fr\)/);
        assert.match(e.error.message, /no \(en→no\)/);
    });

    it('applies the glossary of the instructions: the engine never sees its terms, the result has them as given', async () => {
        const src = await w.seeded('Glossary');
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'de', instructions: GLOSSARY });
        assert.deepEqual(t.instructions, GLOSSARY, 'other instructions are stored as they are');
        const before = fake.posts().length;
        await w.run(t.id);
        const done = await w.completed(t.id, 1);
        const q = fake.posts().slice(before).flatMap((p) => p.json.q);
        assert.ok(q.length > 0);
        assert.ok(!q.some((s) => /garden|red car/i.test(s)), `terms protected: ${JSON.stringify(q)}`);
        const ps = await w.pages(done.result.space);
        const titles = ps.map((p) => p.title);
        assert.ok(titles.includes('THE Jardín'), JSON.stringify(titles));
        const garden = ps.find((p) => p.title === 'THE Jardín');
        const md = await w.markdown(done.result.space, garden.id);
        assert.match(md, /THE DOG RUNS IN THE Jardín\./);
        assert.match(md, /- THE coche-rojo/);
        const start = ps.find((p) => p.title === 'GETTING STARTED');
        const smd = await w.markdown(done.result.space, start.id);
        assert.match(smd, /THE Jardín IS GREEN/);
        assert.match(smd, /echo "the garden"/, 'code keeps the source term');
        assert.match(smd, /`garden init`/, 'inline code keeps the source term');
        // a changed glossary translates the pages again
        const changed = glossary([['garden', 'Garten'], ['red car', 'coche-rojo']]);
        await ok(w.api.orgs.updateTranslation(w.org.id, t.id, { instructions: changed }), 'updateTranslation');
        await w.run(t.id);
        const again = await w.completed(t.id, 2);
        assert.equal(again.stats.latestPages, 2);
        const g2 = (await w.pages(again.result.space)).find((p) => p.title === 'THE Garten');
        assert.ok(g2, 'the new term');
    });

    it('an engine error is named in the job, a 4xx fails at once, a 503 is retried through the queue', async () => {
        const src = await w.seeded('Errors', [SOURCE[1]]);
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'es' });
        fake.failures.push({ status: 403, json: { error: 'Invalid API key' } });
        await w.run(t.id);
        const job = await waitFor('the run to fail', async () => {
            const [j] = await jobsOf(ctx.server.dataDir, t.id);
            return j && j.state === 'failed' ? j : null;
        });
        assert.match(job.lastError, /^libretranslate answered HTTP 403: Invalid API key$/);
        assert.equal((await w.get(t.id)).status, 'pending');
        // a 503 once, then the retry (10 s of backoff) completes
        fake.failures.push({ status: 503, json: { error: 'Slow down: the server is busy' } });
        await w.run(t.id);
        const done = await w.completed(t.id, 1);
        assert.equal(done.status, 'completed');
        const [j2] = await jobsOf(ctx.server.dataDir, t.id);
        assert.equal(j2.state, 'done');
        assert.ok(j2.attempts >= 2, `attempts ${j2.attempts}`);
        const log = readFileSync(ctx.server.logFile, 'utf8');
        assert.match(log, /libretranslate answered HTTP 503: Slow down: the server is busy/);
        assert.ok(!log.includes(KEY), 'the API key is not in the log');
    });

    it('a merge into the source queues one run of each of its translations, coalesced', async () => {
        const src = await w.seeded('Kept current', [SOURCE[1]]);
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'fr' });
        const t2 = await w.create({ source: { space: src.id, language: 'en' }, language: 'es' });
        await w.run(t.id);
        await w.run(t2.id);
        await w.completed(t.id, 1);
        await w.completed(t2.id, 1);
        // hold the engine: the first re-run stays running while two more merges land
        let release;
        fake.gate = new Promise((r) => (release = r));
        try {
            await w.edit(src.id, [{ operation: 'insert_page', title: 'New page', document: { markdown: 'A new page.\n' } }]);
            await waitFor('a re-run to be running', async () => (await jobsOf(ctx.server.dataDir, t.id)).some((j) => j.state === 'running') || (await jobsOf(ctx.server.dataDir, t2.id)).some((j) => j.state === 'running'));
            await w.edit(src.id, [{ operation: 'insert_page', title: 'Another page', document: { markdown: 'Another page.\n' } }]);
            await w.edit(src.id, [{ operation: 'insert_page', title: 'Third page', document: { markdown: 'A third page.\n' } }]);
            for (const id of [t.id, t2.id]) {
                const queued = (await jobsOf(ctx.server.dataDir, id)).filter((j) => j.state === 'queued');
                assert.ok(queued.length <= 1, `at most one queued run of ${id}: ${JSON.stringify(queued)}`);
            }
        } finally {
            fake.gate = null;
            release();
        }
        for (const id of [t.id, t2.id]) {
            const done = await waitFor(`translation ${id} to take the last merge`, async () => {
                const x = await w.get(id);
                if (x.status !== 'completed') return null;
                const titles = (await w.pages(x.result.space)).map((p) => p.title);
                return titles.includes('THIRD PAGE') ? x : null;
            });
            assert.ok(done.stats.runs >= 2 && done.stats.runs <= 4, `runs ${done.stats.runs}`);
        }
    });
});

describe('translations through DeepL (a fake server)', () => {
    let fake, ctx, w;

    before(async () => {
        fake = await deepl();
        ctx = await setup({ extraArgs: ['--translation-engine', 'deepl', '--translation-url', fake.url + '/', '--translation-api-key', KEY] });
        w = await world(ctx, 'DeepL');
    });
    after(async () => {
        await ctx?.server.stop();
        await fake?.close();
    });

    it('sends text[] with DeepL-Auth-Key and DeepL\'s codes, names its errors, never logs the key', async () => {
        const src = await w.seeded('Handbook');
        const t = await w.create({ source: { space: src.id, language: 'en' }, language: 'pt-br', instructions: GLOSSARY });
        assert.deepEqual(t.route, { engine: 'deepl', languages: ['en', 'pt-br'] });
        await w.run(t.id);
        const done = await w.completed(t.id, 1);
        const posts = fake.posts();
        assert.ok(posts.length >= 1);
        for (const p of posts) {
            assert.equal(p.path, '/v2/translate');
            assert.equal(p.headers.authorization, `DeepL-Auth-Key ${KEY}`);
            assert.ok(Array.isArray(p.json.text) && p.json.text.length <= 50);
            assert.equal(p.json.source_lang, 'EN');
            assert.equal(p.json.target_lang, 'PT-BR');
            assert.ok(!p.json.text.some((s) => /garden/i.test(s)), 'glossary terms protected');
        }
        const ps = await w.pages(done.result.space);
        assert.ok(ps.some((p) => p.title === 'THE Jardín'), JSON.stringify(ps.map((p) => p.title)));
        // English as a target is EN-US
        const back = await w.create({ source: { space: src.id, language: 'es' }, language: 'en' });
        await w.run(back.id);
        await w.completed(back.id, 1);
        assert.equal(fake.posts().at(-1).json.target_lang, 'EN-US');
        assert.equal(fake.posts().at(-1).json.source_lang, 'ES');
        // a quota answer (456) is retried; a 403 fails at once, named
        fake.failures.push({ status: 403, json: { message: 'Wrong authentication key' } });
        const bad = await w.create({ source: { space: src.id, language: 'en' }, language: 'de' });
        await w.run(bad.id);
        const job = await waitFor('the run to fail', async () => {
            const [j] = await jobsOf(ctx.server.dataDir, bad.id);
            return j && j.state === 'failed' ? j : null;
        });
        assert.match(job.lastError, /^deepl answered HTTP 403: Wrong authentication key$/);
        const e = await expectError(w.api.orgs.createTranslation(w.org.id, { source: { space: src.id, language: 'en' }, language: 'hi' }), 400);
        assert.match(e.error.message, /no deepl translation pair or chain .* from en to hi/);
        assert.ok(!readFileSync(ctx.server.logFile, 'utf8').includes(KEY), 'the API key is not in the log');
    });
});

describe('translations through Apertium pivots (Debian\'s installed pairs)', () => {
    const have = (m) => existsSync(`/usr/share/apertium/modes/${m}.mode`) || existsSync(`/usr/local/share/apertium/modes/${m}.mode`);
    const skip = !(have('eng-spa') && have('es-fr') && have('es-pt_BR'))
        ? 'apertium-eng-spa, apertium-fr-es and apertium-es-pt are not installed (scripts/deps.sh run)' : false;
    let ctx, w;

    before(async () => {
        if (skip) return;
        ctx = await setup();
        w = await world(ctx, 'Pivots');
    });
    after(async () => {
        await ctx?.server.stop();
    });

    it('en→fr through es, en→pt-br through es; the route is shown; the 400 lists the reachable languages', { skip }, async () => {
        const src = await w.seeded('Handbook', [{ title: 'The house', markdown: 'The house is big.\n\n```sh\nmake house\n```\n' }]);
        const fr = await w.create({ source: { space: src.id, language: 'en' }, language: 'fr' });
        assert.deepEqual(fr.route, { engine: 'apertium', languages: ['en', 'es', 'fr'] });
        const br = await w.create({ source: { space: src.id, language: 'en' }, language: 'pt-br' });
        assert.deepEqual(br.route, { engine: 'apertium', languages: ['en', 'es', 'pt-br'] });
        await w.run(fr.id);
        await w.run(br.id);
        const f = await w.completed(fr.id, 1);
        const b = await w.completed(br.id, 1);
        const [fp] = await w.pages(f.result.space);
        assert.equal(fp.title, 'La maison');
        assert.match(await w.markdown(f.result.space, fp.id), /^La maison est grande\.$/m);
        assert.match(await w.markdown(f.result.space, fp.id), /```sh\nmake house\n```/);
        const [bp] = await w.pages(b.result.space);
        assert.match(await w.markdown(b.result.space, bp.id), /^A casa é grande\.$/m);
        const log = readFileSync(ctx.server.logFile, 'utf8');
        assert.match(log, /translating \d+ segments en→es→fr through apertium/);
        const e = await expectError(w.api.orgs.createTranslation(w.org.id, { source: { space: src.id, language: 'en' }, language: 'ja' }), 400);
        assert.match(e.error.message, /reachable from en: .*es \(en→es\)/);
        assert.match(e.error.message, /fr \(en→es→fr\)/);
        assert.match(e.error.message, /pt-br \(en→es→pt-br\)/);
        assert.match(e.error.message, /it \(en→es→it\)/);
    });
});

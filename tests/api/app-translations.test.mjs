// The web interface's translations (issue 25, src/app/pages_translations.c):
// /o/{organizationId}/translations lists them (source space, languages, translated space, last
// run's status, route) and creates one (a space and languages the engine has: a fake
// LibreTranslate server on 127.0.0.1 that upper-cases); /o/{id}/translations/{translationId}
// shows one, runs it and deletes it, through the API's domain functions. While the fake server
// holds the run, the page says running and reloads itself (<meta http-equiv="refresh">); after
// the run it shows completed without the reload, and the translated space (read back with the
// official client) has the upper-cased pages. Hostile cases: another organization's member (404
// pages, nothing created, run or deleted), no or a wrong CSRF token (403), a reader (no forms;
// POSTs refused with 403), bad languages, a pair the engine cannot reach, a space of another
// organization, malformed form data (400 pages with the domain's message). Instructions: the
// glossary they give shown, the JSON document saved through the form (dom_translation_update) and
// read back with the client; not JSON, not a document, oversized (400 with the message, the typed
// text again), a reader (403), no token (403), another organization (404).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { raw, ok, createOrg, addMember, sleep } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

const KEY = 'app-key-0f1e2d3c4b5a69788796a5b4c3d2e1f0';
const REFRESH = '<meta http-equiv="refresh" content="2">';

/** A fake LibreTranslate (GET /languages, POST /translate upper-casing); while `gate` is set,
 * translations wait for it. */
async function fakeLibre() {
    const fake = { gate: null, posts: 0, refuse: null };
    const srv = http.createServer((req, res) => {
        let data = '';
        req.on('data', (c) => (data += c));
        req.on('end', async () => {
            let answer = { status: 404, json: { error: 'Not Found' } };
            if (req.method === 'GET' && req.url === '/languages') {
                answer = { status: 200, json: [{ code: 'en', name: 'English', targets: ['es', 'fr'] }, { code: 'es', name: 'Spanish', targets: ['en'] }] };
            } else if (req.method === 'POST' && req.url === '/translate') {
                fake.posts++;
                if (fake.gate) await fake.gate;
                const j = JSON.parse(data);
                if (fake.refuse) {
                    res.writeHead(400, { 'content-type': 'application/json' });
                    res.end(JSON.stringify({ error: fake.refuse }));
                    return;
                }
                answer = j.api_key === KEY ? { status: 200, json: { translatedText: j.q.map((s) => s.toUpperCase()) } } : { status: 403, json: { error: 'key' } };
            }
            res.writeHead(answer.status, { 'content-type': 'application/json' });
            res.end(JSON.stringify(answer.json));
        });
    });
    await new Promise((r) => srv.listen(0, '127.0.0.1', r));
    fake.url = `http://127.0.0.1:${srv.address().port}`;
    fake.close = () => new Promise((r) => srv.close(r));
    return fake;
}

describe('web interface: translations', () => {
    let fake, ctx, alice, bob, eve, org, eveOrg, space, eveSpace, aliceS, bobS, eveS;

    const page = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = (who, path, fields, csrf = who.csrf) => raw(ctx.url, 'POST', path, {
        body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
        headers: { ...FORM, Cookie: who.cookie },
    });
    const list = async () => (await ok(alice.api.orgs.listTranslations(org.id), 'listTranslations')).items;
    const base = () => `/o/${org.id}/translations`;
    async function seeded(who, orgId, title) {
        const s = await ok(who.api.orgs.createSpace(orgId, { title }), 'createSpace', 201);
        const cr = await ok(who.api.spaces.createChangeRequest(s.id, { subject: 'Seed' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, {
            token: who.token,
            json: { changes: [{ operation: 'insert_page', title: 'The garden', document: { markdown: 'The dog runs in the garden.\n' } }] },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal((await ok(who.api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest')).result, 'merge');
        return s;
    }

    before(async () => {
        fake = await fakeLibre();
        ctx = await setup({ extraArgs: ['--translation-engine', 'libretranslate', '--translation-url', fake.url, '--translation-api-key', KEY] });
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `App Tr ${ctx.run}`));
        ({ org: eveOrg } = await createOrg(ctx.url, eve.token, `Eve Tr ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await seeded(alice, org.id, 'Handbook <en>');
        eveSpace = await ok(eve.api.orgs.createSpace(eveOrg.id, { title: 'Eve space' }), 'createSpace', 201);
        for (const u of [alice, bob, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        eveS = await signIn(ctx.url, eve.email, PASSWORD);
    });
    after(async () => {
        await ctx?.server.stop();
        await fake?.close();
    });

    it('the organization page links the list; empty list; the form offers the spaces and the engine\'s languages', async () => {
        const o = await page(aliceS, `/o/${org.id}`);
        assert.ok(o.text.includes(`href="${base()}"`), 'the organization page links translations');
        const r = await page(aliceS, base());
        assert.match(r.text, /No translation of a space you can read/);
        assert.ok(r.text.includes(`<option value="${space.id}">Handbook &lt;en&gt;</option>`), 'the space, escaped');
        assert.ok(!r.text.includes(eveSpace.id), 'not another organization\'s space');
        const from = r.text.match(/<select id="tr-from"[^>]*>(.*?)<\/select>/)?.[1] ?? '';
        const to = r.text.match(/<select id="tr-to"[^>]*>(.*?)<\/select>/)?.[1] ?? '';
        assert.deepEqual([...from.matchAll(/value="([^"]+)"/g)].map((m) => m[1]), ['en', 'es']);
        assert.deepEqual([...to.matchAll(/value="([^"]+)"/g)].map((m) => m[1]), ['en', 'fr', 'es']);
        for (const id of ['tr-space', 'tr-from', 'tr-to']) assert.ok(r.text.includes(`<label for="${id}">`));
        const b = await page(bobS, base());
        assert.ok(!b.text.includes('<form method="post"'), 'a reader has no form');
        assert.match(b.text, /needs the create role/);
        const out = await raw(ctx.url, 'GET', base(), { headers: HTML });
        assert.equal(out.status, 303);
    });

    let tid;
    it('creates, runs (running and reloading while the engine holds), completes with the translated space', async () => {
        const c = await post(aliceS, base(), { space: space.id, sourceLanguage: 'en', language: 'es' });
        assert.equal(c.status, 303, c.text.slice(0, 400));
        const items = await list();
        assert.equal(items.length, 1);
        tid = items[0].id;
        assert.equal(c.headers.location, `${base()}/${tid}`);
        assert.equal(items[0].source.space, space.id);
        assert.equal(items[0].language, 'es');
        const fresh = await page(aliceS, `${base()}/${tid}`);
        assert.match(fresh.text, /data-status="pending"/);
        assert.ok(!fresh.text.includes(REFRESH), 'no run asked for: no reload');
        assert.match(fresh.text, /en → es/);

        let release;
        fake.gate = new Promise((r) => (release = r));
        try {
            const before = fake.posts;
            const r = await post(aliceS, `${base()}/${tid}/run`, {});
            assert.equal(r.status, 303, r.text.slice(0, 400));
            assert.equal(r.headers.location, `${base()}/${tid}`);
            // wait until the engine holds the run
            for (let i = 0; fake.posts === before; i++) {
                if (i > 200) assert.fail('the run did not reach the engine');
                await sleep(50);
            }
            const during = await page(aliceS, `${base()}/${tid}`);
            assert.match(during.text, /data-status="running"/);
            assert.ok(during.text.includes(REFRESH), 'reloads while running');
            assert.ok(during.text.indexOf(REFRESH) < during.text.indexOf('</head>'));
            assert.equal((await ok(alice.api.orgs.getTranslation(org.id, tid), 'getTranslation')).status, 'running');
            const l = await page(aliceS, base());
            assert.match(l.text, /data-status="running"/);
        } finally {
            fake.gate = null;
            release();
        }
        let text = '';
        for (let i = 0; i < 300; i++) {
            text = (await page(aliceS, `${base()}/${tid}`)).text;
            if (/data-status="completed"/.test(text)) break;
            await sleep(100);
        }
        assert.match(text, /data-status="completed"/);
        assert.ok(!text.includes(REFRESH), 'no reload once completed');
        const t = await ok(alice.api.orgs.getTranslation(org.id, tid), 'getTranslation');
        assert.equal(t.status, 'completed');
        const result = t.result.space;
        assert.ok(text.includes(`href="/s/${result}"`), 'links the translated space');
        const pages = (await ok(alice.api.spaces.listPages(result), 'listPages')).pages;
        assert.deepEqual(pages.map((p) => p.title), ['THE GARDEN']);
        assert.match(text, /<dt>Runs completed<\/dt><dd>1<\/dd>/);
        // a reader sees it, without forms
        const b = await page(bobS, `${base()}/${tid}`);
        assert.match(b.text, /data-status="completed"/);
        assert.ok(!b.text.includes('/run"') && !b.text.includes('/delete"'));
    });

    it('a run the engine refuses (a final 4xx) shows that it failed and why, without reloading', async () => {
        // a translation of its own: a re-run of one already done sends nothing to the engine
        const t2 = await ok(alice.api.orgs.createTranslation(org.id, { source: { space: space.id, language: 'en' }, language: 'fr' }), 'createTranslation', 201);
        fake.refuse = 'text <too> odd for this engine';
        try {
            const r = await post(aliceS, `${base()}/${t2.id}/run`, {});
            assert.equal(r.status, 303, r.text.slice(0, 400));
            let text = '';
            for (let i = 0; i < 300; i++) {
                text = (await page(aliceS, `${base()}/${t2.id}`)).text;
                if (text.includes('id="tr-error"')) break;
                await sleep(100);
            }
            assert.match(text, /The last run failed\./);
            assert.match(text, /text &lt;too&gt; odd for this engine/, 'the engine\'s answer, escaped');
            assert.ok(!text.includes(REFRESH), 'a failed run is not followed');
            assert.ok(!text.includes(KEY), 'the engine key is never shown');
            assert.equal((await ok(alice.api.orgs.getTranslation(org.id, t2.id), 'getTranslation')).status, 'pending');
        } finally {
            fake.refuse = null;
            await raw(ctx.url, 'DELETE', `/v1/orgs/${org.id}/translations/${t2.id}`, { token: alice.token });
        }
    });

    it('hostile: another organization, no or a wrong CSRF token, a reader: refused, nothing changed', async () => {
        const before = JSON.stringify(await list());
        await page(eveS, base(), 404);
        await page(eveS, `${base()}/${tid}`, 404);
        await page(eveS, `/o/${eveOrg.id}/translations/${tid}`, 404);
        for (const [path, fields] of [[`${base()}/${tid}/run`, {}], [`${base()}/${tid}/delete`, {}], [base(), { space: space.id, sourceLanguage: 'en', language: 'fr' }]]) {
            const e = await post(eveS, path, fields);
            assert.equal(e.status, 404, `eve ${path}: ${e.status}`);
            const none = await post(aliceS, path, fields, null);
            assert.equal(none.status, 403, `no token ${path}`);
            const wrong = await post(aliceS, path, fields, '0'.repeat(64));
            assert.equal(wrong.status, 403, `wrong token ${path}`);
            const reader = await post(bobS, path, fields);
            assert.equal(reader.status, 403, `reader ${path}: ${reader.status} ${reader.text.slice(0, 300)}`);
            assert.match(reader.text, /role="alert"[^]*create role/);
        }
        // eve's own organization, alice's translation id: 404; unknown ids too
        assert.equal((await post(eveS, `/o/${eveOrg.id}/translations/${tid}/delete`, {})).status, 404);
        assert.equal((await post(aliceS, `${base()}/nosuchtranslation/delete`, {})).status, 404);
        assert.equal((await post(aliceS, `${base()}/nosuchtranslation/run`, {})).status, 404);
        assert.equal(JSON.stringify(await list()), before, 'nothing created, run or deleted');
    });

    it('bad fields: 400 pages with the domain\'s message, the form again; nothing created', async () => {
        const cases = [
            [{ space: space.id, sourceLanguage: 'en', language: 'klingon' }, /language: must be one of/],
            [{ space: space.id, sourceLanguage: 'en', language: 'en' }, /language: must differ/],
            [{ space: space.id, sourceLanguage: 'en', language: 'ja' }, /language: no libretranslate translation pair[^<]*reachable from en: /],
            [{ space: 'nosuchspace', sourceLanguage: 'en', language: 'es' }, /source\.space: no such space/],
            [{ space: eveSpace.id, sourceLanguage: 'en', language: 'es' }, /source\.space: no such space/],
            [{ space: 'x'.repeat(100), sourceLanguage: 'en', language: 'es' }, /source\.space: must be the id/],
            [{ sourceLanguage: 'en', language: 'es' }, /source\.space: must be the id/],
            [`csrf=${aliceS.csrf}&space=%ZZ&sourceLanguage=en&language=es`, /malformed form data/],
        ];
        for (const [fields, message] of cases) {
            const r = await post(aliceS, base(), fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields).slice(0, 120)}: ${r.status} ${r.text.slice(0, 300)}`);
            assert.match(r.text, message);
            assert.match(r.text, /role="alert"/);
            assert.ok(r.text.includes('id="tr-space"'), 'the form again');
        }
        assert.equal((await list()).length, 1);
    });

    it('instructions: the glossary shown, the document saved through the form and read back; refusals change nothing', async () => {
        const path = `${base()}/${tid}`;
        let t = (await page(aliceS, path)).text;
        assert.match(t, /No glossary: the instructions hold no table of terms\./);
        assert.match(t, new RegExp(`<form method="post" action="${path}/instructions">`));
        assert.match(t, /<textarea id="tr-instructions" name="instructions"[^>]*>\{\n  &quot;object&quot;: &quot;document&quot;/);
        const text = (v) => ({ object: 'text', leaves: [{ object: 'leaf', text: v, marks: [] }] });
        // GitBook's table block (as format/markdown.c writes one): columns, records, fragments
        const terms = [['garden', 'Jardín <b>'], ['dog', 'perro']];
        const column = (id, title) => ({ id, type: 'text', title, textAlignment: 'left' });
        const table = {
            object: 'block', type: 'table', isVoid: true,
            data: {
                view: { type: 'grid', columns: ['c0', 'c1'], hideHeader: false },
                definition: { c0: column('c0', 'Term'), c1: column('c1', 'Translation') },
                records: Object.fromEntries(terms.map((_, i) => [`r${i}`, { orderIndex: `a${i}`, values: { c0: `r${i}c0`, c1: `r${i}c1` } }])),
            },
            fragments: terms.flatMap((pair, i) => pair.map((v, j) => ({
                object: 'fragment', fragment: `r${i}c${j}`, nodes: [{ object: 'block', type: 'paragraph', nodes: [text(v)] }],
            }))),
        };
        const doc = {
            object: 'document', data: {},
            nodes: [{ object: 'block', type: 'paragraph', nodes: [text('Keep <these> terms.')] }, table],
        };
        let r = await post(aliceS, `${path}/instructions`, { instructions: JSON.stringify(doc, null, 2).replace(/\n/g, '\r\n') });
        assert.equal(r.status, 303, r.text.slice(0, 400));
        assert.equal(r.headers.location, `${path}#instructions`);
        const saved = (await ok(alice.api.orgs.getTranslation(org.id, tid), 'getTranslation')).instructions;
        assert.deepEqual(saved, doc);
        t = (await page(aliceS, path)).text;
        assert.match(t, /<table id="tr-glossary">[^]*<td>garden<\/td><td>Jardín &lt;b&gt;<\/td>[^]*<td>dog<\/td><td>perro<\/td>/);
        assert.match(t, /Keep &lt;these&gt; terms\./, 'the textarea holds the document, escaped');
        // a reader sees the glossary, not the form; the POST is refused
        const b = (await page(bobS, path)).text;
        assert.match(b, /<td>garden<\/td>/);
        assert.doesNotMatch(b, /name="instructions"/);
        r = await post(bobS, `${path}/instructions`, { instructions: '{}' });
        assert.equal(r.status, 403);
        assert.match(r.text, /role="alert"[^]*create role/);
        // bad fields: 400 with the message, the typed text shown again
        const big = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', nodes: [text('x'.repeat(70_000))] }] };
        for (const [fields, message] of [
            [{ instructions: JSON.stringify(big) }, /instructions: at most 65536 bytes of JSON/],
            [{ instructions: '{"object": "document", "data": {}' }, /instructions: not JSON \(line 1/],
            [{ instructions: '[1, 2]' }, /instructions: must be a document/],
            [{ instructions: '{"object": "block"}' }, /instructions: must be a document/],
            [{ instructions: '{"object": "document", "data": {}, "nodes": [{"object": "text"}]}' }, /instructions: a node at the top level must be a block/],
            [{}, /instructions: is required/],
            [`csrf=${aliceS.csrf}&instructions=%ZZ`, /instructions: malformed form data/],
            [{ instructions: 'y'.repeat(300_000) }, /instructions: at most 65536 bytes/],
        ]) {
            r = await post(aliceS, `${path}/instructions`, fields);
            assert.equal(r.status, 400, `${JSON.stringify(fields).slice(0, 80)}: ${r.status} ${r.text.slice(0, 300)}`);
            assert.match(r.text, message);
            assert.match(r.text, /role="alert"/);
            assert.match(r.text, /<textarea id="tr-instructions"/, 'the form again');
        }
        assert.match((await post(aliceS, `${path}/instructions`, { instructions: '[1, <2>]' })).text, />\[1, &lt;2&gt;\]<\/textarea>/, 'what was typed comes back');
        assert.equal((await post(aliceS, `${path}/instructions`, { instructions: '{}' }, null)).status, 403);
        assert.equal((await post(eveS, `${path}/instructions`, { instructions: JSON.stringify(doc) })).status, 404);
        assert.equal((await post(eveS, `/o/${eveOrg.id}/translations/${tid}/instructions`, { instructions: 'x' })).status, 404);
        assert.deepEqual((await ok(alice.api.orgs.getTranslation(org.id, tid), 'getTranslation')).instructions, saved, 'nothing changed');
    });

    it('deletes: back to the list, gone from the API; the translated space stays', async () => {
        const t = await ok(alice.api.orgs.getTranslation(org.id, tid), 'getTranslation');
        const r = await post(aliceS, `${base()}/${tid}/delete`, {});
        assert.equal(r.status, 303, r.text.slice(0, 300));
        assert.equal(r.headers.location, base());
        assert.equal((await list()).length, 0);
        const g = await raw(ctx.url, 'GET', `/v1/orgs/${org.id}/translations/${tid}`, { token: alice.token });
        assert.equal(g.status, 404);
        await page(aliceS, `${base()}/${tid}`, 404);
        assert.equal((await raw(ctx.url, 'GET', `/v1/spaces/${t.result.space}`, { token: alice.token })).status, 200);
        assert.equal((await post(aliceS, `${base()}/${tid}/delete`, {})).status, 404, 'deleting again: 404 page');
    });
});

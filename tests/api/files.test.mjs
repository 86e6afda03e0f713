// Uploaded files and PDFs served from signed URLs: no script runs from an upload (nosniff, a
// script-forbidding CSP, attachments for document types), each file entry keeps its own name and
// type (bytes are stored once for everybody), URLs expire and stop with their space, PDFs are
// rendered once and never more than two at a time, and a purged space's bytes are collected.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { setup } from './lib/fixtures.mjs';
import { startServer } from './lib/server.mjs';
import { ok, empty, expectError, raw, rawOk, createOrg, client, validate, sleep } from './lib/api.mjs';

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
// A 2x2 PNG.
const PNG_B64 =
    'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP4z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
const b64 = (s) => Buffer.from(s).toString('base64');

/** The renders a server logged for a revision: [{selection, start, end}] (domain/pdf.c's line). */
function rendersIn(logFile, revision) {
    const out = [];
    for (const line of readFileSync(logFile, 'utf8').split('\n')) {
        if (!line.includes('pdf rendered')) continue;
        const msg = JSON.parse(line).msg;
        const m = /^pdf rendered: revision (\S+), selection (\S+), .* started_ms (\d+), ended_ms (\d+)$/.exec(msg);
        if (m && m[1] === revision) out.push({ selection: m[2], start: Number(m[3]), end: Number(m[4]) });
    }
    return out;
}

/** The path and query of a signed URL, to ask it of another server (a restarted one). */
const pathOf = (url) => {
    const u = new URL(url);
    return u.pathname + u.search;
};

describe('files and PDFs', () => {
    let ctx, alice, mallory, api, org, malloryOrg;
    let server; // the server now running (tests restart it with a shifted clock)
    let url; // its base URL

    /** Insert files into a new change request of space `spaceId`, merge it; the inserted files. */
    async function upload(who, spaceId, files, pages = []) {
        const cr = await ok(who.api.spaces.createChangeRequest(spaceId, { subject: 'Files' }), 'createChangeRequest', 201);
        const res = (
            await rawOk(url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content?compat=false`, {
                token: who.token,
                json: { changes: [...pages, { operation: 'insert_files', files }] },
            })
        ).json;
        validate('updateChangeRequestContent', 200, res.changeRequest);
        for (const f of res.insertedFiles) validate('getFileById', 200, f);
        assert.equal((await ok(who.api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest')).result, 'merge');
        return res.insertedFiles;
    }
    const newSpace = (who, orgId, title) => ok(who.api.orgs.createSpace(orgId, { title }), 'createSpace', 201);
    const fileUrl = async (who, spaceId, fileId) => (await ok(who.api.spaces.getFileById(spaceId, fileId), 'getFileById')).downloadURL;

    /** GET a signed URL: {status, headers (a Headers), bytes}. */
    async function get(u) {
        const res = await fetch(u);
        return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
    }
    /** A signed URL that must answer 404 in GitBook's error envelope. */
    const gone = (u, what) => expectError(raw(url, 'GET', pathOf(u)), 404, what);

    function assertSafe(r, what) {
        assert.equal(r.headers.get('x-content-type-options'), 'nosniff', `${what}: nosniff`);
        const csp = r.headers.get('content-security-policy') || '';
        assert.match(csp, /default-src 'none'/, `${what}: CSP ${csp}`);
        assert.doesNotMatch(csp, /script-src|unsafe-eval/, `${what}: CSP allows no script`);
    }

    before(async () => {
        ctx = await setup();
        server = ctx.server;
        url = ctx.url;
        alice = await ctx.user('alice');
        mallory = await ctx.user('mallory');
        api = alice.api;
        ({ org } = await createOrg(url, alice.token, `Files ${ctx.run}`));
        ({ org: malloryOrg } = await createOrg(url, mallory.token, `Mallory ${ctx.run}`));
    });
    after(async () => {
        if (server) await server.stop();
    });

    it('uploads run no script: nosniff, a CSP without script, attachments for every document type', async () => {
        const s = await newSpace(alice, org.id, 'Uploads');
        const kinds = [
            { name: 'page.html', contentType: 'text/html', body: '<script>alert(document.cookie)</script>', attach: true },
            { name: 'page.xhtml', contentType: 'application/xhtml+xml', body: '<html xmlns="http://www.w3.org/1999/xhtml"><script>alert(1)</script></html>', attach: true },
            { name: 'logo.svg', contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', attach: true },
            { name: 'data.xml', contentType: 'text/xml', body: '<?xml version="1.0"?><a/>', attach: true },
            { name: 'doc.pdf', contentType: 'application/pdf', body: '%PDF-1.4 not really', attach: true },
            { name: 'thing.bin', contentType: 'application/x-unknown-thing', body: 'bytes', attach: true },
            { name: 'notes.txt', contentType: 'text/plain', body: 'plain <b>text</b>', attach: false, type: 'text/plain; charset=utf-8' },
            { name: 'logo.png', contentType: 'image/png', base64: PNG_B64, attach: false },
            { name: 'r\u00e9sum\u00e9 "v2".html', contentType: 'text/html', body: '<p>hi</p>', attach: true },
        ];
        const files = await upload(
            alice,
            s.id,
            kinds.map((k) => ({ name: k.name, contentType: k.contentType, base64: k.base64 ?? b64(k.body) })),
        );
        assert.equal(files.length, kinds.length);
        for (const [i, k] of kinds.entries()) {
            const f = files[i];
            assert.equal(f.name, k.name);
            const r = await get(f.downloadURL);
            assert.equal(r.status, 200, k.name);
            assertSafe(r, k.name);
            assert.equal(r.headers.get('content-type'), k.type ?? k.contentType, `${k.name}: its own type`);
            const cd = r.headers.get('content-disposition') || '';
            assert.match(cd, k.attach ? /^attachment; filename="/ : /^inline; filename="/, `${k.name}: ${cd}`);
            if (k.attach) assert.match(r.headers.get('content-security-policy'), /sandbox/, `${k.name}: sandboxed`);
            assert.deepEqual(r.bytes, Buffer.from(k.base64 ?? b64(k.body), 'base64'), `${k.name}: bytes`);
            assert.match(r.headers.get('cache-control') || '', /^private, max-age=\d+$/);
        }
        // RFC 6266: an ASCII fallback and the exact name in filename*
        const cd = (await get(files[8].downloadURL)).headers.get('content-disposition');
        assert.equal(cd, `attachment; filename="r_sum_ _v2_.html"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%22v2%22.html`);
    });

    it('name and type belong to the file entry: the same bytes as text/html in one organization and text/plain in another', async () => {
        const bytes = `<script>alert("same bytes ${ctx.run}")</script>`;
        // mallory stores the bytes first, as HTML; alice then uploads the same bytes as text
        const ms = await newSpace(mallory, malloryOrg.id, 'Mallory');
        const [mf] = await upload(mallory, ms.id, [{ name: 'evil.html', contentType: 'text/html', base64: b64(bytes) }]);
        const as = await newSpace(alice, org.id, 'Alice');
        const [af] = await upload(alice, as.id, [{ name: 'notes.txt', contentType: 'text/plain', base64: b64(bytes) }]);
        const a = await get(af.downloadURL);
        assert.equal(a.status, 200);
        assert.equal(a.headers.get('content-type'), 'text/plain; charset=utf-8', "alice's upload keeps alice's type");
        assert.equal(a.headers.get('content-disposition'), 'inline; filename="notes.txt"');
        assert.equal(a.bytes.toString(), bytes);
        const m = await get(mf.downloadURL);
        assert.equal(m.status, 200);
        assert.equal(m.headers.get('content-type'), 'text/html');
        assert.equal(m.headers.get('content-disposition'), 'attachment; filename="evil.html"');
        assertSafe(m, "mallory's");
        assert.equal(m.bytes.toString(), bytes);
        // and the other way round for a later upload: mallory's type is not alice's either
        const [mf2] = await upload(mallory, ms.id, [{ name: 'again.html', contentType: 'text/html', base64: b64(bytes) }]);
        assert.equal((await get(mf2.downloadURL)).headers.get('content-type'), 'text/html');
        assert.equal((await get(af.downloadURL)).headers.get('content-type'), 'text/plain; charset=utf-8');
    });

    it('signed URLs: an hour long, one changed character is 404, a deleted space stops them and a restore brings them back', async () => {
        const s = await newSpace(alice, org.id, 'Signed');
        const files = await upload(
            alice,
            s.id,
            [
                { name: 'a.txt', contentType: 'text/plain', base64: b64('file a') },
                { name: 'b.txt', contentType: 'text/plain', base64: b64('file b') },
            ],
            [{ operation: 'insert_page', title: 'Printed', document: { markdown: 'Printed words.\n' } }],
        );
        const [fa, fb] = files;
        const { url: pdf } = await ok(api.spaces.getSpacePdf(s.id), 'getSpacePDF');
        // /files/<space>.<revision>.<file>.<expires>.<sig> and /pdf/<space>.<revision>.<sel>.<expires>.<sig>.pdf
        const m = /\/files\/([^.]+)\.([^.]+)\.([^.]+)\.(\d+)\.([0-9a-f]{32})$/.exec(fa.downloadURL);
        assert.ok(m, fa.downloadURL);
        assert.equal(m[1], s.id);
        assert.equal(m[3], fa.id);
        const expires = Number(m[4]) * 1000;
        assert.ok(expires > Date.now() + HOUR_MS - 60_000 && expires <= Date.now() + HOUR_MS + 6 * 60_000, `expires ${new Date(expires).toISOString()}`);
        const p = /\/pdf\/([^.]+)\.([^.]+)\.all\.(\d+)\.([0-9a-f]{32})\.pdf$/.exec(pdf);
        assert.ok(p, pdf);
        assert.equal(p[1], s.id);
        assert.equal((await get(fa.downloadURL)).bytes.toString(), 'file a');
        const pr = await get(pdf);
        assert.equal(pr.status, 200);
        assert.equal(pr.headers.get('content-type'), 'application/pdf');
        assert.equal(pr.bytes.subarray(0, 5).toString(), '%PDF-');
        assertSafe(pr, 'pdf');
        assert.match(pr.headers.get('content-disposition'), /^inline/);

        // one character of the signature changed; another file's id under this signature; a later expiry
        const flip = (u, at) => u.slice(0, at) + (u[at] === '0' ? '1' : '0') + u.slice(at + 1);
        await gone(flip(fa.downloadURL, fa.downloadURL.length - 1), 'signature changed');
        await gone(flip(fa.downloadURL, fa.downloadURL.length - 33), 'signature changed (first character)');
        await gone(fa.downloadURL.replace(`.${fa.id}.`, `.${fb.id}.`), 'another file under the signature');
        await gone(fa.downloadURL.replace(`.${m[4]}.`, `.${Number(m[4]) + 3600}.`), 'a later expiry');
        await gone(pdf.replace(/\.([0-9a-f])([0-9a-f]{31})\.pdf$/, (_, c, rest) => `.${c === '0' ? '1' : '0'}${rest}.pdf`), 'pdf signature changed');
        await gone(pdf.replace('.all.', `.${files[0].id}.`), 'pdf selection changed');
        // a file URL is no PDF URL
        await gone(`${url}/pdf/${fa.downloadURL.split('/files/')[1]}.pdf`, 'a file signature as a PDF');

        // deleting the space stops both; a restore brings them back (until they expire)
        await empty(api.spaces.deleteSpaceById(s.id), 204, 'deleteSpaceById');
        await gone(fa.downloadURL, 'file of a deleted space');
        await gone(pdf, 'PDF of a deleted space');
        await ok(api.spaces.restoreSpace(s.id), 'restoreSpace');
        assert.equal((await get(fa.downloadURL)).status, 200);
        assert.equal((await get(pdf)).status, 200);
    });

    it('a PDF is rendered once per revision and selection: the second fetch is served from the cache', async () => {
        const s = await newSpace(alice, org.id, 'Cached PDF');
        const pages = Array.from({ length: 12 }, (_, i) => ({
            operation: 'insert_page',
            title: `Chapter ${i}`,
            document: { markdown: `# Chapter ${i}\n\n${'A sentence of the cached PDF. '.repeat(120)}\n` },
        }));
        await upload(alice, s.id, [{ name: 'x.txt', contentType: 'text/plain', base64: b64('x') }], pages);
        const space = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        const { url: pdf } = await ok(api.spaces.getSpacePdf(s.id), 'getSpacePDF');
        let t = Date.now();
        const first = await get(pdf);
        const firstMs = Date.now() - t;
        assert.equal(first.status, 200);
        assert.equal(first.headers.get('x-cache'), 'miss');
        t = Date.now();
        const second = await get(pdf);
        const secondMs = Date.now() - t;
        assert.equal(second.status, 200);
        assert.equal(second.headers.get('x-cache'), 'hit');
        assert.deepEqual(second.bytes, first.bytes);
        // a URL made later for the same content (another expiry) is the same PDF, also cached
        const third = await get(pdf);
        assert.equal(third.headers.get('x-cache'), 'hit');
        assert.equal(renders(space.revision).length, 1, 'rendered once');
        assert.ok(secondMs < firstMs, `the cached fetch (${secondMs} ms) is faster than the render (${firstMs} ms)`);
        // another selection of the same revision is another PDF
        const pg = (await ok(api.spaces.listPages(s.id), 'listPages')).pages[3];
        const { url: one } = await ok(api.spaces.getSpacePdf(s.id, { page: pg.id, only: true }), 'getSpacePDF');
        assert.equal((await get(one)).headers.get('x-cache'), 'miss');
        assert.equal((await get(one)).headers.get('x-cache'), 'hit');
        assert.equal(renders(space.revision).length, 2);
    });

    const renders = (revision) => rendersIn(server.logFile, revision);

    /** Restart the server on the same data with its clock `offsetMs` ahead. */
    async function restart(offsetMs) {
        const dataDir = server.dataDir;
        await server.stop({ keepData: true });
        server = null;
        server = await startServer({ dataDir, extraArgs: ['--clock-offset-ms', String(offsetMs)] });
        url = server.url;
        for (const who of [alice, mallory]) who.api = client(url, who.token);
        api = alice.api;
    }

    it('URLs expire: after two hours (a server restarted with --clock-offset-ms 7200000) they are 404; new ones work', async () => {
        const s = await newSpace(alice, org.id, 'Expiring');
        const [f] = await upload(alice, s.id, [{ name: 'e.txt', contentType: 'text/plain', base64: b64('expiring') }], [
            { operation: 'insert_page', title: 'E', document: { markdown: 'E.\n' } },
        ]);
        const { url: pdf } = await ok(api.spaces.getSpacePdf(s.id), 'getSpacePDF');
        assert.equal((await get(f.downloadURL)).status, 200);
        await restart(2 * HOUR_MS);
        await gone(`${url}${pathOf(f.downloadURL)}`, 'an expired file URL');
        await gone(`${url}${pathOf(pdf)}`, 'an expired PDF URL');
        const fresh = await fileUrl(alice, s.id, f.id);
        assert.notEqual(pathOf(fresh), pathOf(f.downloadURL));
        assert.equal((await get(fresh)).bytes.toString(), 'expiring');
        const { url: pdf2 } = await ok(api.spaces.getSpacePdf(s.id), 'getSpacePDF');
        assert.equal((await get(pdf2)).status, 200);
    });

    it('a purged space: its file URLs are 404 and its bytes are collected; bytes it shared with a live space stay', async () => {
        const shared = `shared bytes ${ctx.run}`;
        const doomed = await newSpace(alice, org.id, 'Doomed');
        const live = await newSpace(alice, org.id, 'Live');
        const [own, mine] = await upload(alice, doomed.id, [
            { name: 'own.txt', contentType: 'text/plain', base64: b64(`only in the doomed space ${ctx.run}`) },
            { name: 'shared.txt', contentType: 'text/plain', base64: b64(shared) },
        ], [{ operation: 'insert_page', title: 'Doomed page', document: { markdown: `Doomed body ${ctx.run}.\n` } }]);
        const [kept] = await upload(alice, live.id, [{ name: 'kept.txt', contentType: 'text/plain', base64: b64(shared) }]);
        await empty(api.spaces.deleteSpaceById(doomed.id), 204, 'deleteSpaceById');
        await gone(own.downloadURL, 'file of a deleted space');
        // eight days on: the purge removes the space at start, then the collection takes its bytes
        const logFrom = readFileSync(server.logFile).length;
        await restart(8 * DAY_MS);
        await expectError(api.spaces.getSpaceById(doomed.id), 404, 'the purged space');
        for (const f of [own, mine]) await gone(`${url}${pathOf(f.downloadURL)}`, 'file of a purged space');
        const log = readFileSync(server.logFile).subarray(logFrom).toString('utf8');
        const c = /collected (\d+) page bodies and (\d+) file blobs/.exec(log);
        assert.ok(c, `the collection ran at start and said what it took:\n${log}`);
        assert.ok(Number(c[1]) >= 1 && Number(c[2]) >= 1, c[0]);
        // the live space's copy of the shared bytes still serves
        const r = await get(await fileUrl(alice, live.id, kept.id));
        assert.equal(r.status, 200);
        assert.equal(r.bytes.toString(), shared);
    });
});

// Renders at once: a server with eight HTTP threads (so that concurrent fetches are not already
// serialized by sharing a thread), fetches started 40 ms apart so that each lands on an idle thread.
describe('PDF renders at once', () => {
    let ctx, alice;
    before(async () => {
        ctx = await setup({ extraArgs: ['--threads', '8'] });
        alice = await ctx.user('alice');
    });
    after(() => ctx?.server.stop());

    it('concurrent fetches of different PDFs: all answered, never more than two rendering at once', async () => {
        const api = alice.api;
        const { org } = await createOrg(ctx.url, alice.token, `Renders ${ctx.run}`);
        const s = await ok(api.orgs.createSpace(org.id, { title: 'Many PDFs' }), 'createSpace', 201);
        const cr = await ok(api.spaces.createChangeRequest(s.id, { subject: 'Parts' }), 'createChangeRequest', 201);
        const changes = Array.from({ length: 6 }, (_, i) => ({
            operation: 'insert_page',
            title: `Part ${i}`,
            document: { markdown: `# Part ${i}\n\n${`Text of part ${i}, long enough to take a while to set. `.repeat(4000)}\n` },
        }));
        await rawOk(ctx.url, 'POST', `/v1/spaces/${s.id}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } }, 'updateChangeRequestContent');
        assert.equal((await ok(api.spaces.mergeChangeRequest(s.id, cr.id), 'mergeChangeRequest')).result, 'merge');
        const space = await ok(api.spaces.getSpaceById(s.id), 'getSpaceById');
        const ps = (await ok(api.spaces.listPages(s.id), 'listPages')).pages;
        const urls = [];
        for (const p of ps) urls.push((await ok(api.spaces.getSpacePdf(s.id, { page: p.id, only: true }), 'getSpacePDF')).url);
        const results = await Promise.all(
            urls.map(async (u, i) => {
                await sleep(40 * i);
                const res = await fetch(u);
                return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
            }),
        );
        for (const r of results) {
            assert.equal(r.status, 200);
            assert.equal(r.bytes.subarray(0, 5).toString(), '%PDF-');
        }
        const runs = rendersIn(ctx.server.logFile, space.revision);
        assert.equal(runs.length, 6, 'each selection rendered once');
        // the most renders in flight at any moment, from their logged start and end times
        const events = runs.flatMap((r) => [[r.start, 1], [r.end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
        let now = 0;
        let peak = 0;
        for (const [, d] of events) peak = Math.max(peak, (now += d));
        assert.ok(peak <= 2, `at most two renders at once, saw ${peak}: ${JSON.stringify(runs)}`);
        assert.equal(peak, 2, 'two render side by side');
    });
});

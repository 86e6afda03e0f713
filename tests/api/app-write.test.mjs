// The web interface's writing pages (issue 25, "Writing"; src/app/pages_write.c): a member who may
// edit starts a change request from a space, creates a page, edits its title and markdown (with a
// server-rendered preview, and the POST preview fragment edit.js uses), moves and deletes pages.
// Every save is one updateChangeRequestContent batch: the API sees each save as the change
// request's content (same pages, same markdown) and the space is untouched until merge. Hostile
// cases: CSRF missing or wrong -> 403 page and nothing written; a reader sees no controls and is
// refused by the domain; another organization's ids -> 404 page; malformed and oversized fields
// -> 400 page naming the field; a merged change request refuses edits with the domain's message.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember, validate } from './lib/api.mjs';
import { HTML, FORM, PASSWORD, setPassword, signIn } from './lib/app.mjs';

describe('web interface: writing through change requests', () => {
    let ctx, alice, bob, eve, org, otherOrg, space, otherSpace, aliceS, bobS, eveS, crNumber, crId, pageId, childId;

    const get = async (who, path, status = 200) => {
        const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
        assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 400)}`);
        return r;
    };
    const post = async (who, path, fields, status, { csrf = who.csrf, headers = {} } = {}) => {
        const body = new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString();
        const r = await raw(ctx.url, 'POST', path, { body, headers: { ...FORM, Cookie: who.cookie, ...headers } });
        assert.equal(r.status, status, `POST ${path}: expected ${status}, got ${r.status} ${r.headers.location ?? ""}: ${r.text.slice(0, 600)}`);
        return r;
    };
    const crPages = async () => (await ok(alice.api.spaces.listPagesInChangeRequest(space.id, crId), 'listPagesInChangeRequest')).pages;
    const crPage = async (id) => ok(alice.api.spaces.getPageInChangeRequestById(space.id, crId, id, { format: 'markdown' }), 'getPageInChangeRequestById');
    const revisionOf = async () => (await ok(alice.api.spaces.getChangeRequestById(space.id, crId), 'getChangeRequestById')).revision;
    const allCrs = async () => {
        const items = [];
        for (const status of ['open', 'draft']) items.push(...(await ok(alice.api.spaces.listChangeRequestsForSpace(space.id, { status }), 'listChangeRequestsForSpace')).items);
        return { items };
    };
    const base = () => `/s/${space.id}/~/changes/${crNumber}`;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        bob = await ctx.user('bob');
        eve = await ctx.user('eve');
        ({ org } = await createOrg(ctx.url, alice.token, `Acme ${ctx.run}`));
        ({ org: otherOrg } = await createOrg(ctx.url, eve.token, `Eve ${ctx.run}`));
        await addMember(alice.api, org.id, bob.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guide' }), 'createSpace', 201);
        otherSpace = await ok(eve.api.orgs.createSpace(otherOrg.id, { title: 'Secret' }), 'createSpace', 201);
        for (const u of [alice, bob, eve]) await setPassword(ctx.server, u.email, PASSWORD);
        aliceS = await signIn(ctx.url, alice.email, PASSWORD);
        bobS = await signIn(ctx.url, bob.email, PASSWORD);
        eveS = await signIn(ctx.url, eve.email, PASSWORD);
    });
    after(() => ctx?.server.stop());

    it('starts a change request from a space (POST, 303 to its pages), the API sees it', async () => {
        // the space page has the form for an editor only
        const sp = (await get(aliceS, `/s/${space.id}`)).text;
        assert.match(sp, new RegExp(`<form class="write row" method="post" action="/s/${space.id}/~/changes/new">`));
        assert.match(sp, /<label for="cr-subject">New change request<\/label>/);
        assert.doesNotMatch((await get(bobS, `/s/${space.id}`)).text, /changes\/new/);
        await post(aliceS, `/s/${space.id}/~/changes/new`, { subject: 'Write <docs>' }, 403, { csrf: 'nope' });
        await post(aliceS, `/s/${space.id}/~/changes/new`, { subject: 'Write <docs>' }, 403, { csrf: null });
        let list = await allCrs();
        assert.equal(list.items.length, 0, 'a refused form wrote nothing');
        const r = await post(aliceS, `/s/${space.id}/~/changes/new`, { subject: 'Write <docs>' }, 303);
        const m = r.headers.location.match(new RegExp(`^/s/${space.id}/~/changes/(\\d+)/~/edit$`));
        assert.ok(m, r.headers.location);
        crNumber = m[1];
        list = await allCrs();
        assert.equal(list.items.length, 1);
        assert.equal(list.items[0].subject, 'Write <docs>');
        assert.equal(String(list.items[0].number), crNumber);
        crId = list.items[0].id;
        const t = (await get(aliceS, r.headers.location)).text;
        assert.match(t, /No pages yet/);
        assert.match(t, /Write &lt;docs&gt;/);
        assert.match(t, new RegExp(`action="${base()}/~/pages"`));
        assert.match(t, /<label for="new-title">Title<\/label>/);
        // the change request's page links its editor for an editor only
        const crp = (await get(aliceS, base())).text;
        assert.match(crp, new RegExp(`<a class="button" href="${base()}/~/edit">Edit pages</a>`));
        assert.doesNotMatch((await get(bobS, base())).text, /Edit pages/);
        // a reader cannot start one: the domain's refusal, shown as a page
        const b = await post(bobS, `/s/${space.id}/~/changes/new`, { subject: 'x' }, 404);
        assert.match(b.text, /<h1>Not found<\/h1>/);
        // another organization's space is the 404 page
        await post(aliceS, `/s/${otherSpace.id}/~/changes/new`, { subject: 'x' }, 404);
    });

    it('creates a page and a child page: one batch each, the API sees them', async () => {
        const rev0 = await revisionOf();
        const r = await post(aliceS, `${base()}/~/pages`, { title: 'Getting started', parent: '' }, 303);
        const m = r.headers.location.match(new RegExp(`^${base()}/~/edit/([A-Za-z0-9_-]+)$`));
        assert.ok(m, r.headers.location);
        pageId = m[1];
        const rev1 = await revisionOf();
        assert.notEqual(rev1, rev0, 'the save is a revision of the change request');
        const r2 = await post(aliceS, `${base()}/~/pages`, { title: 'Child', parent: pageId }, 303);
        childId = r2.headers.location.split('/').pop();
        const pages = await crPages();
        assert.equal(pages.length, 1);
        assert.equal(pages[0].title, 'Getting started');
        assert.equal(pages[0].pages[0].id, childId);
        // the space itself is untouched until merge
        const sp = await ok(alice.api.spaces.listPages(space.id), 'listPages');
        assert.equal(sp.pages.length, 0);
        // title required; unknown parent is the domain's 400 on the form page
        const e1 = await post(aliceS, `${base()}/~/pages`, { title: '' }, 400);
        assert.match(e1.text, /role="alert">title: required/);
        const e2 = await post(aliceS, `${base()}/~/pages`, { title: 'X', parent: 'nosuchpage' }, 400);
        assert.match(e2.text, /role="alert">[^<]*into[^<]*no such page/);
        assert.equal((await crPages()).length, 1, 'nothing written by a refused form');
    });

    it('the editor: title, markdown, preview; save is one updateChangeRequestContent batch', async () => {
        const t = (await get(aliceS, `${base()}/~/edit/${pageId}`)).text;
        assert.match(t, /<label for="title">Title<\/label><input id="title" name="title"[^>]* value="Getting started">/);
        assert.match(t, /<label for="markdown">Markdown<\/label><textarea id="markdown" name="markdown"/);
        assert.match(t, /<script src="\/~app\/edit\.js\?v=[0-9a-f]{16}" defer><\/script>/);
        assert.match(t, /<button type="submit" name="action" value="preview"/);
        assert.doesNotMatch(t, /<script>/);
        // Preview without script: nothing saved, the page comes back with the rendered markdown
        const rev = await revisionOf();
        const md = '# Getting started\n\nInstall **docsd** <script>alert(1)</script>\n\n## Next\n';
        const pv = await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'Start here', markdown: md, action: 'preview' }, 200);
        assert.match(pv.text, /Install <strong>docsd<\/strong>/);
        assert.doesNotMatch(pv.text, /<script>alert/);
        assert.match(pv.text, /value="Start here"/, 'the form keeps what was typed');
        assert.match(pv.text, /role="status">This preview is not saved yet/);
        assert.equal(await revisionOf(), rev, 'a preview writes nothing');
        // the POST preview fragment (edit.js): token required, a fragment without the frame
        const frag = await post(aliceS, `/s/${space.id}/~/preview`, { markdown: 'Hello *there*' }, 200);
        assert.match(frag.text, /<em>there<\/em>/);
        assert.doesNotMatch(frag.text, /<html|<!doctype/i);
        await post(aliceS, `/s/${space.id}/~/preview`, { markdown: 'x' }, 403, { csrf: null });
        const hdr = await post(aliceS, `/s/${space.id}/~/preview`, { markdown: '`x`' }, 200, { csrf: null, headers: { 'X-CSRF-Token': aliceS.csrf } });
        assert.match(hdr.text, /<code>x<\/code>/);
        // Save: 303 to the page in the change request; the API sees the same page
        const s = await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'Start here', markdown: md, action: 'save' }, 303);
        assert.match(s.headers.location, new RegExp(`^${base()}/getting-started$`));
        const pg = await crPage(pageId);
        assert.equal(pg.title, 'Start here');
        assert.equal(pg.markdown ?? (await raw(ctx.url, 'GET', `/v1/spaces/${space.id}/change-requests/${crId}/content/page/${pageId}?format=markdown`, { token: alice.token })).json.markdown, md.replace(/^# Getting started\n\n/, '# Getting started\n\n'));
        assert.notEqual(await revisionOf(), rev, 'the save made a revision');
        const shown = (await get(aliceS, s.headers.location)).text;
        assert.match(shown, /Install <strong>docsd<\/strong>/);
        assert.match(shown, new RegExp(`<a class="button" href="${base()}/~/edit/${pageId}">Edit this page</a>`));
        assert.doesNotMatch((await get(bobS, s.headers.location)).text, /Edit this page/);
        // a title alone (a group's form): a rename, the markdown kept
        const before = (await crPage(pageId)).markdown;
        await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'Start here!' }, 303);
        assert.equal((await crPage(pageId)).title, 'Start here!');
        assert.equal((await crPage(pageId)).markdown, before);
        await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'Start here' }, 303);
        const neither = await post(aliceS, `${base()}/~/edit/${pageId}`, {}, 400);
        assert.match(neither.text, /role="alert">markdown: required/);
        // an empty title keeps the page's; a title too long is the domain's 400
        const long = await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'x'.repeat(257), markdown: 'y' }, 400);
        assert.match(long.text, /title/);
    });

    it('moves a page (parent, position) and deletes one, each one batch', async () => {
        // the child to the top level, first
        const mv = await post(aliceS, `${base()}/~/move/${childId}`, { parent: '', position: '1' }, 303);
        assert.match(mv.headers.location, new RegExp(`^${base()}/`));
        let pages = await crPages();
        assert.deepEqual(pages.map((p) => p.id), [childId, pageId]);
        // under itself: the domain's message on the editor
        const bad = await post(aliceS, `${base()}/~/move/${pageId}`, { parent: pageId, position: '1' }, 400);
        assert.match(bad.text, /role="alert">[^<]*into/);
        const badPos = await post(aliceS, `${base()}/~/move/${pageId}`, { parent: '', position: 'abc' }, 400);
        assert.match(badPos.text, /position/);
        // delete
        const del = await post(aliceS, `${base()}/~/delete/${childId}`, {}, 303);
        assert.equal(del.headers.location, `${base()}/~/edit`);
        pages = await crPages();
        assert.deepEqual(pages.map((p) => p.id), [pageId]);
        // the page is gone: its editor (where the error would show) is the 404 page
        await post(aliceS, `${base()}/~/delete/${childId}`, {}, 404);
    });


    it('the pages list\'s drag and drop move (back=index): refusals on the list, nothing moved', async () => {
        const r1 = await post(aliceS, `${base()}/~/pages`, { title: 'Parent' }, 303);
        const parentId = r1.headers.location.split('/').pop();
        const r2 = await post(aliceS, `${base()}/~/pages`, { title: 'Kid', parent: parentId }, 303);
        const kidId = r2.headers.location.split('/').pop();
        const tree = async () => JSON.stringify((await crPages()).map((p) => [p.id, (p.pages ?? []).map((c) => c.id)]));
        const before = await tree(), rev = await revisionOf();
        assert.ok(before.includes(`["${parentId}",["${kidId}"]]`), before);
        const mv = `${base()}/~/move/${parentId}`, to = { parent: '', position: '1', back: 'index' };
        // no token, another session's token: 403
        await post(aliceS, mv, to, 403, { csrf: null });
        await post(aliceS, mv, to, 403, { csrf: bobS.csrf });
        // into itself, into its own child: the domain's 400, on the pages list
        const self = await post(aliceS, mv, { ...to, parent: parentId }, 400);
        assert.match(self.text, /role="alert">[^<]*into/);
        assert.match(self.text, /<h1>Edit pages<\/h1>/, 'the pages list, not the page\'s editor');
        const kid = await post(aliceS, mv, { ...to, parent: kidId }, 400);
        assert.match(kid.text, /role="alert">[^<]*(into|descendant|child|itself)/);
        const pos = (await post(aliceS, mv, { ...to, position: '0' }, 400)).text;
        assert.match(pos, /role="alert">[^<]*position/);
        assert.match(pos, /<h1>Edit pages<\/h1>/);
        // another organization's member, alice's page under eve's space: the 404 page
        await post(eveS, mv, to, 404);
        await post(aliceS, `/s/${otherSpace.id}/~/changes/1/~/move/${parentId}`, to, 404);
        // a reader: refused by the domain
        await post(bobS, mv, to, 403);
        assert.equal(await tree(), before, 'nothing moved');
        assert.equal(await revisionOf(), rev, 'no revision');
        // allowed: back to the list
        const m = await post(aliceS, `${base()}/~/move/${kidId}`, to, 303);
        assert.equal(m.headers.location, `${base()}/~/edit`);
        assert.equal((await crPages())[0].id, kidId);
        await post(aliceS, `${base()}/~/delete/${kidId}`, {}, 303);
        await post(aliceS, `${base()}/~/delete/${parentId}`, {}, 303);
        assert.deepEqual((await crPages()).map((p) => p.id), [pageId]);
    });

    it('uploads images and files (multipart, one insert_files batch); the preview resolves them', async () => {
        // a 1x1 PNG
        const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
        const multipart = (parts, boundary = 'XbOuNdArY42') => {
            const chunks = [];
            for (const p of parts) {
                chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n`));
                chunks.push(Buffer.isBuffer(p.data) ? p.data : Buffer.from(p.data));
                chunks.push(Buffer.from('\r\n'));
            }
            chunks.push(Buffer.from(`--${boundary}--\r\n`));
            return { body: Buffer.concat(chunks), type: `multipart/form-data; boundary=${boundary}` };
        };
        const send = async (who, m, status, extra = {}) => {
            const r = await raw(ctx.url, 'POST', `${base()}/~/upload`, { body: m.body, headers: { ...HTML, 'Content-Type': m.type, Cookie: who.cookie, ...extra } });
            assert.equal(r.status, status, `upload: expected ${status}, got ${r.status}: ${r.text.slice(0, 400)}`);
            return r;
        };
        const rev = await revisionOf();
        const files = [
            { name: 'file', filename: 'logo.png', type: 'image/png', data: png },
            { name: 'file', filename: 'notes.txt', type: 'text/plain', data: 'line 1\r\n--not a boundary\r\nline 3' },
        ];
        // CSRF: none, wrong, then in a part
        await send(aliceS, multipart(files), 403);
        await send(aliceS, multipart([{ name: 'csrf', data: 'x'.repeat(64) }, ...files]), 403);
        assert.equal(await revisionOf(), rev);
        // malformed multipart (the token in the header so the parser's refusal shows): 400 page
        const bad = await send(aliceS, { body: Buffer.from('--XbOuNdArY42\r\nno headers end'), type: 'multipart/form-data; boundary=XbOuNdArY42' }, 400, { 'X-CSRF-Token': aliceS.csrf });
        assert.match(bad.text, /role="alert">the upload is not valid multipart\/form-data/);
        const none = await send(aliceS, multipart([{ name: 'csrf', data: aliceS.csrf }, { name: 'file', filename: '', type: 'application/octet-stream', data: '' }]), 400);
        assert.match(none.text, /file: choose a file/);
        // too large for the domain (over 1 MB): its 400 naming the field
        const big = await send(aliceS, multipart([{ name: 'csrf', data: aliceS.csrf }, { name: 'file', filename: 'big.bin', type: 'application/octet-stream', data: Buffer.alloc(1024 * 1024 + 1) }]), 400);
        assert.match(big.text, /files\[0\][^<]*larger than 1 MB/);
        // a bad media type: the domain's 400
        const mt = await send(aliceS, multipart([{ name: 'csrf', data: aliceS.csrf }, { name: 'file', filename: 'x', type: 'not a media type', data: 'x' }]), 400);
        assert.match(mt.text, /files\[0\]\.contentType/);
        assert.equal(await revisionOf(), rev, 'nothing written by the refused uploads');
        // the real one: one batch, both files, 303 to the files section
        const r = await send(aliceS, multipart([{ name: 'csrf', data: aliceS.csrf }, ...files]), 303);
        assert.equal(r.headers.location, `${base()}/~/edit#files`);
        const list = await ok(alice.api.spaces.listFilesInChangeRequestById(space.id, crId), 'listFilesInChangeRequestById');
        const logo = list.items.find((f) => f.name === 'logo.png');
        const notes = list.items.find((f) => f.name === 'notes.txt');
        assert.ok(logo && notes, JSON.stringify(list.items));
        assert.equal(logo.contentType, 'image/png');
        assert.equal(notes.size, 'line 1\r\n--not a boundary\r\nline 3'.length, 'a CRLF and dashes inside a part are data');
        const dl = await raw(ctx.url, 'GET', new URL(logo.downloadURL).pathname + new URL(logo.downloadURL).search);
        assert.equal(dl.status, 200);
        // the pages list shows each file with the markdown that shows it
        const idx = (await get(aliceS, `${base()}/~/edit`)).text;
        assert.match(idx, new RegExp(`<code>!\\[logo.png\\]\\(/files/${logo.id}\\)</code>`));
        assert.match(idx, /enctype="multipart\/form-data"/);
        // the preview (with the change request) shows the image through its signed URL
        const frag = await post(aliceS, `/s/${space.id}/~/preview`, { markdown: `![logo](/files/${logo.id})`, cr: crNumber }, 200);
        assert.match(frag.text, /<img src="[^"]*\/files\/[^"]+"/);
        assert.doesNotMatch(frag.text, new RegExp(`src="/files/${logo.id}"`));
        // another organization's user cannot upload here, nor preview this space
        await send(eveS, multipart([{ name: 'csrf', data: eveS.csrf }, ...files]), 404);
        await post(eveS, `/s/${space.id}/~/preview`, { markdown: 'x' }, 404);
    });

    it('hostile: CSRF, a reader, another organization, malformed and oversized fields', async () => {
        const rev = await revisionOf();
        await post(aliceS, `${base()}/~/edit/${pageId}`, { markdown: 'evil' }, 403, { csrf: 'x'.repeat(64) });
        await post(aliceS, `${base()}/~/delete/${pageId}`, {}, 403, { csrf: null });
        // the reader sees no controls, and the domain refuses the forms
        const idx = (await get(bobS, `${base()}/~/edit`)).text;
        assert.match(idx, /may read this change request but not edit it/);
        assert.doesNotMatch(idx, /<form class="write/);
        const ed = (await get(bobS, `${base()}/~/edit/${pageId}`)).text;
        assert.doesNotMatch(ed, /<textarea/);
        const rb = await post(bobS, `${base()}/~/edit/${pageId}`, { markdown: 'evil' }, 403);
        assert.match(rb.text, /role="alert"/);
        // another organization: eve's session on alice's change request, alice on eve's space
        await get(eveS, `${base()}/~/edit`, 404);
        await get(eveS, `${base()}/~/edit/${pageId}`, 404);
        await post(eveS, `${base()}/~/edit/${pageId}`, { markdown: 'evil' }, 404);
        await post(eveS, `${base()}/~/delete/${pageId}`, {}, 404);
        await get(aliceS, `/s/${otherSpace.id}/~/changes/1/~/edit`, 404);
        await get(aliceS, `${base()}/~/edit/nosuchpage`, 404);
        await get(aliceS, `/s/${space.id}/~/changes/abc/~/edit`, 404);
        // malformed: a bad escape, invalid UTF-8; wrong content type
        const body = `csrf=${aliceS.csrf}&markdown=%ZZ`;
        const m1 = await raw(ctx.url, 'POST', `${base()}/~/edit/${pageId}`, { body, headers: { ...FORM, Cookie: aliceS.cookie } });
        assert.equal(m1.status, 400, m1.text.slice(0, 300));
        assert.match(m1.text, /markdown: not valid form data/);
        const m2 = await raw(ctx.url, 'POST', `${base()}/~/edit/${pageId}`, { body: `csrf=${aliceS.csrf}&title=%FF`, headers: { ...FORM, Cookie: aliceS.cookie } });
        assert.equal(m2.status, 400);
        const m3 = await raw(ctx.url, 'POST', `${base()}/~/edit/${pageId}`, {
            body: JSON.stringify({ markdown: 'x' }),
            headers: { ...HTML, 'Content-Type': 'application/json', 'X-CSRF-Token': aliceS.csrf, Cookie: aliceS.cookie },
        });
        assert.equal(m3.status, 400);
        // oversized markdown (over 1 MB): a 400 page, never a 500
        const big = await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'T', markdown: 'a'.repeat(1024 * 1024 + 10) }, 400);
        assert.match(big.text, /markdown|too large/);
        assert.equal(await revisionOf(), rev, 'nothing was written by any of these');
    });

    it('a merged change request refuses edits with the domain message; GET of a POST-only path is 405/404', async () => {
        await ok(alice.api.spaces.mergeChangeRequest(space.id, crId), 'mergeChangeRequest');
        const sp = await ok(alice.api.spaces.listPages(space.id), 'listPages');
        assert.equal(sp.pages[0].title, 'Start here', 'the UI\'s saves merged like any API batch');
        const r = await post(aliceS, `${base()}/~/edit/${pageId}`, { title: 'Late', markdown: 'late' }, 409);
        assert.match(r.text, /role="alert">/);
        assert.doesNotMatch(r.text, /<textarea/);
        const t = (await get(aliceS, `${base()}/~/edit/${pageId}`)).text;
        assert.match(t, /<h1>Edit/);
        assert.match(t, /This change request takes no more edits/);
        assert.doesNotMatch(t, /<form class="write/);
        const idx = (await get(aliceS, `${base()}/~/edit`)).text;
        assert.match(idx, /This change request is merged: it takes no more edits/);
        assert.doesNotMatch(idx, /<form class="write/);
        assert.doesNotMatch((await get(aliceS, base())).text, /Edit pages/);
        assert.doesNotMatch((await get(aliceS, `${base()}/getting-started`)).text, /Edit this page/);
        const js = await raw(ctx.url, 'GET', '/~app/edit.js?v=0123456789abcdef');
        assert.equal(js.status, 200);
        assert.match(js.headers['content-type'], /^text\/javascript/);
        assert.match(js.headers['cache-control'], /immutable/);
        assert.ok(validate, 'schema helper loaded');
    });
});

// A content batch's file URLs are fetched only for a caller who may change that change
// request's content: the access check runs (in a short read transaction) before any fetch,
// so a token alone cannot make the server fetch URLs on a space it cannot edit.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, addMember } from './lib/api.mjs';

describe('URLs are fetched only after the access check', () => {
    let ctx, alice, reader, outsider, org, space, cr, files, filesUrl;
    let hits = 0;

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network'] });
        alice = await ctx.user('alice');
        reader = await ctx.user('reader');
        outsider = await ctx.user('outsider');
        ({ org } = await createOrg(ctx.url, alice.token, `Prefetch ${ctx.run}`));
        await addMember(alice.api, org.id, reader.email, 'read');
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Guarded' }), 'createSpace', 201);
        cr = await ok(alice.api.spaces.createChangeRequest(space.id, { subject: 'Files' }), 'createChangeRequest', 201);
        files = createServer((req, res) => {
            hits++;
            res.writeHead(200, { 'Content-Type': 'text/plain' });
            res.end('fetched bytes');
        });
        await new Promise((r) => files.listen(0, '127.0.0.1', r));
        filesUrl = `http://127.0.0.1:${files.address().port}`;
    });
    after(async () => {
        files?.closeAllConnections?.();
        await new Promise((r) => (files ? files.close(r) : r()));
        await ctx?.server.stop();
    });

    const batch = (name) => ({ changes: [{ operation: 'insert_files', files: [{ name, url: `${filesUrl}/${name}` }] }] });
    const post = (token, crId = cr.id) =>
        raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${crId}/content`, { token, json: batch('a.txt') });

    it('a reader gets 403, an outsider 404, an unknown change request 404: no fetch', async () => {
        assert.equal((await post(reader.token)).status, 403);
        assert.equal((await post(outsider.token)).status, 404);
        assert.equal((await post(alice.token, 'no-such-change-request')).status, 404);
        assert.equal(hits, 0, 'the file server was never asked');
    });

    it('an archived change request is a 409 before any fetch; an editor fetches once', async () => {
        await ok(alice.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'archived' }), 'updateChangeRequestById');
        assert.equal((await post(alice.token)).status, 409);
        assert.equal(hits, 0);
        await ok(alice.api.spaces.updateChangeRequestById(space.id, cr.id, { status: 'open' }), 'updateChangeRequestById');
        const r = await post(alice.token);
        assert.equal(r.status, 200, r.text);
        assert.equal(hits, 1);
    });
});

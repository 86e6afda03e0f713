// Query parameters GitBook's document names are honoured, never silently ignored. The content
// reads' `metadata=false` leaves out Git sync's metadata (git-metadata.test.mjs has its shape),
// which a space that never synced has none of; `computed`, `evaluated` and the customization's
// `unmasked` switch nothing docsd has (computed pages, variables, masked secrets). So here every
// value gives the same answer, but a value that is not a boolean is a 400 naming the parameter.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { setup } from './lib/fixtures.mjs';
import { ok, raw, createOrg, validate } from './lib/api.mjs';

describe('named query parameters', () => {
    let ctx, alice, org, space, site;

    before(async () => {
        ctx = await setup();
        alice = await ctx.user('alice');
        ({ org } = await createOrg(ctx.url, alice.token, `Params ${ctx.run}`));
        space = await ok(alice.api.orgs.createSpace(org.id, { title: 'Params' }), 'createSpace', 201);
        site = await ok(alice.api.orgs.createSite(org.id, { title: 'Params site', spaces: [space.id] }), 'createSite', 201);
    });
    after(async () => {
        if (ctx) await ctx.server.stop();
    });

    const get = (path) => raw(ctx.url, 'GET', path, { token: alice.token });

    it('content reads take metadata, computed and evaluated as booleans', async () => {
        const reads = [
            ['getCurrentRevision', `/v1/spaces/${space.id}/content`],
            ['listPages', `/v1/spaces/${space.id}/content/pages`],
            ['listFiles', `/v1/spaces/${space.id}/content/files`],
        ];
        for (const [op, path] of reads) {
            const plain = await get(path);
            assert.equal(plain.status, 200, `${op}: ${plain.text}`);
            for (const q of ['metadata=false', 'computed=false', 'metadata=true&computed=true', 'evaluated=true']) {
                const r = await get(`${path}?${q}`);
                assert.equal(r.status, 200, `${op}?${q}: ${r.text}`);
                validate(op, 200, r.json);
                assert.deepEqual(r.json, plain.json, `${op}?${q}: the same content`);
            }
            for (const name of ['metadata', 'computed', 'evaluated']) {
                const r = await get(`${path}?${name}=yes`);
                assert.equal(r.status, 400, `${op}?${name}=yes`);
                assert.match(r.json.error.message, new RegExp(name));
            }
        }
    });

    it('site customization reads take unmasked as a boolean', async () => {
        const path = `/v1/orgs/${org.id}/sites/${site.id}/customization`;
        const plain = await get(path);
        assert.equal(plain.status, 200, plain.text);
        const un = await get(`${path}?unmasked=true`);
        assert.equal(un.status, 200);
        validate('getSiteCustomizationById', 200, un.json);
        assert.deepEqual(un.json, plain.json);
        const bad = await get(`${path}?unmasked=1`);
        assert.equal(bad.status, 400);
        assert.match(bad.json.error.message, /unmasked/);
        const spaces = await ok(alice.api.orgs.listSiteSpaces(org.id, site.id), 'listSiteSpaces');
        const ss = spaces.items[0];
        const sp = await get(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${ss.id}/customization?unmasked=false`);
        assert.equal(sp.status, 200, sp.text);
        assert.equal((await get(`/v1/orgs/${org.id}/sites/${site.id}/site-spaces/${ss.id}/customization?unmasked=no`)).status, 400);
    });
});

// Integration access (issue 31, and issue 30's configuration item): one rule decides what an
// actor of each kind may do to an installation, a space, a collection and a site
// (src/domain/integration_access.c). The matrix below is that rule seen from the API: every
// actor kind x every integration route and object kind, asserting the status, the schema of
// every 2xx body, and that no body carries another organization's ids, titles or
// configuration values, nor a configuration to someone the rule does not show it to. Then one
// regression test per defect of issue 31 (cross-organization reads, self-widening, selection
// on collections and permission management, configuration inside an organization, name reuse)
// and its two low items ('.' / '..' names, blank icons).
//
// Cast: organization B (alice admin, bob read member, gus a guest through a space grant),
// organization C (carol admin), eve nobody's member. Integration I1 (B's, public, scopes
// content:read + metadata:write + site:script:inject) installed on B (selected: one space of
// the two in B's collection) and on C (all spaces); I2 (content:read) and I3 (no scopes) on B.
// The integration token comes from a delivery's environment through a development tunnel.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { setup } from './lib/fixtures.mjs';
import { client, ok, empty, expectError, raw, createOrg, addMember, sleep } from './lib/api.mjs';
import { validate } from './lib/schema.mjs';
import { HTML, signInAll } from './lib/app.mjs';

const B_SECRET = 'b-config-secret-3141';
const C_SECRET = 'c-config-secret-2718';
const I2_SECRET = 'i2-config-secret-1618';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082', 'hex').toString('base64');

/** A development tunnel: keeps the environment of every delivery. */
async function tunnel() {
    const t = { envs: [] };
    t.server = http.createServer((req, res) => {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', async () => {
            try {
                const r = new Request(`http://x${req.url}`, { method: 'POST', headers: { 'content-type': req.headers['content-type'] }, body: Buffer.concat(chunks) });
                const fd = await r.formData();
                t.envs.push(JSON.parse(fd.get('environment')));
            } catch {}
            res.writeHead(200, { 'content-type': 'text/plain' });
            res.end('OK');
        });
    });
    await new Promise((r) => t.server.listen(0, '127.0.0.1', r));
    t.url = `http://127.0.0.1:${t.server.address().port}`;
    return t;
}

async function waitFor(what, fn, ms = 60_000) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(100);
    }
}

/** A request whose path is sent as written (no URL normalization of '.' and '..'). */
function rawPath(baseUrl, method, path, token, json) {
    const u = new URL(baseUrl);
    const payload = json ? Buffer.from(JSON.stringify(json)) : null;
    const headers = { Authorization: `Bearer ${token}` };
    if (payload) Object.assign(headers, { 'Content-Type': 'application/json', 'Content-Length': String(payload.length) });
    return new Promise((resolve, reject) => {
        const req = http.request({ host: u.hostname, port: u.port, method, path, headers }, (res) => {
            const chunks = [];
            res.on('data', (c) => chunks.push(c));
            res.on('end', () => {
                const text = Buffer.concat(chunks).toString('utf8');
                let j;
                try {
                    j = JSON.parse(text);
                } catch {}
                resolve({ status: res.statusCode, text, json: j });
            });
        });
        req.on('error', reject);
        if (payload) req.write(payload);
        req.end();
    });
}

describe('integration access: one rule for every actor kind', () => {
    let ctx, tun, alice, bob, gus, carol, eve, orgB, orgC;
    let sSel, sUn, col, siteB, siteB2, sC;
    let I1, I2, I3, instB, instC, inst2, inst3;
    const tok = {}; // actor name -> token
    const seen = []; // [actor, text] of every answer

    const publish = (who, name, orgId, extra = {}) =>
        ok(
            who.api.integrations.publishIntegration(name, {
                organization: orgId,
                title: `Access ${name}`.slice(0, 30),
                description: 'Access rule test',
                script: 'export default {}',
                scopes: ['space:content:read'],
                visibility: 'public',
                configurations: { account: { properties: { apiKey: { type: 'string' } } }, space: { properties: { apiKey: { type: 'string' } } } },
                ...extra,
            }),
            'publishIntegration',
        );
    const install = async (who, name, orgId) => {
        const res = await who.api.integrations.installIntegration(name, { organization: orgId });
        assert.equal(res.status, 200);
        validate('installIntegration', 201, res.data);
        return res.data;
    };
    const call = async (actor, method, path, json) => {
        const r = await raw(ctx.url, method, path, { token: tok[actor], json });
        seen.push([actor, r.text]);
        return r;
    };

    before(async () => {
        tun = await tunnel();
        ctx = await setup({ extraArgs: ['--allow-private-network', '--job-workers', '2'] });
        [alice, bob, gus, carol, eve] = await Promise.all(['alice', 'bob', 'gus', 'carol', 'eve'].map((n) => ctx.user(n)));
        ({ org: orgB } = await createOrg(ctx.url, alice.token, `B ${ctx.run}`));
        ({ org: orgC } = await createOrg(ctx.url, carol.token, `C ${ctx.run}`));
        await addMember(alice.api, orgB.id, bob.email, 'read');
        col = await ok(alice.api.orgs.createCollection(orgB.id, { title: 'B-COLLECTION-TITLE' }), 'createCollection', 201);
        sSel = await ok(alice.api.orgs.createSpace(orgB.id, { title: 'B-SELECTED-TITLE', parent: col.id }), 'createSpace', 201);
        sUn = await ok(alice.api.orgs.createSpace(orgB.id, { title: 'B-UNSELECTED-TITLE', parent: col.id }), 'createSpace', 201);
        await empty(alice.api.spaces.inviteToSpace(sUn.id, { role: 'read', users: [gus.id] }), 204, 'inviteToSpace');
        sC = await ok(carol.api.orgs.createSpace(orgC.id, { title: 'C-SPACE-TITLE' }), 'createSpace', 201);
        siteB = (await raw(ctx.url, 'POST', `/v1/orgs/${orgB.id}/sites`, { token: alice.token, json: { title: 'B site' } })).json;
        siteB2 = (await raw(ctx.url, 'POST', `/v1/orgs/${orgB.id}/sites`, { token: alice.token, json: { title: 'B site 2' } })).json;
        assert.ok(siteB?.id && siteB2?.id);

        I1 = `acc-one-${ctx.run}`;
        I2 = `acc-two-${ctx.run}`;
        I3 = `acc-three-${ctx.run}`;
        await publish(alice, I1, orgB.id, { scopes: ['space:content:read', 'space:metadata:write', 'site:script:inject'], target: 'all' });
        await publish(alice, I2, orgB.id);
        await publish(alice, I3, orgB.id, { scopes: [] });
        // The integration token: from the environment of a delivery to the tunnel.
        await empty(alice.api.integrations.setIntegrationDevelopmentMode(I1, { tunnelUrl: tun.url, all: true }), 204, 'setIntegrationDevelopmentMode');
        instB = await install(alice, I1, orgB.id);
        instC = await install(carol, I1, orgC.id);
        inst2 = await install(alice, I2, orgB.id);
        inst3 = await install(alice, I3, orgB.id);
        await ok(alice.api.integrations.updateIntegrationInstallation(I1, instB.id, { space_selection: 'selected', configuration: { apiKey: B_SECRET } }), 'updateIntegrationInstallation');
        await ok(alice.api.integrations.installIntegrationOnSpace(I1, instB.id, { space: sSel.id }), 'installIntegrationOnSpace', 201);
        await ok(alice.api.integrations.updateIntegrationSpaceInstallation(I1, instB.id, sSel.id, { configuration: { apiKey: B_SECRET } }), 'updateIntegrationSpaceInstallation');
        await ok(carol.api.integrations.updateIntegrationInstallation(I1, instC.id, { configuration: { apiKey: C_SECRET } }), 'updateIntegrationInstallation');
        await ok(carol.api.integrations.installIntegrationOnSpace(I1, instC.id, { space: sC.id }), 'installIntegrationOnSpace', 201);
        await ok(carol.api.integrations.updateIntegrationSpaceInstallation(I1, instC.id, sC.id, { configuration: { apiKey: C_SECRET } }), 'updateIntegrationSpaceInstallation');
        await ok(alice.api.integrations.updateIntegrationInstallation(I2, inst2.id, { configuration: { apiKey: I2_SECRET } }), 'updateIntegrationInstallation');
        const env = await waitFor('a delivery with the integration token', () => tun.envs.find((e) => e.apiTokens?.integration));
        tok.integ = env.apiTokens.integration;
        // Installation tokens: the integration mints B's, each organization's admin its own.
        tok.instB = (await ok(client(ctx.url, tok.integ).integrations.createIntegrationInstallationToken(I1, instB.id), 'createIntegrationInstallationToken')).token;
        tok.instC = (await ok(carol.api.integrations.createIntegrationInstallationToken(I1, instC.id), 'createIntegrationInstallationToken')).token;
        tok.inst2 = (await ok(alice.api.integrations.createIntegrationInstallationToken(I2, inst2.id), 'createIntegrationInstallationToken')).token;
        tok.inst3 = (await ok(alice.api.integrations.createIntegrationInstallationToken(I3, inst3.id), 'createIntegrationInstallationToken')).token;
        Object.assign(tok, { admin: alice.token, carol: carol.token, read: bob.token, guest: gus.token, outsider: eve.token });
    });
    after(async () => {
        await ctx?.server.stop();
        tun?.server.close();
    });

    // Columns: the actors. A cell is the status expected; null skips (a change the admin may make
    // that would alter what later rows read: its own regression test covers it).
    const ACTORS = ['integ', 'instB', 'inst2', 'inst3', 'instC', 'admin', 'carol', 'read', 'guest', 'outsider'];
    const row = (s) => Object.fromEntries(ACTORS.map((a, i) => [a, s[i] === 'skip' ? null : s[i]]));
    // [label, operationId, method, path(), body(), { actor: status }]
    const MATRIX = () => [
        // ---- the integration as a whole ----
        ['list installations', 'listIntegrationInstallations', 'GET', `/v1/integrations/${I1}/installations`, null, row([200, 200, 403, 403, 200, 200, 403, 403, 403, 403])],
        ['list space installations', 'listIntegrationSpaceInstallations', 'GET', `/v1/integrations/${I1}/spaces`, null, row([200, 200, 403, 403, 200, 200, 403, 403, 403, 403])],
        ['list site installations', 'listIntegrationSiteInstallations', 'GET', `/v1/integrations/${I1}/sites`, null, row([200, 200, 403, 403, 200, 200, 403, 403, 403, 403])],
        ['list events', 'listIntegrationEvents', 'GET', `/v1/integrations/${I1}/events`, null, row([200, 403, 403, 403, 403, 200, 403, 403, 403, 403])],
        ['queue a task', null, 'POST', `/v1/integrations/${I1}/tasks`, { task: { n: 1 } }, row([204, 204, 403, 403, 204, 204, 403, 403, 403, 403])],
        ['development mode', null, 'PUT', `/v1/integrations/${I1}/dev`, { tunnelUrl: tun.url, all: true }, row([403, 403, 403, 403, 403, 204, 403, 403, 403, 403])],
        ['republish', 'publishIntegration', 'POST', `/v1/integrations/${I1}`, { organization: orgB.id, title: 'Access again', description: 'x', script: 'export default {}', scopes: ['space:content:read', 'space:metadata:write', 'site:script:inject'], visibility: 'public' }, row([404, 403, 403, 404, 404, 'skip', 404, 403, 403, 404])],
        // ---- B's installation ----
        ['get B installation', 'getIntegrationInstallationById', 'GET', `/v1/integrations/${I1}/installations/${instB.id}`, null, row([200, 200, 404, 404, 404, 200, 404, 200, 200, 404])],
        ['set B externalIds', 'updateIntegrationInstallation', 'PATCH', `/v1/integrations/${I1}/installations/${instB.id}`, { externalIds: ['ext-b'] }, row([200, 200, 404, 404, 404, 200, 404, 403, 403, 404])],
        ['set B space selection', 'updateIntegrationInstallation', 'PATCH', `/v1/integrations/${I1}/installations/${instB.id}`, { space_selection: 'selected' }, row([403, 403, 404, 404, 404, 200, 404, 403, 403, 404])],
        ['set B site selection', 'updateIntegrationInstallation', 'PATCH', `/v1/integrations/${I1}/installations/${instB.id}`, { site_selection: 'all' }, row([403, 403, 404, 404, 404, 'skip', 404, 403, 403, 404])],
        ['mint a B token', 'createIntegrationInstallationToken', 'POST', `/v1/integrations/${I1}/installations/${instB.id}/tokens`, null, row([200, 403, 404, 404, 404, 200, 404, 403, 403, 404])],
        ['list B spaces', 'listIntegrationInstallationSpaces', 'GET', `/v1/integrations/${I1}/installations/${instB.id}/spaces`, null, row([200, 200, 404, 404, 404, 200, 404, 200, 200, 404])],
        ['get B space installation', 'getIntegrationSpaceInstallation', 'GET', `/v1/integrations/${I1}/installations/${instB.id}/spaces/${sSel.id}`, null, row([200, 200, 404, 404, 404, 200, 404, 200, 200, 404])],
        ['install B on the unselected space', 'installIntegrationOnSpace', 'POST', `/v1/integrations/${I1}/installations/${instB.id}/spaces`, { space: sSel.id }, row([403, 403, 404, 404, 404, 201, 404, 403, 403, 404])],
        ['install B on a site', 'installIntegrationOnSite', 'POST', `/v1/integrations/${I1}/installations/${instB.id}/sites`, { siteId: siteB2.id }, row([403, 403, 404, 404, 404, 'skip', 404, 403, 403, 404])],
        ['uninstall B from a space', null, 'DELETE', `/v1/integrations/${I1}/installations/${instB.id}/spaces/${sUn.id}`, null, row([403, 403, 404, 404, 404, 204, 404, 403, 403, 404])],
        ['uninstall B', null, 'DELETE', `/v1/integrations/${I1}/installations/${instB.id}`, null, row([403, 403, 404, 404, 404, 'skip', 404, 403, 403, 404])],
        // ---- C's installation ----
        ['get C installation', 'getIntegrationInstallationById', 'GET', `/v1/integrations/${I1}/installations/${instC.id}`, null, row([200, 404, 404, 404, 200, 200, 200, 404, 404, 404])],
        ['set C externalIds', 'updateIntegrationInstallation', 'PATCH', `/v1/integrations/${I1}/installations/${instC.id}`, { externalIds: ['ext-c'] }, row([200, 404, 404, 404, 200, 403, 200, 404, 404, 404])],
        ['mint a C token', 'createIntegrationInstallationToken', 'POST', `/v1/integrations/${I1}/installations/${instC.id}/tokens`, null, row([200, 404, 404, 404, 403, 403, 200, 404, 404, 404])],
        ['list C spaces', 'listIntegrationInstallationSpaces', 'GET', `/v1/integrations/${I1}/installations/${instC.id}/spaces`, null, row([200, 404, 404, 404, 200, 200, 200, 404, 404, 404])],
        ['uninstall C', null, 'DELETE', `/v1/integrations/${I1}/installations/${instC.id}`, null, row([403, 404, 404, 404, 403, 403, 'skip', 404, 404, 404])],
        // ---- organizations' installation lists ----
        ['B installations', 'listOrganizationInstallations', 'GET', `/v1/orgs/${orgB.id}/installations`, null, row([404, 200, 200, 404, 404, 200, 404, 200, 200, 404])],
        ['C installations', 'listOrganizationInstallations', 'GET', `/v1/orgs/${orgC.id}/installations`, null, row([404, 404, 404, 404, 200, 404, 200, 404, 404, 404])],
        // ---- spaces, collections, sites ----
        ['read the selected space', 'getSpaceById', 'GET', `/v1/spaces/${sSel.id}`, null, row([404, 200, 200, 404, 404, 200, 404, 200, 404, 404])],
        ['read the unselected space', 'getSpaceById', 'GET', `/v1/spaces/${sUn.id}`, null, row([404, 404, 200, 404, 404, 200, 404, 200, 200, 404])],
        ['read C space', 'getSpaceById', 'GET', `/v1/spaces/${sC.id}`, null, row([404, 404, 404, 404, 200, 404, 200, 404, 404, 404])],
        ['read the collection', 'getCollectionById', 'GET', `/v1/collections/${col.id}`, null, row([404, 404, 200, 404, 404, 200, 404, 200, 404, 404])],
        ['rename the collection', 'updateCollectionById', 'PATCH', `/v1/collections/${col.id}`, { title: 'B-COLLECTION-TITLE' }, row([404, 404, 403, 404, 404, 200, 404, 403, 404, 404])],
        ['delete the collection', null, 'DELETE', `/v1/collections/${col.id}`, null, row([404, 404, 403, 404, 404, 'skip', 404, 403, 404, 404])],
        ['grant on the selected space', null, 'POST', `/v1/spaces/${sSel.id}/permissions`, { role: 'admin', users: [eve.id] }, row([404, 403, 403, 404, 404, 'skip', 404, 403, 404, 404])],
        ['grant on the collection', null, 'POST', `/v1/collections/${col.id}/permissions`, { role: 'admin', users: [eve.id] }, row([404, 404, 403, 404, 404, 'skip', 404, 403, 404, 404])],
        ['delete the selected space', null, 'DELETE', `/v1/spaces/${sSel.id}`, null, row([404, 403, 403, 404, 404, 'skip', 404, 403, 404, 404])],
        ['move the selected space', null, 'POST', `/v1/spaces/${sSel.id}/move`, { parent: null }, row([404, 403, 403, 404, 404, 'skip', 404, 403, 404, 404])],
        ['create a space in the collection', 'createSpace', 'POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'New', parent: col.id }, row([404, 400, 403, 404, 404, 201, 404, 403, 400, 404])],
        ['create a top-level space', 'createSpace', 'POST', `/v1/orgs/${orgB.id}/spaces`, { title: 'Top' }, row([404, 403, 403, 404, 404, 201, 404, 403, 403, 404])],
        ['read a B site', 'getSiteById', 'GET', `/v1/orgs/${orgB.id}/sites/${siteB.id}`, null, row([404, 404, 404, 404, 404, 200, 404, 200, 404, 404])],
    ];

    // What each actor must never receive: another organization's rows, and configuration the
    // rule does not show it.
    const forbidden = (actor) => {
        const bRows = [instB.id, sSel.id, sUn.id, col.id, 'B-SELECTED-TITLE', 'B-UNSELECTED-TITLE', 'B-COLLECTION-TITLE'];
        const cRows = [instC.id, sC.id, 'C-SPACE-TITLE'];
        const f = [];
        if (!['integ', 'instB', 'admin'].includes(actor)) f.push(B_SECRET);
        if (!['integ', 'instC', 'carol'].includes(actor)) f.push(C_SECRET);
        if (!['admin', 'inst2'].includes(actor)) f.push(I2_SECRET);
        if (['instB', 'inst2', 'inst3', 'read', 'guest', 'outsider'].includes(actor)) f.push(...cRows);
        if (['instC', 'carol', 'outsider'].includes(actor)) f.push(...bRows);
        return f;
    };

    it('the matrix: each actor kind x each integration route and object kind (status, schema, no leak)', async () => {
        const failures = [];
        for (const [label, op, method, path, body, expect] of MATRIX()) {
            for (const actor of ACTORS) {
                const want = expect[actor];
                if (want === null) continue;
                const r = await call(actor, method, path, body ?? undefined);
                if (r.status !== want) {
                    failures.push(`${label} as ${actor}: expected ${want}, got ${r.status} ${r.text.slice(0, 160)}`);
                    continue;
                }
                if (r.status >= 400) {
                    assert.equal(r.json?.error?.code, r.status, `${label} as ${actor}: the error envelope`);
                } else if (op && r.json !== undefined) {
                    validate(op, r.status === 201 && op === 'installIntegration' ? 201 : r.status, r.json);
                }
                for (const s of forbidden(actor))
                    if (r.text.includes(s)) failures.push(`${label} as ${actor}: the body carries ${s}`);
            }
        }
        assert.deepEqual(failures, []);
        // Nothing any actor received, here or below, carried a 500.
        for (const [actor, text] of seen) assert.ok(!/"code":\s*500/.test(text), `a 500 for ${actor}: ${text.slice(0, 200)}`);
    });

    it('1. cross-organization reads: an installation token lists its own installation, no other organization', async () => {
        const asC = client(ctx.url, tok.instC);
        const list = await ok(asC.integrations.listIntegrationInstallations(I1), 'listIntegrationInstallations');
        assert.deepEqual(list.items.map((i) => i.id), [instC.id]);
        assert.deepEqual(list.items[0].configuration, { apiKey: C_SECRET }); // its own
        const spaces = await ok(asC.integrations.listIntegrationSpaceInstallations(I1), 'listIntegrationSpaceInstallations');
        assert.deepEqual(spaces.items.map((i) => i.space), [sC.id]);
        const sites = await ok(asC.integrations.listIntegrationSiteInstallations(I1), 'listIntegrationSiteInstallations');
        assert.ok(sites.items.every((i) => i.installation === instC.id));
        await expectError(asC.integrations.listIntegrationEvents(I1), 403);
        const r = await call('instC', 'GET', `/v1/integrations/${I1}/events`);
        assert.ok(!r.text.includes(B_SECRET) && !r.text.includes(orgB.id));
        await expectError(asC.integrations.getIntegrationInstallationById(I1, instB.id), 404);
        await expectError(asC.integrations.listIntegrationInstallationSpaces(I1, instB.id), 404);
        // An externalId filter does not reach past its own installation either.
        await ok(alice.api.integrations.updateIntegrationInstallation(I1, instB.id, { externalIds: ['shared-ext'] }), 'updateIntegrationInstallation');
        const byExt = await ok(asC.integrations.listIntegrationInstallations(I1, { externalId: 'shared-ext' }), 'listIntegrationInstallations');
        assert.deepEqual(byExt.items, []);
        // The owner's admin lists every installation, but C's configuration is C's.
        const all = await ok(alice.api.integrations.listIntegrationInstallations(I1), 'listIntegrationInstallations');
        assert.deepEqual(all.items.find((i) => i.id === instC.id).configuration, {});
        assert.deepEqual(all.items.find((i) => i.id === instB.id).configuration, { apiKey: B_SECRET });
        // Events carry the previous configuration: the integration's token reads it, the owner's
        // admin reads C's events without it.
        await ok(carol.api.integrations.updateIntegrationInstallation(I1, instC.id, { configuration: { apiKey: 'rotated' } }), 'updateIntegrationInstallation');
        const asInteg = client(ctx.url, tok.integ);
        const ev = await waitFor('the event with C\'s previous configuration', async () =>
            (await ok(asInteg.integrations.listIntegrationEvents(I1, { limit: 100 }), 'listIntegrationEvents')).items.find((e) => JSON.stringify(e.payload).includes(C_SECRET)));
        const mine = await ok(alice.api.integrations.listIntegrationEvents(I1, { limit: 100 }), 'listIntegrationEvents');
        assert.ok(mine.items.some((e) => e.id === ev.id));
        assert.ok(!JSON.stringify(mine).includes(C_SECRET));
        const one = await ok(alice.api.integrations.getIntegrationEvent(I1, ev.id), 'getIntegrationEvent');
        assert.deepEqual(one.event.payload.previous.configuration, {});
        assert.ok(!JSON.stringify(one).includes(C_SECRET));
        const theirs = await ok(asInteg.integrations.getIntegrationEvent(I1, ev.id), 'getIntegrationEvent');
        assert.deepEqual(theirs.event.payload.previous.configuration, { apiKey: C_SECRET });
        await ok(carol.api.integrations.updateIntegrationInstallation(I1, instC.id, { configuration: { apiKey: C_SECRET } }), 'updateIntegrationInstallation');
    });

    it('2. self-widening: an installation token changes its externalIds, never its selection or targets', async () => {
        const asB = client(ctx.url, tok.instB);
        await expectError(asB.integrations.updateIntegrationInstallation(I1, instB.id, { space_selection: 'all' }), 403);
        await expectError(asB.integrations.updateIntegrationInstallation(I1, instB.id, { site_selection: 'all', externalIds: ['sneak'] }), 403);
        await expectError(asB.integrations.installIntegrationOnSite(I1, instB.id, { siteId: siteB.id }), 403);
        await expectError(asB.integrations.installIntegrationOnSpace(I1, instB.id, { space: sUn.id }), 403);
        await expectError(asB.integrations.uninstallIntegrationFromSpace(I1, instB.id, sSel.id), 403);
        await expectError(asB.integrations.uninstallIntegration(I1, instB.id), 403);
        await expectError(asB.integrations.createIntegrationInstallationToken(I1, instB.id), 403);
        // Nothing changed: still selected, on the one space, on no site, no script injected.
        const got = await ok(alice.api.integrations.getIntegrationInstallationById(I1, instB.id), 'getIntegrationInstallationById');
        assert.equal(got.space_selection, 'selected');
        assert.ok(!got.externalIds.includes('sneak'));
        const spaces = await ok(alice.api.integrations.listIntegrationInstallationSpaces(I1, instB.id), 'listIntegrationInstallationSpaces');
        assert.deepEqual(spaces.items.map((t) => t.space), [sSel.id]);
        const sites = await ok(alice.api.integrations.listIntegrationInstallationSites(I1, instB.id), 'listIntegrationInstallationSites');
        assert.deepEqual(sites.items, []);
        const scripts = await raw(ctx.url, 'GET', `/v1/orgs/${orgB.id}/sites/${siteB.id}/integration-scripts`, { token: alice.token });
        assert.equal(scripts.status, 200);
        assert.deepEqual(scripts.json, []);
        // What it may change: its externalIds and configuration.
        const up = await ok(asB.integrations.updateIntegrationInstallation(I1, instB.id, { externalIds: ['mine'], configuration: { apiKey: B_SECRET } }), 'updateIntegrationInstallation');
        assert.deepEqual(up.externalIds, ['mine']);
        assert.equal(up.space_selection, 'selected');
        // The admin still decides.
        await ok(alice.api.integrations.installIntegrationOnSite(I1, instB.id, { siteId: siteB2.id }), 'installIntegrationOnSite', 201);
        await empty(alice.api.integrations.uninstallIntegrationFromSite(I1, instB.id, siteB2.id), 205, 'uninstallIntegrationFromSite');
    });

    it('3. selection on collections; no permission management; creating in a collection is a 4xx, not a 500', async () => {
        const asB = client(ctx.url, tok.instB);
        // Grants: neither on the selected space nor on the collection.
        await expectError(asB.spaces.inviteToSpace(sSel.id, { role: 'admin', users: [eve.id] }), 403);
        await expectError(asB.collections.inviteToCollection(col.id, { role: 'admin', users: [eve.id] }), 404);
        await expectError(client(ctx.url, tok.inst2).spaces.inviteToSpace(sSel.id, { role: 'admin', users: [eve.id] }), 403);
        const users = await ok(alice.api.spaces.listUserPermissionsInSpace(sSel.id), 'listUserPermissionsInSpace');
        assert.ok(!JSON.stringify(users).includes(eve.id));
        await expectError(eve.api.spaces.getSpaceById(sSel.id), 404);
        await expectError(eve.api.collections.getCollectionById(col.id), 404);
        // The collection: not read, renamed, deleted or listed.
        await expectError(asB.collections.getCollectionById(col.id), 404);
        await expectError(asB.collections.updateCollectionById(col.id, { title: 'Renamed' }), 404);
        await expectError(asB.collections.deleteCollectionById(col.id), 404);
        const cols = await ok(asB.orgs.listCollectionsInOrganizationById(orgB.id), 'listCollectionsInOrganizationById');
        assert.deepEqual(cols.items, []);
        const still = await ok(alice.api.collections.getCollectionById(col.id), 'getCollectionById');
        assert.equal(still.title, 'B-COLLECTION-TITLE');
        // The selected space: metadata, yes; who reads it, delete, move, no.
        await ok(asB.spaces.updateSpaceById(sSel.id, { title: 'B-SELECTED-TITLE' }), 'updateSpaceById');
        await expectError(asB.spaces.updateSpaceById(sSel.id, { visibility: 'public' }), 403);
        await expectError(asB.spaces.updateSpaceById(sSel.id, { defaultLevel: 'admin' }), 403);
        await expectError(asB.spaces.deleteSpaceById(sSel.id), 403);
        const s = await ok(alice.api.spaces.getSpaceById(sSel.id), 'getSpaceById');
        assert.equal(s.visibility, 'private');
        assert.equal(s.parent, col.id);
        // Creating: 400 for a collection it cannot see (was a 500), 403 at the top; nothing made.
        const before = (await ok(alice.api.orgs.listSpacesInOrganizationById(orgB.id), 'listSpacesInOrganizationById')).items.length;
        let e = await expectError(asB.orgs.createSpace(orgB.id, { title: 'X', parent: col.id }), 400);
        assert.match(e.error.message, /parent/);
        await expectError(asB.orgs.createSpace(orgB.id, { title: 'X' }), 403);
        await expectError(asB.orgs.createCollection(orgB.id, { title: 'X' }), 403);
        const after = (await ok(alice.api.orgs.listSpacesInOrganizationById(orgB.id), 'listSpacesInOrganizationById')).items.length;
        assert.equal(after, before);
        // With every space selected it reads collections, and still manages nothing.
        await ok(carol.api.orgs.createCollection(orgC.id, { title: 'C-COLL' }), 'createCollection', 201);
        const asC = client(ctx.url, tok.instC);
        const ccols = await ok(asC.orgs.listCollectionsInOrganizationById(orgC.id), 'listCollectionsInOrganizationById');
        assert.equal(ccols.items.length, 1);
        await expectError(asC.collections.updateCollectionById(ccols.items[0].id, { title: 'Y' }), 403);
        await expectError(asC.collections.inviteToCollection(ccols.items[0].id, { role: 'admin', users: [eve.id] }), 403);
        await expectError(asC.orgs.createSpace(orgC.id, { title: 'X', parent: ccols.items[0].id }), 403);
    });

    it('4. configuration inside an organization: admins and the installation\'s own tokens only (API)', async () => {
        const cfg = async (who) => (await ok(client(ctx.url, who).integrations.getIntegrationInstallationById(I1, instB.id), 'getIntegrationInstallationById')).configuration;
        assert.deepEqual(await cfg(alice.token), { apiKey: B_SECRET });
        assert.deepEqual(await cfg(tok.instB), { apiKey: B_SECRET });
        assert.deepEqual(await cfg(tok.integ), { apiKey: B_SECRET });
        assert.deepEqual(await cfg(bob.token), {});
        assert.deepEqual(await cfg(gus.token), {});
        // Another integration's token: not this installation at all.
        await expectError(client(ctx.url, tok.inst2).integrations.getIntegrationInstallationById(I1, instB.id), 404);
        const own = await ok(client(ctx.url, tok.inst2).orgs.listOrganizationInstallations(orgB.id), 'listOrganizationInstallations');
        assert.deepEqual(own.items.map((i) => i.installation.id), [inst2.id]);
        assert.deepEqual(own.items[0].installation.configuration, { apiKey: I2_SECRET });
        // A reader lists them all, without configuration.
        const listed = await ok(bob.api.orgs.listOrganizationInstallations(orgB.id), 'listOrganizationInstallations');
        assert.equal(listed.items.length, 3);
        assert.ok(listed.items.every((i) => JSON.stringify(i.installation.configuration) === '{}'));
        const t = await ok(bob.api.integrations.getIntegrationSpaceInstallation(I1, instB.id, sSel.id), 'getIntegrationSpaceInstallation');
        assert.deepEqual(t.configuration, {});
        const ts = await ok(bob.api.integrations.listIntegrationInstallationSpaces(I1, instB.id), 'listIntegrationInstallationSpaces');
        assert.deepEqual(ts.items[0].configuration, {});
        const adm = await ok(alice.api.integrations.getIntegrationSpaceInstallation(I1, instB.id, sSel.id), 'getIntegrationSpaceInstallation');
        assert.deepEqual(adm.configuration, { apiKey: B_SECRET });
    });

    it('4b. the web interface shows the configuration through the same rule', async () => {
        const [aliceS, bobS, gusS] = await signInAll(ctx, [alice, bob, gus]);
        const page = async (who, path) => {
            const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
            assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 300)}`);
            return r.text;
        };
        const inst = `/o/${orgB.id}/integrations/${I1}/installations/${instB.id}`;
        // The admin's pages carry it (in the configuration form); a reader's and a guest's do not.
        assert.ok((await page(aliceS, inst)).includes(B_SECRET));
        assert.ok((await page(aliceS, `${inst}/spaces/${sSel.id}`)).includes(B_SECRET));
        for (const who of [bobS, gusS]) {
            for (const path of [inst, `${inst}/spaces/${sSel.id}`, `/o/${orgB.id}/integrations`]) {
                const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, Cookie: who.cookie } });
                assert.ok(r.status < 500, `${path}: ${r.status}`);
                assert.ok(!r.text.includes(B_SECRET) && !r.text.includes(I2_SECRET), `${path} shows a configuration`);
            }
        }
    });

    it('5. name reuse: a new integration with an unpublished one\'s name gets a new identity', async () => {
        const name = `reuse-${ctx.run}`;
        await publish(alice, name, orgB.id, { visibility: 'public' });
        await empty(alice.api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: tun.url, all: true }), 204, 'setIntegrationDevelopmentMode');
        const n0 = tun.envs.length;
        const inC = await install(carol, name, orgC.id);
        const oldTok = (await ok(carol.api.integrations.createIntegrationInstallationToken(name, inC.id), 'createIntegrationInstallationToken')).token;
        const oldUser = await ok(client(ctx.url, oldTok).user.getAuthenticatedUser(), 'getAuthenticatedUser');
        // C's admin gives the integration's user read on a space of C.
        const customer = await ok(carol.api.orgs.createSpace(orgC.id, { title: 'CUSTOMER-SPACE' }), 'createSpace', 201);
        await empty(carol.api.spaces.inviteToSpace(customer.id, { role: 'read', users: [oldUser.id] }), 204, 'inviteToSpace');
        await waitFor('a delivery of the first integration', () => tun.envs.slice(n0).find((e) => e.integration?.name === name));
        // Unpublished; eve publishes the name from her own organization.
        await empty(alice.api.integrations.unpublishIntegration(name), 205, 'unpublishIntegration');
        await expectError(client(ctx.url, oldTok).user.getAuthenticatedUser(), 401);
        const { org: orgE } = await createOrg(ctx.url, eve.token, `E ${ctx.run}`);
        await ok(eve.api.integrations.publishIntegration(name, { organization: orgE.id, title: 'Taken over', description: 'x', script: 'export default {}', scopes: ['space:content:read'] }), 'publishIntegration');
        await empty(eve.api.integrations.setIntegrationDevelopmentMode(name, { tunnelUrl: tun.url }), 204, 'setIntegrationDevelopmentMode');
        const n1 = tun.envs.length;
        const inE = await install(eve, name, orgE.id);
        const env = await waitFor('a delivery of the new integration', () => tun.envs.slice(n1).find((e) => e.integration?.name === name && e.installation?.id === inE.id));
        const asNew = client(ctx.url, env.apiTokens.integration);
        const newUser = await ok(asNew.user.getAuthenticatedUser(), 'getAuthenticatedUser');
        assert.notEqual(newUser.id, oldUser.id);
        await expectError(asNew.spaces.getSpaceById(customer.id), 404);
        const newInst = await ok(asNew.integrations.createIntegrationInstallationToken(name, inE.id), 'createIntegrationInstallationToken');
        await expectError(client(ctx.url, newInst.token).spaces.getSpaceById(customer.id), 404);
        // Even the old integration's own tokens could not have used a grant: an integration token stands nowhere.
        await expectError(client(ctx.url, tok.integ).spaces.getSpaceById(sSel.id), 404);
    });

    it("low: names '.' and '..' are refused with 400; an integration without an image answers 404", async () => {
        for (const n of ['.', '..']) {
            const r = await rawPath(ctx.url, 'POST', `/v1/integrations/${n}`, alice.token, { organization: orgB.id, title: 'Dots', description: 'x', script: 'x', scopes: [] });
            assert.equal(r.status, 400, `${n}: ${r.text}`);
            assert.match(r.json.error.message, /integrationName/);
        }
        // Base64 of nothing (whitespace, padding): refused at publishing, never served as an empty 200.
        for (const icon of ['\n', '====']) {
            const e = await expectError(alice.api.integrations.publishIntegration(`blank-${ctx.run}`, { organization: orgB.id, title: 'Blank', description: 'x', script: 'x', scopes: [], icon }), 400);
            assert.match(e.error.message, /icon/);
        }
        const r = await raw(ctx.url, 'GET', `/v1/integrations/${I2}/icon`);
        assert.equal(r.status, 404);
        assert.equal(r.json.error.code, 404);
        const got = await ok(alice.api.integrations.getIntegrationByName(I2), 'getIntegrationByName');
        assert.equal(got.urls.icon, undefined);
        await publish(alice, `icon-${ctx.run}`, orgB.id, { icon: PNG });
        const icon = await raw(ctx.url, 'GET', `/v1/integrations/icon-${ctx.run}/icon`);
        assert.equal(icon.status, 200);
        assert.equal(icon.headers['content-type'], 'image/png');
    });
});

// GitBook's own CLI (@gitbook/cli, unchanged) against docsd: with GITBOOK_ENDPOINT and
// GITBOOK_TOKEN, `gitbook openapi publish --spec petstore --organization <orgId> ./petstore.yaml`
// publishes a file (the CLI sends it as source.text in PUT /v1/orgs/{org}/openapi/{slug}); a
// changed file makes a second version, the same file again none; a URL is published as
// source.url (served here from 127.0.0.1: the server runs with --allow-private-network).
// The server comes from ../api/lib/server.mjs (tests/api must be installed: npm ci there).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, uniq } from '../api/lib/server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const GITBOOK = join(here, 'node_modules', '.bin', 'gitbook');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      summary: List all pets
      responses:
        '200': { description: A page of pets }
`;

describe('gitbook openapi publish (GitBook CLI) against docsd', () => {
    let server, token, org, work, files, filesUrl;

    /** Runs the CLI in the work directory with its own HOME (it keeps a config file there). */
    function gitbook(args) {
        const env = { ...process.env, HOME: work, XDG_CONFIG_HOME: join(work, '.config'), GITBOOK_ENDPOINT: server.url, GITBOOK_TOKEN: token };
        return new Promise((res) => {
            execFile(GITBOOK, args, { cwd: work, env, timeout: 60_000 }, (err, stdout, stderr) =>
                res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
            );
        });
    }
    async function api(method, path, body) {
        const r = await fetch(`${server.url}${path}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
        });
        const text = await r.text();
        return { status: r.status, json: text ? JSON.parse(text) : undefined };
    }
    /** The spec once its run after `before` (a lastProcessedAt, or none) is complete. */
    async function processed(slug, before) {
        const deadline = Date.now() + 20_000;
        for (;;) {
            const r = await api('GET', `/v1/orgs/${org.id}/openapi/${slug}`);
            assert.equal(r.status, 200);
            if (r.json.processingState === 'complete' && r.json.lastProcessedAt !== before) return r.json;
            if (Date.now() > deadline) assert.fail(`not processed: ${JSON.stringify(r.json)}`);
            await sleep(100);
        }
    }
    const versions = async (slug) => (await api('GET', `/v1/orgs/${org.id}/openapi/${slug}/versions`)).json.items;

    before(async () => {
        server = await startServer({ extraArgs: ['--allow-private-network'] });
        ({ token } = await server.createUser(`cli-${uniq(8)}@cli.example.com`, 'CLI User'));
        const r = await api('POST', '/v1/orgs', { title: `CLI ${uniq(6)}` });
        assert.equal(r.status, 201);
        org = r.json;
        work = mkdtempSync(join(tmpdir(), 'docsd-cli-'));
        files = createServer((req, res) => {
            res.writeHead(200, { 'Content-Type': 'application/yaml' });
            res.end(PETSTORE.replace('Petstore', 'Remote petstore'));
        });
        await new Promise((r2) => files.listen(0, '127.0.0.1', r2));
        filesUrl = `http://127.0.0.1:${files.address().port}/petstore.yaml`;
    });
    after(async () => {
        if (files) await new Promise((r) => files.close(r));
        if (server) await server.stop();
        if (work) rmSync(work, { recursive: true, force: true });
    });

    it('publishes a file; a changed file makes a second version', async () => {
        writeFileSync(join(work, 'petstore.yaml'), PETSTORE);
        let r = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './petstore.yaml']);
        assert.equal(r.code, 0, `gitbook openapi publish: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, new RegExp(`OpenAPI specification "petstore" published to ${server.url}/o/${org.id}/openapi/petstore`));
        const first = await processed('petstore');
        assert.equal(first.lastProcessErrorCode, undefined);
        assert.equal((await versions('petstore')).length, 1);
        const content = await api('GET', `/v1/orgs/${org.id}/openapi/petstore/versions/latest/content`);
        assert.equal(content.json.filesystem['openapi.yaml'].specification.info.title, 'Petstore');

        // the same file again: processed, no new version
        r = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './petstore.yaml']);
        assert.equal(r.code, 0, r.stderr);
        const same = await processed('petstore', first.lastProcessedAt);
        assert.equal(same.lastVersion, first.lastVersion);

        // a changed file: a second version
        writeFileSync(join(work, 'petstore.yaml'), PETSTORE.replace('List all pets', 'List every pet'));
        r = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './petstore.yaml']);
        assert.equal(r.code, 0, r.stderr);
        const second = await processed('petstore', same.lastProcessedAt);
        assert.notEqual(second.lastVersion, first.lastVersion);
        const vs = await versions('petstore');
        assert.deepEqual(vs.map((v) => v.id), [second.lastVersion, first.lastVersion]);
    });

    it('publishes a URL as the spec source', async () => {
        const r = await gitbook(['openapi', 'publish', '--spec', 'remote', '--organization', org.id, filesUrl]);
        assert.equal(r.code, 0, `${r.stdout}${r.stderr}`);
        const s = await processed('remote');
        assert.equal(s.sourceURL, filesUrl);
        const latest = await api('GET', `/v1/orgs/${org.id}/openapi/remote/versions/latest`);
        assert.equal(latest.json.url, filesUrl);
        const content = await api('GET', `/v1/orgs/${org.id}/openapi/remote/versions/latest/content`);
        assert.equal(content.json.filesystem['petstore.yaml'].specification.info.title, 'Remote petstore');
    });

    it('errors come back through the CLI: a bad token, a missing file', async () => {
        const saved = token;
        token = 'gb_api_not_a_token';
        let r = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './petstore.yaml']);
        token = saved;
        assert.notEqual(r.code, 0);
        r = await gitbook(['openapi', 'publish', '--spec', 'petstore', '--organization', org.id, './missing.yaml']);
        assert.notEqual(r.code, 0);
        assert.match(r.stderr, /not found/);
        r = await gitbook(['openapi', 'publish', '--spec', 'Not A Slug', '--organization', org.id, './petstore.yaml']);
        assert.notEqual(r.code, 0);
    });
});

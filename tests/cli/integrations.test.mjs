// GitBook's own CLI (@gitbook/cli 0.25.1, unchanged) and runtime (@gitbook/runtime 0.23.3)
// against docsd running published integrations in workerd (--integration-runtime, the
// workerd this package pins). With GITBOOK_ENDPOINT and GITBOOK_TOKEN:
//   - `gitbook whoami` prints the token's user;
//   - `gitbook publish` builds fixtures/hello-integration with esbuild and publishes it
//     (POST /v1/integrations/{name}, runtime v2, the script in `script`); a second publish
//     makes version 2;
//   - installing it on the organization through the API records installation_setup, which is
//     delivered once to the script in workerd: its handler calls docsd back with the
//     installation's token (GET /v1/user, then PATCH the installation's externalIds: the effect
//     read back here) and logs a line, found in the event's trace;
//   - `gitbook tail` prints the event and its trace lines;
//   - `gitbook unpublish` (it asks for confirmation: `y` piped) deletes it.
// The server comes from ../api/lib/server.mjs (tests/api must be installed: npm ci there).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, writeFileSync, copyFileSync, symlinkSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, uniq } from '../api/lib/server.mjs';
import { validate } from '../api/lib/schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const GITBOOK = join(here, 'node_modules', '.bin', 'gitbook');
const WORKERD =
    process.env.DOCSD_TEST_WORKERD || join(here, 'node_modules', '@cloudflare', 'workerd-linux-64', 'bin', 'workerd');
const FIXTURE = join(here, 'fixtures', 'hello-integration');
const LOG_LINE = /^hello-integration: installation (\S+) set up, acting as (\S+)$/;
const MARK = 'hello-setup-done';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe('integrations with GitBook CLI and runtime against docsd (workerd)', () => {
    let server, token, user, org, work, name, installation;

    /** Runs the CLI in the work directory with its own HOME (it keeps a config file there). */
    function gitbook(args, { input } = {}) {
        const env = {
            ...process.env,
            HOME: work,
            XDG_CONFIG_HOME: join(work, '.config'),
            GITBOOK_ENDPOINT: server.url,
            GITBOOK_TOKEN: token,
        };
        return new Promise((res) => {
            const child = execFile(GITBOOK, args, { cwd: work, env, timeout: 90_000 }, (err, stdout, stderr) =>
                res({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr }),
            );
            if (input !== undefined) child.stdin.end(input);
            else child.stdin.end();
        });
    }
    async function api(method, path, body) {
        const r = await fetch(`${server.url}${path}`, {
            method,
            headers: { Authorization: `Bearer ${token}`, ...(body ? { 'Content-Type': 'application/json' } : {}) },
            body: body ? JSON.stringify(body) : undefined,
        });
        const text = await r.text();
        let json;
        try {
            json = text ? JSON.parse(text) : undefined;
        } catch {
            json = undefined;
        }
        return { status: r.status, json, text };
    }
    /** The installation_setup events of the installation, once processed (listed), newest first. */
    async function setupEvents(installationId, { atLeast = 1, timeout = 30_000 } = {}) {
        const deadline = Date.now() + timeout;
        for (;;) {
            const r = await api('GET', `/v1/integrations/${name}/events?limit=100`);
            assert.equal(r.status, 200, r.text);
            validate('listIntegrationEvents', 200, r.json);
            const items = r.json.items.filter(
                (e) => e.payload.type === 'installation_setup' && e.installationId === installationId,
            );
            if (items.length >= atLeast) return items;
            if (Date.now() > deadline)
                assert.fail(`no processed installation_setup event for ${installationId}: ${r.text.slice(0, 2000)}`);
            await sleep(200);
        }
    }

    before(async () => {
        server = await startServer({ extraArgs: ['--integration-runtime', WORKERD] });
        ({ token } = await server.createUser(`intg-${uniq(8)}@cli.example.com`, 'CLI Integrator'));
        user = (await api('GET', '/v1/user')).json;
        const r = await api('POST', '/v1/orgs', { title: `CLI integrations ${uniq(6)}` });
        assert.equal(r.status, 201, r.text);
        org = r.json;
        // The fixture's source in a work directory of its own, with a manifest naming a fresh
        // integration (names are global); node_modules is tests/cli's, for esbuild to resolve
        // @gitbook/runtime from.
        name = `docsd-hello-${uniq(8).toLowerCase()}`;
        work = mkdtempSync(join(tmpdir(), 'docsd-cli-intg-'));
        mkdirSync(join(work, 'src'));
        copyFileSync(join(FIXTURE, 'src', 'index.ts'), join(work, 'src', 'index.ts'));
        symlinkSync(join(here, 'node_modules'), join(work, 'node_modules'));
        writeFileSync(
            join(work, 'gitbook-manifest.yaml'),
            [
                `name: ${name}`,
                'title: Hello from docsd',
                'description: Calls docsd back when it is installed.',
                'summary: A test integration.',
                'script: ./src/index.ts',
                'scopes:',
                '  - space:metadata:read',
                `organization: ${org.id}`,
                'visibility: private',
                '',
            ].join('\n'),
        );
    });
    after(async () => {
        if (server) await server.stop();
        if (work) rmSync(work, { recursive: true, force: true });
    });

    it('gitbook whoami prints the token\'s user', async () => {
        const r = await gitbook(['whoami']);
        assert.equal(r.code, 0, `gitbook whoami: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, /Authenticated as CLI Integrator/);
        assert.match(r.stdout, new RegExp(`ID: ${user.id}`));
        assert.match(r.stdout, new RegExp(`API: ${server.url}`));
    });

    it('gitbook publish publishes the built script; a second publish makes version 2', async () => {
        let r = await gitbook(['publish']);
        assert.equal(r.code, 0, `gitbook publish: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, new RegExp(`Integration "${name}" published`));
        const got = await api('GET', `/v1/integrations/${name}`);
        assert.equal(got.status, 200, got.text);
        validate('getIntegrationByName', 200, got.json);
        assert.equal(got.json.name, name);
        assert.equal(got.json.title, 'Hello from docsd');
        assert.equal(got.json.version, 1);
        assert.ok(r.stdout.includes(got.json.urls.app), `the CLI prints urls.app: ${r.stdout}`);
        // The script is stored, never echoed.
        assert.equal(got.json.script, undefined);
        assert.ok(!got.text.includes('hello-integration:'), 'the script does not appear in the response');

        r = await gitbook(['publish']);
        assert.equal(r.code, 0, `second gitbook publish: ${r.stdout}${r.stderr}`);
        const again = await api('GET', `/v1/integrations/${name}`);
        assert.equal(again.json.version, 2);
    });

    it('installing it runs installation_setup in workerd once: the callback took effect, its line is in the trace', async () => {
        const r = await api('POST', `/v1/integrations/${name}/installations`, { organization: org.id });
        assert.equal(r.status, 200, r.text); // the seed's status (GitBook's document says 201)
        validate('installIntegration', 201, r.json);
        installation = r.json;
        assert.equal(installation.target.organization, org.id);

        const [event] = await setupEvents(installation.id);
        const full = await api('GET', `/v1/integrations/${name}/events/${event.id}`);
        assert.equal(full.status, 200, full.text);
        validate('getIntegrationEvent', 200, full.json);
        assert.equal(full.json.event.status, 'success', JSON.stringify(full.json.trace));
        assert.equal(full.json.event.payload.installationId, installation.id);
        const logs = full.json.trace.logs;
        // The script's own line, once: delivered once to the script.
        const lines = logs.filter((l) => LOG_LINE.test(l.message));
        assert.equal(lines.length, 1, `one delivery of the event to the script: ${JSON.stringify(logs)}`);
        const [, loggedInstallation, actingAs] = lines[0].message.match(LOG_LINE);
        assert.equal(lines[0].level, 'info');
        assert.equal(loggedInstallation, installation.id);
        assert.ok(actingAs.length > 0);
        // @gitbook/runtime's own lines come through too (console.log -> info).
        assert.ok(logs.some((l) => l.message === `[integrations] [${event.payload.eventId}] installation_setup`),
            JSON.stringify(logs));
        for (const l of logs) assert.ok(['debug', 'info', 'warn', 'error'].includes(l.level), JSON.stringify(l));

        // The callback's effect: the installation carries the script's external id.
        const inst = await api('GET', `/v1/integrations/${name}/installations/${installation.id}`);
        assert.equal(inst.status, 200, inst.text);
        validate('getIntegrationInstallationById', 200, inst.json);
        assert.ok(inst.json.externalIds.includes(MARK), JSON.stringify(inst.json));
    });

    it('gitbook tail prints the event and its trace', async () => {
        const env = {
            ...process.env,
            HOME: work,
            XDG_CONFIG_HOME: join(work, '.config'),
            GITBOOK_ENDPOINT: server.url,
            GITBOOK_TOKEN: token,
        };
        const child = spawn(GITBOOK, ['tail'], { cwd: work, env, stdio: ['ignore', 'pipe', 'pipe'] });
        let out = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (out += d));
        const deadline = Date.now() + 30_000;
        try {
            while (!(out.includes('"type":"installation_setup"') && /\[info\] hello-integration: installation/.test(out))) {
                if (Date.now() > deadline) assert.fail(`gitbook tail did not print the event:\n${out}`);
                if (child.exitCode !== null) assert.fail(`gitbook tail exited ${child.exitCode}:\n${out}`);
                await sleep(200);
            }
        } finally {
            child.kill('SIGINT');
        }
        assert.match(out, /\[success\]\[\d{4}-\d\d-\d\dT[^\]]+\] \{"/);
        assert.ok(out.includes(`"installationId":"${installation.id}"`), out);
    });

    it('gitbook unpublish (confirmed) deletes it', async () => {
        const r = await gitbook(['unpublish', name], { input: 'y\n' });
        assert.equal(r.code, 0, `gitbook unpublish: ${r.stdout}${r.stderr}`);
        assert.match(r.stdout, new RegExp(`Integration "${name}" has been deleted`));
        const got = await api('GET', `/v1/integrations/${name}`);
        assert.equal(got.status, 404, got.text);
        const installs = await api('GET', `/v1/integrations/${name}/installations`);
        assert.equal(installs.status, 404, installs.text);
    });
});

// Starts a docsd server for one test file and talks to its command line.
import { spawn, execFile } from 'node:child_process';
import { mkdtempSync, openSync, closeSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';
import { randomBytes } from 'node:crypto';
import assert from 'node:assert/strict';
import { validateComponent } from './schema.mjs';

const here = dirname(fileURLToPath(import.meta.url));
export const repoRoot = resolve(here, '..', '..', '..');
export const DOCSD_BIN = process.env.DOCSD_BIN || join(repoRoot, 'build', 'docsd');
export const DATABASE_URL = process.env.DOCSD_TEST_DATABASE || '';
const ASAN = process.env.DOCSD_ASAN === '1';
// docsd's --integration-runtime defaults to auto (the workerd scripts/deps.sh installed under
// tools/workerd, when there): the tests choose their runtime themselves, so without a flag a
// test's server runs none, whatever this checkout has installed. A test's explicit
// --integration-runtime overrides this.
process.env.DOCSD_INTEGRATION_RUNTIME ??= 'none';
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 10_000;
const CLI_TIMEOUT_MS = 10_000;

/** A short random string, unique per call: keeps emails, domains and hostnames of runs apart. */
export function uniq(n = 8) {
    return randomBytes(n).toString('hex').slice(0, n);
}

function freePort() {
    return new Promise((res, rej) => {
        const srv = createServer();
        srv.unref();
        srv.on('error', rej);
        srv.listen(0, '127.0.0.1', () => {
            const { port } = srv.address();
            srv.close(() => res(port));
        });
    });
}

function tail(file, lines = 40) {
    try {
        const text = readFileSync(file, 'utf8');
        return text.split('\n').slice(-lines).join('\n');
    } catch {
        return '(no log)';
    }
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Storage arguments for the CLI: --data DIR, or --database URL when DOCSD_TEST_DATABASE is set. */
function storageArgs(dataDir) {
    return DATABASE_URL ? ['--database', DATABASE_URL] : ['--data', dataDir];
}

/**
 * Runs `docsd ARGS...` and resolves to {code, signal, stdout, stderr}; never rejects on a
 * non-zero exit.
 */
export function runCli(args, { timeout = CLI_TIMEOUT_MS } = {}) {
    return new Promise((res, rej) => {
        execFile(DOCSD_BIN, args, { timeout, maxBuffer: 4 << 20 }, (err, stdout, stderr) => {
            if (err && typeof err.code !== 'number' && !err.signal && err.killed !== true) {
                rej(err); // ENOENT and the like
                return;
            }
            res({ code: err ? (typeof err.code === 'number' ? err.code : null) : 0, signal: err?.signal ?? null, stdout, stderr });
        });
    });
}

function parseSingleJson(stdout, what) {
    const text = stdout.trim();
    let obj;
    try {
        obj = JSON.parse(text);
    } catch (e) {
        throw new assert.AssertionError({ message: `${what}: stdout is not a single JSON object: ${JSON.stringify(text.slice(0, 500))}` });
    }
    assert.equal(typeof obj, 'object', `${what}: stdout should be a JSON object`);
    return obj;
}

/**
 * Starts `docsd serve` on a free loopback port with a fresh data directory, or with `dataDir`
 * (the data of a server stopped with stop({ keepData: true })) to restart on the same data.
 * Returns {url, siteUrl, port, sitePort, dataDir, logFile, stop(), createUser(email, name),
 * createToken(email), cli(args)}. Published sites are on a second listener (README, "Two
 * origins"): siteUrl, a free port of its own, unless extraArgs give --site-listen or
 * --site-url themselves (then siteUrl is what /healthz's home document names).
 */
export async function startServer({ rateLimit, extraArgs = [], dataDir: reuseDir } = {}) {
    if (!existsSync(DOCSD_BIN)) throw new Error(`docsd binary not found at ${DOCSD_BIN} (run make, or set DOCSD_BIN)`);
    const dataDir = reuseDir ?? mkdtempSync(join(tmpdir(), 'docsd-api-test-'));
    const logFile = join(dataDir, 'server.log');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const ownSite = extraArgs.some((a) => a === '--site-listen' || a === '--site-url');
    let sitePort = ownSite ? null : await freePort();
    while (sitePort === port) sitePort = await freePort();
    let siteUrl = ownSite ? null : `http://127.0.0.1:${sitePort}`;
    // On PostgreSQL the data directory still holds what is not in the database (Git mirrors):
    // the test's own, never ./data (a job of another test file may run on this server: the
    // queue is shared).
    const args = ['serve', '--listen', `127.0.0.1:${port}`, ...storageArgs(dataDir), ...(DATABASE_URL ? ['--data', dataDir] : []), '--public-url', url];
    if (rateLimit !== undefined) args.push('--rate-limit', String(rateLimit));
    if (!ownSite) args.push('--site-listen', `127.0.0.1:${sitePort}`, '--site-url', siteUrl);
    args.push(...extraArgs);

    const logFd = openSync(logFile, 'a');
    const child = spawn(DOCSD_BIN, args, { stdio: ['ignore', logFd, logFd] });
    closeSync(logFd);
    let exited = null; // {code, signal}
    let stopping = false;
    const exitPromise = new Promise((res) => {
        child.on('exit', (code, signal) => {
            exited = { code, signal };
            if (!stopping) {
                process.stderr.write(
                    `\n[docsd] server on port ${port} exited unexpectedly (code ${code}, signal ${signal}); log tail (${logFile}):\n${tail(logFile)}\n`,
                );
            }
            res(exited);
        });
    });
    child.on('error', (e) => process.stderr.write(`[docsd] spawn error: ${e.message}\n`));

    // Wait for /healthz, bounded.
    const deadline = Date.now() + START_TIMEOUT_MS;
    let healthy = false;
    let lastErr = null;
    while (Date.now() < deadline && !exited) {
        try {
            const r = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(1000) });
            await r.arrayBuffer();
            if (r.status === 200) {
                healthy = true;
                break;
            }
            lastErr = new Error(`/healthz answered ${r.status}`);
        } catch (e) {
            lastErr = e;
        }
        await sleep(50);
    }
    if (!healthy) {
        if (!exited) {
            child.kill('SIGKILL');
            await exitPromise;
        }
        throw new Error(
            `docsd did not become healthy within ${START_TIMEOUT_MS} ms (${lastErr?.message}); args: ${args.join(' ')}\nlog tail:\n${tail(logFile)}`,
        );
    }

    if (ownSite) {
        // The home document names where the sites are.
        const home = await (await fetch(`${url}/`)).json();
        siteUrl = home.sites.replace(/\/sites\/$/, '');
        sitePort = Number(new URL(siteUrl).port) || null;
    }

    async function cli(cliArgs) {
        return runCli(cliArgs);
    }

    /** `docsd user create`: returns {user, token}; validates user against the User schema. */
    async function createUser(email, name) {
        const a = ['user', 'create', ...storageArgs(dataDir), '--email', email];
        if (name !== undefined) a.push('--name', name);
        const r = await runCli(a);
        assert.equal(r.code, 0, `docsd ${a.join(' ')} exited ${r.code}: ${r.stderr}`);
        const obj = parseSingleJson(r.stdout, 'docsd user create');
        assert.equal(typeof obj.token, 'string', 'user create: token should be a string');
        assert.ok(obj.token.length > 0);
        validateComponent('User', obj.user);
        assert.equal(obj.user.email, email);
        if (name !== undefined) assert.equal(obj.user.displayName, name);
        return { user: obj.user, token: obj.token, id: obj.user.id, email };
    }

    /** `docsd token create`: returns the token string. */
    async function createToken(email) {
        const a = ['token', 'create', ...storageArgs(dataDir), '--email', email];
        const r = await runCli(a);
        assert.equal(r.code, 0, `docsd ${a.join(' ')} exited ${r.code}: ${r.stderr}`);
        const obj = parseSingleJson(r.stdout, 'docsd token create');
        assert.equal(typeof obj.token, 'string');
        assert.ok(obj.token.length > 0);
        return obj.token;
    }

    /**
     * SIGTERM, wait (bounded), assert a clean exit 0; under DOCSD_ASAN=1 also check the log.
     * keepData: leave the data directory for a restart (startServer({ dataDir })).
     */
    async function stop({ keepData = false } = {}) {
        stopping = true;
        if (!exited) {
            child.kill('SIGTERM');
            let timer;
            const timeout = new Promise((r) => {
                timer = setTimeout(() => r('timeout'), STOP_TIMEOUT_MS);
            });
            const r = await Promise.race([exitPromise, timeout]);
            clearTimeout(timer);
            if (r === 'timeout') {
                child.kill('SIGKILL');
                await exitPromise;
                throw new assert.AssertionError({
                    message: `docsd did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM\nlog tail:\n${tail(logFile)}`,
                });
            }
        }
        const log = readFileSync(logFile, 'utf8');
        if (ASAN && (log.includes('ERROR: AddressSanitizer') || log.includes('runtime error:') || log.includes('ERROR: LeakSanitizer'))) {
            throw new assert.AssertionError({ message: `sanitizer reported errors (log ${logFile}):\n${tail(logFile, 80)}` });
        }
        assert.deepEqual(
            exited,
            { code: 0, signal: null },
            `docsd should exit with code 0 after SIGTERM, got ${JSON.stringify(exited)}\nlog tail:\n${tail(logFile)}`,
        );
        if (!keepData && !process.env.DOCSD_KEEP_DATA) rmSync(dataDir, { recursive: true, force: true });
    }

    return {
        url,
        siteUrl,
        sitePort,
        port,
        dataDir,
        logFile,
        process: child,
        get exited() {
            return exited;
        },
        stop,
        cli,
        createUser,
        createToken,
        storageArgs: () => storageArgs(dataDir),
    };
}

// The durable job queue (issue 13): a job killed with kill -9 while it runs is run again after
// the restart and applies its effect exactly once; the periodic purge runs through the queue;
// /metrics counts jobs by kind and state; the debugging CLI (`docsd job enqueue|list`) checks
// its input. The test-only kind "test.sleep-then-write" exists only with DOCSD_TEST_JOBS=1: it
// sleeps payload.ms inside the worker's transaction, then adds 1 to a counter keyed by the
// job's subject and reports the counter in its result.
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, runCli, uniq } from './lib/server.mjs';

process.env.DOCSD_TEST_JOBS = '1';
const KIND = 'test.sleep-then-write';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function listJobs(server, kind) {
    const r = await runCli(['job', 'list', ...server.storageArgs(), '--kind', kind]);
    assert.equal(r.code, 0, `docsd job list: ${r.stderr}`);
    return r.stdout.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

async function jobById(server, kind, id) {
    const job = (await listJobs(server, kind)).find((j) => j.id === id);
    assert.ok(job, `job ${id} is listed`);
    return job;
}

async function waitFor(what, fn, ms) {
    const deadline = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v) return v;
        if (Date.now() > deadline) assert.fail(`timed out waiting for ${what}`);
        await sleep(100);
    }
}

async function metric(server, kind, state) {
    const r = await fetch(`${server.url}/metrics`);
    assert.equal(r.status, 200);
    const text = await r.text();
    assert.match(text, /# TYPE docsd_jobs gauge/);
    const m = text.match(new RegExp(`^docsd_jobs\\{kind="${kind.replace('.', '\\.')}",state="${state}"\\} (\\d+)$`, 'm'));
    return m ? Number(m[1]) : 0;
}

describe('jobs: the durable queue', () => {
    let server = null;
    after(async () => {
        if (server && !server.exited) await server.stop();
    });

    it('a job killed with kill -9 while running completes after the restart, exactly once', async () => {
        server = await startServer({ extraArgs: ['--job-workers', '2'] });
        // the purge ran at start, through the queue
        assert.ok((await metric(server, 'spaces.purge', 'done')) >= 1, 'docsd_jobs{kind="spaces.purge",state="done"}');

        const subject = `crash-${uniq(10)}`;
        const enq = await runCli(['job', 'enqueue', ...server.storageArgs(), '--kind', KIND, '--subject', subject, '--payload', '{"ms":3000}']);
        assert.equal(enq.code, 0, `docsd job enqueue: ${enq.stderr}`);
        const { id } = JSON.parse(enq.stdout);
        assert.match(id, /^[A-Za-z0-9]{20}$/);

        // (watched through /metrics: on SQLite the running job holds the writer, which the CLI's
        // start waits for)
        await waitFor('the job to run', async () => (await metric(server, KIND, 'running')) >= 1, 10_000);

        // kill -9 in the middle of the sleep: the transaction with the effect never commits
        const dataDir = server.dataDir;
        server.process.kill('SIGKILL');
        await waitFor('docsd to die', async () => server.exited, 5_000);
        server = null;
        let j = await jobById({ storageArgs: () => (process.env.DOCSD_TEST_DATABASE ? ['--database', process.env.DOCSD_TEST_DATABASE] : ['--data', dataDir]) }, KIND, id);
        assert.equal(j.state, 'running', 'the dead process still holds the job');
        assert.equal(j.attempts, 1);
        assert.equal(j.result, null);

        // restart past the dead process's lease (30 s): another worker takes the job
        server = await startServer({ dataDir, extraArgs: ['--job-workers', '2', '--clock-offset-ms', '60000'] });
        j = await waitFor('the job to finish', async () => {
            const x = await jobById(server, KIND, id);
            return x.state === 'done' || x.state === 'failed' ? x : null;
        }, 20_000);
        assert.equal(j.state, 'done', `job finished: ${JSON.stringify(j)}`);
        assert.equal(j.attempts, 2, 'run twice: the killed attempt and the one after the restart');
        assert.deepEqual(j.result, { count: 1 }, 'its effect applied once');
        assert.equal(j.lastError, null);
        assert.ok((await metric(server, KIND, 'done')) >= 1, 'docsd_jobs counts the done job');

        // and it stays done: nothing runs it again
        await sleep(1500);
        const again = await jobById(server, KIND, id);
        assert.equal(again.state, 'done');
        assert.deepEqual(again.result, { count: 1 });
        await server.stop();
        server = null;
    });

    it('the debugging CLI checks its input', async () => {
        server = await startServer();
        let r = await runCli(['job', 'enqueue', ...server.storageArgs(), '--subject', 'x']);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /--kind is required/);
        r = await runCli(['job', 'enqueue', ...server.storageArgs(), '--kind', KIND, '--payload', 'not json']);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /--payload must be a JSON object/);
        r = await runCli(['job', 'enqueue', ...server.storageArgs(), '--kind', KIND, '--payload', '[1]']);
        assert.equal(r.code, 2);
        r = await runCli(['serve', ...server.storageArgs(), '--job-workers', '65']);
        assert.equal(r.code, 2);
        assert.match(r.stderr, /--job-workers must be an integer between 0 and 64/);
        // a job queued by the CLI runs on the live server
        const subject = `live-${uniq(10)}`;
        r = await runCli(['job', 'enqueue', ...server.storageArgs(), '--kind', KIND, '--subject', subject, '--payload', '{"ms":10}']);
        assert.equal(r.code, 0, r.stderr);
        const { id } = JSON.parse(r.stdout);
        const j = await waitFor('the job to finish', async () => {
            const x = await jobById(server, KIND, id);
            return x.state === 'done' ? x : null;
        }, 10_000);
        assert.equal(j.attempts, 1);
        assert.deepEqual(j.result, { count: 1 });
        await server.stop();
        server = null;
    });
});

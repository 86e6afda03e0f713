#!/usr/bin/env node
// Timing of translation runs for bench/translate.sh, through docsd's public API (Node >= 18,
// no packages).
//
//   node bench/translate.mjs BASE TOKEN PAGES
//       POST /v1/orgs (an org of its own), one space of PAGES pages like bench/seed-site.mjs
//       makes (about 1.5 KB of markdown each: headings, paragraphs, a table, a code block, a
//       hint), merged through one change request. Then, each timed from the request to the
//       translation's `completed` (polled every 50 ms):
//         direct   createTranslation en→es + runTranslation (one Apertium pair)
//         pivot    createTranslation en→fr + runTranslation (a chain: en→es→fr)
//         changed  one page edited through a change request: the merge queues a run of both
//                  translations (domain/events.c); the time until both completed again, and
//                  how many pages each run translated (stats.latestPages, expected 1)
//       Prints {"pages", "segments"?, "direct": {s, pagesPerSec, words}, "pivot": {...},
//       "changed": {s, latestPages: [es, fr]}}.
const TIMEOUT_MS = 1_800_000;

function fail(msg) {
    process.stderr.write(`translate.mjs: ${msg}\n`);
    process.exit(1);
}

async function call(base, token, method, path, body, expect) {
    const res = await fetch(base + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(120_000),
    });
    const text = await res.text();
    if (!expect.includes(res.status)) fail(`${method} ${path} -> ${res.status}: ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : null;
}

const WORDS = ('house garden street window table chair water light music paper river mountain forest city ' +
    'school family friend morning evening country road animal bird flower summer winter market doctor teacher ' +
    'student village island bridge kitchen letter number picture question answer').split(' ');

/** A page of about 1.5 KB in the shape of bench/seed-site.mjs's pages, in English words Apertium knows. */
function pageMarkdown(i, extra = '') {
    const w = (k) => WORDS[(i * 7 + k * 13) % WORDS.length];
    let md = `# Page ${i} ${w(1)} ${w(2)}\n\nThis page explains the ${w(3)} and the ${w(5)} for case ${i}.\n\n`;
    for (let s = 0; s < 3; s++) {
        md += `## The ${w(6 + s)} and the ${w(9 + s)}\n\nThe ${w(12 + s)} is near the ${w(15 + s)} with a big ${w(18 + s)}. `;
        md += `Keep the ${w(20 + s)} in mind when you see the ${w(22 + s)}.\n\n`;
    }
    md += `| Setting | Value |\n| --- | --- |\n| The ${w(23)} | ${i} |\n| The ${w(24)} | ${i % 13} |\n\n`;
    md += '```bash\n' + `docsd ${w(25)} --${w(26)} ${i}\n` + '```\n\n';
    md += `{% hint style="info" %}\nRemember the ${w(27)} before the ${w(28)}.\n{% endhint %}\n`;
    return md + extra;
}

async function seedSpace(base, token, orgPath, pages) {
    const space = await call(base, token, 'POST', `${orgPath}/spaces`, { title: 'Translated content' }, [201]);
    const sp = `/v1/spaces/${space.id}`;
    const cr = await call(base, token, 'POST', `${sp}/change-requests`, { subject: 'Seed' }, [201]);
    const parentsN = Math.min(100, pages);
    const children = Math.max(0, Math.floor(pages / parentsN) - 1);
    const parents = [];
    let n = 0;
    for (let p = 0; p < parentsN; p += 50) {
        const batch = [];
        for (let k = p; k < p + 50 && k < parentsN; k++) batch.push({ operation: 'insert_page', title: `Part ${k} house`, document: { markdown: pageMarkdown(n++) } });
        const res = await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content?compat=false`, { changes: batch }, [200]);
        for (const c of res.changes) parents.push(c.page.id);
    }
    let batch = [];
    for (let p = 0; p < parentsN; p++) {
        for (let c = 0; c < children && n < pages; c++) {
            batch.push({ operation: 'insert_page', title: `Topic ${p}.${c} garden`, into: parents[p], document: { markdown: pageMarkdown(n++) } });
            if (batch.length === 50) {
                await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, { changes: batch }, [200]);
                batch = [];
            }
        }
    }
    if (batch.length) await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, { changes: batch }, [200]);
    const m = await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]);
    if (m.result !== 'merge') fail(`seed merge: ${JSON.stringify(m)}`);
    return { space, pages: n, parents };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function untilCompleted(base, token, orgPath, id, runs) {
    const deadline = Date.now() + TIMEOUT_MS;
    for (;;) {
        const t = await call(base, token, 'GET', `${orgPath}/translations/${id}`, undefined, [200]);
        if (t.status === 'completed' && t.stats.runs >= runs) return t;
        if (Date.now() > deadline) fail(`translation ${id} did not complete run ${runs}`);
        await sleep(50);
    }
}

async function timedRun(base, token, orgPath, spaceId, language) {
    const t = await call(base, token, 'POST', `${orgPath}/translations`, { source: { space: spaceId, language: 'en' }, language }, [201]);
    const t0 = process.hrtime.bigint();
    await call(base, token, 'POST', `${orgPath}/translations/${t.id}/run`, undefined, [204]);
    const done = await untilCompleted(base, token, orgPath, t.id, 1);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    return { id: t.id, route: done.route?.languages?.join('→'), s: +s.toFixed(2), pagesPerSec: +(done.stats.latestPages / s).toFixed(1),
        pages: done.stats.latestPages, words: done.stats.latestWords };
}

async function main(base, token, pages) {
    const org = await call(base, token, 'POST', '/v1/orgs', { title: 'Bench translate org' }, [200, 201]);
    const orgPath = `/v1/orgs/${encodeURIComponent(org.id)}`;
    const { space, pages: made, parents } = await seedSpace(base, token, orgPath, pages);
    const direct = await timedRun(base, token, orgPath, space.id, 'es');
    const pivot = await timedRun(base, token, orgPath, space.id, 'fr');
    // One page changes; the merge queues a run of both translations.
    const sp = `/v1/spaces/${space.id}`;
    const cr = await call(base, token, 'POST', `${sp}/change-requests`, { subject: 'One page' }, [201]);
    await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'update_page', page: parents[1], document: { markdown: pageMarkdown(1, '\nThe new window is open.\n') } }],
    }, [200]);
    const t0 = process.hrtime.bigint();
    const m = await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]);
    if (m.result !== 'merge') fail(`merge: ${JSON.stringify(m)}`);
    const es = await untilCompleted(base, token, orgPath, direct.id, 2);
    const fr = await untilCompleted(base, token, orgPath, pivot.id, 2);
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    process.stdout.write(JSON.stringify({
        pages: made, direct, pivot,
        changed: { s: +s.toFixed(2), latestPages: [es.stats.latestPages, fr.stats.latestPages], runs: [es.stats.runs, fr.stats.runs] },
    }) + '\n');
}

const [base, token, pagesArg] = process.argv.slice(2);
const pages = Number(pagesArg);
if (!base || !token || !Number.isInteger(pages) || pages < 100) fail('usage: translate.mjs BASE TOKEN PAGES (>= 100)');
main(base, token, pages).catch((e) => fail(e && e.stack ? e.stack : String(e)));

#!/usr/bin/env node
// Seeding and timing of the published-site rows of bench/run.sh, through docsd's public API
// (Node >= 18, no packages).
//
//   node bench/seed-site.mjs site BASE TOKEN OUTDIR PAGES [RENDERS]
//       POST /v1/orgs (an org of its own), one space of PAGES pages (100 parents with
//       PAGES/100 - 1 children each, written through one change request in content batches
//       of 50, then merged), a public site with that space (basename "bench"), published.
//       Saves the exact bytes of the published HTML page of a child page in the middle as
//       OUTDIR/site-page.html and of GET /v1/orgs/{org}/sites/{site}/published as
//       OUTDIR/site-published.json (nginx serves both in the same run).
//       Then RENDERS times (default 30), sequentially: a change request that edits that page,
//       merged; the first GET of the page after the merge is timed (its first render), and a
//       second GET (served from the rendered-page cache) too; each must be 200 and show the edit.
//       Then a space of two pages, "All blocks" (every GitBook block and raw HTML: what
//       site/md_html.c and format/html_allow.c cost) on a public site, and "Plans" ({% if %}
//       blocks and {{ visitor.claims }}) on a visitor-auth site, read with a visitor token's
//       cookie (the render cache is keyed by the claims); their HTML bytes are saved as
//       OUTDIR/site-blocks.html and OUTDIR/site-claims.html for nginx.
//       Prints {"orgId", "siteId", "spaceId", "spacePagePath", "pages", "pagePath", "publishedPath", "pageBytes",
//       "publishedBytes", "renders", "firstRender": {p50, p99}, "warm": {p50, p99},
//       "blocksPath", "blocksBytes", "claimsPath", "claimsCookie", "claimsBytes"} (ms).
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TIMEOUT_MS = 120_000;

function fail(msg) {
    process.stderr.write(`seed-site.mjs: ${msg}\n`);
    process.exit(1);
}

async function request(base, token, method, path, body, extra = {}) {
    const res = await fetch(base + path, {
        method,
        headers: {
            ...extra,
            ...(token ? { Authorization: `Bearer ${token}` } : {}),
            ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function call(base, token, method, path, body, expect) {
    const { res, bytes } = await request(base, token, method, path, body);
    if (!expect.includes(res.status)) {
        fail(`${method} ${path} -> ${res.status} (wanted ${expect.join('/')}): ${bytes.toString().slice(0, 500)}`);
    }
    return bytes;
}

const json = (bytes) => JSON.parse(bytes.toString('utf8'));

const WORDS = ('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ' +
    'quebec romeo sierra tango uniform victor whiskey xray yankee zulu hatch pattern custom render export import ' +
    'deploy cluster region bucket token session webhook payload schema migration index query cache latency').split(' ');

/** A page of about 1.5 KB: headings, paragraphs, a table, a code block and a hint. */
function pageMarkdown(i, extra = '') {
    const w = (k) => WORDS[(i * 7 + k * 13) % WORDS.length];
    let md = `# Page ${i} ${w(1)} ${w(2)}\n\nThis page explains ${w(3)} ${w(4)} and ${w(5)} for case ${i}.\n\n`;
    for (let s = 0; s < 3; s++) {
        md += `## ${w(6 + s)} ${w(9 + s)}\n\nThe ${w(12 + s)} step uses ${w(15 + s)} with ${w(18 + s)} ${i % 97}. `;
        md += `Keep ${w(20 + s)} in mind when you ${w(21 + s)} the ${w(22 + s)}.\n\n`;
    }
    md += `| Setting | Value |\n| --- | --- |\n| ${w(23)} | ${i} |\n| ${w(24)} | ${i % 13} |\n\n`;
    md += '```bash\n' + `docsd ${w(25)} --${w(26)} ${i}\n` + '```\n\n';
    md += `{% hint style="info" %}\nRemember the ${w(27)} before the ${w(28)}.\n{% endhint %}\n`;
    return md + extra;
}

/** Every block GitBook writes (the browser test's page, without its hostile part). */
const BLOCKS = `Every block GitBook writes.

{% hint style="info" %}
An **info** hint.
{% endhint %}

{% hint style="warning" %}
A warning hint.
{% endhint %}

{% tabs %}
{% tab title="JavaScript" %}
\`\`\`js
acme.run({ fast: true })
\`\`\`
{% endtab %}
{% tab title="Python" %}
\`\`\`python
acme.run(fast=True)
\`\`\`
{% endtab %}
{% endtabs %}

{% stepper %}
{% step %}
### Install

Run the installer.
{% endstep %}
{% step %}
### Configure

Edit \`acme.yaml\`.
{% endstep %}
{% endstepper %}

{% columns %}
{% column width="60%" %}
The left column.
{% endcolumn %}
{% column %}
The right column.
{% endcolumn %}
{% endcolumns %}

<details>

<summary>Show the details</summary>

Hidden until opened, with **markdown** inside.

</details>

{% content-ref url="plans.md" %}
[plans.md](plans.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

{% code title="server.c" overflow="wrap" lineNumbers="true" %}
\`\`\`c
int main(void)
{
	return serve("docs", 8080);
}
\`\`\`
{% endcode %}

$$
E = mc^2 + \\sum_{i=1}^{n} x_i
$$

Inline math: $$a^2 + b^2 = c^2$$ in a sentence.

\`\`\`mermaid
graph TD
  A[Writer] --> B[docsd]
\`\`\`

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th></tr></thead><tbody><tr><td><strong>Plans</strong></td><td>What you get</td><td><a href="plans.md">plans.md</a></td></tr><tr><td><strong>Website</strong></td><td>An external link</td><td><a href="https://example.com">https://example.com</a></td></tr></tbody></table>

<a href="https://example.com/start" class="button primary">Get started</a> <a href="plans.md" class="button secondary">Read more</a>

Press <kbd>Ctrl</kbd> + <kbd>K</kbd>, <mark>highlighted</mark> text, x<sup>2</sup>.

<figure><img src="https://example.com/logo.png" alt="A figure"><figcaption><p>A figure with its caption</p></figcaption></figure>
`;

/** A page of adaptive content: blocks and expressions decided per visitor. */
const PLANS = `Hello {{ visitor.claims.name }}.

{% if visitor.claims.plan === "enterprise" %}
Your enterprise runbook: call extension 4242.
{% elsif visitor.claims.plan === "pro" %}
The pro runbook.
{% else %}
Upgrade for the runbook.
{% endif %}

{% if visitor.claims.roles?.includes("admin") %}
The admin console is at /admin.
{% endif %}

${pageMarkdown(7)}`;

/** An HS256 JWT of claims signed with key. */
function jwt(key, claims) {
    const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const data = `${b({ alg: 'HS256', typ: 'JWT' })}.${b(claims)}`;
    return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}

/** The blocks page on a public site and the adaptive page on a visitor-auth one. */
async function seedBlocks(base, token, orgPath, outdir) {
    const space = json(await call(base, token, 'POST', `${orgPath}/spaces`, { title: 'Blocks' }, [201]));
    const sp = `/v1/spaces/${space.id}`;
    const cr = json(await call(base, token, 'POST', `${sp}/change-requests`, { subject: 'Blocks' }, [201]));
    await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, { changes: [
        { operation: 'insert_page', title: 'All blocks', document: { markdown: BLOCKS } },
        { operation: 'insert_page', title: 'Plans', document: { markdown: PLANS } },
    ] }, [200]);
    const m = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]));
    if (m.result !== 'merge') fail(`blocks merge: ${JSON.stringify(m)}`);
    const site = async (title, visibility) => {
        const s = json(await call(base, token, 'POST', `${orgPath}/sites`, { title, visibility }, [201]));
        await call(base, token, 'POST', `${orgPath}/sites/${s.id}/site-spaces`, { spaceId: space.id }, [201]);
        const p = json(await call(base, token, 'POST', `${orgPath}/sites/${s.id}/publish`, undefined, [200]));
        return { s, root: new URL(p.urls.published).pathname.replace(/\/+$/, '') };
    };
    const pub = await site('Blocks docs', 'public');
    const blocksPath = pub.root;
    const blocks = await timedGet(base, blocksPath, 'Every block GitBook writes');
    writeFileSync(join(outdir, 'site-blocks.html'), blocks.bytes);
    const va = await site('Customer docs', 'visitor-auth');
    const key = json(await call(base, token, 'GET', `${orgPath}/sites/${va.s.id}/publishing/auth`, undefined, [200])).privateKey;
    const claimsCookie = `docsd_visitor=${jwt(key, { exp: Math.floor(Date.now() / 1000) + 6 * 3600, name: 'Ann', plan: 'enterprise', roles: ['admin'] })}`;
    const claimsPath = `${va.root}/plans`;
    const { res, bytes } = await request(base, null, 'GET', claimsPath, undefined, { Cookie: claimsCookie });
    if (res.status !== 200 || !bytes.toString().includes('extension 4242')) fail(`GET ${claimsPath} with the visitor's cookie -> ${res.status}`);
    writeFileSync(join(outdir, 'site-claims.html'), bytes);
    return { blocksPath, blocksBytes: blocks.bytes.length, claimsPath, claimsCookie, claimsBytes: bytes.length };
}

const percentile = (xs, p) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (xs) => ({ p50: +percentile(xs, 50).toFixed(2), p99: +percentile(xs, 99).toFixed(2) });

async function seedSpace(base, token, orgPath, pages) {
    const space = json(await call(base, token, 'POST', `${orgPath}/spaces`, { title: 'Site content' }, [201]));
    const sp = `/v1/spaces/${space.id}`;
    const cr = json(await call(base, token, 'POST', `${sp}/change-requests`, { subject: 'Seed' }, [201]));
    const parentsN = Math.min(100, pages);
    const children = Math.max(0, Math.floor(pages / parentsN) - 1);
    const parents = [];
    let n = 0;
    for (let p = 0; p < parentsN; p += 50) {
        const batch = [];
        for (let k = p; k < p + 50 && k < parentsN; k++) {
            batch.push({ operation: 'insert_page', title: `Part ${k}`, ref: `part${k}`, document: { markdown: pageMarkdown(n++) } });
        }
        const res = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content?compat=false`, { changes: batch }, [200]));
        for (const c of res.changes) parents.push(c.page.id);
    }
    let batch = [];
    for (let p = 0; p < parentsN; p++) {
        for (let c = 0; c < children && n < pages; c++) {
            batch.push({ operation: 'insert_page', title: `Topic ${p}.${c}`, into: parents[p], document: { markdown: pageMarkdown(n++) } });
            if (batch.length === 50) {
                await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, { changes: batch }, [200]);
                batch = [];
            }
        }
    }
    if (batch.length) await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, { changes: batch }, [200]);
    const m = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]));
    if (m.result !== 'merge') fail(`seed merge: ${JSON.stringify(m)}`);
    return { space, pages: n };
}

async function timedGet(base, path, expectText) {
    const t = process.hrtime.bigint();
    const { res, bytes } = await request(base, null, 'GET', path);
    const elapsed = Number(process.hrtime.bigint() - t) / 1e6;
    if (res.status !== 200) fail(`GET ${path} -> ${res.status}: ${bytes.toString().slice(0, 300)}`);
    if (expectText && !bytes.toString('utf8').includes(expectText)) fail(`GET ${path}: the page does not show "${expectText}"`);
    return { elapsed, bytes, res };
}

async function seedSite(base, token, outdir, pages, renders) {
    const org = json(await call(base, token, 'POST', '/v1/orgs', { title: 'Bench site org' }, [200, 201]));
    const orgPath = `/v1/orgs/${encodeURIComponent(org.id)}`;
    const { space, pages: made } = await seedSpace(base, token, orgPath, pages);
    const sp = `/v1/spaces/${space.id}`;

    const site = json(await call(base, token, 'POST', `${orgPath}/sites`, { title: 'Bench docs', visibility: 'public' }, [201]));
    const sitePath = `${orgPath}/sites/${site.id}`;
    await call(base, token, 'POST', `${sitePath}/site-spaces`, { spaceId: space.id }, [201]);
    await call(base, token, 'PATCH', sitePath, { basename: 'bench' }, [200]);
    const published = json(await call(base, token, 'POST', `${sitePath}/publish`, undefined, [200]));
    if (published.published !== true) fail(`publish: ${JSON.stringify(published).slice(0, 300)}`);
    const root = new URL(published.urls.published);

    // A child page in the middle of the tree.
    const list = json(await call(base, token, 'GET', `${sp}/content/pages`, undefined, [200])).pages;
    const mid = list[Math.floor(list.length / 2)];
    const target = mid.pages && mid.pages.length ? mid.pages[Math.floor(mid.pages.length / 2)] : mid;
    const pagePath = `${root.pathname.replace(/\/+$/, '')}/${target.path}`;
    const first = await timedGet(base, pagePath, target.title);
    if (!/text\/html/.test(first.res.headers.get('content-type') || '')) fail(`GET ${pagePath}: not HTML (${first.res.headers.get('content-type')})`);
    writeFileSync(join(outdir, 'site-page.html'), first.bytes);
    const publishedPath = `${sitePath}/published`;
    const publishedBody = await call(base, token, 'GET', publishedPath, undefined, [200]);
    writeFileSync(join(outdir, 'site-published.json'), publishedBody);

    // First render after a merge that touches the page, RENDERS times.
    const firstRender = [];
    const warm = [];
    const pageNo = Number((target.title.match(/\d+/g) || ['1']).join(''));
    for (let i = 0; i < renders; i++) {
        const marker = `Revision mark ${i} ${Date.now()}.`;
        const cr = json(await call(base, token, 'POST', `${sp}/change-requests`, { subject: `Edit ${i}` }, [201]));
        await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, {
            changes: [{ operation: 'update_page', page: target.id, document: { markdown: pageMarkdown(pageNo, `\n${marker}\n`) } }],
        }, [200]);
        const m = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]));
        if (m.result !== 'merge') fail(`merge ${i}: ${JSON.stringify(m)}`);
        firstRender.push((await timedGet(base, pagePath, marker)).elapsed);
        warm.push((await timedGet(base, pagePath, marker)).elapsed);
    }
    const extra = await seedBlocks(base, token, orgPath, outdir);
    process.stdout.write(JSON.stringify({
        orgId: org.id, siteId: site.id, spaceId: space.id, spacePagePath: target.path, pages: made, pagePath, publishedPath,
        pageBytes: first.bytes.length, publishedBytes: publishedBody.length,
        renders, firstRender: ms(firstRender), warm: ms(warm), ...extra,
    }) + '\n');
}

const [cmd, ...args] = process.argv.slice(2);
try {
    if (cmd === 'site' && (args.length === 4 || args.length === 5)) {
        const pages = Number(args[3]);
        const renders = Number(args[4] ?? 30);
        if (!Number.isInteger(pages) || pages < 100) fail('PAGES must be an integer >= 100');
        if (!Number.isInteger(renders) || renders < 1) fail('RENDERS must be a positive integer');
        await seedSite(args[0], args[1], args[2], pages, renders);
    } else {
        fail('usage: seed-site.mjs site BASE TOKEN OUTDIR PAGES [RENDERS]');
    }
} catch (err) {
    fail(err && err.stack ? err.stack : String(err));
}

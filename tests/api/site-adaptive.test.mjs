// Adaptive content on a published site (issue 24, section 1): {% if %} blocks decided per
// visitor everywhere content leaves docsd (the page, its .md twin, llms-full.txt, site search
// and its excerpts, the PDF), never a render shared between visitors with different claims;
// the JavaScript forms of GitBook's conditions; claims from the JWT, GitBook's cookies and
// ?visitor.* parameters; inline {{ visitor.claims.x }} escaped; a condition that does not parse
// refused when the page is written; a visitor-auth site without a token redirected to the
// publishing auth's fallbackURL.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { setup } from './lib/fixtures.mjs';
import { DATABASE_URL } from './lib/server.mjs';
import { ok, empty, raw, createOrg, validateError, sleep } from './lib/api.mjs';
import { workTree, bare } from './lib/git.mjs';

/** A w x h PNG of one color. */
function png(w, h, [r, g, b]) {
    const table = Array.from({ length: 256 }, (_, n) => {
        let c = n;
        for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
        return c >>> 0;
    });
    const crc = (buf) => {
        let c = 0xffffffff;
        for (const x of buf) c = table[(c ^ x) & 0xff] ^ (c >>> 8);
        return (c ^ 0xffffffff) >>> 0;
    };
    const chunk = (type, data) => {
        const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
        const out = Buffer.alloc(12 + data.length);
        out.writeUInt32BE(data.length, 0);
        td.copy(out, 4);
        out.writeUInt32BE(crc(td), 8 + data.length);
        return out;
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8;
    ihdr[9] = 2;
    const rows = Buffer.alloc(h * (1 + w * 3));
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rows.set([r, g, b], y * (1 + w * 3) + 1 + x * 3);
    return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

// A repository as GitBook's Git sync writes one: raw HTML figures, cards, details, buttons and
// a <picture>, with asset paths relative to the page; a page with an if: condition.
const GITBOOK_REPO = {
    'README.md': '---\ncover: .gitbook/assets/cover.png\ncoverY: 40\n---\n\n# Welcome\n\n<figure><img src=".gitbook/assets/logo.png" alt="Logo"><figcaption><p>Our logo</p></figcaption></figure>\n\n' +
        '<table data-view="cards"><thead><tr><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead>' +
        '<tbody><tr><td><strong>Guide</strong></td><td><a href="guide.md">guide.md</a></td><td><a href=".gitbook/assets/cover.png">cover.png</a></td></tr></tbody></table>\n\n' +
        '<details>\n\n<summary>More</summary>\n\nInside the details.\n\n</details>\n\n' +
        '<a href="guide.md" class="button primary">Read the guide</a>\n\n' +
        '<picture><source srcset=".gitbook/assets/dark.png" media="(prefers-color-scheme: dark)"><img src=".gitbook/assets/logo.png" alt=""></picture>\n\n' +
        '<img src="https://example.com/x.png" onerror="alert(1)">\n',
    'guide.md': '---\nlayout:\n  title:\n    visible: false\n  pagination:\n    visible: false\n  outline:\n    visible: false\n  width: wide\n---\n\n# Guide\n\nThe guide.\n\n## One\n\n## Two\n',
    'partners.md': '---\nif: visitor.claims.unsigned.partner === true\n---\n\n# Partners\n\nPartner pricing.\n',
    'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md "The guide, short")\n* [Partners](partners.md)\n',
    '.gitbook/assets/logo.png': png(4, 4, [52, 109, 219]),
    '.gitbook/assets/cover.png': png(8, 4, [22, 163, 74]),
    '.gitbook/assets/dark.png': png(4, 4, [234, 140, 40]),
};

const PAGE = `Everyone reads this opening.

{% if visitor.claims.plan === "enterprise" %}
The SECRETWORD enterprise runbook: call extension 4242.
{% else %}
Upgrade to enterprise for the runbook.
{% endif %}

{% if visitor.claims.unsigned.beta %}
Beta BETAWORD feature notes.

## The SECTIONWORD heading

Only betas read the section under it: opening words here too.
{% endif %}

{% if visitor.claims.roles?.includes("admin") && !visitor.claims.unsigned.hideAdmin %}
Admin ADMINWORD console.
{% endif %}

Hello {{ visitor.claims.name }}, plan {{ visitor.claims.plan }}{{ page.vars.nothing }}.

\`\`\`liquid
{% if literal %}code stays{% endif %}
\`\`\`

Everyone reads this closing.
`;

function jwt(key, claims) {
    const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const data = `${b({ alg: 'HS256', typ: 'JWT' })}.${b(claims)}`;
    return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}

function pdfText(buf) {
    const path = `/tmp/docsd-adaptive-${process.pid}-${Date.now()}.pdf`;
    writeFileSync(path, buf);
    try {
        return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8', timeout: 20_000 });
    } finally {
        rmSync(path, { force: true });
    }
}

describe('adaptive content on published sites', () => {
    let ctx, alice, api, org, space, site, key, root, other;
    const now = () => Math.floor(Date.now() / 1000);
    const get = (path, headers = {}) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path, { headers });
    const as = (claims) => ({ Cookie: `docsd_visitor=${jwt(key, { exp: now() + 600, ...claims })}` });

    async function write(spaceId, changes) {
        const cr = await ok(api.spaces.createChangeRequest(spaceId, { subject: 'Edit' }), 'createChangeRequest', 201);
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${spaceId}/change-requests/${cr.id}/content`, { token: alice.token, json: { changes } });
        return { cr, r };
    }
    async function merged(spaceId, changes) {
        const { cr, r } = await write(spaceId, changes);
        assert.equal(r.status, 200, r.text);
        assert.equal((await ok(api.spaces.mergeChangeRequest(spaceId, cr.id), 'mergeChangeRequest')).result, 'merge');
    }

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network', ...(DATABASE_URL ? ['--data', mkdtempSync(join(tmpdir(), 'docsd-adaptive-data-'))] : [])] });
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Adaptive ${ctx.run}`));
        space = await ok(api.orgs.createSpace(org.id, { title: 'Runbooks' }), 'createSpace', 201);
        await merged(space.id, [
            { operation: 'insert_page', title: 'Operations', document: { markdown: PAGE } },
            { operation: 'insert_page', title: 'Plain', document: { markdown: 'Nothing adaptive about zebrafish.\n' } },
        ]);
        site = await ok(api.orgs.createSite(org.id, { title: 'Adaptive docs' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, site.id, { visibility: 'visitor-auth' }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        key = (await ok(api.orgs.getSitePublishingAuthById(org.id, site.id), 'getSitePublishingAuthById')).privateKey;
        root = `/sites/${site.id}`;
        // A public site on the same space: anonymous visitors, unsigned claims only.
        other = await ok(api.orgs.createSite(org.id, { title: 'Public adaptive' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, other.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.publishSite(org.id, other.id), 'publishSite');
    });
    after(() => ctx?.server.stop());

    const HIDDEN = ['SECRETWORD', '4242', 'BETAWORD', 'ADMINWORD', 'SECTIONWORD'];

    it('a visitor without the claim sees none of the block: page, twin, llms-full.txt, search', async () => {
        const basic = as({ plan: 'free', name: 'Bo' });
        for (const path of [root, `${root}/index.md`, `${root}/llms-full.txt`]) {
            const r = await get(path, basic);
            assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`);
            for (const w of HIDDEN) assert.ok(!r.text.includes(w), `${w} leaked in ${path}`);
            assert.match(r.text, /Everyone reads this opening/);
            assert.match(r.text, /Upgrade to enterprise/);
            assert.match(r.text, /Everyone reads this closing/);
            assert.equal((r.text.match(/\{% *(else|endif) *%\}/g) || []).length, 1, `${path}: only the code's tags remain`);
            assert.match(r.text, /\{% if literal %\}code stays\{% endif %\}/, `${path}: code is code`);
        }
        assert.ok((await get(`${root}/llms-full.txt`, basic)).text.includes('zebrafish'));
        // search: no hit on a word only in a hidden block, and no excerpt showing it
        const s1 = await get(`${root}/~search?q=SECRETWORD`, basic);
        assert.equal(s1.status, 200);
        assert.match(s1.text, /No results/i, 'no hit for a word only in a hidden block');
        assert.ok(!s1.text.includes('4242'));
        const s2 = await get(`${root}/~search?q=opening`, basic);
        assert.match(s2.text, /Operations/);
        for (const w of HIDDEN) assert.ok(!s2.text.includes(w), `${w} leaked in the search excerpt`);
    });

    it('a visitor with the claims sees all of it, and renders are never shared', async () => {
        const ent = as({ plan: 'enterprise', roles: ['admin'], name: '<b>Ann</b> & *co*' });
        const page = await get(root, ent);
        assert.equal(page.status, 200);
        for (const w of ['SECRETWORD', '4242', 'ADMINWORD']) assert.ok(page.text.includes(w), `${w} shown`);
        assert.ok(!page.text.includes('BETAWORD'), 'beta needs an unsigned claim');
        assert.ok(!page.text.includes('Upgrade to enterprise'));
        // {{ visitor.claims.name }}: escaped, never markup; an unknown name is empty
        assert.match(page.text, /Hello &lt;b&gt;Ann&lt;\/b&gt; &amp; \*co\*, plan enterprise\./);
        assert.ok(!page.text.includes('<b>Ann'));
        const twin = await get(`${root}/index.md`, ent);
        assert.ok(twin.text.includes('SECRETWORD'));
        assert.ok((await get(`${root}/llms-full.txt`, ent)).text.includes('ADMINWORD'));
        const s = await get(`${root}/~search?q=SECRETWORD`, ent);
        assert.match(s.text, /Operations/);
        // Same path, different claims: different ETags; the free visitor's render holds no secret
        const free = await get(root, as({ plan: 'free' }));
        assert.notEqual(free.headers.etag, page.headers.etag);
        assert.ok(!free.text.includes('SECRETWORD'));
        const again = await get(root, as({ plan: 'enterprise', roles: ['admin'], name: '<b>Ann</b> & *co*' }));
        assert.equal(again.headers.etag, page.headers.etag, 'same claims, same render');
        // If-None-Match with the enterprise ETag does not give the free visitor a 304
        const cond = await get(root, { ...as({ plan: 'free' }), 'If-None-Match': page.headers.etag });
        assert.equal(cond.status, 200);
    });

    it('unsigned claims: ?visitor.* parameters and the gitbook-visitor-public cookie; gitbook-visitor-token', async () => {
        const pub = `/sites/${other.id}`;
        const anon = await get(pub);
        assert.equal(anon.status, 200);
        for (const w of HIDDEN) assert.ok(!anon.text.includes(w));
        const beta = await get(`${pub}?visitor.beta=true`);
        assert.ok(beta.text.includes('BETAWORD'));
        assert.notEqual(beta.headers.etag, anon.headers.etag);
        assert.ok(!(await get(`${pub}?visitor.beta=false`)).text.includes('BETAWORD'));
        const cookie = encodeURIComponent(JSON.stringify({ beta: true }));
        assert.ok((await get(pub, { Cookie: `gitbook-visitor-public=${cookie}` })).text.includes('BETAWORD'));
        // unsigned claims never stand in for signed ones
        const forged = await get(`${pub}?visitor.plan=enterprise&visitor.claims.plan=enterprise`);
        assert.ok(!forged.text.includes('SECRETWORD'));
        assert.equal((await get(`${pub}?visitor.x=1`, { Cookie: 'gitbook-visitor-public=%7Bnot-json' })).status, 200);
        // unsigned claims do not open a visitor-auth site; GitBook's signed cookie does
        assert.equal((await get(`${root}?visitor.plan=enterprise`)).status, 401);
        const tok = jwt(key, { exp: now() + 600, plan: 'enterprise' });
        const viaGitbook = await get(root, { Cookie: `gitbook-visitor-token=${tok}` });
        assert.equal(viaGitbook.status, 200);
        assert.ok(viaGitbook.text.includes('SECRETWORD'));
        // the JWT plus an unsigned claim from the URL
        const both = await get(`${root}?visitor.beta=true`, { Cookie: `gitbook-visitor-token=${tok}` });
        assert.ok(both.text.includes('SECRETWORD') && both.text.includes('BETAWORD'));
    });

    it('page variables: front matter vars: fill {{ page.vars.x }}, escaped; unknown names are empty', async () => {
        await merged(space.id, [{ operation: 'insert_page', title: 'Vars', document: { markdown:
            '---\nvars:\n  product: Acme <Pro> *bold*\n  seats: 25\n  beta: true\n---\nUse {{ page.vars.product }} with {{ page.vars.seats }} seats ({{ page.vars.beta }}){{ page.vars.none }}{{ space.vars.x }}.\n\n{% if visitor.claims.plan == "enterprise" %}\nSecret {{ page.vars.product }}.\n{% endif %}\n' } }]);
        const pub = `/sites/${other.id}`;
        const r = await get(`${pub}/vars`);
        assert.equal(r.status, 200);
        assert.match(r.text, /Use Acme &lt;Pro&gt; \*bold\* with 25 seats \(true\)\./);
        assert.ok(!r.text.includes('Secret'));
        // the page's variables in GitBook's RevisionPageDocument (schema-validated by the client)
        const pages = (await ok(api.spaces.listPages(space.id), 'listPages')).pages;
        const vp = pages.find((x) => x.title === 'Vars');
        const page = await ok(api.spaces.getPageById(space.id, vp.id), 'getPageById');
        assert.deepEqual(page.variables, { beta: true, product: 'Acme <Pro> *bold*', seats: 25 });
        const twin = await get(`${pub}/vars.md`);
        assert.match(twin.text, /Use Acme \\<Pro\\> \\\*bold\\\* with 25 seats \(true\)\./);
    });

    it("GitBook's API blocks show the operation from the organization's spec", async () => {
        const SPEC = 'openapi: 3.0.3\ninfo: { title: Pets, version: 1.0.0 }\npaths:\n  /pets:\n    get:\n      summary: List pets\n' +
            '      description: Lists the zebra-striped pets.\n      parameters:\n        - { name: limit, in: query, schema: { type: integer }, description: How many }\n' +
            "      responses:\n        '200': { description: A page of pets }\n";
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'pets', source: { text: SPEC } }), 'createOpenAPISpec', 201);
        for (const deadline = Date.now() + 20_000; ;) {
            const sp = await ok(api.orgs.getOpenApiSpecBySlug(org.id, 'pets'), 'getOpenAPISpecBySlug');
            if (sp.processingState === 'complete') break;
            assert.ok(Date.now() < deadline, 'the spec is processed');
            await sleep(100);
        }
        await merged(space.id, [{ operation: 'insert_page', title: 'API blocks', document: { markdown:
            'Before.\n\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n[OpenAPI pets](https://example.com/pets.yaml)\n{% endopenapi-operation %}\n\n' +
            '{% openapi src="https://example.com/other.json" path="/x" method="post" %}\n[https://example.com/other.json](https://example.com/other.json)\n{% endopenapi %}\n\n' +
            '```\n{% openapi-operation spec="pets" path="/pets" method="get" %}\n```\n\nAfter.\n' } }]);
        const r = await get(`/sites/${other.id}/api-blocks`);
        assert.equal(r.status, 200);
        const t = r.text.slice(r.text.indexOf('<article'), r.text.indexOf('</article>'));
        assert.match(t, /<h3 id="list-pets">List pets<\/h3>/);
        assert.match(t, /<code>GET \/pets<\/code>/);
        assert.match(t, /Lists the zebra-striped pets\./);
        assert.match(t, /<table>[\s\S]*limit[\s\S]*How many[\s\S]*<\/table>/);
        assert.match(t, /does not have/, 'a spec the organization does not have is said so');
        assert.match(t, /\{% openapi-operation spec=&quot;pets&quot;/, 'in code it stays code');
        assert.match(t, /Before\.[\s\S]*After\./);
        assert.ok(!t.includes('endopenapi'));
        const twin = (await get(`/sites/${other.id}/api-blocks.md`)).text;
        assert.match(twin, /### List pets/);
    });

    it('a condition that does not parse is refused when the page is written (400 naming the line)', async () => {
        for (const bad of ['{% if visitor.claims.plan = "x" %}\nhidden\n{% endif %}\n', 'a\n\n{% if foo.bar %}\nx\n{% endif %}\n', '{% if %}\nx\n{% endif %}\n', '{% elsif visitor.claims.a === %}\n']) {
            const { r } = await write(space.id, [{ operation: 'insert_page', title: 'Bad', document: { markdown: bad } }]);
            assert.equal(r.status, 400, `${bad}: ${r.text}`);
            validateError(r.json);
            assert.match(r.json.error.message, /document\.markdown.*line \d+: condition: /);
        }
        // in a code block it is code, not a condition
        const { r } = await write(space.id, [{ operation: 'insert_page', title: 'Code', document: { markdown: '```\n{% if foo.bar %}\n```\n' } }]);
        assert.equal(r.status, 200, r.text);
    });

    it('a page with an if: condition (front matter) is hidden from navigation, search, sitemap, llms, twins and its URL', async () => {
        await merged(space.id, [
            { operation: 'insert_page', title: 'Enterprise guide', ref: 'ent', document: { markdown: '---\nif: visitor.claims.plan == "enterprise" || visitor.claims.unsigned.preview\n---\nThe zorblax procedure.\n' } },
            { operation: 'insert_page', title: 'Enterprise child', into: 'ent', document: { markdown: 'Child quuxly text.\n' } },
        ]);
        const pub = `/sites/${other.id}`;
        const check = async (prefix, headers, visible) => {
            const home = await get(prefix, headers);
            assert.equal(home.status, 200);
            assert.equal(home.text.includes('Enterprise guide'), visible, 'navigation');
            assert.equal(home.text.includes('Enterprise child'), visible, 'navigation (child)');
            for (const path of ['enterprise-guide', 'enterprise-guide.md', 'enterprise-guide/enterprise-child', 'enterprise-guide/enterprise-child.md']) {
                const r = await get(`${prefix}/${path}`, headers);
                assert.equal(r.status, visible ? 200 : 404, `${path}`);
                assert.equal(r.text.includes('zorblax') || r.text.includes('quuxly'), visible, `${path} text`);
            }
            for (const path of ['llms.txt', 'llms-full.txt']) {
                const r = await get(`${prefix}/${path}`, headers);
                assert.equal(r.text.includes('Enterprise guide'), visible, path);
            }
            const hits = await get(`${prefix}/~search?q=zorblax`, headers);
            assert.equal(/No results/.test(hits.text), !visible, 'search');
        };
        await check(root, as({ plan: 'free' }), false);
        await check(root, as({ plan: 'enterprise' }), true);
        await check(pub, {}, false);
        await check(`${pub}`, { Cookie: `gitbook-visitor-public=${encodeURIComponent('{"preview":true}')}` }, true);
        const sitemap = await get(`${pub}/sitemap.xml`);
        assert.equal(sitemap.status, 200);
        assert.ok(!sitemap.text.includes('enterprise-guide'));
        // the sitemap index lists one sitemap per site space: none names the hidden pages
        const parts = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]).pathname);
        assert.ok(parts.length >= 1);
        for (const part of parts) {
            const x = await get(part);
            assert.equal(x.status, 200);
            assert.ok(x.text.includes('<urlset') && !x.text.includes('enterprise-guide'), part);
        }
        // search as you type (JSON) follows the same rules
        const json = await get(`${pub}/~search.json?q=zorblax`);
        assert.equal(json.status, 200);
        assert.deepEqual(JSON.parse(json.text).results, []);
        const jsonOk = await get(`${pub}/~search.json?q=zorblax&visitor.preview=true`);
        assert.equal(JSON.parse(jsonOk.text).results.length, 1);
        const jsonEx = await get(`${root}/~search.json?q=opening`, as({ plan: 'free' }));
        for (const w of HIDDEN) assert.ok(!jsonEx.text.includes(w), `${w} in the JSON search`);
        // a condition that does not parse is refused
        const { r } = await write(space.id, [{ operation: 'insert_page', title: 'Bad if', document: { markdown: '---\nif: visitor.claims.plan =\n---\nx\n' } }]);
        assert.equal(r.status, 400, r.text);
        assert.match(r.json.error.message, /document\.markdown: frontmatter if: /);
    });

    it('a GitBook-made repository through Git import into the site: figures, cards, details, buttons, if:', async () => {
        const dir = mkdtempSync(join(tmpdir(), 'docsd-adaptive-git-'));
        try {
            const repo = bare(dir, 'gb', workTree(dir, 'gb-src', GITBOOK_REPO));
            const sp = await ok(api.orgs.createSpace(org.id, { title: 'Synced' }), 'createSpace', 201);
            await empty(api.spaces.importGitRepository(sp.id, { url: `file://${repo}`, ref: 'refs/heads/main' }), 204, 'importGitRepository');
            for (const deadline = Date.now() + 30_000; ;) {
                const s = await ok(api.spaces.getSpaceById(sp.id), 'getSpaceById');
                if (s.gitSync?.operation?.state && s.gitSync.operation.state !== 'running') {
                    assert.equal(s.gitSync.operation.state, 'success', JSON.stringify(s.gitSync));
                    break;
                }
                assert.ok(Date.now() < deadline, 'the import finished');
                await sleep(100);
            }
            const rev = await ok(api.spaces.getCurrentRevision(sp.id), 'getCurrentRevision');
            assert.deepEqual(rev.files.map((f) => f.name).sort(), ['cover.png', 'dark.png', 'logo.png'], 'files reached only from HTML are imported');
            const s2 = await ok(api.orgs.createSite(org.id, { title: 'Synced site' }), 'createSite', 201);
            await ok(api.orgs.addSpaceToSite(org.id, s2.id, { spaceId: sp.id }), 'addSpaceToSite', 201);
            await ok(api.orgs.publishSite(org.id, s2.id), 'publishSite');
            const r = await get(`/sites/${s2.id}`);
            assert.equal(r.status, 200);
            const t = r.text.slice(r.text.indexOf('<article'), r.text.indexOf('</article>'));
            const file = `/sites/${s2.id}/~file/[^/"]+/[^"]+`;
            assert.match(t, new RegExp(`<figure><img src="${file}" alt="Logo"><figcaption><p>Our logo</p></figcaption></figure>`));
            assert.match(t, new RegExp(`<div class="card"><img class="card-cover" alt="" src="${file}">`));
            assert.match(t, new RegExp(`<a class="card-link" href="/sites/${s2.id}/guide"`));
            assert.match(t, /<details>\s*<summary>More<\/summary>\s*<p>Inside the details\.<\/p>\s*<\/details>/);
            assert.match(t, new RegExp(`<a href="/sites/${s2.id}/guide" class="button primary">Read the guide</a>`));
            assert.match(t, new RegExp(`<source srcset="${file}" media="\\(prefers-color-scheme: dark\\)">`));
            assert.ok(!t.includes('onerror') && !t.includes('.gitbook/assets'), t);
            // the twin: GitBook's blocks as plain markdown, links absolute (pages to their twins)
            const twin = (await get(`/sites/${s2.id}/index.md`)).text;
            assert.match(twin, new RegExp(`href="${ctx.siteUrl}/sites/${s2.id}/guide\\.md"`));
            assert.match(twin, new RegExp(`src="${ctx.siteUrl}/sites/${s2.id}/~file/`));
            await merged(sp.id, [{ operation: 'insert_page', title: 'Blocks', document: { markdown:
                '{% hint style="warning" %}\nMind [the guide](guide.md).\n{% endhint %}\n\n{% tabs %}\n{% tab title="One" %}\nFirst.\n{% endtab %}\n{% endtabs %}\n\n{% stepper %}\n{% step %}\nDo it.\n{% endstep %}\n{% endstepper %}\n\n{% embed url="https://example.com/v" %}\n' } }]);
            const bt = (await get(`/sites/${s2.id}/blocks.md`)).text;
            assert.match(bt, new RegExp(`> \\*\\*Warning\\*\\*\n>\\s*\n> Mind \\[the guide\\]\\(${ctx.siteUrl}/sites/${s2.id}/guide\\.md\\)`));
            assert.match(bt, /\*\*One\*\*\n\nFirst\./);
            assert.match(bt, /\*\*Step 1\*\*\n\nDo it\./);
            assert.match(bt, /\[https:\/\/example\.com\/v\]\(https:\/\/example\.com\/v\)/);
            assert.ok(!bt.includes('{%'), bt);
            // the page's cover (front matter cover/coverY): above the title, and in the API
            assert.match(r.text, new RegExp(`<img class="page-cover" alt="" src="${file}" style="object-position:50% calc\\(50% \\+ 40px\\)">`));
            const wp = (await ok(api.spaces.listPages(sp.id), 'listPages')).pages.find((x) => x.title === 'Welcome');
            const wpage = await ok(api.spaces.getPageById(sp.id, wp.id), 'getPageById');
            assert.equal(wpage.cover.ref.kind, 'file');
            assert.equal(rev.files.find((f) => f.id === wpage.cover.ref.file).name, 'cover.png');
            assert.equal(wpage.cover.yPos, 40);
            // GitBook's layout toggles and SUMMARY.md's nav titles
            assert.match(r.text, /<a href="[^"]*\/guide">The guide, short<\/a>/, 'the nav title in the sidebar');
            assert.match(r.text, /<span>The guide, short<\/span>/, 'and in previous/next');
            const g = (await get(`/sites/${s2.id}/guide`)).text;
            assert.match(g, /<main class="content wide"/);
            assert.match(g, /<h1 class="visually-hidden">Guide<\/h1>/);
            assert.ok(!g.includes('class="pager"') && !g.includes('class="toc"'), 'no pagination, no outline');
            // the file URL leads to the file
            const fileUrl = t.match(new RegExp(`src="(${file})"`))[1];
            assert.equal((await get(fileUrl)).status, 302);
            // the if: page: hidden from anonymous visitors, shown with the unsigned claim
            assert.ok(!r.text.includes('Partners'));
            assert.equal((await get(`/sites/${s2.id}/partners`)).status, 404);
            const partner = await get(`/sites/${s2.id}/partners?visitor.partner=true`);
            assert.equal(partner.status, 200);
            assert.match(partner.text, /Partner pricing/);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    it('the PDF holds what an anonymous visitor reads', async () => {
        const { url } = await ok(api.spaces.getSpacePdf(space.id, {}), 'getSpacePDF');
        const res = await fetch(url);
        assert.equal(res.status, 200);
        const text = pdfText(Buffer.from(await res.arrayBuffer()));
        assert.ok(text.includes('Everyone reads this opening'), text);
        assert.ok(text.includes('Upgrade to enterprise'));
        for (const w of [...HIDDEN, 'zorblax', 'quuxly']) assert.ok(!text.includes(w), `${w} leaked in the PDF`);
        assert.ok(text.includes('zebrafish'));
    });

    it('visitor-auth without a valid token redirects to the fallbackURL with the page location', async () => {
        await ok(api.orgs.updateSitePublishingAuthById(org.id, site.id, { backend: 'custom', fallbackURL: 'https://login.example.com/sso?app=docs' }), 'updateSitePublishingAuthById');
        const r = await get(`${root}/plain`);
        assert.equal(r.status, 302);
        assert.equal(r.headers.location, 'https://login.example.com/sso?app=docs&location=%2Fplain');
        const bad = await get(`${root}/plain`, { Cookie: 'docsd_visitor=a.b.c' });
        assert.equal(bad.status, 302);
        // a valid token still reads the page
        assert.equal((await get(`${root}/plain`, as({}))).status, 200);
    });
});

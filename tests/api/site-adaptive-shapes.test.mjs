// Adaptive content in the markdown shapes where docsd's own model of code fences once disagreed
// with cmark-gfm's (issue 30, item 3): a fence on an ordered-list marker line, a closing fence
// indented with a tab, an {% if %} split over two lines, code spans holding {% endif %}, fences
// in lists and quotes, unclosed fences, tilde against backtick fences, CR line endings. Each
// page holds a word only inside a false {% if %} block; an anonymous visitor must find it in no
// surface (the page, its .md twin, llms-full.txt, site search, the PDF), a visitor with the
// claim sees it. The pages come in through Git sync (which stores what the repository has);
// through the API the undecidable shapes are refused at write, naming the line.
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { writeFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setup } from './lib/fixtures.mjs';
import { DATABASE_URL } from './lib/server.mjs';
import { ok, empty, raw, createOrg, validateError, sleep } from './lib/api.mjs';
import { workTree, bare } from './lib/git.mjs';

const IF = '{% if visitor.claims.pro %}';
// [shape, split]: S is the hidden word, P a public one. split: undecidable, refused at write.
const SHAPES = [
    [`1. \`\`\`bash\n   make\n   \`\`\`\n2. Next\n${IF}\nS\n{% endif %}\nP\n`, false],
    [`- step\n  \`\`\`\n  code\n\t\`\`\`\n\n${IF}\nS\n{% endif %}\nP\n`, false],
    ['P\n{% if visitor.claims.pro\n%}\nS\n{% endif %}\n', true],
    ['P\n{%\nif visitor.claims.pro %}\nS\n{% endif %}\n', true],
    [`${IF}\nUse \`{% endif %}\` to close. S\n{% endif %}\nP\n`, false],
    [`- item\n  \`\`\`\n  code\n- next\n\n${IF}\nS\n{% endif %}\nP\n`, false],
    [`> \`\`\`\n> code\n\n${IF}\nS\n{% endif %}\n> \`\`\`\nP\n`, false],
    [`~~~\n\`\`\`\n~~~\n${IF}\nS\n{% endif %}\nP\n`, false],
    [`P\r${IF}\rS\r{% endif %}\r`, false],
    [`\`x\` ${IF}S{% endif %} P \`y\`\n`, false],
    [`| a | b |\n|---|---|\n| \`{%\` | ${IF}S{% endif %}P |\n`, false],
];
const word = (i) => `hid${'abcdefghijklmnop'[i]}word`;
const shape = (i) => SHAPES[i][0].replaceAll('S', word(i)).replaceAll('P', 'publicword');
// Code, as cmark reads it, is code for everyone: its tags stay as written.
const CODE = `1. \`\`\`liquid\n   ${IF}codeword{% endif %}\n   \`\`\`\n\n> \`\`\`\n> ${IF}\n> quotecode\n> {% endif %}\n> \`\`\`\n`;

function jwt(key, claims) {
    const b = (o) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const data = `${b({ alg: 'HS256', typ: 'JWT' })}.${b(claims)}`;
    return `${data}.${createHmac('sha256', key).update(data).digest('base64url')}`;
}

function pdfText(buf) {
    const path = `/tmp/docsd-shapes-${process.pid}-${Date.now()}.pdf`;
    writeFileSync(path, buf);
    try {
        return execFileSync('pdftotext', [path, '-'], { encoding: 'utf8', timeout: 20_000 });
    } finally {
        rmSync(path, { force: true });
    }
}

describe('adaptive content: the shapes cmark-gfm reads differently from a line model', () => {
    let ctx, alice, api, org, space, pub, auth, key, dir;
    const get = (path, headers = {}) => raw(path.startsWith('/sites/') ? ctx.siteUrl : ctx.url, 'GET', path, { headers });
    const pro = () => ({ Cookie: `docsd_visitor=${jwt(key, { exp: Math.floor(Date.now() / 1000) + 600, pro: true })}` });

    before(async () => {
        ctx = await setup({ extraArgs: ['--allow-private-network', ...(DATABASE_URL ? ['--data', mkdtempSync(join(tmpdir(), 'docsd-shapes-data-'))] : [])] });
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Shapes ${ctx.run}`));
        const files = { 'README.md': '# Shapes\n\nThe shapes.\n', 'code.md': `# Code\n\n${CODE}` };
        let summary = '# Table of contents\n\n* [Shapes](README.md)\n* [Code](code.md)\n';
        SHAPES.forEach((_, i) => {
            files[`shape-${i}.md`] = `# Shape ${i}\n\n${shape(i)}`;
            summary += `* [Shape ${i}](shape-${i}.md)\n`;
        });
        files['SUMMARY.md'] = summary;
        dir = mkdtempSync(join(tmpdir(), 'docsd-shapes-git-'));
        const repo = bare(dir, 'shapes', workTree(dir, 'shapes-src', files));
        space = await ok(api.orgs.createSpace(org.id, { title: 'Shapes' }), 'createSpace', 201);
        await empty(api.spaces.importGitRepository(space.id, { url: `file://${repo}`, ref: 'refs/heads/main' }), 204, 'importGitRepository');
        for (const deadline = Date.now() + 30_000; ;) {
            const s = await ok(api.spaces.getSpaceById(space.id), 'getSpaceById');
            if (s.gitSync?.operation?.state && s.gitSync.operation.state !== 'running') {
                assert.equal(s.gitSync.operation.state, 'success', JSON.stringify(s.gitSync));
                break;
            }
            assert.ok(Date.now() < deadline, 'the import finished');
            await sleep(100);
        }
        pub = await ok(api.orgs.createSite(org.id, { title: 'Shapes public' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, pub.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.publishSite(org.id, pub.id), 'publishSite');
        auth = await ok(api.orgs.createSite(org.id, { title: 'Shapes auth' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, auth.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteById(org.id, auth.id, { visibility: 'visitor-auth' }), 'updateSiteById');
        await ok(api.orgs.publishSite(org.id, auth.id), 'publishSite');
        key = (await ok(api.orgs.getSitePublishingAuthById(org.id, auth.id), 'getSitePublishingAuthById')).privateKey;
    });
    after(() => {
        ctx?.server.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it('an anonymous visitor finds no hidden word: page, .md twin, llms-full.txt, search', async () => {
        const root = `/sites/${pub.id}`;
        const full = await get(`${root}/llms-full.txt`);
        assert.equal(full.status, 200);
        for (let i = 0; i < SHAPES.length; i++) {
            for (const path of [`${root}/shape-${i}`, `${root}/shape-${i}.md`]) {
                const r = await get(path);
                assert.equal(r.status, 200, `${path}: ${r.text.slice(0, 200)}`);
                assert.ok(!r.text.includes(word(i)), `shape ${i} leaked in ${path}: ${JSON.stringify(shape(i))}`);
                assert.ok(!/visitor\.claims\.pro/.test(r.text), `shape ${i}: a tag printed in ${path}`);
                if (!SHAPES[i][1] || i !== 4) assert.match(r.text, /publicword|Shape/, path);
            }
            assert.ok(!full.text.includes(word(i)), `shape ${i} leaked in llms-full.txt`);
            const s = await get(`${root}/~search?q=${word(i)}`);
            assert.equal(s.status, 200);
            assert.match(s.text, /No results/i, `shape ${i}: a search hit on a hidden word`);
            const results = s.text.slice(s.text.indexOf('<main'), s.text.indexOf('</main>'));
            assert.ok(!results.includes(`/shape-${i}"`), `shape ${i}: a search hit on a hidden word`);
            const j = await get(`${root}/~search.json?q=${word(i)}`);
            assert.equal(j.status, 200);
            assert.deepEqual(JSON.parse(j.text).results, [], `shape ${i}: search as you type`);
        }
        assert.ok(full.text.includes('publicword'));
        // excerpts of the pages that do match are cut from the text the visitor reads
        for (const path of ['~search?q=publicword', '~search.json?q=publicword']) {
            const r = await get(`${root}/${path}`);
            assert.match(r.text, /Shape/, path);
            for (let i = 0; i < SHAPES.length; i++) assert.ok(!r.text.includes(word(i)), `shape ${i} in the excerpts of ${path}`);
        }
    });

    it('a visitor with the claim sees each decidable block; split tags hide from everyone', async () => {
        const root = `/sites/${auth.id}`;
        const full = await get(`${root}/llms-full.txt`, pro());
        for (let i = 0; i < SHAPES.length; i++) {
            const split = SHAPES[i][1];
            for (const path of [`${root}/shape-${i}`, `${root}/shape-${i}.md`]) {
                const r = await get(path, pro());
                assert.equal(r.status, 200, path);
                assert.equal(r.text.includes(word(i)), !split, `shape ${i} in ${path}`);
                assert.ok(!/visitor\.claims\.pro/.test(r.text), `shape ${i}: a tag printed in ${path}`);
            }
            assert.equal(full.text.includes(word(i)), !split, `shape ${i} in llms-full.txt`);
            const s = await get(`${root}/~search?q=${word(i)}`, pro());
            assert.equal(/No results/i.test(s.text), split, `shape ${i}: search`);
            const j = JSON.parse((await get(`${root}/~search.json?q=${word(i)}`, pro())).text);
            assert.equal(j.results.length, split ? 0 : 1, `shape ${i}: search as you type`);
        }
    });

    it('tags inside code (a list-marker fence, a fence in a quote) stay as written for everyone', async () => {
        for (const [path, headers] of [[`/sites/${pub.id}/code`, {}], [`/sites/${auth.id}/code`, pro()], [`/sites/${pub.id}/code.md`, {}]]) {
            const r = await get(path, headers);
            assert.equal(r.status, 200);
            assert.ok(r.text.includes('codeword') && r.text.includes('quotecode'), path);
            assert.match(r.text, /\{% if visitor\.claims\.pro %\}codeword\{% endif %\}/, path);
        }
    });

    it('the PDF holds no hidden word', async () => {
        const { url } = await ok(api.spaces.getSpacePdf(space.id, {}), 'getSpacePDF');
        const res = await fetch(url);
        assert.equal(res.status, 200);
        const text = pdfText(Buffer.from(await res.arrayBuffer()));
        assert.ok(text.includes('publicword'), text.slice(0, 500));
        for (let i = 0; i < SHAPES.length; i++) assert.ok(!text.includes(word(i)), `shape ${i} leaked in the PDF`);
        assert.ok(text.includes('codeword'), 'code is code in the PDF too');
    });

    it("an API block whose spec opens a fence does not turn the page's later tags into code", async () => {
        const spec = 'openapi: 3.0.3\ninfo: {title: Fence, version: "1"}\npaths:\n  /a:\n    get:\n      summary: Get a\n' +
            '      description: "Example:\\n\\n```\\nunclosed"\n      responses: {"200": {description: ok}}\n';
        await ok(api.orgs.createOpenApiSpec(org.id, { slug: 'fence', source: { text: spec } }), 'createOpenAPISpec', 201);
        for (const deadline = Date.now() + 20_000; ;) {
            const s = await ok(api.orgs.getOpenApiSpecBySlug(org.id, 'fence'), 'getOpenAPISpecBySlug');
            if (s.processingState === 'complete') break;
            assert.ok(Date.now() < deadline, 'the spec was processed');
            await sleep(100);
        }
        const cr = await ok(api.spaces.createChangeRequest(space.id, { subject: 'API block' }), 'createChangeRequest', 201);
        const md = `{% openapi-operation spec="fence" path="/a" method="get" %}\n[OpenAPI fence](https://example.com/f.yaml)\n{% endopenapi-operation %}\n\n${IF}\nfencesecret\n{% endif %}\n`;
        const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token, json: { changes: [{ operation: 'insert_page', title: 'Fenced API', document: { markdown: md } }] },
        });
        assert.equal(r.status, 200, r.text);
        assert.equal((await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest')).result, 'merge');
        for (const path of [`/sites/${pub.id}/fenced-api`, `/sites/${pub.id}/fenced-api.md`, `/sites/${pub.id}/llms-full.txt`]) {
            const page = await get(path);
            assert.equal(page.status, 200, path);
            assert.match(page.text, /Get a/, `${path}: the block is expanded`);
            assert.ok(!page.text.includes('fencesecret'), `${path}: the hidden word leaked`);
        }
        assert.ok((await get(`/sites/${auth.id}/fenced-api`, pro())).text.includes('fencesecret'));
    });

    it('through the API, decidable shapes are accepted and split tags refused (400 naming the line)', async () => {
        for (let i = 0; i < SHAPES.length; i++) {
            const cr = await ok(api.spaces.createChangeRequest(space.id, { subject: `Shape ${i}` }), 'createChangeRequest', 201);
            const r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
                token: alice.token, json: { changes: [{ operation: 'insert_page', title: `API ${i}`, document: { markdown: shape(i) } }] },
            });
            if (!SHAPES[i][1]) {
                assert.equal(r.status, 200, `shape ${i}: ${r.text}`);
                continue;
            }
            assert.equal(r.status, 400, `shape ${i}: ${r.text}`);
            validateError(r.json);
            assert.match(r.json.error.message, /document\.markdown.*line 2: \{% %\} tag not closed on its line/);
        }
    });
});

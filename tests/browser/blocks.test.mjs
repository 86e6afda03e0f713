// Every block GitBook writes, on one published page, in Debian's chromium (the harness of
// site.test.mjs and features.test.mjs): hints of every style, tabs, a stepper, columns, an
// expandable (<details>), a content reference, an embed, a file, code (title, line numbers,
// wrap), math (a block and inline), a Mermaid diagram, cards (<table data-view="cards">),
// buttons, a figure with a caption, a <picture> with a dark-mode source, <mark>, <sup>, <kbd>,
// an icon, and hostile raw HTML that must not run. Light and dark themes, desktop and phone;
// full-page screenshots in artifacts/blocks-*.png. The page never scrolls sideways on a phone,
// and no script from the content runs (a dialog or a navigation would fail the test).
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { setup } from '../api/lib/fixtures.mjs';
import { ok, raw, createOrg } from '../api/lib/api.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const ARTIFACTS = join(here, 'artifacts');
const CHROMIUM = process.env.CHROMIUM_BIN || '/usr/bin/chromium';
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
});
function crc32(buf) {
    let c = 0xffffffff;
    for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
}
/** A w x h PNG of one color (base64). */
function solidPng(w, h, [r, g, b]) {
    const chunk = (type, data) => {
        const len = Buffer.alloc(4);
        len.writeUInt32BE(data.length);
        const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
        const crc = Buffer.alloc(4);
        crc.writeUInt32BE(crc32(td));
        return Buffer.concat([len, td, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8;
    ihdr[9] = 2;
    const rows = Buffer.alloc(h * (1 + w * 3));
    for (let y = 0; y < h; y++)
        for (let x = 0; x < w; x++) rows.set([r, g, b], y * (1 + w * 3) + 1 + x * 3);
    return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr), chunk('IDAT', deflateSync(rows)),
        chunk('IEND', Buffer.alloc(0))]).toString('base64');
}
// a blue picture (light) and an orange one (dark)
const LIGHT = solidPng(320, 180, [52, 109, 219]);
const DARK = solidPng(320, 180, [234, 140, 40]);

const BLOCKS = `Every block GitBook writes, rendered by docsd.

{% hint style="info" %}
An **info** hint.
{% endhint %}

{% hint style="success" %}
A success hint.
{% endhint %}

{% hint style="warning" %}
A warning hint.
{% endhint %}

{% hint style="danger" %}
A danger hint.
{% endhint %}

## Tabs

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

## Stepper

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

## Columns

{% columns %}
{% column width="60%" %}
The left column holds the explanation, which is the longer text of the two.
{% endcolumn %}
{% column %}
The right column holds a note.
{% endcolumn %}
{% endcolumns %}

## Expandable

<details>

<summary>Show the details</summary>

Hidden until opened, with **markdown** inside.

</details>

## References

{% content-ref url="second.md" %}
[second.md](second.md)
{% endcontent-ref %}

{% embed url="https://www.youtube.com/watch?v=dQw4w9WgXcQ" %}

{% file src="manual" %}
The user manual.
{% endfile %}

## Code

{% code title="server.c" overflow="wrap" lineNumbers="true" %}
\`\`\`c
int main(void)
{
	return serve("a very long argument that wraps around the end of the line instead of scrolling sideways", 8080);
}
\`\`\`
{% endcode %}

## Math

$$
E = mc^2 + \\sum_{i=1}^{n} x_i
$$

Inline math: $$a^2 + b^2 = c^2$$ in a sentence.

## Diagram

\`\`\`mermaid
graph TD
  A[Writer] --> B[docsd]
  B --> C[Readers]
\`\`\`

## Cards

<table data-view="cards"><thead><tr><th></th><th></th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Second page</strong></td><td>Where to go next</td><td><a href="second.md">second.md</a></td><td><a href="/files/FILE_LIGHT">light.png</a></td></tr><tr><td><strong>Website</strong></td><td>An external link</td><td><a href="https://example.com">https://example.com</a></td><td></td></tr></tbody></table>

## Buttons and inline HTML

<a href="https://example.com/start" class="button primary">Get started</a> <a href="second.md" class="button secondary">Read more</a>

Press <kbd>Ctrl</kbd> + <kbd>K</kbd>, <mark>highlighted</mark> text, x<sup>2</sup> and H<sub>2</sub>O, an icon <i class="fa-github">github</i>.

<figure><img src="/files/FILE_LIGHT" alt="A figure" width="120"><figcaption><p>A figure with its caption</p></figcaption></figure>

<picture><source srcset="/files/FILE_DARK" media="(prefers-color-scheme: dark)"><img src="/files/FILE_LIGHT" alt="Light or dark" width="60"></picture>

## Hostile HTML

<script>window.__pwned = 1; alert('script')</script>
<img src="x" onerror="window.__pwned = 2">
<a href="javascript:window.__pwned=3" id="js-link">a javascript: link</a>
<svg onload="window.__pwned = 4"><circle r="5"/></svg>
<iframe src="https://example.com"></iframe>
<p style="position:fixed;top:0;left:0;width:100%;height:100%;background:red">styled</p>

The end.
`;

describe('every GitBook block in chromium, light and dark, desktop and phone', { timeout: 240_000 }, () => {
    let ctx, alice, api, org, browser, root, pageUrl;

    async function newPage(viewport, colorScheme) {
        const c = await browser.newContext({ viewport, colorScheme, reducedMotion: 'reduce' });
        c.setDefaultTimeout(10_000);
        c.setDefaultNavigationTimeout(15_000);
        const p = await c.newPage();
        p.on('close', () => c.close().catch(() => {}));
        p.on('dialog', (d) => {
            d.dismiss().catch(() => {});
            throw new Error(`a dialog opened: ${d.message()}`);
        });
        return p;
    }

    before(async () => {
        mkdirSync(ARTIFACTS, { recursive: true });
        ctx = await setup();
        alice = await ctx.user('alice');
        api = alice.api;
        ({ org } = await createOrg(ctx.url, alice.token, `Blocks ${ctx.run}`));
        const space = await ok(api.orgs.createSpace(org.id, { title: 'Blocks' }), 'createSpace', 201);
        // files first (their ids go into the page), then the pages
        let cr = await ok(api.spaces.createChangeRequest(space.id, { subject: 'Files' }), 'createChangeRequest', 201);
        let r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [
                { operation: 'insert_files', files: [
                    { ref: 'light', name: 'light.png', contentType: 'image/png', base64: LIGHT },
                    { ref: 'dark', name: 'dark.png', contentType: 'image/png', base64: DARK },
                    { ref: 'manual', name: 'manual.pdf', contentType: 'application/pdf', base64: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
                ] },
            ] },
        });
        assert.equal(r.status, 200, r.text);
        await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        const content = await ok(api.spaces.getCurrentRevision(space.id), 'getCurrentRevision');
        const fileId = (name) => content.files.find((f) => f.name === name).id;
        const md = BLOCKS.replaceAll('FILE_LIGHT', fileId('light.png')).replaceAll('FILE_DARK', fileId('dark.png'))
            .replace('{% file src="manual" %}', `{% file src="/files/${fileId('manual.pdf')}" %}`);
        cr = await ok(api.spaces.createChangeRequest(space.id, { subject: 'Blocks' }), 'createChangeRequest', 201);
        r = await raw(ctx.url, 'POST', `/v1/spaces/${space.id}/change-requests/${cr.id}/content`, {
            token: alice.token,
            json: { changes: [
                { operation: 'insert_page', title: 'All blocks', ref: 'blocks', document: { markdown: md } },
                { operation: 'insert_page', title: 'Second', ref: 'second', document: { markdown: 'The second page.\n' } },
            ] },
        });
        assert.equal(r.status, 200, r.text);
        await ok(api.spaces.mergeChangeRequest(space.id, cr.id), 'mergeChangeRequest');
        const site = await ok(api.orgs.createSite(org.id, { title: 'Blocks' }), 'createSite', 201);
        await ok(api.orgs.addSpaceToSite(org.id, site.id, { spaceId: space.id }), 'addSpaceToSite', 201);
        await ok(api.orgs.updateSiteCustomizationById(org.id, site.id, { themes: { default: 'light', toggeable: true } }), 'updateSiteCustomizationById');
        const pub = await ok(api.orgs.publishSite(org.id, site.id), 'publishSite');
        root = new URL(pub.urls.published).pathname;
        pageUrl = `${ctx.siteUrl}${root}`;
        browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
    });
    after(async () => {
        await browser?.close();
        await ctx?.server.stop();
    });

    it('the HTML has every block and none of the hostile markup', async () => {
        const r = await raw(ctx.siteUrl, 'GET', root);
        assert.equal(r.status, 200);
        const t = r.text;
        for (const style of ['info', 'success', 'warning', 'danger']) assert.match(t, new RegExp(`class="hint hint-${style}"`));
        assert.match(t, /<div class="tabs">/);
        assert.match(t, /<ol class="stepper">\n<li class="step">/);
        assert.match(t, /<div class="columns">\n<div class="column" style="flex:0 1 60%">/);
        assert.match(t, /<details>\s*<summary>Show the details<\/summary>\s*<p>Hidden until opened, with <strong>markdown<\/strong> inside\.<\/p>\s*<\/details>/);
        assert.match(t, /<div class="content-ref">[\s\S]*?href="[^"]*\/second"/);
        assert.match(t, /<a class="embed-card" href="https:\/\/www\.youtube\.com\/watch\?v=dQw4w9WgXcQ"><span class="embed-provider">YouTube<\/span>/);
        assert.match(t, /<div class="file-block"><a class="file-link" href="[^"]*\/~file\/[^"]+">Download the file<\/a><div class="file-caption">\s*<p>The user manual\.<\/p>/);
        assert.match(t, /<figure class="code-block wrap line-numbers"><figcaption>server\.c<\/figcaption>\n?<pre><code class="language-c"><span class="line">int main\(void\)<\/span><span class="line">\{<\/span>/);
        assert.match(t, /<div class="math math-display">\nE = mc\^2 \+ \\sum_\{i=1\}\^\{n\} x_i\n<\/div>/);
        assert.match(t, /<span class="math">a\^2 \+ b\^2 = c\^2<\/span>/);
        assert.match(t, /<figure class="diagram"><figcaption>Diagram \(Mermaid\)<\/figcaption><pre><code class="language-mermaid">/);
        assert.match(t, /<div class="cards">/);
        assert.match(t, /<a class="card-link" href="[^"]*\/second"/);
        assert.match(t, /<img class="card-cover" alt="" src="[^"]*\/~file\//);
        assert.match(t, /<a href="https:\/\/example\.com\/start" class="button primary">Get started<\/a>/);
        assert.match(t, /<a href="[^"]*\/second" class="button secondary">Read more<\/a>/);
        assert.match(t, /<kbd>Ctrl<\/kbd>/);
        assert.match(t, /<mark>highlighted<\/mark>/);
        assert.match(t, /x<sup>2<\/sup>/);
        assert.match(t, /<figure><img src="[^"]*\/~file\/[^"]+" alt="A figure" width="120"><figcaption><p>A figure with its caption<\/p><\/figcaption><\/figure>/);
        assert.match(t, /<picture><source srcset="[^"]*\/~file\/[^"]+" media="\(prefers-color-scheme: dark\)">/);
        // the only scripts are docsd's own files (KaTeX and highlight.js when installed)
        for (const src of [...t.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]))
            assert.match(src, /\/~assets\/(site\.js|vendor\/(katex\/katex\.min\.js|highlight\.js\/highlight\.min\.js|enhance\.js))/);
        const csp = r.headers['content-security-policy'];
        assert.match(csp, /script-src 'self'/);
        assert.doesNotMatch(csp, /unsafe-inline[^;]*;?\s*$|script-src[^;]*unsafe/);
        for (const asset of ['katex/katex.min.js', 'katex/katex.min.css', 'highlight.js/highlight.min.js', 'enhance.js']) {
            const a = await raw(ctx.siteUrl, 'GET', `${root}/~assets/vendor/${asset}`);
            assert.equal(a.status, existsSync(`/usr/share/javascript/${asset}`) || asset === 'enhance.js' ? 200 : 404, asset);
        }
        for (const bad of ['../../../etc/passwd', 'katex/../../../etc/passwd', 'katex//katex.min.js', 'other/x.js', 'katex/katex.mjs.map', '%2e%2e/x.js'])
            assert.equal((await raw(ctx.siteUrl, 'GET', `${root}/~assets/vendor/${bad}`)).status, 404, bad);
        const article = t.slice(t.indexOf('<article'), t.indexOf('</article>')).replace(/<script defer src="[^"]*\/~assets\/vendor\/[^"]+"><\/script>/g, '');
        for (const bad of ['<script', 'onerror', 'href="javascript:', '<svg', 'onload', '<iframe', 'style="position', '__pwned'])
            assert.ok(!article.includes(bad), `${bad} in the page`);
        assert.match(article, /a javascript: link/, 'the link text stays');
    });

    for (const [device, viewport] of [['desktop', DESKTOP], ['phone', PHONE]]) {
        for (const scheme of ['light', 'dark']) {
            it(`${device}, ${scheme}: renders, no script runs, nothing scrolls sideways; screenshot`, async () => {
                const page = await newPage(viewport, scheme);
                const errors = [];
                page.on('pageerror', (e) => errors.push(String(e)));
                const res = await page.goto(pageUrl);
                assert.equal(res.status(), 200);
                assert.equal(await page.evaluate(() => window.__pwned), undefined, 'content script ran');
                // the dark theme follows the system setting (themes.toggeable)
                const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
                assert.equal(bg, scheme === 'dark' ? 'rgb(15, 17, 21)' : 'rgb(255, 255, 255)');
                // the <picture> picks the source of the scheme
                const src = await page.evaluate(() => document.querySelector('picture img').currentSrc);
                assert.ok(src.length > 0);
                // tabs work without script: the second tab's label shows its panel
                await page.click('.tabs label:nth-of-type(2)');
                assert.ok(await page.isVisible('text=acme.run(fast=True)'));
                // the expandable opens
                assert.equal(await page.isVisible('text=Hidden until opened'), false);
                await page.click('summary:has-text("Show the details")');
                assert.ok(await page.isVisible('text=Hidden until opened'));
                // the card's link covers the card
                const card = await page.$('.card');
                await card.scrollIntoViewIfNeeded();
                const box = await card.boundingBox();
                const hit = await page.evaluate(([x, y]) => document.elementFromPoint(x, y)?.className, [box.x + box.width / 2, box.y + box.height - 8]);
                assert.equal(hit, 'card-link');
                // KaTeX and highlight.js, when the server has Debian's packages, render math and color code
                if (existsSync('/usr/share/javascript/katex/katex.min.js')) {
                    await page.waitForSelector('.math-display .katex-display', { state: 'attached', timeout: 10_000 });
                    assert.ok(await page.$('span.math .katex'), 'inline math rendered');
                }
                if (existsSync('/usr/share/javascript/highlight.js/highlight.min.js')) {
                    await page.waitForSelector('code.language-js.hljs', { state: 'attached', timeout: 10_000 });
                    assert.ok(!(await page.$('.line-numbers code.hljs')), 'numbered lines are left as they are');
                }
                const o = await page.evaluate(() => ({ scroll: document.scrollingElement.scrollWidth, viewport: window.innerWidth }));
                assert.ok(o.scroll <= o.viewport, `scrolls sideways: ${o.scroll} > ${o.viewport}`);
                await page.screenshot({ path: join(ARTIFACTS, `blocks-${device}-${scheme}.png`), fullPage: true, timeout: 10_000 });
                assert.deepEqual(errors, []);
                await page.close();
            });
        }
    }
});

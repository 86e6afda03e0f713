// The Git sync benchmark's driver (bench/git.sh starts docsd and calls this).
//   node bench/git-bench.mjs generate DIR PAGES IMAGES   a work tree in GitBook's layout
//   node bench/git-bench.mjs run URL TOKEN SRC_BARE DST_BARE   import, export, re-import; prints JSON
// Every page is ~1 KB of markdown with a heading, a list, a code block, a link to another page
// and, for one page in ten, an image; 100 pages a folder, each folder with a README.md, all
// listed in SUMMARY.md under one group per ten folders.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';

const [cmd, ...args] = process.argv.slice(2);

function generate(dir, pages, images) {
    const perFolder = 100;
    const folders = Math.ceil(pages / perFolder);
    mkdirSync(join(dir, '.gitbook/assets'), { recursive: true });
    for (let i = 0; i < images; i++) {
        // ~2 KB of bytes per image (distinct content), named like screenshots
        const bytes = Buffer.alloc(2048);
        for (let k = 0; k < bytes.length; k += 32) createHash('sha256').update(`img ${i} ${k}`).digest().copy(bytes, k);
        Buffer.from('89504e470d0a1a0a', 'hex').copy(bytes, 0);
        writeFileSync(join(dir, '.gitbook/assets', `shot-${i}.png`), bytes);
    }
    const summary = ['# Table of contents', '', '* [Home](README.md)'];
    writeFileSync(join(dir, 'README.md'), '# Home\n\nThe generated documentation.\n');
    let n = 0;
    for (let f = 0; f < folders && n < pages; f++) {
        if (f % 10 === 0) summary.push('', `## Part ${f / 10 + 1}`, '');
        const folder = `section-${f}`;
        mkdirSync(join(dir, folder), { recursive: true });
        writeFileSync(join(dir, folder, 'README.md'), `# Section ${f}\n\nAn overview of section ${f}.\n`);
        summary.push(`* [Section ${f}](${folder}/README.md)`);
        n++;
        for (let p = 1; p < perFolder && n < pages; p++, n++) {
            const name = `page-${p}.md`;
            const next = `page-${(p % (perFolder - 1)) + 1}.md`;
            const img = n % 10 === 0 ? `\n![Screenshot](../.gitbook/assets/shot-${(n / 10) % images}.png)\n` : '';
            const fm = p % 7 === 0 ? `---\ndescription: Page ${p} of section ${f}\n---\n\n` : '';
            const body = `${fm}# Page ${p} of section ${f}\n\nThis page explains topic ${n}. See [the next page](${next}) too.\n\n` +
                `* first point about ${n}\n* second point\n* third point\n\n\`\`\`sh\ndocsd serve --data ./data-${n}\n\`\`\`\n${img}\n` +
                `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8)}\n`;
            writeFileSync(join(dir, folder, name), body);
            summary.push(`  * [Page ${p} of section ${f}](${folder}/${name})`);
        }
    }
    writeFileSync(join(dir, 'SUMMARY.md'), summary.join('\n') + '\n');
}

async function call(base, token, method, path, body) {
    const r = await fetch(base + path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
    });
    const text = await r.text();
    if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    return text ? JSON.parse(text) : null;
}

async function sync(base, token, spaceId, direction, body) {
    const t0 = Date.now();
    await call(base, token, 'POST', `/v1/spaces/${spaceId}/git/${direction}`, body);
    for (;;) {
        const s = await call(base, token, 'GET', `/v1/spaces/${spaceId}`);
        const op = s.gitSync?.operation;
        if (op && op.state !== 'running') {
            if (op.state !== 'success') throw new Error(`${direction} failed: ${JSON.stringify(op)}`);
            return {
                wall_ms: Date.now() - t0,
                job_ms: Date.parse(op.completedAt) - Date.parse(op.startedAt),
                note: op.note ?? null,
                revision: s.revision,
            };
        }
        await new Promise((r) => setTimeout(r, 50));
    }
}

async function run(base, token, src, dst) {
    const org = await call(base, token, 'POST', '/v1/orgs', { title: 'Git bench' });
    const space = await call(base, token, 'POST', `/v1/orgs/${org.id}/spaces`, { title: 'Generated' });
    const ref = 'refs/heads/main';
    const imp = await sync(base, token, space.id, 'import', { url: `file://${src}`, ref });
    const rev = await call(base, token, 'GET', `/v1/spaces/${space.id}/content`);
    let pages = 0;
    const count = (ps) => ps.forEach((p) => { pages++; count(p.pages ?? []); });
    count(rev.pages);
    const exp = await sync(base, token, space.id, 'export', { url: `file://${dst}`, ref, commitMessage: 'Export' });
    const again = await sync(base, token, space.id, 'import', { url: `file://${src}`, ref });
    console.log(JSON.stringify({ import: imp, export: exp, reimport: again, pages, files: rev.files.length }));
}

if (cmd === 'generate') generate(args[0], Number(args[1]), Number(args[2]));
else if (cmd === 'run') await run(...args);
else {
    console.error('usage: git-bench.mjs generate DIR PAGES IMAGES | run URL TOKEN SRC DST');
    process.exit(2);
}

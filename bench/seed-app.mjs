#!/usr/bin/env node
// The web interface's rows of bench/run.sh (issue 25): signs the bench user in through the
// sign-in form and saves the exact bytes of two app pages for nginx (Node >= 18, no packages).
//
//   node bench/seed-app.mjs BASE EMAIL PASSWORD SPACE_ID PAGE_PATH OUTDIR
//       GET /signin (its pre-session cookie and form token), POST /signin, then with the
//       session cookie: GET /s/{SPACE_ID}/{PAGE_PATH} (a page of the space, rendered as on the
//       published site, with the page tree) saved as OUTDIR/app-page.html, and
//       GET /s/{SPACE_ID}/~/changes (the change requests) as OUTDIR/app-changes.html.
//       Prints {"cookie", "pagePath", "changesPath", "pageBytes", "changesBytes"}.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TIMEOUT_MS = 60_000;
const HTML = 'text/html,application/xhtml+xml';

function fail(msg) {
    process.stderr.write(`seed-app.mjs: ${msg}\n`);
    process.exit(1);
}

const cookieOf = (res, name) => {
    for (const c of res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie') ?? '']) {
        const [kv] = c.split(';');
        if (kv.startsWith(`${name}=`)) return kv;
    }
    return null;
};

async function get(base, path, cookie) {
    const res = await fetch(base + path, { headers: { Accept: HTML, ...(cookie ? { Cookie: cookie } : {}) }, redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS) });
    return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function main([base, email, password, spaceId, pagePath, outdir]) {
    const form = await get(base, '/signin');
    const pre = cookieOf(form.res, 'docsd_signin');
    const csrf = /name="csrf" value="([0-9a-f]+)"/.exec(form.bytes.toString())?.[1];
    if (form.res.status !== 200 || !pre || !csrf) fail(`GET /signin: ${form.res.status}, no form token`);
    const res = await fetch(`${base}/signin`, {
        method: 'POST',
        headers: { Accept: HTML, 'Content-Type': 'application/x-www-form-urlencoded', Cookie: pre },
        body: new URLSearchParams({ csrf, email, password, next: '/' }).toString(),
        redirect: 'manual',
        signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    const cookie = cookieOf(res, 'docsd_session');
    if (res.status !== 303 || !cookie) fail(`POST /signin: ${res.status}, no session cookie`);
    const page = `/s/${spaceId}/${pagePath}`;
    const changes = `/s/${spaceId}/~/changes`;
    const out = {};
    for (const [key, path, file] of [['page', page, 'app-page.html'], ['changes', changes, 'app-changes.html']]) {
        const r = await get(base, path, cookie);
        if (r.res.status !== 200) fail(`GET ${path}: ${r.res.status} ${r.bytes.toString().slice(0, 300)}`);
        writeFileSync(join(outdir, file), r.bytes);
        out[`${key}Bytes`] = r.bytes.length;
    }
    process.stdout.write(JSON.stringify({ cookie, pagePath: page, changesPath: changes, ...out }) + '\n');
}

const args = process.argv.slice(2);
if (args.length !== 6) fail('usage: seed-app.mjs BASE EMAIL PASSWORD SPACE_ID PAGE_PATH OUTDIR');
main(args).catch((err) => fail(err && err.stack ? err.stack : String(err)));

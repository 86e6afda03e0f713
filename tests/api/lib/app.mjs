// Helpers shared by the web interface's tests (app-*.test.mjs here and in ../browser): the
// request headers of an HTML page and of a form post, the test users' password, setting it with
// `docsd user password` and signing in through the form over plain HTTP.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { DOCSD_BIN } from './server.mjs';
import { raw } from './api.mjs';

export const HTML = { Accept: 'text/html,application/xhtml+xml' };
export const FORM = { ...HTML, 'Content-Type': 'application/x-www-form-urlencoded' };
export const PASSWORD = 'correct horse battery staple';

/** `docsd user password --email E` with the password on stdin; rejects when it fails. */
export function setPassword(server, email, password) {
    return new Promise((resolve, reject) => {
        const child = execFile(DOCSD_BIN, ['user', 'password', ...server.storageArgs(), '--email', email], { timeout: 20_000 },
            (err, stdout, stderr) => (err ? reject(new Error(`user password: ${err.message}: ${stderr}`)) : resolve(stdout)));
        child.stdin.end(`${password}\n`);
    });
}

/** Cookie "name=value" pairs of a response's Set-Cookie headers. */
export function cookiesOf(res) {
    const set = res.headers['set-cookie'] ?? [];
    return Object.fromEntries(set.map((c) => c.split(';')[0].split('=')).map(([k, ...v]) => [k, v.join('=')]));
}

/**
 * Signs a user in through the form (GET /signin, then POST it with the pre-session cookie) and
 * opens the home page with the session; returns {cookie: "docsd_session=...", csrf} (csrf: the
 * session's form token on the home page).
 */
export async function signIn(url, email, password) {
    const form = await raw(url, 'GET', '/signin', { headers: HTML });
    assert.equal(form.status, 200, form.text);
    const pre = cookiesOf(form).docsd_signin;
    const csrf = form.text.match(/name="csrf" value="([0-9a-f]+)"/)?.[1];
    assert.ok(pre && csrf, 'the sign-in form has its token');
    const body = new URLSearchParams({ csrf, email, password, next: '/' }).toString();
    const r = await raw(url, 'POST', '/signin', { body, headers: { ...FORM, Cookie: `docsd_signin=${pre}` } });
    assert.equal(r.status, 303, `POST /signin: ${r.status} ${r.text.slice(0, 300)}`);
    const session = cookiesOf(r).docsd_session;
    assert.match(session ?? '', /^[0-9a-f]{64}$/);
    const cookie = `docsd_session=${session}`;
    const home = await raw(url, 'GET', '/', { headers: { ...HTML, Cookie: cookie } });
    assert.equal(home.status, 200, home.text.slice(0, 300));
    return { cookie, csrf: home.text.match(/name="csrf" value="([^"]+)"/)?.[1] };
}

/** Sets each user's password (PASSWORD) and signs each in: their sessions, in order. */
export async function signInAll(ctx, users) {
    for (const u of users) await setPassword(ctx.server, u.email, PASSWORD);
    const out = [];
    for (const u of users) out.push(await signIn(ctx.url, u.email, PASSWORD));
    return out;
}

/**
 * The two requests every app test makes, bound to a server: `page(who, path, status)` GETs an
 * HTML page with a session (asserting the status) and `post(who, path, fields, csrf)` posts a
 * form (fields an object, with the session's token unless csrf says otherwise: null for none;
 * or a raw string body).
 */
export function appClient(ctx) {
    return {
        async page(who, path, status = 200) {
            const r = await raw(ctx.url, 'GET', path, { headers: { ...HTML, ...(who?.cookie ? { Cookie: who.cookie } : {}) } });
            assert.equal(r.status, status, `GET ${path}: expected ${status}, got ${r.status}: ${r.text.slice(0, 400)}`);
            return r;
        },
        post(who, path, fields, csrf = who.csrf) {
            return raw(ctx.url, 'POST', path, {
                body: typeof fields === 'string' ? fields : new URLSearchParams(csrf === null ? fields : { csrf, ...fields }).toString(),
                headers: { ...FORM, Cookie: who.cookie },
            });
        },
    };
}

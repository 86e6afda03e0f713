// Git helpers for the Git sync tests: work trees and bare repositories made with the git CLI in
// a temporary directory, and `git http-backend` run as CGI for a node:http request.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';

export const GIT_ENV = {
    ...process.env,
    GIT_AUTHOR_NAME: 'Writer',
    GIT_AUTHOR_EMAIL: 'writer@example.com',
    GIT_COMMITTER_NAME: 'Writer',
    GIT_COMMITTER_EMAIL: 'writer@example.com',
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: tmpdir(),
};
export const git = (cwd, ...args) => execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();

/** Writes files ({path: text|Buffer}) into a new work tree, commits, and returns its directory. */
export function workTree(root, name, files, message = 'docs') {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    git(dir, 'init', '-q', '-b', 'main');
    for (const [p, body] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, p)), { recursive: true });
        writeFileSync(join(dir, p), body);
    }
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', message);
    return dir;
}

/** A bare repository cloned from a work tree (or empty). */
export function bare(root, name, from) {
    const dir = join(root, `${name}.git`);
    if (from) git(root, 'clone', '-q', '--bare', from, dir);
    else git(root, 'init', '-q', '--bare', '-b', 'main', dir);
    return dir;
}

/** Serves one node:http request (req, res) by running `git http-backend` (CGI) over root, every
 * repository exported; remoteUser is REMOTE_USER (a non-empty one enables pushes). */
export function gitHttpBackend(root, req, res, remoteUser = '') {
    const u = new URL(req.url, 'http://localhost');
    const env = {
        ...GIT_ENV, GIT_PROJECT_ROOT: root, GIT_HTTP_EXPORT_ALL: '1', GATEWAY_INTERFACE: 'CGI/1.1',
        PATH_INFO: decodeURIComponent(u.pathname), QUERY_STRING: u.search.slice(1), REQUEST_METHOD: req.method,
        CONTENT_TYPE: req.headers['content-type'] ?? '', CONTENT_LENGTH: req.headers['content-length'] ?? '',
        REMOTE_ADDR: '127.0.0.1', REMOTE_USER: remoteUser,
    };
    const cgi = spawn('git', ['http-backend'], { env });
    const out = [];
    cgi.stdout.on('data', (c) => out.push(c));
    cgi.on('close', () => {
        const buf = Buffer.concat(out);
        const end = buf.indexOf('\r\n\r\n');
        const head = buf.subarray(0, end).toString('latin1').split('\r\n');
        let status = 200;
        const headers = {};
        for (const line of head) {
            const i = line.indexOf(':');
            const k = line.slice(0, i).trim();
            const v = line.slice(i + 1).trim();
            if (k.toLowerCase() === 'status') status = parseInt(v, 10);
            else headers[k] = v;
        }
        res.writeHead(status, headers);
        res.end(buf.subarray(end + 4));
    });
    req.pipe(cgi.stdin);
}

// Runs every *.test.mjs file in this directory with Node's test runner, one file at a time.
// Works on Node 18 (Debian 12) and Node 20+: --test-concurrency exists only from 20.10.
// Usage: node run-tests.mjs [file-or-substring ...]
import { readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = dirname(fileURLToPath(import.meta.url));
const filters = process.argv.slice(2);
let files = readdirSync(dir)
    .filter((f) => f.endsWith('.test.mjs'))
    .sort();
if (filters.length) files = files.filter((f) => filters.some((x) => f.includes(x)));
if (!files.length) {
    console.error('no test files matched');
    process.exit(1);
}
const [major, minor] = process.versions.node.split('.').map(Number);
const args = ['--test'];
if (major > 20 || (major === 20 && minor >= 10)) args.push('--test-concurrency=1');
args.push(...files);
const r = spawnSync(process.execPath, args, { cwd: dir, stdio: 'inherit' });
process.exit(r.status ?? 1);

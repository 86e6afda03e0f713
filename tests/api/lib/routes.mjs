// The two route tables, read from the source at test time (authz-matrix.test.mjs and
// bad-input.test.mjs generate their cases from them): src/api/routes.c's rows and the web
// interface's app_routes[] in src/app/app.c.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './server.mjs';

export function apiRoutes() {
    const src = readFileSync(join(repoRoot, 'src/api/routes.c'), 'utf8');
    const out = [];
    const re = /\{\s*"(GET|POST|PUT|PATCH|DELETE)",\s*"([^"]+)",\s*(\w+),\s*([^,]+),\s*([^,]+),\s*"(\w+)"/g;
    for (const m of src.matchAll(re)) out.push({ method: m[1], path: m[2], flags: m[4], op: m[6] });
    assert.ok(out.length > 200, `parsed only ${out.length} API routes`);
    // Every row is parsed: a row this pattern misses would escape the tests' tables.
    const heads = src.match(/\{\s*"(GET|POST|PUT|PATCH|DELETE)",/g).length;
    assert.equal(out.length, heads, 'a row of src/api/routes.c the test cannot read (its shape changed?)');
    return out;
}

export function appRoutes() {
    const src = readFileSync(join(repoRoot, 'src/app/app.c'), 'utf8');
    const start = src.indexOf('app_routes[] = {');
    const end = src.indexOf('\n};', start);
    assert.ok(start > 0 && end > start, 'app_routes[] not found in src/app/app.c');
    const out = [];
    for (const m of src.slice(start, end).matchAll(/\{\s*"(GET|POST)",\s*"([^"]+)",\s*(\w+),\s*([^}]+)\}/g))
        out.push({ method: m[1], path: m[2], flags: m[4].replace(/\s+/g, ' ').trim() });
    assert.ok(out.length > 100, `parsed only ${out.length} app routes`);
    const heads = src.slice(start, end).match(/\{\s*"(GET|POST|PUT|PATCH|DELETE|HEAD)",/g).length;
    assert.equal(out.length, heads, 'a row of app_routes[] the test cannot read (its shape changed?)');
    return out;
}


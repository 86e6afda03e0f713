#!/usr/bin/env node
// Seeding and counting for bench/run.sh, through docsd's public API (Node >= 18, no packages).
//
//   node bench/seed.mjs seed BASE TOKEN OUTDIR [MEMBERS] [TEAMS]
//       POST /v1/orgs, MEMBERS invites (role read) in batches of 1000, TEAMS teams via PUT;
//       then saves the exact bodies of GET /v1/orgs/{id} and
//       GET /v1/orgs/{id}/members?limit=100 as OUTDIR/org.json and OUTDIR/members.json.
//       Prints {"orgId", "invited", "membersOnFirstPage", "teams", "orgBytes", "membersBytes"}.
//   node bench/seed.mjs spaces BASE TOKEN OUTDIR SPACES
//       POST /v1/orgs (a second org), SPACES spaces via POST /v1/orgs/{id}/spaces; saves
//       GET /v1/spaces/{id} (a space in the middle) as OUTDIR/space.json, and pages 1 and 500
//       of GET /v1/orgs/{id}/spaces?limit=100 as OUTDIR/spaces.json and OUTDIR/spaces-500.json.
//       Prints {"orgId", "spaceId", "spaces", "page500"} (page500: the path of page 500).
//   node bench/seed.mjs content BASE TOKEN OUTDIR PAGES SPACES
//       POST /v1/orgs (a third org) with SPACES spaces of PAGES pages each (100 parents with
//       PAGES/100 - 1 children; written through change requests in batches of 50, then merged);
//       saves GET .../content/page/{pageId} of a page in the middle as OUTDIR/page.json. Then
//       measures, sequentially: 100 change requests that each edit one page, created and merged
//       (merge p50/p99 in ms), 200 space searches and 100 org searches (p50/p99 in ms).
//       Prints {"orgId", "spaceId", "pagePath", "pages", "spaces", "merge", "spaceSearch",
//       "orgSearch", "revisionsFrom", "revisionsTo"}.
//   node bench/seed.mjs count-teams BASE TOKEN ORG_ID
//       Walks GET /v1/orgs/{id}/teams?limit=1000 page by page; prints the number of teams.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const TIMEOUT_MS = 120_000;
const BATCH = 1000;
const MAX_PAGES = 100_000;

function fail(msg) {
  process.stderr.write(`seed.mjs: ${msg}\n`);
  process.exit(1);
}

async function call(base, token, method, path, body, expect) {
  const res = await fetch(base + path, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!expect.includes(res.status)) {
    fail(`${method} ${path} -> ${res.status} (wanted ${expect.join('/')}): ${bytes.toString().slice(0, 500)}`);
  }
  return bytes;
}

const json = (bytes) => JSON.parse(bytes.toString('utf8'));

async function seed(base, token, outdir, members, teams) {
  const org = json(await call(base, token, 'POST', '/v1/orgs', { title: 'Bench org' }, [200, 201]));
  if (!org.id) fail('POST /v1/orgs returned no id');
  const orgPath = `/v1/orgs/${encodeURIComponent(org.id)}`;

  let invited = 0;
  for (let start = 0; start < members; start += BATCH) {
    const emails = [];
    for (let i = start; i < Math.min(members, start + BATCH); i++) {
      emails.push(`bench-member-${String(i).padStart(6, '0')}@example.com`);
    }
    await call(base, token, 'POST', `${orgPath}/invites`, { emails, role: 'read' }, [200, 201]);
    invited += emails.length;
  }

  // Teams: a few requests in flight at a time, bounded.
  let next = 0;
  const worker = async () => {
    while (next < teams) {
      const i = next++;
      await call(base, token, 'PUT', `${orgPath}/teams`, { title: `Seed team ${i}` }, [200, 201]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, teams) }, worker));

  const orgBody = await call(base, token, 'GET', orgPath, undefined, [200]);
  const membersBody = await call(base, token, 'GET', `${orgPath}/members?limit=100`, undefined, [200]);
  writeFileSync(join(outdir, 'org.json'), orgBody);
  writeFileSync(join(outdir, 'members.json'), membersBody);
  const firstPage = json(membersBody);
  process.stdout.write(JSON.stringify({
    orgId: org.id,
    invited,
    membersOnFirstPage: Array.isArray(firstPage.items) ? firstPage.items.length : null,
    teams,
    orgBytes: orgBody.length,
    membersBytes: membersBody.length,
  }) + '\n');
}

async function seedSpaces(base, token, outdir, spaces) {
  const org = json(await call(base, token, 'POST', '/v1/orgs', { title: 'Bench spaces org' }, [200, 201]));
  const orgPath = `/v1/orgs/${encodeURIComponent(org.id)}`;
  let next = 0;
  let middle;
  const worker = async () => {
    while (next < spaces) {
      const i = next++;
      const s = json(await call(base, token, 'POST', `${orgPath}/spaces`, { title: `Space ${i}` }, [201]));
      if (i === Math.floor(spaces / 2)) middle = s.id;
    }
  };
  await Promise.all(Array.from({ length: Math.min(16, spaces) }, worker));
  const listPath = `${orgPath}/spaces?limit=100`;
  const first = await call(base, token, 'GET', listPath, undefined, [200]);
  let page = json(first).next?.page;
  let page500Path = null;
  let body500 = null;
  for (let i = 2; i <= 500 && page; i++) {
    const path = `${listPath}&page=${encodeURIComponent(page)}`;
    const body = await call(base, token, 'GET', path, undefined, [200]);
    if (i === 500) {
      page500Path = path;
      body500 = body;
    }
    page = json(body).next?.page;
  }
  if (!page500Path) fail(`fewer than 500 pages of spaces (seeded ${spaces})`);
  writeFileSync(join(outdir, 'space.json'), await call(base, token, 'GET', `/v1/spaces/${middle}`, undefined, [200]));
  writeFileSync(join(outdir, 'spaces.json'), first);
  writeFileSync(join(outdir, 'spaces-500.json'), body500);
  process.stdout.write(JSON.stringify({ orgId: org.id, spaceId: middle, spaces, page500: page500Path }) + '\n');
}

const WORDS = ('alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ' +
  'quebec romeo sierra tango uniform victor whiskey xray yankee zulu hatch pattern custom render export import ' +
  'deploy cluster region bucket token session webhook payload schema migration index query cache latency').split(' ');

function pageMarkdown(i) {
  const w = (k) => WORDS[(i * 7 + k * 13) % WORDS.length];
  let md = `# Page ${i} ${w(1)} ${w(2)}\n\nThis page explains ${w(3)} ${w(4)} and ${w(5)} for case ${i}.\n\n`;
  for (let s = 0; s < 3; s++) {
    md += `## ${w(6 + s)} ${w(9 + s)}\n\nThe ${w(12 + s)} step uses ${w(15 + s)} with ${w(18 + s)} ${i % 97}. `;
    md += `See [the next page](/pages/placeholder) and keep ${w(20 + s)} in mind.\n\n`;
  }
  return md;
}

const percentile = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

async function timed(fn) {
  const t = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

async function seedContentSpace(base, token, orgPath, title, pages) {
  const space = json(await call(base, token, 'POST', `${orgPath}/spaces`, { title }, [201]));
  const sp = `/v1/spaces/${space.id}`;
  const cr = json(await call(base, token, 'POST', `${sp}/change-requests`, { subject: 'Seed' }, [201]));
  const children = Math.max(0, Math.floor(pages / 100) - 1);
  const parents = [];
  let n = 0;
  // The 100 parents first (their ids come back with compat=false), then their children.
  for (let p = 0; p < 100; p += 50) {
    const batch = [];
    for (let k = p; k < p + 50 && k < 100; k++) batch.push({ operation: 'insert_page', title: `Part ${k}`, ref: `part${k}`, document: { markdown: pageMarkdown(n++) } });
    const res = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content?compat=false`, { changes: batch }, [200]));
    for (const c of res.changes) parents.push(c.page.id);
  }
  let batch = [];
  for (let p = 0; p < 100; p++) {
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
  return space;
}

async function seedContent(base, token, outdir, pages, spaces) {
  const org = json(await call(base, token, 'POST', '/v1/orgs', { title: 'Bench content org' }, [200, 201]));
  const orgPath = `/v1/orgs/${encodeURIComponent(org.id)}`;
  const made = [];
  for (let i = 0; i < spaces; i++) made.push(await seedContentSpace(base, token, orgPath, `Content ${i}`, pages));
  const space = made[0];
  const sp = `/v1/spaces/${space.id}`;
  const list = json(await call(base, token, 'GET', `${sp}/content/pages`, undefined, [200])).pages;
  const mid = list[Math.floor(list.length / 2)];
  const target = mid.pages && mid.pages.length ? mid.pages[Math.floor(mid.pages.length / 2)] : mid;
  const pagePath = `${sp}/content/page/${target.id}`;
  writeFileSync(join(outdir, 'page.json'), await call(base, token, 'GET', pagePath, undefined, [200]));
  const revFrom = json(await call(base, token, 'GET', sp, undefined, [200])).revision;

  // 100 change requests, one page edited each, merged one after the other.
  const merges = [];
  const flat = list.flatMap((p) => [p, ...(p.pages || [])]);
  for (let i = 0; i < 100; i++) {
    const page = flat[(i * 37) % flat.length];
    const cr = json(await call(base, token, 'POST', `${sp}/change-requests`, { subject: `Edit ${i}` }, [201]));
    await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/content`, {
      changes: [{ operation: 'update_page', page: page.id, document: { markdown: pageMarkdown(i) + `\nEdit ${i}.\n` } }],
    }, [200]);
    merges.push(await timed(async () => {
      const m = json(await call(base, token, 'POST', `${sp}/change-requests/${cr.id}/merge`, undefined, [200]));
      if (m.result !== 'merge') fail(`merge ${i}: ${JSON.stringify(m)}`);
    }));
  }
  const revTo = json(await call(base, token, 'GET', sp, undefined, [200])).revision;
  const queries = ['hatch pattern', 'custom hatch patterns', 'deploy cluster region', 'webhook payl', 'zulu', 'latency cache index'];
  const spaceSearch = [];
  for (let i = 0; i < 200; i++) {
    const q = encodeURIComponent(queries[i % queries.length]);
    spaceSearch.push(await timed(() => call(base, token, 'GET', `${sp}/search?query=${q}&limit=20`, undefined, [200])));
  }
  const orgSearch = [];
  for (let i = 0; i < 100; i++) {
    const q = encodeURIComponent(queries[i % queries.length]);
    orgSearch.push(await timed(() => call(base, token, 'GET', `${orgPath}/search?query=${q}&limit=20`, undefined, [200])));
  }
  const ms = (xs) => ({ p50: +percentile(xs, 50).toFixed(2), p99: +percentile(xs, 99).toFixed(2) });
  process.stdout.write(JSON.stringify({
    orgId: org.id, spaceId: space.id, pagePath, pages, spaces,
    merge: ms(merges), spaceSearch: ms(spaceSearch), orgSearch: ms(orgSearch),
    revisionsFrom: revFrom, revisionsTo: revTo,
  }) + '\n');
}

async function countTeams(base, token, orgId) {
  const path = `/v1/orgs/${encodeURIComponent(orgId)}/teams?limit=1000`;
  let count = 0;
  let page;
  for (let i = 0; i < MAX_PAGES; i++) {
    const q = page === undefined ? '' : `&page=${encodeURIComponent(page)}`;
    const body = json(await call(base, token, 'GET', path + q, undefined, [200]));
    if (!Array.isArray(body.items)) fail('teams list has no items array');
    count += body.items.length;
    page = body.next && body.next.page;
    if (!page) {
      process.stdout.write(`${count}\n`);
      return;
    }
  }
  fail(`more than ${MAX_PAGES} pages of teams`);
}

const [cmd, ...args] = process.argv.slice(2);
try {
  if (cmd === 'seed' && args.length >= 3) {
    const members = Number(args[3] ?? 10000);
    const teams = Number(args[4] ?? 100);
    if (!Number.isInteger(members) || !Number.isInteger(teams) || members < 0 || teams < 0) {
      fail('MEMBERS and TEAMS must be non-negative integers');
    }
    await seed(args[0], args[1], args[2], members, teams);
  } else if (cmd === 'spaces' && args.length === 4) {
    const spaces = Number(args[3]);
    if (!Number.isInteger(spaces) || spaces < 50000) fail('SPACES must be an integer >= 50000 (page 500 of 100)');
    await seedSpaces(args[0], args[1], args[2], spaces);
  } else if (cmd === 'content' && args.length === 5) {
    const pages = Number(args[3]);
    const spaces = Number(args[4]);
    if (!Number.isInteger(pages) || pages < 200 || !Number.isInteger(spaces) || spaces < 1) {
      fail('PAGES must be an integer >= 200 and SPACES >= 1');
    }
    await seedContent(args[0], args[1], args[2], pages, spaces);
  } else if (cmd === 'count-teams' && args.length === 3) {
    await countTeams(args[0], args[1], args[2]);
  } else {
    fail('usage: seed.mjs seed BASE TOKEN OUTDIR [MEMBERS] [TEAMS] | count-teams BASE TOKEN ORG_ID');
  }
} catch (err) {
  fail(err && err.stack ? err.stack : String(err));
}

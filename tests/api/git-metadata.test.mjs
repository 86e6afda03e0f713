// Git sync's fields of content reads, validated against GitBook's schemas: a document page's own
// layout (RevisionPageLayoutOptions, every field required) and its `git` blob, a file's `git`
// blob, a revision's `git` commit. The revision is what docsd's serializer writes, kept byte for
// byte in fixtures/git-sync-revision.json by the C unit test serialize_revision_git_metadata
// (tests/unit/test_serialize_git.c), so the two cannot drift apart. Needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { validate } from './lib/schema.mjs';

const revision = JSON.parse(readFileSync(new URL('./fixtures/git-sync-revision.json', import.meta.url), 'utf8'));
const clone = (v) => JSON.parse(JSON.stringify(v));

test('a revision with Git metadata and a page layout validates', () => {
    validate('getCurrentRevision', 200, revision);
    validate('getRevisionById', 200, revision);
    const [page] = revision.pages;
    assert.equal(page.layout.width, 'wide');
    assert.equal(page.layout.outline, false);
    assert.deepEqual(page.git, { oid: '0123456789abcdef0123456789abcdef01234567', path: 'guide/setup.md' });
    assert.equal(revision.git.createdByGitBook, false);
    assert.equal(revision.files[0].git.path, '.gitbook/assets/logo.png');
});

test('the page and the file validate on their own', () => {
    validate('getPageById', 200, revision.pages[0]);
    validate('getPageById', 200, revision.pages[1]);
    validate('getFileById', 200, revision.files[0]);
    validate('listFiles', 200, { items: revision.files, count: 1 });
});

test('the schema checks what the serializer relies on', () => {
    const partial = clone(revision.pages[0]);
    delete partial.layout.coverSize; // every layout option is required
    assert.throws(() => validate('getPageById', 200, partial), /coverSize/);
    const width = clone(revision.pages[0]);
    width.layout.width = 'huge';
    assert.throws(() => validate('getPageById', 200, width));
    const blob = clone(revision.files[0]);
    delete blob.git.oid;
    assert.throws(() => validate('getFileById', 200, blob), /oid/);
    const commit = clone(revision);
    delete commit.git.createdByGitBook;
    assert.throws(() => validate('getCurrentRevision', 200, commit), /createdByGitBook/);
});

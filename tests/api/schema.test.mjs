// Self-check of the harness: the OpenAPI -> JSON Schema conversion accepts valid objects and
// rejects broken ones. Needs no server.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validate, validateError, validateComponent, convertSchema } from './lib/schema.mjs';

function org(overrides = {}) {
    return {
        object: 'organization',
        id: 'abcdefghij0123456789',
        title: 'Acme',
        createdAt: '2024-05-01T10:00:00.000Z',
        emailDomains: [],
        type: 'business',
        plan: 'free',
        inviteLinks: false,
        defaultRole: null,
        mergeRules: { type: 'none' },
        urls: { location: 'http://127.0.0.1:1/v1/orgs/abcdefghij0123456789', app: 'http://127.0.0.1:1/o/abcdefghij0123456789' },
        trial: { status: 'notapplicable' },
        permissions: {
            view: true,
            admin: true,
            ownTeam: false,
            createContent: true,
            createOpenAPISpec: true,
            ingestConversations: true,
            viewBilling: true,
            listMembers: true,
            listTeams: true,
            listIntegrations: true,
            listInstallations: true,
            installIntegration: true,
        },
        ...overrides,
    };
}

test('a hand-made Organization validates', () => {
    validate('getOrganizationById', 200, org());
    validate('createOrganization', 201, org({ defaultRole: 'edit' }));
    validate('listOrganizationsForAuthenticatedUser', 200, { items: [org()], count: 1 });
    validate('listOrganizationsForAuthenticatedUser', 200, { items: [org()], count: 2, next: { page: 'x' } });
});

test('broken Organizations are rejected', () => {
    assert.throws(() => validate('getOrganizationById', 200, org({ object: 'org' })), /does not match/);
    assert.throws(() => validate('getOrganizationById', 200, org({ title: 5 })), /title/);
    assert.throws(() => validate('getOrganizationById', 200, org({ createdAt: 'yesterday' })), /date-time/);
    assert.throws(() => validate('getOrganizationById', 200, org({ defaultRole: 'owner' })));
    assert.throws(() => validate('getOrganizationById', 200, org({ urls: { location: 'not a url', app: 'x' } })));
    const o = org();
    delete o.permissions;
    assert.throws(() => validate('getOrganizationById', 200, o), /permissions/);
    assert.throws(() => validate('listOrganizationsForAuthenticatedUser', 200, { count: 0 }), /items/);
    assert.throws(() => validate('listOrganizationsForAuthenticatedUser', 200, { items: [], next: {} }), /page/);
});

test('nullable conversion', () => {
    assert.deepEqual(convertSchema({ type: 'string', nullable: true, enum: [null] }), { type: ['string', 'null'], enum: [null] });
    assert.deepEqual(convertSchema({ type: 'string', nullable: true }), { type: ['string', 'null'] });
    assert.deepEqual(convertSchema({ $ref: '#/components/schemas/X', nullable: true }), {
        anyOf: [{ $ref: 'gitbook-openapi#/components/schemas/X' }, { type: 'null' }],
    });
    // a property literally named "nullable" is a property, not the keyword
    assert.deepEqual(convertSchema({ type: 'object', properties: { nullable: { type: 'boolean' } } }), {
        type: 'object',
        properties: { nullable: { type: 'boolean' } },
    });
});

test('other schemas used by the suite', () => {
    const user = { object: 'user', id: 'u1', displayName: 'A', email: 'a@b.c', urls: { location: 'http://h/v1/users/u1' } };
    validateComponent('User', user);
    assert.throws(() => validateComponent('User', { ...user, urls: {} }));
    const member = { object: 'member', id: 'u1', role: null, user, disabled: false, joinedAt: '2024-01-01T00:00:00Z', sso: false, spaces: 0, teams: 0 };
    validate('getMemberInOrganizationById', 200, member);
    assert.throws(() => validate('getMemberInOrganizationById', 200, { ...member, role: 'guest' }));
    const team = { object: 'team', id: 't', title: 'T', members: 1, spaces: 0, createdAt: '2024-01-01T00:00:00.000Z', permissions: { admin: true, view: true } };
    validate('createOrganizationTeam', 201, team);
    assert.throws(() => validate('createOrganizationTeam', 201, { ...team, members: 1.5 }));
    assert.throws(() => validate('createOrganizationTeam', 201, { ...team, title: '' }));
    validate('createOrganizationInvite', 201, { object: 'invite', id: 'i', role: 'read', redundant: false });
    assert.throws(() => validate('createOrganizationInvite', 201, { object: 'invite', id: 'i', role: 'read' }));
    validate('getApiInformation', 200, { version: '1', build: '2024-01-01' });
    assert.throws(() => validate('getOrganizationById', 999, {}), /documents no response/);
});

test('error envelope', () => {
    validateError({ error: { code: 404, message: 'Not found' } }, 404);
    assert.throws(() => validateError({ error: { code: 404, message: 'Not found' } }, 400));
    assert.throws(() => validateError({ message: 'x' }, 400));
    assert.throws(() => validateError({ error: { code: '400', message: 'x' } }, 400));
});

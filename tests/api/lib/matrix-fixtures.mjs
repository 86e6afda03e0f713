// Fixtures shared by authz-matrix.test.mjs and bad-input.test.mjs: one organization with an
// object of every kind the route tables name (collection, space with pages, a file and two
// change requests, comments and replies, a site with a section, a group, site spaces, a share
// link and a redirect, a team, an invite link, a SAML provider, an OpenAPI spec, a translation,
// an integration installation), built with raw requests by its admin. Every title carries a
// marker so that a response can be searched for another organization's data.
import assert from 'node:assert/strict';
import { raw, createOrg } from './api.mjs';

/** A request by `token` that must answer `status`; returns the parsed body. */
export async function must(url, token, method, path, json, status) {
    const r = await raw(url, method, path, { token, json, timeout: 30_000 });
    const want = Array.isArray(status) ? status : [status];
    assert.ok(want.includes(r.status), `${method} ${path}: expected ${want.join('|')}, got ${r.status}: ${r.text.slice(0, 500)}`);
    return r.json;
}

export const PETSTORE = `openapi: 3.0.3
info: { title: Petstore, version: 1.0.0 }
paths:
  /pets:
    get:
      summary: List all pets
      responses: { '200': { description: ok } }
`;

/**
 * Builds organization `label` owned by `admin` ({token, id, email}); `marker` goes into every
 * title. Returns {org, ids: {param name -> value}, markers: [strings only this org has]}.
 */
export async function buildOrg(url, admin, label, marker) {
    const m = (s) => `${s} ${marker}`;
    const { org } = await createOrg(url, admin.token, m(`Org${label}`).slice(0, 60));
    const O = `/v1/orgs/${org.id}`;
    const go = (method, path, json, status = [200, 201, 204]) => must(url, admin.token, method, path, json, status);
    await go('PATCH', O, { inviteLinks: true });
    const coll = await go('POST', `${O}/collections`, { title: m('Coll').slice(0, 50) });
    const space = await go('POST', `${O}/spaces`, { title: m('Space').slice(0, 50) });
    const space2 = await go('POST', `${O}/spaces`, { title: m('Other').slice(0, 50) });
    const S = `/v1/spaces/${space.id}`;
    // Content: a page and a file, merged into the space.
    const cr1 = await go('POST', `${S}/change-requests`, { subject: m('Setup') });
    await go('POST', `${S}/change-requests/${cr1.id}/content`, {
        changes: [
            { operation: 'insert_page', title: m('Intro'), document: { markdown: `# Intro\n\nSecret words ${marker}.\n` } },
            { operation: 'insert_files', files: [{ name: 'notes.txt', contentType: 'text/plain', base64: Buffer.from(`file ${marker}`).toString('base64') }] },
        ],
    });
    const merged = await go('POST', `${S}/change-requests/${cr1.id}/merge`, {});
    assert.equal(merged.result, 'merge');
    const rev = await go('GET', `${S}/content`);
    const pages = await go('GET', `${S}/content/pages`);
    const page = pages.pages.find((p) => p.type === 'document');
    const files = await go('GET', `${S}/content/files`);
    const file = files.items[0];
    // An open change request with its own page, comments and replies.
    const cr = await go('POST', `${S}/change-requests`, { subject: m('Draft') });
    await go('POST', `${S}/change-requests/${cr.id}/content`, {
        changes: [{ operation: 'insert_page', title: m('Draft page'), document: { markdown: `draft ${marker}\n` } }],
    });
    const crComment = await go('POST', `${S}/change-requests/${cr.id}/comments`, { body: { markdown: m('cr comment') } });
    const crReply = await go('POST', `${S}/change-requests/${cr.id}/comments/${crComment.id}/replies`, { body: { markdown: m('cr reply') } });
    const comment = await go('POST', `${S}/comments`, { body: { markdown: m('comment') } });
    const reply = await go('POST', `${S}/comments/${comment.id}/replies`, { body: { markdown: m('reply') } });
    // A site on the space, a section on the second space, a group, a share link, a redirect.
    const site = await go('POST', `${O}/sites`, { title: m('Site').slice(0, 128), spaces: [space.id] });
    const SI = `${O}/sites/${site.id}`;
    const section = await go('POST', `${SI}/sections`, { spaceId: space2.id, title: m('Section').slice(0, 40) });
    const siteSpaces = await go('GET', `${SI}/site-spaces`);
    const siteSpace = siteSpaces.items.find((x) => (x.space?.id ?? x.spaceId) === space.id) ?? siteSpaces.items[0];
    const group = await go('POST', `${SI}/section-groups`, { title: m('Group').slice(0, 100) });
    const share = await go('POST', `${SI}/share-links`, { name: m('Share').slice(0, 50) });
    const redirect = await go('POST', `${SI}/redirects`, {
        source: '/old/home', destination: { kind: 'site-page', siteSpaceId: siteSpace.id, pageId: page.id },
    });
    // A configuration value: the site's visitor-token key.
    const auth = await go('GET', `${SI}/publishing/auth`);
    // Organization objects.
    const team = await go('PUT', `${O}/teams`, { title: m('Team').slice(0, 64) });
    const invite = await go('POST', `${O}/link-invites`, { role: 'read' });
    const saml = await go('POST', `${O}/saml`, { label: `S${marker}`.slice(0, 30) });
    const spec = await go('POST', `${O}/openapi`, { slug: `spec-${marker}`.toLowerCase().slice(0, 60), source: { text: PETSTORE } });
    // The first version is made by a job: wait for it (bounded).
    let versions;
    for (let i = 0; i < 100; i++) {
        versions = await go('GET', `${O}/openapi/${spec.slug}/versions`);
        if (versions.items?.length) break;
        await new Promise((r) => setTimeout(r, 100));
    }
    const translation = await go('POST', `${O}/translations`, { source: { space: space.id, language: 'en' }, language: 'es' });
    return {
        org,
        space,
        space2,
        ids: {
            organizationId: org.id,
            collectionId: coll.id,
            spaceId: space.id,
            space2Id: space2.id,
            changeRequestId: cr.id,
            number: String(cr.number),
            pageId: page.id,
            pagePath: page.path ?? page.slug,
            path: page.path ?? page.slug,
            fileId: file.id,
            revisionId: rev.id,
            commentId: comment.id,
            commentReplyId: reply.id,
            replyId: reply.id,
            crCommentId: crComment.id,
            crReplyId: crReply.id,
            siteId: site.id,
            siteSectionId: section.id,
            siteSectionGroupId: group.id,
            groupId: group.id,
            siteSpaceId: siteSpace.id,
            shareLinkId: share.id,
            siteRedirectId: redirect.id,
            teamId: team.id,
            inviteId: invite.id,
            samlProviderId: saml.id,
            providerId: saml.id,
            specSlug: spec.slug,
            versionId: versions.items?.[0]?.id ?? 'noversion',
            translationId: translation.id,
            emailDomain: admin.email.split('@')[1],
            userId: admin.id,
            principalId: admin.id,
            kind: 'users',
        },
        markers: [marker, org.id, coll.id, space.id, site.id, team.id, admin.email, share.id, saml.id, ...(auth.privateKey ? [auth.privateKey] : [])],
    };
}

/** Adds user u to the organization with `role` (null: a guest, made by a role change). */
export async function member(url, admin, orgId, u, role) {
    await must(url, admin.token, 'POST', `/v1/orgs/${orgId}/invites`, { emails: [{ email: u.email, role: role ?? 'read' }] }, 200);
    if (role === null) await must(url, admin.token, 'PATCH', `/v1/orgs/${orgId}/members/${u.id}`, { role: null }, [200, 204]);
}

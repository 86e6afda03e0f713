// A SAML identity provider for tests (tests/api/app-saml, tests/browser/app-saml): key pairs from
// openssl, responses built as XML and signed with the xmlsec1 command (Debian's xmlsec1).
import { execFileSync } from 'node:child_process';
import { writeFileSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

export const NS = 'xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"';
export const IDP = 'https://idp.test.invalid/entity';
export const SSO_URL = 'https://idp.test.invalid/sso';

export const iso = (ms) => new Date(ms).toISOString();
export const xid = () => '_' + randomBytes(16).toString('hex');

export function sigTemplate(ref) {
    return (
        '<ds:Signature xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:SignedInfo>' +
        '<ds:CanonicalizationMethod Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/>' +
        '<ds:SignatureMethod Algorithm="http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"/>' +
        `<ds:Reference URI="#${ref}"><ds:Transforms>` +
        '<ds:Transform Algorithm="http://www.w3.org/2000/09/xmldsig#enveloped-signature"/>' +
        '<ds:Transform Algorithm="http://www.w3.org/2001/10/xml-exc-c14n#"/></ds:Transforms>' +
        '<ds:DigestMethod Algorithm="http://www.w3.org/2001/04/xmlenc#sha256"/><ds:DigestValue/></ds:Reference>' +
        '</ds:SignedInfo><ds:SignatureValue/></ds:Signature>'
    );
}

/** A SAML Response (unsigned XML with signature templates where `sign` asks). */
export function responseXml(o) {
    const now = Date.now();
    const assertionId = o.assertionId ?? xid();
    const respId = xid();
    const nb = o.notBefore ?? now - 60_000;
    const na = o.notOnOrAfter ?? now + 5 * 60_000;
    const assertion =
        `<saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}">` +
        `<saml:Issuer>${o.issuer ?? IDP}</saml:Issuer>` +
        (o.sign === 'assertion' ? sigTemplate(assertionId) : '') +
        `<saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
        '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
        `<saml:SubjectConfirmationData InResponseTo="${o.inResponseTo}" NotOnOrAfter="${iso(na)}" Recipient="${o.recipient}"/>` +
        '</saml:SubjectConfirmation></saml:Subject>' +
        `<saml:Conditions NotBefore="${iso(nb)}" NotOnOrAfter="${iso(na)}">` +
        `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
        `<saml:AuthnStatement AuthnInstant="${iso(now)}"><saml:AuthnContext><saml:AuthnContextClassRef>` +
        'urn:oasis:names:tc:SAML:2.0:ac:classes:Password</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>' +
        (o.displayName
            ? `<saml:AttributeStatement><saml:Attribute Name="displayName"><saml:AttributeValue>${o.displayName}</saml:AttributeValue></saml:Attribute></saml:AttributeStatement>`
            : '') +
        '</saml:Assertion>';
    return (
        `<samlp:Response ${NS} ID="${respId}" Version="2.0" IssueInstant="${iso(now)}" Destination="${o.destination ?? o.recipient}" InResponseTo="${o.inResponseTo}">` +
        `<saml:Issuer>${o.issuer ?? IDP}</saml:Issuer>` +
        (o.sign === 'response' ? sigTemplate(respId) : '') +
        '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
        assertion +
        '</samlp:Response>'
    );
}


/** An RSA key and its self-signed certificate in dir: { key (path), cert (PEM) }. */
export function keyPair(dir, name) {
    const key = join(dir, `${name}-key.pem`);
    const crt = join(dir, `${name}-cert.pem`);
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=test-idp', '-days', '2', '-keyout', key, '-out', crt], {
        stdio: 'ignore',
    });
    return { key, cert: readFileSync(crt, 'utf8') };
}

/** xml with its signature template (in the Assertion, or the Response) signed with keyFile. */
export function signXml(dir, keyFile, xml, what = 'assertion') {
    const f = join(dir, `${randomBytes(6).toString('hex')}.xml`);
    writeFileSync(f, xml);
    try {
        return execFileSync(
            'xmlsec1',
            [
                '--sign',
                '--privkey-pem',
                keyFile,
                '--id-attr:ID',
                what === 'assertion' ? 'urn:oasis:names:tc:SAML:2.0:assertion:Assertion' : 'urn:oasis:names:tc:SAML:2.0:protocol:Response',
                f,
            ],
            { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
        );
    } finally {
        rmSync(f, { force: true });
    }
}

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

// ---- the web interface over plain HTTP, with cookies (app-saml.test.mjs) ----
import { spawn } from 'node:child_process';
import { request } from 'node:http';
import { DOCSD_BIN, DATABASE_URL } from './server.mjs';

/** One HTTP request: {status, headers, cookies: {name: raw Set-Cookie}, text}. cookies: {name: value}. */
export function http(base, method, path, { cookies = {}, form, headers = {}, from } = {}) {
    const u = new URL(path, base);
    const body = form ? new URLSearchParams(form).toString() : undefined;
    const h = { ...headers };
    const jar = Object.entries(cookies).map(([k, v]) => `${k}=${v}`).join('; ');
    if (jar) h.cookie = jar;
    if (body !== undefined) {
        h['content-type'] ??= 'application/x-www-form-urlencoded';
        h['content-length'] = Buffer.byteLength(body);
    }
    return new Promise((res, rej) => {
        const req = request({ host: u.hostname, port: u.port, method, path: u.pathname + u.search, headers: h, localAddress: from }, (resp) => {
            let text = '';
            resp.setEncoding('utf8');
            resp.on('data', (d) => (text += d));
            resp.on('end', () => {
                const set = {};
                for (const c of resp.headers['set-cookie'] ?? []) set[c.slice(0, c.indexOf('='))] = c;
                res({ status: resp.statusCode, headers: resp.headers, cookies: set, text });
            });
        });
        req.on('error', rej);
        req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
        if (body !== undefined) req.write(body);
        req.end();
    });
}

export const cookieValue = (setCookie) => setCookie.slice(setCookie.indexOf('=') + 1).split(';')[0];

/** `docsd user password --email EMAIL` (password on stdin) against the test server's store. */
export function setPassword(dataDir, email, password) {
    const storage = DATABASE_URL ? ['--database', DATABASE_URL] : ['--data', dataDir];
    return new Promise((res, rej) => {
        const child = spawn(DOCSD_BIN, ['user', 'password', ...storage, '--email', email], { stdio: ['pipe', 'pipe', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', rej);
        child.on('close', (code) => (code === 0 ? res() : rej(new Error(`user password: ${code} ${stderr}`))));
        child.stdin.end(`${password}\n`);
    });
}

/** Sign in with a password through /signin: the session cookie's value. */
export async function passwordSession(base, email, password) {
    const form = await http(base, 'GET', '/signin');
    const pre = cookieValue(form.cookies.docsd_signin);
    const r = await http(base, 'POST', '/signin', { cookies: { docsd_signin: pre }, form: { csrf: pre, email, password } });
    if (r.status !== 303 || !r.cookies.docsd_session) throw new Error(`password sign-in failed: ${r.status} ${r.text}`);
    return cookieValue(r.cookies.docsd_session);
}

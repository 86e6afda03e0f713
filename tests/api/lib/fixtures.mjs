// Per-file fixtures: a server, users with unique emails, their clients.
import { startServer, uniq } from './server.mjs';
import { client } from './api.mjs';

export { uniq };

/**
 * Starts a server and returns a context with helpers. Every email uses a domain unique to this
 * run (so that a shared database with data of other runs does not disturb the assertions).
 */
export async function setup(opts = {}) {
    const server = await startServer(opts);
    const run = uniq(10);
    const domain = `r${run}.example.com`;
    async function user(label, { name, emailDomain = domain } = {}) {
        const email = `${label}-${uniq(6)}@${emailDomain}`;
        const displayName = name ?? `${label[0].toUpperCase()}${label.slice(1)} ${run}`;
        const u = await server.createUser(email, displayName);
        return { ...u, name: displayName, api: client(server.url, u.token) };
    }
    return { server, url: server.url, siteUrl: server.siteUrl, run, domain, user, client: (token) => client(server.url, token) };
}

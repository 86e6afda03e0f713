// Raw TCP helpers: send exact bytes (malformed request lines, huge heads, trickled
// bytes) and read the one response that comes back.
import net from 'node:net';

/** Parses one HTTP/1.1 response from buf: {status, headers, body} or null while incomplete. */
export function parseResponse(buf, { ended = false } = {}) {
    const end = buf.indexOf('\r\n\r\n');
    if (end < 0) return null;
    const head = buf.subarray(0, end).toString('latin1').split('\r\n');
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head[0]);
    if (!m) throw new Error(`not an HTTP response: ${JSON.stringify(head[0])}`);
    const headers = {};
    for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
    }
    const rest = buf.subarray(end + 4);
    if (headers['content-length'] !== undefined) {
        const n = Number(headers['content-length']);
        if (rest.length < n) return null;
        return { status: Number(m[1]), headers, body: rest.subarray(0, n) };
    }
    if (!ended) return null;
    return { status: Number(m[1]), headers, body: rest };
}

/**
 * Connects to 127.0.0.1:port (from localAddress when given), writes `bytes` and resolves
 * with the first response ({status, headers, body: Buffer, text, closed}), or with
 * {status: 0, closed: true, raw} when the server closed without a complete response.
 * Rejects only on a timeout.
 */
export function rawExchange(port, bytes, { timeout = 5000, localAddress } = {}) {
    return new Promise((resolve, reject) => {
        const chunks = [];
        let done = false;
        const sock = net.connect({ host: '127.0.0.1', port, localAddress });
        const finish = (ended) => {
            if (done) return;
            const buf = Buffer.concat(chunks);
            let r = null;
            try {
                r = parseResponse(buf, { ended });
            } catch (e) {
                done = true;
                clearTimeout(timer);
                sock.destroy();
                reject(e);
                return;
            }
            if (!r && !ended) return;
            done = true;
            clearTimeout(timer);
            sock.destroy();
            if (!r) resolve({ status: 0, closed: true, raw: buf });
            else resolve({ ...r, text: r.body.toString('utf8'), closed: ended });
        };
        const timer = setTimeout(() => {
            if (done) return;
            done = true;
            sock.destroy();
            reject(new Error(`no response within ${timeout} ms; got ${JSON.stringify(Buffer.concat(chunks).toString('latin1').slice(0, 200))}`));
        }, timeout);
        sock.on('data', (d) => {
            chunks.push(d);
            finish(false);
        });
        // A server that answers before reading everything may reset the connection once
        // it closes: what arrived before counts.
        sock.on('error', () => finish(true));
        sock.on('close', () => finish(true));
        sock.on('connect', () => sock.write(bytes));
    });
}

/** Opens a TCP connection and resolves once it is connected. */
export function openSocket(port, { localAddress, timeout = 10_000 } = {}) {
    return new Promise((resolve, reject) => {
        const sock = net.connect({ host: '127.0.0.1', port, localAddress });
        const timer = setTimeout(() => {
            sock.destroy();
            reject(new Error('connect timed out'));
        }, timeout);
        sock.once('connect', () => {
            clearTimeout(timer);
            sock.removeAllListeners('error');
            sock.on('error', () => {}); // a reset is seen as 'close' by the caller
            resolve(sock);
        });
        sock.once('error', (e) => {
            clearTimeout(timer);
            reject(e);
        });
    });
}

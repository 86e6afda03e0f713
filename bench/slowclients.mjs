// Holds the slow and idle clients of bench/slowclients.sh: IDLE connections that send nothing
// (keep-alive clients between requests) and SLOW connections that trickle a request head one
// byte a second (each reopened when docsd cuts it at --head-timeout, so SLOW stay active), each
// kind spread over many loopback addresses (127.0.0.0/8: every address is this machine), under
// docsd's --max-connections-per-ip. Prints "ready" once all are open; on SIGTERM (or after
// HOLD_S seconds) prints one JSON line of counts and exits.
//   node bench/slowclients.mjs PORT IDLE SLOW
import net from 'node:net';

const [port, idleN, slowN] = process.argv.slice(2).map(Number);
const PER_ADDR = Number(process.env.PER_ADDR || 50);
const HOLD_S = Number(process.env.HOLD_S || 120);
const addr = (block, i) => `127.0.${block}.${1 + Math.floor(i / PER_ADDR) % 250}`;
const counts = { idleOpen: 0, idleClosed: 0, slowOpen: 0, slowCut: 0, slowReopened: 0, connectErrors: 0 };
const head = Buffer.from(`GET /v1/user HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(4000)}\r\n\r\n`);

function connect(localAddress) {
    return new Promise((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port, localAddress });
        s.once('connect', () => resolve(s));
        s.once('error', () => {
            counts.connectErrors++;
            resolve(null);
        });
    });
}

const idle = [];
for (let i = 0; i < idleN; i += 500) {
    const part = await Promise.all(Array.from({ length: Math.min(500, idleN - i) }, (_, k) => connect(addr(1 + Math.floor((i + k) / (250 * PER_ADDR)), i + k))));
    for (const s of part) {
        if (!s) continue;
        counts.idleOpen++;
        s.on('error', () => {});
        s.on('close', () => {
            counts.idleOpen--;
            counts.idleClosed++;
        });
        idle.push(s);
    }
}

const slow = new Set();
async function trickler(i) {
    const s = await connect(addr(100, i));
    if (!s) return;
    counts.slowOpen++;
    s.sent = 0;
    s.on('error', () => {});
    s.on('close', () => {
        counts.slowOpen--;
        slow.delete(s);
        if (!stopping) {
            counts.slowCut++;
            counts.slowReopened++;
            trickler(i);
        }
    });
    slow.add(s);
}
let stopping = false;
await Promise.all(Array.from({ length: slowN }, (_, i) => trickler(i)));
const tick = setInterval(() => {
    for (const s of slow) if (!s.destroyed && s.sent < head.length) s.write(head.subarray(s.sent, ++s.sent));
}, 1000);
console.log('ready', JSON.stringify(counts));

const finish = () => {
    stopping = true;
    clearInterval(tick);
    console.log(JSON.stringify(counts));
    for (const s of [...idle, ...slow]) s.destroy();
    process.exit(0);
};
process.on('SIGTERM', finish);
setTimeout(finish, HOLD_S * 1000);

/*
 * conntrack.c - the reaper of slow clients (see conntrack.h for the phases).
 *
 * DESIGN
 * Every open connection has a struct ct_conn in one array, guarded by ct->mu.
 * The connection's own libmicrohttpd thread changes its phase with one atomic
 * store of `state` (phase, a sequence number and the phase's start packed in
 * 64 bits, so that the reaper always reads a consistent triple); that is all
 * the request path pays. The reaper thread wakes every tick, walks the array
 * under ct->mu (in batches, so that opening and closing connections never wait
 * long) and shuts down the socket of a connection whose head or body is
 * overdue.
 *
 * Invariants:
 *  1. An entry is in the array from conntrack_open (MHD_CONNECTION_NOTIFY_STARTED)
 *     to conntrack_close (MHD_CONNECTION_NOTIFY_CLOSED), and libmicrohttpd
 *     closes the socket only after the CLOSED notification: so while the
 *     reaper holds ct->mu, every entry's fd is that connection's socket, never
 *     a closed or reused descriptor.
 *  2. The reaper only calls shutdown() on a socket, never close(): the
 *     connection stays libmicrohttpd's, which sees the end of the stream and
 *     closes it (running the completion and CLOSED notifications as usual).
 *  3. Fields below "reaper only" are read and written by the reaper alone.
 *
 * The first byte of a head: an idle connection costs nothing and may wait for
 * libmicrohttpd's --connection-timeout, so the head deadline runs from the
 * head's first byte. libmicrohttpd reads every byte at once and tells nobody,
 * so the reaper samples the kernel's count of bytes received (TCP_INFO
 * tcpi_bytes_received) of connections waiting for a head, every sample_ms:
 * when it grew since the phase began, the head began after the last sample
 * that showed no growth, and the deadline runs from that sample (the earlier
 * bound, so a slow client never gains more than sample_ms). A new connection
 * has received 0 bytes when it is opened, so its deadline runs from its start.
 * Without TCP_INFO (no such kernel), the deadline runs from the phase start.
 */
#include "http/conntrack.h"
#include "util/alloc.h"
#include "util/err.h"
#include "util/util.h"

#include <linux/tcp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>

#define PH_WAIT_HEAD 0u
#define PH_BODY 1u
#define PH_BUSY 2u
#define SEQ_BITS 22
#define SEQ_MASK ((1u << SEQ_BITS) - 1)
#define START_SHIFT (2 + SEQ_BITS)
#define BATCH 256

struct ct_conn {
	_Atomic uint64_t state;   /* phase | seq << 2 | start_ms << START_SHIFT */
	_Atomic uint64_t body_ms; /* the BODY phase's allowed duration */
	int fd;
	size_t index;             /* in ct->conns, under ct->mu */
	/* reaper only */
	uint64_t seen;            /* the state last looked at */
	uint64_t mark;            /* bytes received when the phase was first sampled */
	bool have_mark;
	bool started;             /* a head has begun in this WAIT_HEAD phase */
	bool killed;
	int64_t quiet_ms;         /* last sample that showed no new byte */
	int64_t next_sample_ms;
};

struct conntrack {
	int64_t head_ms;
	long body_min_rate;
	int64_t tick_ms, sample_ms;
	int64_t epoch_ns;         /* start_ms counts from here */
	atomic_ulong reaped;

	pthread_mutex_t mu;       /* conns, n, cap */
	struct ct_conn **conns;
	size_t n, cap;

	pthread_mutex_t stop_mu;  /* stopping */
	pthread_cond_t stop_cv;
	bool stopping;
	pthread_t thread;
};

static int64_t now_ms(const struct conntrack *ct)
{
	return (clock_mono_ns() - ct->epoch_ns) / 1000000;
}

static uint64_t pack(unsigned phase, uint32_t seq, int64_t start_ms)
{
	return (uint64_t)phase | (uint64_t)(seq & SEQ_MASK) << 2 | (uint64_t)start_ms << START_SHIFT;
}

/* Move c to `phase` from now on. Only the connection's own thread calls this. */
static void set_phase(struct conntrack *ct, struct ct_conn *c, unsigned phase)
{
	uint64_t old = atomic_load_explicit(&c->state, memory_order_relaxed);
	uint32_t seq = (uint32_t)(old >> 2) & SEQ_MASK;

	/* seq 0 marks a connection's first head (see check()): never reused */
	seq = (seq + 1) & SEQ_MASK;
	if (seq == 0)
		seq = 1;
	atomic_store_explicit(&c->state, pack(phase, seq, now_ms(ct)), memory_order_release);
}

/* Bytes the kernel received on fd so far; -1 when TCP_INFO cannot tell. */
static int bytes_received(int fd, uint64_t *out)
{
	struct tcp_info ti;
	socklen_t len = sizeof(ti);

	memset(&ti, 0, sizeof(ti));
	if (getsockopt(fd, IPPROTO_TCP, TCP_INFO, &ti, &len) != 0 ||
	    len < offsetof(struct tcp_info, tcpi_bytes_received) + sizeof(ti.tcpi_bytes_received))
		return -1;
	*out = ti.tcpi_bytes_received;
	return 0;
}

static void reap(struct conntrack *ct, struct ct_conn *c)
{
	c->killed = true;
	(void)shutdown(c->fd, SHUT_RDWR);
	atomic_fetch_add_explicit(&ct->reaped, 1, memory_order_relaxed);
}

/* One connection, under ct->mu. */
static void check(struct conntrack *ct, struct ct_conn *c, int64_t now)
{
	uint64_t st = atomic_load_explicit(&c->state, memory_order_acquire), body_ms;
	unsigned phase = (unsigned)(st & 3);
	uint32_t seq = (uint32_t)(st >> 2) & SEQ_MASK;
	int64_t start = (int64_t)(st >> START_SHIFT);

	if (c->killed)
		return;
	if (st != c->seen) {
		c->seen = st;
		c->started = false;
		c->next_sample_ms = now;
		/* A new connection had received nothing when it opened; a later
		 * phase starts from the bytes of its first sample. */
		c->have_mark = seq == 0;
		c->mark = 0;
		c->quiet_ms = seq == 0 ? start : now;
	}
	switch (phase) {
	case PH_WAIT_HEAD:
		if (!c->started && now >= c->next_sample_ms) {
			uint64_t b;
			c->next_sample_ms = now + ct->sample_ms;
			if (bytes_received(c->fd, &b) != 0) {
				c->started = true;
				c->quiet_ms = start;
			} else if (!c->have_mark) {
				c->have_mark = true;
				c->mark = b;
				c->quiet_ms = now;
			} else if (b > c->mark) {
				c->started = true;
			} else {
				c->quiet_ms = now;
			}
		}
		if (c->started && now - c->quiet_ms > ct->head_ms)
			reap(ct, c);
		break;
	case PH_BODY:
		body_ms = atomic_load_explicit(&c->body_ms, memory_order_relaxed);
		/* body_ms is stored before the state: unchanged state, matching value */
		if (atomic_load_explicit(&c->state, memory_order_acquire) != st)
			break;
		if (now - start > (int64_t)body_ms)
			reap(ct, c);
		break;
	default:
		break;
	}
}

static void sweep(struct conntrack *ct)
{
	size_t i = 0;
	bool more = true;

	while (more) {
		pthread_mutex_lock(&ct->mu);
		int64_t now = now_ms(ct);
		/* An entry moved down by a close between batches is checked next tick. */
		for (int k = 0; k < BATCH && i < ct->n; k++, i++)
			check(ct, ct->conns[i], now);
		more = i < ct->n;
		pthread_mutex_unlock(&ct->mu);
	}
}

static void *reaper_main(void *arg)
{
	struct conntrack *ct = arg;
	struct timespec ts;

	pthread_mutex_lock(&ct->stop_mu);
	while (!ct->stopping) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		ts.tv_nsec += (long)(ct->tick_ms % 1000) * 1000000L;
		ts.tv_sec += (time_t)(ct->tick_ms / 1000) + ts.tv_nsec / 1000000000L;
		ts.tv_nsec %= 1000000000L;
		pthread_cond_timedwait(&ct->stop_cv, &ct->stop_mu, &ts);
		if (ct->stopping)
			break;
		pthread_mutex_unlock(&ct->stop_mu);
		sweep(ct);
		pthread_mutex_lock(&ct->stop_mu);
	}
	pthread_mutex_unlock(&ct->stop_mu);
	return NULL;
}

static int64_t clamp(int64_t v, int64_t lo, int64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

int conntrack_new(struct conntrack **out, int head_timeout_s, long body_min_rate)
{
	struct conntrack *ct = xcalloc(1, sizeof(*ct));
	pthread_condattr_t ca;
	int rc = 0;

	ct->head_ms = (int64_t)(head_timeout_s > 0 ? head_timeout_s : 1) * 1000;
	ct->body_min_rate = body_min_rate > 0 ? body_min_rate : 1;
	/* Deadlines are kept within a quarter of the head timeout (at most 1 s). */
	ct->tick_ms = clamp(ct->head_ms / 10, 50, 250);
	ct->sample_ms = clamp(ct->head_ms / 4, ct->tick_ms, 1000);
	ct->epoch_ns = clock_mono_ns();
	ct->cap = 1024;
	ct->conns = xmalloc(ct->cap * sizeof(*ct->conns));
	pthread_mutex_init(&ct->mu, NULL);
	pthread_mutex_init(&ct->stop_mu, NULL);
	if (pthread_condattr_init(&ca) != 0 || pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) != 0 ||
	    pthread_cond_init(&ct->stop_cv, &ca) != 0) {
		rc = err_set(ERR_INTERNAL, "cannot create the connection reaper's condition variable");
	} else if (pthread_create(&ct->thread, NULL, reaper_main, ct) != 0) {
		pthread_cond_destroy(&ct->stop_cv);
		rc = err_set(ERR_INTERNAL, "cannot start the connection reaper thread");
	}
	pthread_condattr_destroy(&ca);
	if (rc) {
		pthread_mutex_destroy(&ct->mu);
		pthread_mutex_destroy(&ct->stop_mu);
		free(ct->conns);
		free(ct);
		return rc;
	}
	*out = ct;
	return 0;
}

void conntrack_free(struct conntrack *ct)
{
	if (!ct)
		return;
	pthread_mutex_lock(&ct->stop_mu);
	ct->stopping = true;
	pthread_cond_signal(&ct->stop_cv);
	pthread_mutex_unlock(&ct->stop_mu);
	pthread_join(ct->thread, NULL);
	for (size_t i = 0; i < ct->n; i++)
		free(ct->conns[i]);
	free(ct->conns);
	pthread_cond_destroy(&ct->stop_cv);
	pthread_mutex_destroy(&ct->stop_mu);
	pthread_mutex_destroy(&ct->mu);
	free(ct);
}

struct ct_conn *conntrack_open(struct conntrack *ct, int fd)
{
	struct ct_conn *c = xcalloc(1, sizeof(*c));

	c->fd = fd;
	atomic_init(&c->state, pack(PH_WAIT_HEAD, 0, now_ms(ct)));
	atomic_init(&c->body_ms, 0);
	c->seen = UINT64_MAX; /* never a packed state: the first check starts the phase */
	pthread_mutex_lock(&ct->mu);
	if (ct->n == ct->cap) {
		if (ct->cap > SIZE_MAX / 2 / sizeof(*ct->conns)) {
			pthread_mutex_unlock(&ct->mu);
			free(c);
			return NULL;
		}
		ct->conns = xrealloc(ct->conns, 2 * ct->cap * sizeof(*ct->conns));
		ct->cap *= 2;
	}
	c->index = ct->n;
	ct->conns[ct->n++] = c;
	pthread_mutex_unlock(&ct->mu);
	return c;
}

void conntrack_close(struct conntrack *ct, struct ct_conn *c)
{
	if (!c)
		return;
	pthread_mutex_lock(&ct->mu);
	ct->conns[c->index] = ct->conns[--ct->n];
	ct->conns[c->index]->index = c->index;
	pthread_mutex_unlock(&ct->mu);
	free(c);
}

void conntrack_head_done(struct conntrack *ct, struct ct_conn *c, uint64_t body_len)
{
	uint64_t ms;

	if (!c)
		return;
	/* head timeout + body_len / rate, in ms, saturating */
	ms = body_len / (uint64_t)ct->body_min_rate;
	ms = ms > (uint64_t)INT64_MAX / 2000 ? (uint64_t)INT64_MAX / 2 : ms * 1000 + (uint64_t)ct->head_ms;
	atomic_store_explicit(&c->body_ms, ms, memory_order_relaxed);
	set_phase(ct, c, PH_BODY);
}

void conntrack_busy(struct ct_conn *c)
{
	uint64_t old;

	if (!c)
		return;
	/* Same sequence and start: BUSY has no deadline, only the phase matters. */
	old = atomic_load_explicit(&c->state, memory_order_relaxed);
	atomic_store_explicit(&c->state, (old & ~(uint64_t)3) | PH_BUSY, memory_order_release);
}

void conntrack_idle(struct conntrack *ct, struct ct_conn *c)
{
	if (c)
		set_phase(ct, c, PH_WAIT_HEAD);
}

size_t conntrack_in_flight(struct conntrack *ct)
{
	size_t busy = 0;

	if (!ct)
		return 0;
	/* Under mu, no connection in the table is closed (conntrack_close
	 * removes it first), so its fd is still the connection's. */
	pthread_mutex_lock(&ct->mu);
	for (size_t i = 0; i < ct->n; i++) {
		const struct ct_conn *c = ct->conns[i];
		unsigned phase = (unsigned)(atomic_load_explicit(&c->state, memory_order_acquire) & 3u);
		int unread = 0;

		if (phase != PH_WAIT_HEAD || (ioctl(c->fd, FIONREAD, &unread) == 0 && unread > 0))
			busy++;
	}
	pthread_mutex_unlock(&ct->mu);
	return busy;
}

unsigned long conntrack_reaped(struct conntrack *ct)
{
	return ct ? atomic_load_explicit(&ct->reaped, memory_order_relaxed) : 0;
}

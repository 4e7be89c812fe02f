// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of the dm-log-writes log reader (tests/logwrites/logw.h) and of
 * the replay program built from it (tests/vm/programs/bds-logreplay.c, given
 * as argv[1]).
 *
 * Logs are written here as the kernel's dm-log-writes lays them out (the
 * format is in logw.h), with sector sizes of 512 and 4096:
 *  - a log of every kind of entry decodes to exactly those entries, at the
 *    byte offsets the format gives;
 *  - every malformed super and entry is refused with its own reason;
 *  - random entry blocks are refused or decode to an entry that ends
 *    inside the log, after its start;
 *  - the program's "replay FROM TO" of a random log onto a file gives
 *    exactly the image of a model that applies the same entries, for
 *    random ranges, and "find" and "list" agree with the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../libbds/tap.h"
#include "logw.h"

/* --- a log writer, laid out as dm-log-writes does -------------------------- */

#define MAXLOG (4u << 20)

struct wlog {
	unsigned char *buf;
	uint32_t ss;
	uint64_t pos, nr;
};

static void put64(unsigned char *p, uint64_t v)
{
	v = htole64(v);
	memcpy(p, &v, 8);
}

static void put32(unsigned char *p, uint32_t v)
{
	v = htole32(v);
	memcpy(p, &v, 4);
}

static void wlog_init(struct wlog *w, uint32_t ss)
{
	w->buf = calloc(1, MAXLOG);
	w->ss = ss;
	w->pos = ss;
	w->nr = 0;
}

static void wlog_super(struct wlog *w)
{
	memset(w->buf, 0, w->ss);
	put64(w->buf, LOGW_MAGIC);
	put64(w->buf + 8, LOGW_VERSION);
	put64(w->buf + 16, w->nr);
	put32(w->buf + 24, w->ss);
}

/* Append an entry; @data (nr blocks) for writes, @mark for marks. */
static uint64_t wlog_add(struct wlog *w, uint64_t sector, uint64_t nr,
			 uint64_t flags, const unsigned char *data,
			 const char *mark)
{
	unsigned char *e = w->buf + w->pos;
	uint64_t at = w->pos, len = mark ? strlen(mark) : 0;

	memset(e, 0, w->ss);
	put64(e, sector);
	put64(e + 8, nr);
	put64(e + 16, flags);
	put64(e + 24, len);
	if (mark)
		memcpy(e + LOGW_ENTRY_HEAD, mark, len);
	w->pos += w->ss;
	if (!(flags & LOGW_DISCARD) && nr) {
		memcpy(w->buf + w->pos, data, nr * w->ss);
		w->pos += nr * w->ss;
	}
	w->nr++;
	wlog_super(w);
	return at;
}

/* --- decoding a known log ---------------------------------------------------- */

static bool decode_known(uint32_t ss)
{
	static unsigned char data[4 * 4096];
	struct logw_entry *e = malloc(sizeof(*e));
	struct logw_super s;
	struct wlog w;
	uint64_t at[6], pos;
	unsigned int i;
	bool ok = true;
	static const struct {
		uint64_t sector, nr, flags;
		const char *mark;
	} want[6] = {
		{ 0, 2, 0, NULL },
		{ 8, 1, LOGW_FUA | LOGW_METADATA, NULL },
		{ 0, 1, LOGW_DISCARD, NULL },
		{ 0, 0, LOGW_FLUSH, NULL },
		{ 3, 1, LOGW_FLUSH | LOGW_FUA, NULL },
		{ 0, 0, LOGW_MARK, "fsync-17" },
	};

	memset(data, 0x5a, sizeof(data));
	wlog_init(&w, ss);
	for (i = 0; i < 6; i++)
		at[i] = wlog_add(&w, want[i].sector, want[i].nr, want[i].flags,
				 data, want[i].mark);
	/* Block offsets: 1, 1+1+2, 4+1+1, 6+1 (no data), 7+1, 8+1+1. */
	ok &= at[0] == ss && at[1] == 4ULL * ss && at[2] == 6ULL * ss &&
	      at[3] == 7ULL * ss && at[4] == 8ULL * ss && at[5] == 10ULL * ss;
	ok &= logw_read_super(w.buf, ss, MAXLOG, &s) == LOGW_OK &&
	      s.nr_entries == 6 && s.sectorsize == ss;
	for (i = 0, pos = ss; ok && i < 6; i++) {
		ok &= logw_read_entry(&s, w.buf + pos, pos, MAXLOG, e) == LOGW_OK;
		ok &= e->pos == at[i] && e->sector == want[i].sector &&
		      e->nr_sectors == want[i].nr && e->flags == want[i].flags;
		ok &= !strcmp(e->mark, want[i].mark ? want[i].mark : "");
		ok &= logw_has_data(e) == (want[i].nr && !(want[i].flags & LOGW_DISCARD));
		pos = e->next;
	}
	ok &= pos == 11ULL * ss;
	free(w.buf);
	free(e);
	return ok;
}

/* --- refusals ---------------------------------------------------------------- */

static enum logw_err super_with(uint32_t ss, int field, uint64_t v,
				uint64_t log_bytes)
{
	unsigned char b[512];
	struct logw_super s;

	memset(b, 0, sizeof(b));
	put64(b, LOGW_MAGIC);
	put64(b + 8, LOGW_VERSION);
	put64(b + 16, 3);
	put32(b + 24, ss);
	if (field == 0)
		put64(b, v);
	else if (field == 1)
		put64(b + 8, v);
	else if (field == 2)
		put64(b + 16, v);
	else if (field == 3)
		put32(b + 24, (uint32_t)v);
	return logw_read_super(b, sizeof(b), log_bytes, &s);
}

static enum logw_err entry_with(uint64_t sector, uint64_t nr, uint64_t flags,
				uint64_t len, uint64_t pos, uint64_t log_bytes)
{
	static unsigned char b[4096];
	struct logw_entry *e = malloc(sizeof(*e));
	struct logw_super s = { 100, 4096 };
	enum logw_err r;

	memset(b, 'x', sizeof(b));
	put64(b, sector);
	put64(b + 8, nr);
	put64(b + 16, flags);
	put64(b + 24, len);
	r = logw_read_entry(&s, b, pos, log_bytes, e);
	free(e);
	return r;
}

static void refusals(void)
{
	uint64_t big = 1ULL << 30;

	check(super_with(512, -1, 0, big) == LOGW_OK, "a good super is taken");
	check(super_with(512, 0, 0x6a736677736873ULL, big) == LOGW_ERR_MAGIC,
	      "super: bad magic refused");
	check(super_with(512, 1, 2, big) == LOGW_ERR_VERSION,
	      "super: version 2 refused");
	check(super_with(1000, -1, 0, big) == LOGW_ERR_SECTORSIZE &&
	      super_with(256, -1, 0, big) == LOGW_ERR_SECTORSIZE &&
	      super_with(131072, -1, 0, big) == LOGW_ERR_SECTORSIZE,
	      "super: sector sizes 1000, 256 and 131072 refused");
	check(super_with(512, 2, big / 512, big) == LOGW_ERR_TOO_MANY &&
	      super_with(512, 2, big / 512 - 1, big) == LOGW_OK,
	      "super: one entry more than the log holds refused, not one less");
	check(super_with(4096, -1, 0, 2048) == LOGW_ERR_TOO_MANY,
	      "super: a log smaller than its block refused");

	check(entry_with(5, 2, 0, 0, 4096, big) == LOGW_OK,
	      "a good entry is taken");
	check(entry_with(5, 2, 0x20, 0, 4096, big) == LOGW_ERR_FLAGS,
	      "entry: unknown flag refused");
	check(entry_with(0, 1, LOGW_MARK, 3, 4096, big) == LOGW_ERR_MARK,
	      "entry: a mark with data blocks refused");
	check(entry_with(0, 0, LOGW_MARK, 4096 - 32, 4096, big) == LOGW_ERR_MARK &&
	      entry_with(0, 0, LOGW_MARK, 4096 - 33, 4096, big) == LOGW_OK,
	      "entry: a mark name filling its block refused, one shorter taken");
	check(entry_with(5, 2, 0, 7, 4096, big) == LOGW_ERR_DATA_LEN,
	      "entry: inline data on a write refused");
	check(entry_with(5, 2, LOGW_DISCARD | LOGW_FLUSH, 0, 4096, big) ==
	      LOGW_ERR_DISCARD, "entry: a discard that flushes refused");
	check(entry_with(5, 2, 0, 0, 4096, 4096 * 3) == LOGW_ERR_PAST_END &&
	      entry_with(5, 2, 0, 0, 4096, 4096 * 4) == LOGW_OK,
	      "entry: data one block past the log refused, exactly to its end taken");
	check(entry_with(5, 1ULL << 50, LOGW_DISCARD, 0, 4096, 4096 * 2) == LOGW_OK,
	      "entry: a discard carries no data blocks");
	check(entry_with(~0ULL, 2, LOGW_DISCARD, 0, 4096, big) == LOGW_ERR_RANGE,
	      "entry: a sector range that wraps refused");
	check(entry_with(5, 2, 0, 0, big, big) == LOGW_ERR_PAST_END,
	      "entry: an entry block at the log's end refused");
}

/* --- random entry blocks --------------------------------------------------- */

static void random_entries(void)
{
	static unsigned char b[4096];
	struct logw_entry *e = malloc(sizeof(*e));
	struct logw_super s = { 1, 512 };
	unsigned int i, j, bad = 0, taken = 0;

	for (i = 0; i < 200000; i++) {
		uint64_t log_bytes = rnd() % (1ULL << (rnd() % 40)), pos;

		s.sectorsize = 512u << (rnd() % 4);
		pos = log_bytes ? rnd() % (log_bytes + 1) : 0;
		for (j = 0; j < 32; j++)
			b[j] = (unsigned char)rnd();
		if (rnd() % 2) {
			/* plausible numbers, to get past the checks */
			uint64_t f = rnd() % 32;

			put64(b, rnd() % 100000);
			put64(b + 8, rnd() % 3 ? rnd() % 64 : 0);
			put64(b + 16, f);
			put64(b + 24, f & LOGW_MARK && rnd() % 2 ? rnd() % 600 : 0);
		}
		if (logw_read_entry(&s, b, pos, log_bytes, e) == LOGW_OK) {
			taken++;
			if (e->next <= pos || e->next > log_bytes ||
			    e->data_pos != pos + s.sectorsize)
				bad++;
		}
	}
	free(e);
	check(!bad && taken > 1000,
	      "200000 random entry blocks: %u taken, all ending inside the log after their start (%u not)",
	      taken, bad);
}

/* --- the program: replay against a model ----------------------------------------- */

#define DEVBYTES (256u * 1024)

static int run(const char *cmd, char *out, size_t outlen)
{
	FILE *p = popen(cmd, "r");
	size_t n;

	if (!p)
		return -1;
	n = fread(out, 1, outlen - 1, p);
	out[n] = 0;
	return pclose(p);
}

static bool replay_one(const char *prog, uint32_t ss, unsigned int round)
{
	static unsigned char data[16 * 4096], model[DEVBYTES], got[DEVBYTES];
	char logf[] = "/tmp/test-logw-log.XXXXXX", devf[] = "/tmp/test-logw-dev.XXXXXX";
	char cmd[512], out[4096], mark[32];
	unsigned int nr = 5 + (unsigned int)(rnd() % 40), i, from, to, k;
	uint64_t sec[64], cnt[64], fl[64];
	unsigned char fill[64];
	struct wlog w;
	int lfd = mkstemp(logf), dfd = mkstemp(devf);
	bool ok = true;
	FILE *f;

	wlog_init(&w, ss);
	for (i = 0; i < nr; i++) {
		uint64_t blocks = DEVBYTES / ss;

		fl[i] = rnd() % 6 == 0 ? LOGW_FLUSH : rnd() % 8 == 0 ? LOGW_DISCARD :
			rnd() % 10 == 0 ? LOGW_MARK : (rnd() % 3 ? 0 : LOGW_FUA);
		cnt[i] = fl[i] & (LOGW_MARK | LOGW_FLUSH) ? 0 : 1 + rnd() % 8;
		sec[i] = cnt[i] ? rnd() % (blocks - cnt[i] + 1) : 0;
		fill[i] = (unsigned char)(1 + i);
		memset(data, fill[i], sizeof(data));
		snprintf(mark, sizeof(mark), "mark-%u", i);
		wlog_add(&w, sec[i], cnt[i], fl[i], data,
			 fl[i] & LOGW_MARK ? mark : NULL);
	}
	from = (unsigned int)(rnd() % (nr + 1));
	to = from + (unsigned int)(rnd() % (nr - from + 1));
	if (lfd < 0 || dfd < 0 || write(lfd, w.buf, w.pos) != (ssize_t)w.pos)
		return false;
	memset(model, 0xee, sizeof(model));
	if (write(dfd, model, sizeof(model)) != (ssize_t)sizeof(model))
		return false;
	close(lfd);
	close(dfd);
	for (i = from; i < to; i++)
		if (fl[i] & LOGW_DISCARD)
			memset(model + sec[i] * ss, 0, cnt[i] * ss);
		else if (cnt[i])
			memset(model + sec[i] * ss, fill[i], cnt[i] * ss);
	snprintf(cmd, sizeof(cmd), "%s replay %s %s %u %u", prog, logf, devf,
		 from, to);
	ok &= run(cmd, out, sizeof(out)) == 0;
	ok &= !strncmp(out, "replayed ", 9);
	f = fopen(devf, "rb");
	ok &= f && fread(got, 1, sizeof(got), f) == sizeof(got);
	if (f)
		fclose(f);
	ok &= !memcmp(got, model, sizeof(got));
	/* find: the first mark, or exit 1 without one */
	for (k = 0; k < nr && !(fl[k] & LOGW_MARK); k++)
		;
	snprintf(cmd, sizeof(cmd), "%s find %s mark-%u 2>/dev/null", prog, logf, k);
	if (k < nr) {
		char want[16];

		snprintf(want, sizeof(want), "%u\n", k);
		ok &= run(cmd, out, sizeof(out)) == 0 && !strcmp(out, want);
	} else {
		ok &= run(cmd, out, sizeof(out)) != 0;
	}
	snprintf(cmd, sizeof(cmd), "%s list %s | tail -n 1", prog, logf);
	snprintf(mark, sizeof(mark), "entries %u sectorsize %u\n", nr, ss);
	ok &= run(cmd, out, sizeof(out)) == 0 && !strcmp(out, mark);
	if (!ok)
		printf("# round %u: sectorsize %u, %u entries, replay %u..%u: %s\n",
		       round, ss, nr, from, to, out);
	unlink(logf);
	unlink(devf);
	free(w.buf);
	return ok;
}

static void program(const char *prog)
{
	unsigned int i, bad = 0;
	char cmd[512], out[512];
	struct wlog w;
	char logf[] = "/tmp/test-logw-bad.XXXXXX";
	int fd = mkstemp(logf);

	for (i = 0; i < 60; i++)
		bad += !replay_one(prog, i % 2 ? 4096 : 512, i);
	check(!bad, "replay of 60 random logs matches the model (%u differ)", bad);

	/* A replay past the log's entries, and a corrupt entry: exit 2. */
	wlog_init(&w, 512);
	wlog_add(&w, 0, 0, LOGW_FLUSH, NULL, NULL);
	w.buf[512 + 16] = 0x40;		/* unknown flag */
	check(fd >= 0 && write(fd, w.buf, w.pos) == (ssize_t)w.pos,
	      "wrote a corrupt log");
	close(fd);
	snprintf(cmd, sizeof(cmd), "%s list %s 2>&1", prog, logf);
	check(run(cmd, out, sizeof(out)) == 2 << 8 && strstr(out, "entry 0: unknown entry flags"),
	      "list of a corrupt log: exit 2, names the entry and the reason");
	snprintf(cmd, sizeof(cmd), "%s replay %s /dev/null 0 2 2>&1", prog, logf);
	check(run(cmd, out, sizeof(out)) == 2 << 8 && strstr(out, "not within the log"),
	      "replay past the last entry: exit 2");
	unlink(logf);
	free(w.buf);
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test-logw BDS-LOGREPLAY\n");
		return 2;
	}
	check(decode_known(512), "a log of every entry kind decodes (sectorsize 512)");
	check(decode_known(4096), "a log of every entry kind decodes (sectorsize 4096)");
	refusals();
	random_entries();
	program(argv[1]);
	return tap_done();
}

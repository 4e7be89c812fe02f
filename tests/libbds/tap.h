/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The TAP output and the deterministic random numbers (splitmix64) of the
 * label, label I/O and assembly unit tests.  Each test program includes
 * it once; tap_rng seeds its numbers.
 */
#ifndef BDS_TAP_H
#define BDS_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static int npass, nfail;

static void check(bool ok, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", npass + nfail + 1);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (ok)
		npass++;
	else
		nfail++;
}

/* "N passed, N failed"; the exit status of main. */
static inline int tap_done(void)
{
	printf("%d passed, %d failed\n", npass, nfail);
	return nfail ? 1 : 0;
}

static unsigned long long tap_rng = 0x6264732d74657374ULL;

static inline unsigned long long rnd(void)
{
	unsigned long long z = (tap_rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * Split @n members (1..128) into 1..min(n, 32) groups of at least one
 * member at random: returns the number of groups, sizes in @size.
 */
static inline unsigned int random_groups(unsigned int n, unsigned int *size)
{
	unsigned int groups = 1 + (unsigned int)(rnd() % (n < 32 ? n : 32));
	unsigned int g, left = n - groups;

	for (g = 0; g < groups; g++) {
		unsigned int extra = g + 1 == groups ? left :
				     (unsigned int)(rnd() % (left + 1));

		size[g] = 1 + extra;
		left -= extra;
	}
	return groups;
}

#endif /* BDS_TAP_H */

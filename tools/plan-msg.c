// SPDX-License-Identifier: GPL-2.0
/*
 * The plan's messages: refusals, usage errors, notes for the summary,
 * and a snprintf that refuses to truncate.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <stdarg.h>
#include <stdlib.h>

static void verr(const struct plan_ctx *c, const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", c->prog);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void refuse(const struct plan_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, fmt, ap);
	va_end(ap);
	fprintf(stderr, "%s: nothing was created\n", c->prog);
	exit(1);
}

void usage_error(const struct plan_ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verr(c, fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help'.\n", c->prog);
	exit(2);
}

void note(struct plan_ctx *c, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (c->nnotes >= MAX_NOTES)
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	if (s)
		c->notes[c->nnotes++] = s;
}

/* snprintf that refuses to truncate silently */
void xsnprintf(const struct plan_ctx *c, char *buf, size_t sz,
	       const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sz)
		refuse(c, "internal error: a name or path is too long");
}

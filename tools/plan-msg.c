// SPDX-License-Identifier: GPL-2.0
/*
 * The plan's messages: why it stopped, the verb's words for it, notes for
 * the summary, and a snprintf that refuses to truncate.  See plan.h.
 */
#define _GNU_SOURCE
#include "plan.h"

#include <stdarg.h>
#include <stdlib.h>

static enum plan_status vfail(struct plan_ctx *c, enum plan_status st,
				const char *fmt, va_list ap)
{
	if (!c->why && vasprintf(&c->why, fmt, ap) < 0)
		c->why = NULL;
	return st;
}

enum plan_status plan_fail(struct plan_ctx *c, const char *fmt, ...)
{
	enum plan_status st;
	va_list ap;

	va_start(ap, fmt);
	st = vfail(c, PLAN_REFUSED, fmt, ap);
	va_end(ap);
	return st;
}

enum plan_status plan_said(struct plan_ctx *c)
{
	c->said = true;
	return PLAN_REFUSED;
}

enum plan_status plan_usage(struct plan_ctx *c, const char *fmt, ...)
{
	enum plan_status st;
	va_list ap;

	va_start(ap, fmt);
	st = vfail(c, PLAN_USAGE, fmt, ap);
	va_end(ap);
	return st;
}

enum plan_status plan_path(struct plan_ctx *c, char *buf, size_t sz,
			   const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sz, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sz)
		return plan_fail(c, "internal error: a name or path is too long");
	return PLAN_OK;
}

int plan_exit(const struct plan_ctx *c, enum plan_status st)
{
	switch (st) {
	case PLAN_REFUSED:
		if (!c->said)
			fprintf(stderr, "%s: %s\n", c->prog,
				c->why ? c->why : "out of memory");
		/* plan creates nothing: no need to say so */
		if (c->opt.verb != VERB_PLAN)
			fprintf(stderr, "%s: nothing was created\n", c->prog);
		return 1;
	case PLAN_USAGE:
		fprintf(stderr, "%s: %s\n", c->prog,
			c->why ? c->why : "out of memory");
		fprintf(stderr, "Try '%s --help'.\n", c->prog);
		return 2;
	default:
		return 0;
	}
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

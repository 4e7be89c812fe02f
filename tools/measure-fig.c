// SPDX-License-Identifier: GPL-2.0
/*
 * bdsadm --measure's arithmetic, pure (see measure.h): a figure from its
 * slices, a controller's limit from its disks alone and together.  Unit
 * test: tests/bdsadm/test-measure.c.
 */
#include <stdlib.h>
#include <string.h>

#include "measure.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void meas_figure(const double *slices, int n, struct meas_fig *f)
{
	double s[MEAS_SLICES * 4];
	int i;

	memset(f, 0, sizeof(*f));
	if (n <= 0 || n > (int)(sizeof(s) / sizeof(s[0])))
		return;
	for (i = 0; i < n; i++)
		s[i] = slices[i];
	qsort(s, (size_t)n, sizeof(s[0]), cmp_double);
	f->min = s[0];
	f->max = s[n - 1];
	f->median = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	f->spread = f->median > 0 ? (f->max - f->min) / f->median : 0;
}

double meas_ctrl_limit(const double *alone, int n, double together)
{
	double sum = 0;
	int i;

	for (i = 0; i < n; i++)
		sum += alone[i];
	return n > 1 && together < MEAS_LIMIT_BELOW * sum ? together : 0;
}

void meas_snap(double *v, int n)
{
	double *s = malloc(sizeof(*s) * (size_t)(n > 0 ? n : 1));
	int i, j, first = 0, m = 0;
	double med;

	if (!s)
		return;
	for (i = 0; i < n; i++)
		if (v[i] > 0)
			s[m++] = v[i];
	qsort(s, (size_t)m, sizeof(*s), cmp_double);
	for (i = 1; i <= m; i++) {
		if (i < m && s[i] <= s[first] * (1 + MEAS_SAME))
			continue;
		/* the run s[first .. i-1] */
		med = (i - first) % 2 ? s[first + (i - first) / 2] :
		      (s[first + (i - first) / 2 - 1] +
		       s[first + (i - first) / 2]) / 2;
		for (j = 0; j < n; j++)
			if (v[j] >= s[first] && v[j] <= s[i - 1])
				v[j] = med;
		first = i;
	}
	free(s);
}

double meas_round(double x)
{
	double scale = 1;

	if (x <= 0)
		return 0;
	while (x * scale >= 100)
		scale /= 10;
	while (x * scale < 10)
		scale *= 10;
	return (double)(long long)(x * scale + 0.5) / scale;
}

void meas_settle(double *v, int n)
{
	int i;

	meas_snap(v, n);
	for (i = 0; i < n; i++)
		v[i] = meas_round(v[i]);
}

// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests of --measure's arithmetic (tools/measure-fig.c), against
 * synthetic figures:
 *
 *   figures            the median of 4 and of 5 slices, min, max, the
 *                      spread; no slice: all zero
 *   controller limits  two disks of 10 MB/s reading 15 together: a
 *                      limit of 15; reading 19 (noise of 5 %): none;
 *                      one disk: never a limit (nothing to compare)
 *   a per-request cost disks slowed by their own latency alone read
 *                      their sum together: no limit is taken for it
 *   snapping           figures within 10 % are one (the run's median);
 *                      10 and 15 stay apart; zeros stay zero; two
 *                      significant digits
 *   T2 from noisy figures: the make bench T2 topology (10 disks of
 *                      10 MB/s on 8 controllers of 15 MB/s, 2 of them
 *                      with two disks) measured with +-4 % noise; the
 *                      limits found, snapped, feed tools/weights.c with
 *                      MEAS_TOLERANCE, whose bandwidth weights give each
 *                      disk alone 1/9 of the cycle and each shared
 *                      controller 1/6 (the true caps' 10 : 15), in the
 *                      shortest cycle that does (18), and reach >= 95 %
 *                      of the limit the true caps give (90 MB/s)
 * Output is TAP; the last line is "N passed, N failed".
 */
#include "../../tools/measure.h"
#include "../../tools/weights.h"
#include "../libbds/tap.h"

#include <stdio.h>
#include <string.h>

#define GIB (1ULL << 21)	/* sectors */

static bool near(double x, double want, double tol)
{
	return x > want - tol && x < want + tol;
}

static void figures(void)
{
	const double four[] = { 12, 10, 11, 13 }, five[] = { 9, 10, 30, 11, 10 };
	struct meas_fig f;

	meas_figure(four, 4, &f);
	check(near(f.median, 11.5, 1e-9) && f.min == 10 && f.max == 13 &&
	      near(f.spread, 3 / 11.5, 1e-9),
	      "4 slices: median %.2f (11.5), min %.0f, max %.0f, spread %.3f",
	      f.median, f.min, f.max, f.spread);
	meas_figure(five, 5, &f);
	check(f.median == 10 && f.max == 30 && near(f.spread, 2.1, 1e-9),
	      "5 slices with an outlier: median %.1f (10), spread %.2f (2.1)",
	      f.median, f.spread);
	meas_figure(four, 0, &f);
	check(f.median == 0 && f.spread == 0, "no slice: nothing");
}

static void limits(void)
{
	const double two[] = { 10, 10 }, slow[] = { 6.2, 6.0, 6.1 };

	check(near(meas_ctrl_limit(two, 2, 15), 15, 1e-9),
	      "2 x 10 MB/s alone, 15 together: the controller limits them to 15");
	check(meas_ctrl_limit(two, 2, 19) == 0,
	      "2 x 10 MB/s alone, 19 together (5 %% less): no limit");
	check(meas_ctrl_limit(two, 1, 5) == 0,
	      "one disk: no limit can show");
	/* disks that pay a latency per request each pay it in parallel */
	check(meas_ctrl_limit(slow, 3, 18.1) == 0,
	      "a per-request cost (6 MB/s each alone, 18.1 together): no limit");
}

static void snapping(void)
{
	double v[] = { 10.3, 9.7, 15.4, 0, 9.9, 14.6, 10.1 };

	meas_snap(v, 7);
	check(v[0] == v[1] && v[1] == v[4] && v[4] == v[6] && near(v[0], 10, 1e-9),
	      "10.3, 9.7, 9.9, 10.1: one figure, %.2f", v[0]);
	check(v[2] == v[5] && near(v[2], 15, 1e-9), "15.4, 14.6: one figure, %.2f",
	      v[2]);
	check(v[3] == 0, "zero stays zero (no limit)");
	check(meas_round(10.04) == 10 && meas_round(14.96) == 15 &&
	      meas_round(187.3) == 190 && meas_round(0.847) == 0.85 &&
	      meas_round(2450) == 2500 && meas_round(0) == 0,
	      "two significant digits: 10.04 -> %g, 14.96 -> %g, 187.3 -> %g, 0.847 -> %g, 2450 -> %g",
	      meas_round(10.04), meas_round(14.96), meas_round(187.3),
	      meas_round(0.847), meas_round(2450));
}

/* T2 measured with noise: the weights come out as the true caps give. */
static void t2_from_noise(void)
{
	static const unsigned int ctrl_of[10] = { 0, 1, 2, 3, 4, 5, 6, 6, 7, 7 };
	static const double noise[10] = { 1.03, 0.97, 1.01, 0.96, 1.04,
					  0.99, 1.02, 0.98, 0.97, 1.03 };
	struct wt_member m[10];
	double alone[10], ctrl[8], cap_true[8], pair[2];
	struct wt_input in, truth;
	struct wt_eval e, best;
	u32 w[10], i, k, n;
	bool shape = true;

	for (i = 0; i < 10; i++) {
		alone[i] = 10 * noise[i];
		m[i] = (struct wt_member){ 2 * GIB - 2064, alone[i], ctrl_of[i] };
	}
	for (k = 0; k < 8; k++) {
		for (i = 0, n = 0; i < 10; i++)
			if (ctrl_of[i] == k)
				pair[n++] = alone[i];
		/* two disks behind a 15 MB/s controller read 15 +- 3 % */
		ctrl[k] = meas_ctrl_limit(pair, (int)n,
					  n > 1 ? 15 * (k % 2 ? 1.03 : 0.97) :
						  pair[0]);
		cap_true[k] = 15;
	}
	check(ctrl[6] > 0 && ctrl[7] > 0 && !ctrl[0] && !ctrl[5],
	      "T2: the two shared controllers are found limiting (%.1f, %.1f), the single ones not",
	      ctrl[6], ctrl[7]);
	meas_snap(alone, 10);
	meas_snap(ctrl, 8);
	for (i = 0; i < 10; i++)
		m[i].mbps = meas_round(alone[i]);
	for (k = 0; k < 8; k++)
		ctrl[k] = meas_round(ctrl[k]);
	in = (struct wt_input){ .n = 10, .m = m, .nctrl = 8, .ctrl_mbps = ctrl,
				.chunk = 32, .max_slots = wt_max_slots(32),
				.tolerance = MEAS_TOLERANCE };
	check(wt_by_bandwidth(&in, w), "T2: weights from the measured figures");
	wt_evaluate(&in, w, &e);
	for (i = 0; i < 6; i++)
		shape = shape && w[i] * 9 == e.slots;
	shape = shape && (w[6] + w[7]) * 6 == e.slots &&
		(w[8] + w[9]) * 6 == e.slots;
	check(shape && e.slots == 18, "T2: 1/9 of the cycle for a disk alone on its controller, 1/6 for a shared controller, W 18 (%u,%u,%u,%u,%u,%u,%u,%u,%u,%u; W %u)",
	      w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], w[8], w[9],
	      e.slots);
	/* judged against the true caps: 10 MB/s disks, 15 MB/s controllers */
	for (i = 0; i < 10; i++)
		m[i].mbps = 10;
	truth = in;
	truth.ctrl_mbps = cap_true;
	wt_evaluate(&truth, w, &e);
	check(wt_by_bandwidth(&truth, w), "T2: the true caps' own weights");
	wt_evaluate(&truth, w, &best);
	check(e.mbps >= 0.95 * best.mbps,
	      "T2: the measured weights reach %.1f MB/s of the true caps' %.1f (>= 95 %%)",
	      e.mbps, best.mbps);
}

int main(void)
{
	figures();
	limits();
	snapping();
	t2_from_noise();
	return tap_done();
}

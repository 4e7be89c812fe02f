/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bdsadm plan --measure, create --measure: the disks' and controllers'
 * bandwidth read from the devices themselves, for --weights bandwidth.
 *
 * Read-only: sequential O_DIRECT reads of MEAS_IO bytes, one at a time
 * per device, from the start of each device; every device opened
 * exclusively (one in use is refused).  Each measurement runs for its
 * share of --measure-time in MEAS_SLICES slices, after one that does not
 * count; its figure is the median of the slices, its spread (max - min)
 * / median.  A spread above
 * MEAS_SPREAD_MAX repeats it once, and the steadier run counts.
 *   1. each disk alone: the disk's bandwidth;
 *   2. the disks of each controller with two or more together: a limit
 *      of the controller when they read less than MEAS_LIMIT_BELOW of
 *      the sum of their figures alone (a per-request cost does not
 *      show there: each disk pays its own, in parallel);
 *   3. all the disks together: the host's ceiling, shown only.
 * Then the figures are --disk-mbps and --controller-mbps.
 */
#ifndef BDS_MEASURE_H
#define BDS_MEASURE_H

#include <stdbool.h>

#define MEAS_IO			(1U << 20)
#define MEAS_SLICES		4
#define MEAS_SPREAD_MAX		0.15
#define MEAS_LIMIT_BELOW	0.90
/* --measure-time's default: seconds per measurement */
#define MEAS_SECONDS_EACH	2.0

/* One measured figure: MB/s (10^6 bytes) over the slices. */
struct meas_fig {
	double median, min, max;
	double spread;		/* (max - min) / median; 0 when median is 0 */
};

/* The figure of @n slices' MB/s. */
void meas_figure(const double *slices, int n, struct meas_fig *f);

/*
 * A controller's limit from its disks' figures alone (@alone, @n of
 * them) and together (@together): @together when it is below
 * MEAS_LIMIT_BELOW of their sum, else 0 (no limit shows).
 */
double meas_ctrl_limit(const double *alone, int n, double together);

/*
 * Figures within MEAS_SAME of each other are one figure and noise: the
 * nonzero ones of @v (@n), sorted, fall into runs where each is within
 * MEAS_SAME above the run's first, and every one of a run becomes the
 * run's median.  Equal disks then get equal weights, and the cycle stays
 * short.
 */
#define MEAS_SAME	0.10
void meas_snap(double *v, int n);

/*
 * What the weights take the figures to be good to: meas_round() keeps
 * two digits, half a step of which is 5 % at worst (0.5 in 10).  Weight
 * vectors whose limits under the figures differ by less cannot be told
 * apart by them, and --weights bandwidth takes the shortest cycle among
 * them (wt_input.tolerance, weights.h).
 */
#define MEAS_TOLERANCE	0.05

/*
 * @x to two significant digits (187.3 -> 190, 10.04 -> 10): what a
 * measurement can tell, and what the weights then go by, so that a
 * second measurement gives the same layout.
 */
double meas_round(double x);

/* @v (@n figures) as the weights go by them: meas_snap(), meas_round(). */
void meas_settle(double *v, int n);

#endif /* BDS_MEASURE_H */

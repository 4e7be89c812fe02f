#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# measure-t2: bdsadm plan --measure on T2's disks (issue 38): 10 disks on
# 8 controllers (6 with one disk, 2 with two), every disk capped at
# 10 MB/s and every controller at 15 MB/s (10^6 bytes/s), so each disk
# reads 10 alone, the two-disk controllers 15 together, and --weights
# bandwidth should find T2's weighted layout (90 MB/s, where equal
# shares stop at 75).  The figures and the weights go to
# tests/bench/report-measure, which holds them against the caps.  Run by
# tests/bench/run-bench (one vCPU).
#
# topology: size=1G backing=null ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:2x10000000 ctl=15000000:2x10000000
# timeout: 600
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

bench_measure_suite measure-t2 10 15 16K

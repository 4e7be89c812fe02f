#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# measure-model: bdsadm plan --measure on the disk model (issue 38), T2's
# layout as in seed001 (vm-run backing=model: each disk serves one
# request at a time in L = 1000 us + size / 10 MB/s; 10 disks on 8
# controllers of 15 MB/s, 6 with one disk, 2 with two).  Here a disk's
# time per request is not only its bandwidth: the measurement's 1 MiB
# reads spend 1 ms of their 106 in L, so a disk alone should read 9.9
# MB/s, and the per-request cost must not pass for a lower cap (the
# goals allow 10 % off the cap, as on the throttled suites).  The figures
# go to tests/bench/report-measure.  Run by tests/bench/run-bench (one
# vCPU).
#
# topology: backing=model latency=1000 path=1000 size=1G ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:2x10000000 ctl=15000000:2x10000000
# timeout: 900
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

bench_measure_suite measure-model 10 15 16K

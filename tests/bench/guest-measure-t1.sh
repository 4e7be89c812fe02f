#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# measure-t1: bdsadm plan --measure on T1's disks (issue 38): 2
# controllers x 4 disks, every disk capped at 20 MB/s and every
# controller at 40 MB/s (10^6 bytes/s), so each disk reads 20 alone and
# each controller's four read 40 together, not 80.  The figures and the
# weights they give go to tests/bench/report-measure, which holds them
# against the caps.  Run by tests/bench/run-bench (one vCPU).
#
# topology: size=1G backing=null ctl=40000000:4x20000000 ctl=40000000:4x20000000
# timeout: 600
# memory: 1024
# smp: 1

. /bds/guest-lib.sh
. /bds/bin/bench-lib.sh

bench_measure_suite measure-t1 20 40 64K

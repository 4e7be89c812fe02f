#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# seed001rot (issue 38): seed001 (guest-seed001.sh, run from here with
# its csv suite named seed001rot) on disks that miss a revolution between
# back-to-back requests: vm-run's rotation=4000, one revolution of a
# 15 000 rpm disk, as in seed 001's thread.  A request queued behind the
# previous one on its disk that starts where that one ended waits R =
# 4 ms after it instead of paying L (tests/vm/disk-model.c).  A transfer
# of w units per disk costs striped and md raid0 L + (w - 1) R plus w
# units' transfer on each disk (their units of one disk are queued
# together), bds-stripe L plus the transfer (one request per disk): from
# w = 2, striped's MB/s drops below its 1-wrap line, as in the thread.
# Run by tests/bench/run-bench (one vCPU), which puts guest-seed001.sh
# in the guest's /bds/bin.
#
# topology: backing=model latency=1000 path=1000 rotation=4000 size=1G ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:1x10000000 ctl=15000000:2x10000000 ctl=15000000:2x10000000
# timeout: 5400
# memory: 1024
# smp: 1

SEED001_SUITE=seed001rot
. /bds/bin/guest-seed001.sh

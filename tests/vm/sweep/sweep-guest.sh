#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Benchmark sweep, inside the guest: bds-stripe vs the in-kernel striped
# target vs md raid0 on the classic bulk-data box, two controllers with
# four disks each, disks capped at 20 MB/s, controllers at 40 MB/s.
# Run by tests/vm/sweep/run-sweep.sh; CSV lines go to the serial log
# prefixed "csv:".
#
# topology: size=2G backing=null ctl=40M:4x20M ctl=40M:4x20M
# timeout: 420
# memory: 1536

. /bds/guest-lib.sh

SECS=${BDS_SWEEP_SECS:-3}
SIZES=${BDS_SWEEP_SIZES:-4K,64K,256K,1M,4M}

command -v bds-sweep >/dev/null || fail "bds-sweep not in the guest (vm-run -x tools/bds-sweep)"
bds_load_module

# Groups by controller, in controller order, as bds-stripe-table would
# build them from the disks' SCSI hosts.
groups=""
nctl=$(bds_controllers)
c=0
while [ "$c" -lt "$nctl" ]; do
	g=""
	for m in $(bds_members "$c"); do
		g="$g${g:+,}$(bds_dev "$m")"
	done
	groups="$groups${groups:+;}$g"
	c=$((c + 1))
done
log "groups: $groups"
echo "topology: ${BDS_SWEEP_TOPO:-2 controllers x 4 disks, disks 20 MB/s, controllers 40 MB/s}"

run bds-sweep --groups "$groups" --chunk 64K --runtime "$SECS" --yes \
	--rw read --sizes "$SIZES" -e size -e aligned --csv-prefix csv: \
	--csv /tmp/sweep.csv

run rmmod dm_bds_stripe
pass "sweep complete"

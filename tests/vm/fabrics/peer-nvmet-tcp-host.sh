#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A storage host (a peer guest, tests/vm/vm-peers.sh): exports its disks
# over NVMe/TCP with the kernel's own NVMe target (nvmet, nvmet-tcp,
# configured through configfs, no nvmetcli) on 10.0.I.1 port 4420, I its
# peer index, and serves until the test's guest is gone.
#   - peer h1: two subsystems, nqn.2026-12.io.bds-stripe:h1-a (namespace
#     1: disk c0d0) and nqn.2026-12.io.bds-stripe:h1-b (namespace 1:
#     c0d1): two subsystems of one host, which bdsadm groups as one;
#   - any other peer NAME: one subsystem nqn.2026-12.io.bds-stripe:NAME,
#     every disk a namespace (c0d0 namespace 1, c0d1 namespace 2, ...).
# The host's bandwidth cap is its topology's controller cap: its disks
# share it, as the data behind one network link does.
#
# Not a test of its own: the tests that name it in a "peer:" header boot
# it.  Its topology comes from that header.

# shellcheck disable=SC1091
. /bds/guest-lib.sh

NAME=$(bds_cmdline_arg bds.peer)
I=$(bds_cmdline_arg bds.peer_index)
{ [ -n "$NAME" ] && [ -n "$I" ]; } || fail "not booted as a peer (no bds.peer, bds.peer_index)"
CFG=/sys/kernel/config/nvmet
PFX=nqn.2026-12.io.bds-stripe

bds_peer_link "$I" 01
run modprobe nvmet-tcp
grep -q ' /sys/kernel/config configfs ' /proc/mounts ||
	run mount -t configfs configfs /sys/kernel/config
[ -d $CFG ] || fail "no $CFG (configfs, nvmet)"

run mkdir $CFG/ports/1
echo tcp >$CFG/ports/1/addr_trtype
echo ipv4 >$CFG/ports/1/addr_adrfam
echo "10.0.$I.1" >$CFG/ports/1/addr_traddr
echo 4420 >$CFG/ports/1/addr_trsvcid

# subsystem NQN DISK...: export the disks as namespaces 1, 2, ... of NQN
subsystem() {
	_s=$CFG/subsystems/$1
	run mkdir "$_s"
	echo 1 >"$_s/attr_allow_any_host"
	shift
	_n=1
	for _d in "$@"; do
		run mkdir "$_s/namespaces/$_n"
		printf '%s' "$(readlink -f "$_d")" >"$_s/namespaces/$_n/device_path"
		echo 1 >"$_s/namespaces/$_n/enable" || fail "cannot enable namespace $_n of ${_s##*/} ($_d)"
		log "exported $_d as namespace $_n of ${_s##*/}"
		_n=$((_n + 1))
	done
	run ln -s "$_s" "$CFG/ports/1/subsystems/${_s##*/}"
}

# shellcheck disable=SC2046 # one word per disk
set -- $(bds_members 0)
[ $# -ge 2 ] || fail "a storage host needs 2 disks or more, has: $*"
if [ "$NAME" = h1 ]; then
	subsystem "$PFX:h1-a" "$1"
	subsystem "$PFX:h1-b" "$2"
else
	subsystem "$PFX:$NAME" "$@"
fi
log "serving NVMe/TCP on 10.0.$I.1:4420"
bds_peer_serve
pass "storage host $NAME served until the test's guest was gone"

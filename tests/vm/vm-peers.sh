# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=bash disable=SC2034,SC2153 # variables of vm-run
#
# Peer guests for vm-run (sourced by it): a test that needs other
# machines - storage hosts that export their disks over NVMe/TCP, for
# striping across hosts - names them in headers
#
#   # peer: NAME SCRIPT TOPOLOGY
#
# (SCRIPT relative to the test's directory; TOPOLOGY as vm-run's, one
# word, e.g. ctl=20M:2).  vm-run boots each peer in its own vm-run (same
# kernel, module and programs; log <log>.peer-NAME) before the test's
# guest, with one virtio-net link between the peer and the test's guest:
# two QEMU "socket" netdevs sending each other's Ethernet frames as UDP
# datagrams on 127.0.0.1, nothing else reachable.  Peer I (from 1, in
# header order) has MAC 52:54:00:bd:II:01 and the test's guest
# 52:54:00:bd:II:02 on that link (II = I in hex); both learn names and
# indexes from the kernel command line (bds.peer=NAME bds.peer_index=I in
# a peer, bds.peers=NAME,NAME... in the test's guest); guest-lib.sh's
# bds_peer_link sets the addresses (10.0.I.1 the peer, 10.0.I.2 the test's
# guest).
#
# A peer's script ends by itself when the test's guest stops answering
# (guest-lib.sh: bds_peer_serve).  The test's guest may ask for a peer to
# be killed (power cut, no shutdown) by printing "BDS-PEER-KILL: NAME" on
# its console; that peer's outcome is then not judged.  The test passes
# when its guest passes and every peer not killed passed: a peer's log is
# checked for kernel problems as any guest's.

PEER_NAMES=() PEER_SCRIPTS=() PEER_TOPOS=() PEER_PIDS=() PEER_ARGS=()
PEER_WATCH=""

# peers_parse: the "peer:" headers into PEER_*, and the test guest's
# links into QEXTRA and APPEND.  Before the kernel command line is made.
peers_parse() {
	local name script topo i=0 names="" pport cport mac used=""
	while read -r name script topo; do
		[ -n "$name" ] || continue
		[[ $name =~ ^[a-z][a-z0-9]{0,15}$ ]] || die "peer name '$name': a-z, 0-9, 16 at most"
		[ -n "$topo" ] || die "peer $name: SCRIPT and TOPOLOGY are needed"
		script=$(dirname "$SCRIPT")/$script
		[ -r "$script" ] || die "peer $name: cannot read $script"
		i=$((i + 1))
		[ "$i" -le 250 ] || die "too many peers"
		pport=$(peers_free_port "$used")
		used="$used $pport "
		cport=$(peers_free_port "$used")
		used="$used $cport "
		mac=$(printf '52:54:00:bd:%02x' "$i")
		PEER_NAMES+=("$name")
		PEER_SCRIPTS+=("$script")
		PEER_TOPOS+=("$topo")
		PEER_ARGS+=("socket,id=pn0,udp=127.0.0.1:$cport,localaddr=127.0.0.1:$pport|virtio-net-pci,netdev=pn0,mac=$mac:01")
		QEXTRA+=(-netdev "socket,id=pn$i,udp=127.0.0.1:$pport,localaddr=127.0.0.1:$cport"
			-device "virtio-net-pci,netdev=pn$i,mac=$mac:02")
		names="$names${names:+,}$name"
	done < <(sed -n 's/^#[[:space:]]*peer:[[:space:]]*//p' "$SCRIPT")
	[ "$i" -gt 0 ] || return 0
	[ "$NBOOTS" = 1 ] || die "a test with peers boots once (no reboot-topology)"
	[ "$ICOUNT" = 0 ] || die "a test with peers cannot count instructions"
	APPEND="$APPEND bds.peers=$names"
}

# peers_free_port [TAKEN]: a UDP port of 127.0.0.1 nobody has bound and
# not in TAKEN (" P1  P2 ": chosen already, not bound yet), from a place
# in the range that depends on this process.
peers_free_port() {
	local p=$((20000 + ($$ * 13 + RANDOM) % 40000)) n=0
	while [[ "${1:-}" == *" $p "* ]] || [ -n "$(ss -Huln sport = ":$p" 2>/dev/null)" ]; do
		p=$((20000 + (p - 20000 + 1) % 40000))
		n=$((n + 1))
		[ "$n" -lt 1000 ] || die "no free UDP port"
	done
	echo "$p"
}

# peers_start: boot the peers (in the background) and the watcher of
# the test guest's "BDS-PEER-KILL: NAME" lines.
peers_start() {
	local i net dev x
	local -a xs=()
	[ "${#PEER_NAMES[@]}" -gt 0 ] || return 0
	for x in "${EXECS[@]}"; do
		xs+=(-x "$x")
	done
	[ -z "$MODULE" ] || xs+=(-m "$MODULE")
	for i in "${!PEER_NAMES[@]}"; do
		net=${PEER_ARGS[$i]%%|*}
		dev=${PEER_ARGS[$i]#*|}
		rm -f "$LOG.peer-${PEER_NAMES[$i]}" "$LOG.peer-${PEER_NAMES[$i]}.boot-failure"
		# A peer serves until the test's guest is gone: it needs the
		# test's timeout and its own boot.
		BDS_VM_ATTEMPT=1 "$HERE/vm-run" -k "$KSERIES" -s "${PEER_SCRIPTS[$i]}" \
			-t "${PEER_TOPOS[$i]}" -T $((TIMEOUT + 120)) -M 768 \
			-l "$LOG.peer-${PEER_NAMES[$i]}" "${xs[@]}" \
			-a "bds.peer=${PEER_NAMES[$i]} bds.peer_index=$((i + 1))" \
			-q -name -q "bds-peer-$$-${PEER_NAMES[$i]}" \
			-q -netdev -q "$net" -q -device -q "$dev" \
			>"$LOG.peer-${PEER_NAMES[$i]}.vm-run" 2>&1 </dev/null &
		PEER_PIDS+=($!)
		log "peer ${PEER_NAMES[$i]}: ${PEER_SCRIPTS[$i]##*/}, topology ${PEER_TOPOS[$i]}, log $LOG.peer-${PEER_NAMES[$i]}"
	done
	: >"$WORK/peers-killed"
	# No pipeline in the loop: killing the subshell stops all of it.
	(
		while sleep 0.2; do
			for x in $(sed -n 's/^BDS-PEER-KILL: \([a-z0-9]*\).*/\1/p' "$LOG" 2>/dev/null); do
				grep -qx -- "$x" "$WORK/peers-killed" && continue
				echo "$x" >>"$WORK/peers-killed"
				pkill -KILL -f "^qemu-system-x86_64 .*-name bds-peer-$$-$x( |\$)" || true
				log "peer $x killed, as the test asked"
			done
		done
	) &
	PEER_WATCH=$!
}

# peers_finish: wait for the peers (90 s each at most after the test's
# guest ended), judge them: BOOT_RC becomes 1 if one not killed failed.
peers_finish() {
	local i name rc waited
	[ "${#PEER_NAMES[@]}" -gt 0 ] || return 0
	for i in "${!PEER_NAMES[@]}"; do
		name=${PEER_NAMES[$i]}
		waited=0
		while kill -0 "${PEER_PIDS[$i]}" 2>/dev/null && [ "$waited" -lt 450 ]; do
			sleep 0.2
			waited=$((waited + 1))
		done
		if kill -0 "${PEER_PIDS[$i]}" 2>/dev/null; then
			log "peer $name still running 90 s after the test's guest ended: stopping it"
			kill -TERM "${PEER_PIDS[$i]}" 2>/dev/null || true
		fi
		rc=0
		wait "${PEER_PIDS[$i]}" || rc=$?
		if grep -qx -- "$name" "$WORK/peers-killed"; then
			log "peer $name: killed by the test (vm-run status $rc not judged)"
		elif [ "$rc" != 0 ]; then
			log "FAIL $TESTNAME ($KSERIES): peer $name failed (status $rc), log $LOG.peer-$name:"
			sed 's/^/  /' "$LOG.peer-$name.vm-run" >&2
			BOOT_RC=1
		else
			log "peer $name passed"
		fi
	done
	kill "$PEER_WATCH" 2>/dev/null || true
	wait "$PEER_WATCH" 2>/dev/null || true
	PEER_WATCH=""
}

# peers_stop: from cleanup, whatever happened: no peer outlives vm-run.
peers_stop() {
	local p
	[ -z "$PEER_WATCH" ] || kill "$PEER_WATCH" 2>/dev/null || true
	for p in "${PEER_PIDS[@]}"; do
		kill -TERM "$p" 2>/dev/null || true
	done
}

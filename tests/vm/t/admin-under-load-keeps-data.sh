#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Administration under load loses no data and leaves nothing behind:
# volumes created and removed in parallel, and suspend/resume/reload
# loops, all over the same disks while fio writes and verifies through
# another volume.
#
# Four disks (2 + 2).  The fio volume "busy" uses the first 256 MiB of
# each disk (64 KiB unit, interleave); fio (libaio, iodepth 16, O_DIRECT,
# verify=crc32c, verify_fatal) writes two regions of 64 MiB with random
# 4 KiB..256 KiB blocks, then verifies them.  While it runs (each loop
# goes on at least until fio has ended, and at least MIN_CYCLES times):
#   - three create/remove loops, each with its own volume over the same
#     four disks at its own member offset (beyond busy's range), cycling
#     through 64, 128 and 192-sector units, interleave and sequential
#     layouts, and one to four members in one or two groups; each cycle
#     creates, writes and reads back 64 KiB with O_DIRECT, checks the
#     table, and removes;
#   - one loop on a fifth volume "ctl" (its own offsets): suspend/resume,
#     suspend --noflush/resume, reload with its own table, reload with the
#     other layout, each step checked (state ACTIVE, table as loaded).
# Then: fio exited 0, every job verified as many bytes as it wrote, no
# verify error; no loop saw a failure; `dmsetup ls` lists only busy and
# ctl; removing them leaves no dm device, no holder on any disk, and the
# module unloads.
#
# topology: size=1G backing=file ctl=2 ctl=2
# timeout: 420
# memory: 1024
# check-kernels: 6.1

# shellcheck disable=SC1091
. /bds/guest-lib.sh

MIN_CYCLES=6
BUSY_MLEN=524288		# 256 MiB per member
ADMIN_MLEN=24576		# 12 MiB per member: a multiple of 64, 128, 192

bds_load_module

# shellcheck disable=SC2046 # one word per member
set -- $(bds_members 0) $(bds_members 1)
[ $# -eq 4 ] || fail "need 2 + 2 disks, have: $*"
DISKS="$*"
A=$(bds_majmin "$1") B=$(bds_majmin "$2") C=$(bds_majmin "$3") D=$(bds_majmin "$4")

bds_dm_create busy "0 $((BUSY_MLEN * 4)) bds-stripe 128 2 2 $A 0 $B 0 2 $C 0 $D 0"

# admin_table L CYCLE: the table of loop L's volume in a cycle.  Member
# offsets: 600 MiB + L x 64 MiB (+ 12 MiB per member position).
admin_table() {
	_o=$((1228800 + $1 * 131072))
	_ck=$(((($2 % 3) + 1) * 64))
	case $(($2 % 4)) in
	0) _g="1 1 $A $_o" _n=1 ;;
	1) _g="2 1 $B $_o 1 $C $((_o + ADMIN_MLEN))" _n=2 ;;
	2) _g="1 3 $A $_o $B $((_o + ADMIN_MLEN)) $C $((_o + 2 * ADMIN_MLEN))" _n=3 ;;
	*) _g="2 2 $A $_o $B $_o 2 $C $_o $D $_o" _n=4 ;;
	esac
	_opt=""
	[ $(($2 % 2)) = 1 ] && _opt=" 2 layout sequential"
	echo "0 $((ADMIN_MLEN * _n)) bds-stripe $_ck $_g$_opt"
}

# admin_loop L: create/remove cycles until fio is gone (and MIN_CYCLES).
admin_loop() {
	_c=0 _err=0
	head -c 65536 /dev/urandom >/tmp/a$1.data
	while [ "$_c" -lt $MIN_CYCLES ] || kill -0 "$FIO" 2>/dev/null; do
		_t=$(admin_table "$1" $_c)
		if ! echo "$_t" | dmsetup create a$1 2>>/tmp/a$1.err; then
			echo "loop $1 cycle $_c: create failed: $_t" >>/tmp/a$1.err
			_err=$((_err + 1))
		else
			dd if=/tmp/a$1.data of=/dev/mapper/a$1 bs=65536 seek=$((_c % 8)) count=1 \
				oflag=direct status=none 2>>/tmp/a$1.err || _err=$((_err + 1))
			if [ "$(bds_md5 /dev/mapper/a$1 $((_c % 8 * 65536)) 65536)" != \
				"$(md5sum </tmp/a$1.data | cut -d' ' -f1)" ]; then
				echo "loop $1 cycle $_c: data did not read back" >>/tmp/a$1.err
				_err=$((_err + 1))
			fi
			case "$(dmsetup table a$1)" in
			"0 "*" bds-stripe "*) ;;
			*) echo "loop $1 cycle $_c: bad table" >>/tmp/a$1.err; _err=$((_err + 1)) ;;
			esac
			_r=0
			while ! dmsetup remove a$1 2>/dev/null; do
				_r=$((_r + 1))
				if [ "$_r" -ge 50 ]; then
					echo "loop $1 cycle $_c: cannot remove" >>/tmp/a$1.err
					_err=$((_err + 1))
					break
				fi
				sleep 0.1
			done
		fi
		_c=$((_c + 1))
	done
	echo "$_c $_err" >/tmp/a$1.result
}

# ctl_loop: suspend/resume/reload cycles on "ctl".
ctl_loop() {
	_c=0 _err=0
	_o=1900544		# 928 MiB
	_t0="0 $((ADMIN_MLEN * 4)) bds-stripe 64 2 2 $A $_o $B $_o 2 $C $_o $D $_o"
	_t1="$_t0 2 layout sequential"
	while [ "$_c" -lt $MIN_CYCLES ] || kill -0 "$FIO" 2>/dev/null; do
		dmsetup suspend ctl && dmsetup resume ctl || _err=$((_err + 1))
		dmsetup suspend --noflush ctl && dmsetup resume ctl || _err=$((_err + 1))
		if [ $((_c % 2)) = 0 ]; then _t=$_t1; else _t=$_t0; fi
		echo "$_t" | dmsetup load ctl && dmsetup resume ctl || _err=$((_err + 1))
		if [ "$(dmsetup table ctl)" != "$_t" ]; then
			echo "ctl cycle $_c: table $(dmsetup table ctl)" >>/tmp/ctl.err
			_err=$((_err + 1))
		fi
		[ "$(dmsetup info ctl | sed -n 's/^State:[[:space:]]*//p')" = ACTIVE ] ||
			_err=$((_err + 1))
		dd if=/dev/mapper/ctl of=/dev/null bs=65536 count=4 iflag=direct status=none ||
			_err=$((_err + 1))
		_c=$((_c + 1))
	done
	echo "$_c $_err" >/tmp/ctl.result
}

o=1900544
bds_dm_create ctl "0 $((ADMIN_MLEN * 4)) bds-stripe 64 2 2 $A $o $B $o 2 $C $o $D $o"

fio --filename=/dev/mapper/busy --ioengine=libaio --iodepth=16 --direct=1 \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 \
	--name=r1 --rw=randwrite --bsrange=4k-256k --offset=4096 --size=64m \
	--name=r2 --rw=randwrite --bsrange=4k-256k --offset=$(((512 << 20) + 28672)) --size=64m \
	>/tmp/fio.out 2>&1 &
FIO=$!
sleep 1
for l in 1 2 3; do
	admin_loop $l &
	eval "L$l=\$!"
done
ctl_loop &
LC=$!

wait $FIO
rc=$?
log "fio done (exit $rc)"
wait "$L1" "$L2" "$L3" "$LC"
cat /tmp/fio.out
bds_expect_fio_verified /tmp/fio.out "$rc" r1 r2
for l in 1 2 3; do
	read -r cyc err </tmp/a$l.result || fail "loop $l gave no result"
	log "create/remove loop $l: $cyc cycles, $err failures"
	[ -s /tmp/a$l.err ] && head -n 5 /tmp/a$l.err
	expect_eq "$err" 0 "create/remove loop $l failures"
	check "create/remove loop $l ran at least $MIN_CYCLES cycles" [ "$cyc" -ge $MIN_CYCLES ]
done
read -r cyc err </tmp/ctl.result || fail "ctl loop gave no result"
log "suspend/resume/reload loop: $cyc cycles, $err failures"
expect_eq "$err" 0 "suspend/resume/reload loop failures"
expect_eq "$(dmsetup ls | cut -f1 | sort | tr '\n' ' ')" "busy ctl " "devices left: busy and ctl"
expect_eq "$(bds_health busy)" AAAA "busy health"
bds_dm_remove ctl
bds_dm_remove busy
# shellcheck disable=SC2086
bds_expect_clean $DISKS
pass "admin under load: data verified, nothing left behind"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A volume another host owns is assembled only when the admin says so,
# and the opt-outs turn automatic assembly off.  This host's system ID
# comes from /etc/machine-id, or system_id in
# /etc/bds-stripe/bds-stripe.conf (bds-stripe.conf(5)).  A volume "vol"
# over A B C is created by host "hosta" (its labels name it), and the
# guest becomes host "hostb":
#  - assemble --scan --auto (the boot unit), assemble --scan and
#    incremental of every member leave it alone and say whose it is;
#    assemble vol refuses; list shows it foreign;
#  - assemble --foreign vol assembles it, this once;
#  - with auto_assemble_foreign = vol, assemble --scan --auto assembles it
#    as bds-vol, never as vol;
#  - import refuses without --force; import --force makes hostb the
#    owner of every member (both copies), and then it is assembled
#    automatically;
#  - auto_assemble = no: neither assemble --scan --auto nor incremental
#    assembles anything; bdsadm assemble by hand still does;
#  - create refuses a name /etc/crypttab lists, writing nothing;
#  - a volume made with system_id = none has no owner, is assembled
#    automatically everywhere, and import stamps it without --force.
#
# topology: ctl=2 ctl=2
# timeout: 300
# check-kernels: 6.1
# boot: own

# shellcheck disable=SC1091
. /bds/guest-lib.sh

bds_load_module
bds_four_disks
mkdir -p /etc/bds-stripe
CONF=/etc/bds-stripe/bds-stripe.conf
owner_of() { bdsadm examine --export "$1" | sed -n 's/^BDS_OWNER=//p'; }
no_dm() { expect_eq "$(dmsetup ls 2>&1)" "No devices found" "$1: no dm device"; }

echo hosta >/etc/machine-id
run bdsadm create vol --chunk 64K "$A" "$B" "$C"
run bdsadm stop vol
for d in "$A" "$B" "$C"; do
	expect_eq "$(owner_of "$d")" hosta "created by hosta: $d names it"
done

# --- seen from hostb ----------------------------------------------------------
echo "system_id = hostb" >$CONF
run bdsadm assemble --scan --auto 2>/tmp/err
cat /tmp/err
check "hostb: the boot unit's scan says whose it is" \
	grep -qF "is owned by the host whose system ID is hosta, not by this one (hostb)" /tmp/err
run bdsadm assemble --scan 2>/tmp/err
no_dm "hostb, scans"
for d in "$A" "$B" "$C"; do
	run bdsadm incremental "$d" >/tmp/inc 2>&1
	check "hostb: incremental $d leaves it alone" grep -qF "owned by the host whose system ID is hosta: not assembled automatically" /tmp/inc
done
no_dm "hostb, incremental"
if bdsadm assemble vol 2>/tmp/err; then
	check "hostb: assemble vol refused" false
	bdsadm stop vol
fi
bdsadm list --json >/tmp/list.json
check "hostb: list shows it foreign" grep -qF '"owner": "hosta", "foreign": true' /tmp/list.json
run bdsadm assemble --foreign vol
check "hostb: --foreign assembles it as vol" dmsetup info vol
run bdsadm stop vol

echo "auto_assemble_foreign = vol" >>$CONF
run bdsadm assemble --scan --auto
check "listed: assembled as bds-vol" dmsetup info bds-vol
check "listed: never as vol" sh -c '! dmsetup info vol >/dev/null 2>&1'
run bdsadm stop bds-vol

echo "system_id = hostb" >$CONF
if bdsadm import vol 2>/tmp/err; then
	check "import without --force: refused" false
fi
check "import without --force: says how" grep -qF "bdsadm import --force vol" /tmp/err
expect_eq "$(owner_of "$A")" hosta "import refused: A still names hosta"
run bdsadm import --force vol
for d in "$A" "$B" "$C"; do
	expect_eq "$(owner_of "$d")" hostb "imported: $d names hostb"
	bdsadm examine "$d" >/tmp/ex
	expect_eq "$(grep -c 'valid at sector [0-9]*, generation 1$' /tmp/ex)" 2 \
		"imported: $d's two copies, both of generation 1"
done
run bdsadm assemble --scan --auto
check "imported: assembled automatically as vol" dmsetup info vol
run bdsadm stop vol

# --- the opt-out of the configuration ------------------------------------------
echo "auto_assemble = no" >>$CONF
run bdsadm assemble --scan --auto >/tmp/out 2>&1
check "auto_assemble = no: the scan says it is off" grep -qF "automatic assembly is off (auto_assemble = no in the configuration)" /tmp/out
for d in "$A" "$B" "$C"; do
	run bdsadm incremental "$d" >/tmp/inc 2>&1
done
check "auto_assemble = no: incremental says so" grep -qF "automatic assembly is off" /tmp/inc
no_dm "auto_assemble = no"
run bdsadm assemble vol
run bdsadm stop vol

# --- crypttab names ---------------------------------------------------------------
echo "secret UUID=0f0e0d0c-0b0a-4909-8807-060504030201 none luks" >/etc/crypttab
bdsadm wipe "$D" >/dev/null 2>&1 || true
if bdsadm create secret --chunk 64K "$D" 2>/tmp/err; then
	check "create secret: refused" false
fi
check "create secret: the crypttab named" grep -qF "secret is the name of a dm-crypt mapping in /etc/crypttab" /tmp/err
check "create secret: no label written" sh -c "! bdsadm examine $D >/dev/null 2>&1"
rm -f /etc/crypttab

# --- no owner ---------------------------------------------------------------------
echo "system_id = none" >$CONF
run bdsadm create free --chunk 64K "$D"
expect_eq "$(owner_of "$D")" "" "system_id = none: no owner"
run bdsadm stop free
echo "system_id = hostc" >$CONF
run bdsadm assemble --scan --auto
check "no owner: hostc assembles it automatically" dmsetup info free
run bdsadm stop free
run bdsadm import free
expect_eq "$(owner_of "$D")" hostc "no owner: import stamps it without --force"

for d in "$A" "$B" "$C" "$D"; do
	bdsadm wipe "$d" >/dev/null 2>&1 || true
done
bds_expect_clean "$A" "$B" "$C" "$D"
pass

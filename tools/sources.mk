# SPDX-License-Identifier: GPL-2.0
#
# The sources of bdsadm, in one place for tools/Makefile and the tool
# tests (tests/tools-unit/Makefile, which builds them with sanitizers).
# One file per job: see bdsadm.c and plan.h.

BDSADM_PLAN_SRC := util.c topology.c checks.c groups.c plan.c summary.c \
	dmsetup.c plan-cmd.c
BDSADM_SRC := bdsadm.c create.c assemble-cmd.c stop.c incremental.c \
	examine.c wipe.c list.c detail.c detail-out.c volstat.c \
	label-io.c assemble.c scan.c volume.c dm.c signature.c fmt.c \
	$(BDSADM_PLAN_SRC)
BDSADM_LIBS := -ldevmapper -lblkid

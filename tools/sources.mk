# SPDX-License-Identifier: GPL-2.0
#
# The sources of bdsadm, in one place for tools/Makefile and the tool
# tests (tests/bdsadm/Makefile, which builds them with sanitizers).
# One file per job: see bdsadm.c and plan.h.

# The code bdsadm shares with the kernel target, compiled into both.
LIBBDS_SRC := ../libbds/crc32c.c ../libbds/label.c ../libbds/layout.c \
	../libbds/reshape.c ../libbds/table.c
BDSADM_PLAN_SRC := util.c topology.c fabrics.c checks.c groups.c plan.c plan-weights.c \
	weights.c plan-msg.c plan-table.c plan-json.c measure.c measure-fig.c summary.c summary-weights.c \
	table-create.c plan-options.c plan-cmd.c
BDSADM_SRC := bdsadm.c create.c assemble-cmd.c stop.c incremental.c \
	examine.c wipe.c list.c detail.c detail-out.c volstat.c \
	label-io.c assemble.c scan.c volume.c dm.c signature.c fmt.c \
	monitor-cmd.c monitor-watch.c monitor-report.c monitor-program.c member-dev.c \
	check-cmd.c check-read.c grow.c grow-add.c grow-relayout.c grow-copy.c systemd.c replace.c replace-copy.c replace-rescue.c replace-seg.c \
	replace-abort.c run-lock.c config.c import.c sysfs.c adopt.c adopt-table.c adopt-finish.c release.c md.c sample.c \
	$(BDSADM_PLAN_SRC) $(LIBBDS_SRC)
BDSADM_LIBS := -ldevmapper -lblkid -lpthread
# The test build only (make test-build): the hooks the VM tests drive.
BDSADM_TEST_SRC := test-hooks.c
BDSADM_TEST_CPPFLAGS := -DBDS_TEST_HOOKS

# The version of the tools is the target's (.version in dm-bds-stripe.c),
# as for DKMS: one place for both.
BDS_TOOLS_DIR := $(dir $(lastword $(MAKEFILE_LIST)))
BDS_VERSION := $(shell sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' $(BDS_TOOLS_DIR)../dm-bds-stripe.c)
BDSADM_CPPFLAGS := -DBDS_VERSION='"$(BDS_VERSION)"'

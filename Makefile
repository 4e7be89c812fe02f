# SPDX-License-Identifier: GPL-2.0
#
# bds-stripe: out-of-tree device-mapper striping target.
#
#   make                 build dm-bds-stripe.ko for the running kernel
#   make KDIR=<dir>      build against another kernel's headers (build tree)
#   make check           unit tests, style checks, VM suite on 6.1, 6.12, 7.2,
#                        KUnit and a subset of it on the debug kernel
#   make demo            the target at work in a QEMU guest, then a sweep
#   make sweep           the sweep only: results/sweep/ (CSV, PNG plots)
#   make bench           benchmark vs striped and md raid0 (BENCH_KERNELS=
#                        "6.1 6.12"): results/bench/, change vs baseline;
#                        make bench-update also updates tests/bench/baseline/
#   make lint            checkpatch --strict, sparse (C=2) and W=1 builds,
#                        pipe-lint (no early-exit reader in a shell pipeline)
#   make unit            userspace tests (apt readers, layout arithmetic,
#                        table builder, fuzz corpus replay)
#   make fuzz            libFuzzer on the parser and layout (FUZZ_SECONDS=60)
#   make tools           build tools/bdsadm (and bds-stripe-table)
#   make vm-check        the VM suite only (KERNELS="6.1 6.12 7.2" by default)
#   make vm-check-all    the VM suite with every test on every kernel
#   make check-debug     KUnit + VM suite on a KASAN/lockdep/kmemleak kernel
#                        (tests/debug/; first run builds it, ~11 min)
#   make soak            randomized fio verify soak, SOAK_MINUTES=10 (not in check)
#   make install         install the module for $(KDIR)'s kernel and the
#                        tools (PREFIX=/usr/local; DESTDIR= to stage)
#   make uninstall       remove what make install installed
#   make dkms-install    register the sources with DKMS, build and install
#   make dkms-remove     remove the module from DKMS and /usr/src
#   make install-check   tests/install/: DKMS builds for 6.1 and 6.12 and
#                        a staged make install (nothing installed on the host)
#   make deb             Debian packages bds-stripe-dkms and bds-stripe-tools
#                        (dpkg-buildpackage in a temporary copy of the tree,
#                        lintian): results/deb/ (BDS_DEB_DIR=)
#   make deb-check       install, remove and purge them in debootstrapped
#                        bookworm and sid roots (tests/deb/; in make check)
#   make deb-boot-check  a systemd guest with the packages assembles a
#                        labelled volume at boot (about 5 minutes; not in
#                        make check, for its time)
#
# Everything fetched (Debian kernels, checkpatch) is cached outside the
# repository in $(BDS_CACHE).

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNELS ?= 6.1 6.12 7.2
BDS_CACHE ?= $(HOME)/.cache/bds-stripe
export BDS_CACHE KERNELS

# What the module is built from (checkpatch's list: compat-user.h is the
# userspace side of libbds/compat.h, never compiled into the module).
SRC := dm-bds-stripe.c dm-bds-stripe.h \
	$(filter-out libbds/compat-user.h,$(sort $(wildcard libbds/*.[ch])))

all: module

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || \
		rm -f *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/tools-unit clean
	$(MAKE) -C tests/fuzz clean
	$(MAKE) -C tools clean

tools:
	$(MAKE) -C tools

unit:
	tests/tools/pipe-readers-test.sh
	$(MAKE) -C tests/unit check
	$(MAKE) -C tests/tools-unit check
	$(MAKE) -C tests/fuzz replay

# libFuzzer over the table parser and layout code (tests/fuzz/); the
# smoke run is part of make check, FUZZ_SECONDS sets a longer one.
fuzz-smoke:
	$(MAKE) -C tests/fuzz smoke

fuzz:
	$(MAKE) -C tests/fuzz fuzz

# checkpatch.pl comes from Debian's linux-source-6.1 package.
checkpatch:
	tests/tools/checkpatch.sh $(SRC)

# W=1 and sparse builds against every kernel in $(KERNELS).
build-all:
	tests/tools/build-all.sh

# Missing Debian packages (.ci/packages) are installed with apt-get.
setup:
	tests/tools/setup.sh

# No pipeline in a shell script whose reader may leave early (exit 141
# under pipefail): tests/tools/pipe-lint.pl.
pipe-lint:
	tests/tools/pipe-lint.sh

lint: pipe-lint checkpatch build-all

vm-check:
	tests/vm/run-suite

# The whole VM suite on every kernel in $(KERNELS), ignoring the tests'
# "check-kernels" headers: make check runs the tests of bdsadm (and of
# target code that is the same on every kernel: the random-tables
# constructor fuzz) on 6.1, or on 6.1 and 7.2, and only the tests of the
# target's kernel-facing paths on all three, to stay inside CI's time.
vm-check-all:
	BDS_ALL_KERNELS=1 tests/vm/run-suite

# The power-cut test's long form: CRASH_STATES crash states per kernel
# (make check runs its short form, 8 states, in vm-check), on 6.1 and
# 6.12 unless KERNELS is given.  About 3 s per state here: 1000 states
# took 52 minutes on 6.12 and 55 on 6.1.
CRASH_STATES ?= 1000
CRASH_OPS ?= 400
CRASH_KERNELS := $(if $(filter command line environment,$(origin KERNELS)),$(KERNELS),6.1 6.12)
crash-test:
	KERNELS="$(CRASH_KERNELS)" \
	BDS_VM_ARGS="-a bds.crash_states=$(CRASH_STATES) -a bds.crash_ops=$(CRASH_OPS) -T $$(( $(CRASH_STATES) * 15 + 1200 ))" \
		tests/vm/run-suite power-cut-loses-nothing-flushed

# Striping across storage hosts (tests/vm/fabrics/): three guests, two
# NVMe/TCP storage hosts and a client, on 6.1 and 6.12 unless KERNELS is
# given.  Not part of make check (its time would not fit beside it).
FABRICS_KERNELS := $(if $(filter command line environment,$(origin KERNELS)),$(KERNELS),6.1 6.12)
check-fabrics: setup
	KERNELS="$(FABRICS_KERNELS)" tests/vm/run-suite \
		tests/vm/fabrics/stripe-across-storage-hosts-survives-reconnect.sh

# The soak (tests/vm/soak/): not part of make check.  SOAK_KERNELS may add
# "debug" (or 6.12, 7.2); the guest is given SOAK_MINUTES plus boot slack.
SOAK_MINUTES ?= 10
SOAK_KERNELS ?= 6.1
soak:
	KERNELS="$(SOAK_KERNELS)" \
	BDS_VM_ARGS="-a bds_soak_minutes=$(SOAK_MINUTES) -T $$(( $(SOAK_MINUTES) * 60 + 900 ))" \
		tests/vm/run-suite tests/vm/soak/fio-verify-soak.sh

# The debug kernel is built in the background (debug-kernel-bg) while the
# other steps run, and debug-ci waits for it: see below.
check: setup debug-kernel-bg unit fuzz-smoke lint install-check deb-check vm-check-and-debug-ci

# make check's VM part: vm-check and debug-ci side by side, the debug leg
# on the CPU time the stock suite's guests leave idle, from the
# moment the debug kernel is built (tests/tools/vm-and-debug.sh).
vm-check-and-debug-ci: setup
	tests/tools/vm-and-debug.sh $(DEBUG_CI_TESTS)

# The debug leg: Debian's linux-source-6.1 + tests/debug/config.fragment
# (KASAN, lockdep, atomic-sleep, DEBUG_LIST, kmemleak, KUnit, fault
# injection), built once and cached in $(BDS_CACHE)/debug/.  Runs the KUnit
# suite (tests/kunit/) and the VM suite on KERNELS=debug; any KASAN/lockdep/
# list/atomic-sleep report or a kmemleak object of the target fails a test.
# DEBUG_SKIP leaves out the tests that run none of the target's code paths
# that others do not run too: controller-topology-visible (the harness and
# dm "striped" only) and table-builder-groups-real-controllers (the
# userspace tool; the target's create/remove run in every other test).
DEBUG_SKIP ?= controller-topology-visible table-builder-groups-real-controllers
DEBUG_TESTS = $(filter-out $(DEBUG_SKIP),$(basename $(notdir $(wildcard tests/vm/t/*.sh))))

# $(call debug-leg,TESTS): build (or wait for) the debug kernel, then the
# KUnit suite and TESTS on it; both run, either failing fails.
define debug-leg
	tests/debug/build-kernel.sh >/dev/null
	rc=0; tests/kunit/run || rc=1; \
	KERNELS=debug tests/vm/run-suite $(1) || rc=1; exit $$rc
endef

check-debug: setup
	$(call debug-leg,$(DEBUG_TESTS))

# The part of the debug leg that make check (and so CI) runs: the KUnit
# suite and DEBUG_CI_TESTS, chosen so that every operation and code path
# of the target still runs on the debug kernel:
#   ctr/dtr: module-registers-and-unloads (load, one volume, unload),
#     refused-tables-have-specific-errors (every refusal and its
#     cleanup), failslab-while-creating-tables-is-clean (every allocation
#     of the constructor failed in turn);
#   map: placement-matches-layout (single- and multi-unit bios, one piece
#     per member, every layout), big-bios-split-into-whole-units-keep-data
#     (the 256-bvec cut), polled-io-goes-unit-by-unit-and-completes (the
#     one-unit fallback), discard-write-zeroes-flush-reach-members
#     (discard, write zeroes and flush), memory-pressure-keeps-io-moving
#     (piece allocation with little memory);
#   end_io: fail-make-request-member-fails-cleanly (member errors, the
#     health string, dm events);
#   status, IMA: status-of-128-members-is-whole;
#   suspend, resume and reload under I/O: live-suspend-reload-keeps-data;
#   the label check of "volume <uuid>" (reading both copies of every
#     member, each refusal): labelled-tables-refuse-misplaced-members
#     (failslab-while-creating-tables-is-clean sweeps its allocations);
#   a labelled volume of bdsadm, with XFS, across a reboot that renames
#     its disks: volume-survives-reboot-with-renamed-disks;
#   the weighted map path (slot tables, pieces found by member, fio's
#     random sizes): weighted-layout-places-and-keeps-data (its fio is
#     shorter and its XFS part left out there), and the weighted
#     table's allocations in failslab-while-creating-tables-is-clean.
# The others (fio/XFS data checks, geometry, random tables, the rest of
# the failure tests) run on the stock kernels in vm-check, and on the
# debug kernel in make check-debug.
DEBUG_CI_TESTS ?= module-registers-and-unloads refused-tables-have-specific-errors \
	failslab-while-creating-tables-is-clean placement-matches-layout \
	big-bios-split-into-whole-units-keep-data polled-io-goes-unit-by-unit-and-completes \
	discard-write-zeroes-flush-reach-members memory-pressure-keeps-io-moving \
	fail-make-request-member-fails-cleanly status-of-128-members-is-whole \
	live-suspend-reload-keeps-data labelled-tables-refuse-misplaced-members \
	volume-survives-reboot-with-renamed-disks weighted-layout-places-and-keeps-data

# Starts the debug kernel's build (about 21 minutes of CPU, nothing once
# cached) in the background at nice 5: a guest keeps one core and the
# build takes the other.  At nice 19 any other work on the host starved
# it, and the debug leg, which waits for it, became make check's longest
# path.  build-kernel.sh holds a lock while it builds, and the call in
# debug-ci waits for it (or builds itself if this one failed).
debug-kernel-bg: setup
	mkdir -p $(BDS_CACHE)
	BDS_NICE=5 nohup tests/debug/build-kernel.sh \
		>$(BDS_CACHE)/debug-build-bg.log 2>&1 </dev/null &

debug-ci: setup
	$(call debug-leg,$(DEBUG_CI_TESTS))

.PHONY: check-debug debug-ci debug-kernel-bg vm-check-and-debug-ci

demo: setup
	tests/vm/demo/demo.sh
	tests/vm/sweep/run-sweep.sh

# The sweep alone: bds-stripe vs striped vs md raid0, CSV and plots.
sweep: setup
	tests/vm/sweep/run-sweep.sh

# The benchmark of issue 5 (not part of make check): CPU cost under icount,
# bandwidth against the caps, buffered XFS, requests per member; the
# change of every figure against tests/bench/baseline/<kernel>.csv.
BENCH_KERNELS ?= 6.1 6.12
export BENCH_KERNELS

bench: setup
	tests/bench/run-bench

bench-update: setup
	BENCH_UPDATE=1 tests/bench/run-bench

.PHONY: all module tools clean setup unit fuzz fuzz-smoke checkpatch pipe-lint build-all lint vm-check vm-check-all check check-fabrics demo sweep bench bench-update soak crash-test

# ---------------------------------------------------------------------------
# Installation.
#
# The kernel release comes from the build tree's utsrelease.h (Debian's 6.1
# headers print the upstream version for "make kernelrelease", not the ABI
# name under /lib/modules).  INSTALL_MOD_PATH defaults to DESTDIR; when
# either is set, the files are only staged and depmod is left to whoever
# installs the staged tree.
PREFIX ?= /usr/local
INSTALL_MOD_PATH ?= $(DESTDIR)
INSTALL_MOD_DIR ?= extra
DEPMOD ?= /sbin/depmod
KVER ?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
	$(KDIR)/include/generated/utsrelease.h 2>/dev/null)

# DKMS: the version is the target's .version in dm-bds-stripe.c.
DKMS ?= dkms
DKMS_NAME := bds-stripe
DKMS_VERSION := $(shell sed -n 's/.*\.version = { *\([0-9]*\), *\([0-9]*\), *\([0-9]*\) *}.*/\1.\2.\3/p' dm-bds-stripe.c)
DKMS_SRCTREE ?= /usr/src
DKMS_FILES := dm-bds-stripe.c dm-bds-stripe.h Kbuild Makefile dkms.conf
DKMS_LIBBDS := $(sort $(wildcard libbds/*.[ch]))
# Extra dkms options (e.g. -k <kver> --kernelsourcedir <dir>, --dkmstree).
DKMS_FLAGS ?=

check-kdir:
	@test -n "$(KVER)" || { \
		echo "no kernel build tree at $(KDIR) (set KDIR=)" >&2; exit 1; }

install: check-kdir module tools
	$(MAKE) -C $(KDIR) M=$(CURDIR) KERNELRELEASE=$(KVER) \
		INSTALL_MOD_PATH=$(INSTALL_MOD_PATH) \
		INSTALL_MOD_DIR=$(INSTALL_MOD_DIR) DEPMOD=true modules_install
ifeq ($(INSTALL_MOD_PATH),)
	$(DEPMOD) -a $(KVER)
else
	@echo "install: staged in $(INSTALL_MOD_PATH); run depmod -a $(KVER) on the target"
endif
	$(MAKE) -C tools install PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

uninstall: check-kdir
	rm -f $(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/dm-bds-stripe.ko \
		$(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/dm-bds-stripe.ko.xz \
		$(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/dm-bds-stripe.ko.gz \
		$(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/dm-bds-stripe.ko.zst
ifeq ($(INSTALL_MOD_PATH),)
	$(DEPMOD) -a $(KVER)
endif
	$(MAKE) -C tools uninstall PREFIX=$(PREFIX) DESTDIR=$(DESTDIR)

# The sources DKMS builds from, in $(DESTDIR)$(DKMS_SRCTREE)/<name>-<version>
# (dkms-install, and debian/rules for the bds-stripe-dkms package).
dkms-sources:
	@test "$(DKMS_VERSION)" = "$$(sed -n 's/^PACKAGE_VERSION="*\([^"]*\)"*/\1/p' dkms.conf)" || { \
		echo "dkms.conf PACKAGE_VERSION != $(DKMS_VERSION)" >&2; exit 1; }
	rm -rf $(DESTDIR)$(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)
	install -d $(DESTDIR)$(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)/libbds
	install -m 0644 $(DKMS_FILES) $(DESTDIR)$(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)/
	install -m 0644 $(DKMS_LIBBDS) $(DESTDIR)$(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)/libbds/

dkms-install: dkms-sources
	$(DKMS) add -m $(DKMS_NAME) -v $(DKMS_VERSION) --sourcetree $(DKMS_SRCTREE) $(DKMS_FLAGS)
	$(DKMS) build -m $(DKMS_NAME) -v $(DKMS_VERSION) --sourcetree $(DKMS_SRCTREE) $(DKMS_FLAGS)
	$(DKMS) install -m $(DKMS_NAME) -v $(DKMS_VERSION) --sourcetree $(DKMS_SRCTREE) $(DKMS_FLAGS)

dkms-remove:
	-$(DKMS) remove -m $(DKMS_NAME) -v $(DKMS_VERSION) --all --sourcetree $(DKMS_SRCTREE) $(DKMS_FLAGS)
	rm -rf $(DKMS_SRCTREE)/$(DKMS_NAME)-$(DKMS_VERSION)

install-check:
	tests/install/dkms-build.sh

# Debian packages (debian/): the version is the target's, debian/changelog
# must agree (make-deb.sh and debian/rules refuse to build otherwise).
deb: setup
	tests/tools/make-deb.sh

# The packages installed with apt-get into copies of debootstrapped roots
# in $(BDS_CACHE): DKMS builds for bookworm's 6.1 and sid's 7.x, bdsadm
# runs, remove and purge leave nothing behind (tests/deb/deb-check.sh).
# About 3.5 minutes with the roots cached, 2 more for the first bookworm
# debootstrap.
deb-check: deb
	tests/deb/deb-check.sh

# A QEMU guest booting bookworm with systemd and only the packages (plus
# the kernel, udev): a volume made by bdsadm create on the first boot is
# assembled at the second by the packaged unit, and again by the packaged
# udev rule when its members' events are replayed (tests/deb/boot-check.sh,
# about 5 minutes; uses deb-check's bookworm root).  Not in make check:
# the new VM tests of bdsadm (replace and its crash points) took its time
# budget; run it before a packaging change lands.
deb-boot-check: deb-check
	tests/deb/boot-check.sh

.PHONY: check-kdir install uninstall dkms-sources dkms-install dkms-remove install-check deb deb-check deb-boot-check

# SPDX-License-Identifier: GPL-2.0
#
# bds-stripe: out-of-tree device-mapper striping target.
#
#   make                 build dm-bds-stripe.ko for the running kernel
#   make KDIR=<dir>      build against another kernel's headers (build tree)
#   make check           unit tests, style checks, VM suite on 6.1, 6.12, 7.2
#                        and the debug kernel (each test on the kernels its
#                        "check-kernels" header names), KUnit
#   make check-all       make check with every VM test on every kernel
#   make check-repeat    one VM test N times: T=<test> N=<n> (default 10),
#                        KERNELS=...
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
#   make vm-check-all    the VM suite with every test on every stock kernel
#   make check-debug     KUnit + VM suite on a KASAN/lockdep/kmemleak kernel
#                        (tests/debug/; first run builds it, ~11 min)
#   make vm-times        the table of a run's times (tests/scripts/vm-times;
#                        RESULTS=<dir>, default tests/vm/results)
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
#                        labelled volume at boot, and finishes a restripe
#                        cut by a power cut (about 7 minutes; not in make
#                        check, for its time)
#   make root-boot-check guests with / on a volume, assembled by the
#                        packaged initramfs-tools hook and dracut module
#                        (about 35 minutes; not in make check)
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
	$(MAKE) -C tests/libbds clean
	$(MAKE) -C tests/bdsadm clean
	$(MAKE) -C tests/logwrites clean
	$(MAKE) -C tests/fuzz clean
	$(MAKE) -C tools clean

tools:
	$(MAKE) -C tools

# Each suite a target of its own, so that make -j runs them (and, in
# tests/libbds and tests/bdsadm, their programs) side by side.
UNIT_PARTS := unit-scripts unit-libbds unit-bdsadm unit-logwrites unit-fuzz-replay
unit: $(UNIT_PARTS)

unit-scripts:
	tests/scripts/pipe-readers-test.sh
	tests/scripts/kmemleak-charge-test.sh
	tests/scripts/tree-check.sh
	tests/scripts/readme-commands-check.sh
	tests/bench/report-model-test.sh
	tests/bench/report-test.sh

unit-libbds:
	$(MAKE) -C tests/libbds check

unit-bdsadm:
	$(MAKE) -C tests/bdsadm check

unit-logwrites:
	$(MAKE) -C tests/logwrites check

unit-fuzz-replay:
	$(MAKE) -C tests/fuzz replay

# libFuzzer over the table parser and layout code (tests/fuzz/); the
# smoke run is part of make check, FUZZ_SECONDS sets a longer one.
fuzz-smoke:
	$(MAKE) -C tests/fuzz smoke

fuzz:
	$(MAKE) -C tests/fuzz fuzz

# checkpatch.pl comes from Debian's linux-source-6.1 package.
checkpatch:
	tests/scripts/checkpatch.sh $(SRC)

# W=1 and sparse builds against every kernel in $(KERNELS).
build-all:
	tests/scripts/build-all.sh

# Missing Debian packages (.ci/packages) are installed with apt-get.
setup:
	tests/scripts/setup.sh

# No pipeline in a shell script whose reader may leave early (exit 141
# under pipefail): tests/scripts/pipe-lint.pl.
pipe-lint:
	tests/scripts/pipe-lint.sh

lint: pipe-lint checkpatch build-all

# The VM suite (tests/vm/run-suite): tests of one topology share a boot,
# two guests run at a time, the longest first; each test runs on the
# kernels of its "check-kernels" header (Documentation/developer-guide.rst:
# "Which kernels a test runs on").
vm-check:
	tests/vm/run-suite

# The whole VM suite on every stock kernel in $(KERNELS), ignoring the
# tests' "check-kernels" headers.
vm-check-all:
	BDS_ALL_KERNELS=1 tests/vm/run-suite

# A core of the VM suite on Debian's arm64 kernels (qemu-system-aarch64,
# TCG): placement, data through fio and XFS, the geometry mkfs.xfs sees,
# weights, labels and their refusals, bdsadm across a reboot.
# refused-tables-have-specific-errors is not among them: Debian's arm64
# kernel has no scsi_debug.  make check runs ARM64_CI_TESTS of them on
# 6.1, one guest at a time, as a host job of its queue
# (vm-check-arm64-ci): the tests whose code differs by architecture (the
# module's mapping, bios through XFS, the limits mkfs.xfs reads, labels
# read and written by both sides, bdsadm built by the cross compiler);
# the four left out test the table parser, the tools' refusals and the
# error paths, the same C on every architecture (about 130 s of the
# queue's time).
ARM64_KERNELS ?= 6.1 6.12
ARM64_TESTS ?= placement-matches-layout fio-verify-and-xfs-keep-data \
	geometry-reaches-mkfs-xfs weighted-layout-places-and-keeps-data \
	big-bios-split-into-whole-units-keep-data \
	discard-write-zeroes-flush-reach-members module-registers-and-unloads \
	labelled-tables-refuse-misplaced-members forged-labels-never-take-a-volume \
	create-refuses-devices-holding-data random-tables-leave-nothing-behind \
	member-failure-is-contained volume-survives-reboot-with-renamed-disks \
	table-load-reads-all-members-labels-at-once
vm-check-arm64: setup
	BDS_ARCH=arm64 BDS_ALL_KERNELS=1 KERNELS="$(ARM64_KERNELS)" \
		BDS_HOST_JOBS= BDS_KUNIT=0 \
		BDS_RESULTS=$${BDS_RESULTS:-tests/vm/results}/arm64 \
		tests/vm/run-suite $(ARM64_TESTS)

ARM64_CI_TESTS ?= $(filter-out random-tables-leave-nothing-behind \
	create-refuses-devices-holding-data member-failure-is-contained \
	table-load-reads-all-members-labels-at-once,$(ARM64_TESTS))
vm-check-arm64-ci:
	BDS_JOBS=1 $(MAKE) --no-print-directory vm-check-arm64 ARM64_KERNELS=6.1 \
		ARM64_TESTS="$(ARM64_CI_TESTS)"

# One test N times on each kernel of KERNELS (make check-repeat
# T=live-suspend-reload-keeps-data N=10 KERNELS=debug), two guests at a
# time, each in a boot of its own: a test whose timing changed passes 10
# times in a row while another guest loads the machine.
N ?= 10
check-repeat: setup
	@test -n "$(T)" || { echo "make check-repeat: T=<test> is needed" >&2; exit 2; }
	BDS_REPEAT=$(N) BDS_ALL_KERNELS=1 tests/vm/run-suite $(T)

# The times of a run as a table (boot and body of every test on each
# kernel): tests/scripts/vm-times.  VM_TIMES_UPDATE=1 also writes them to
# tests/vm/times, which run-suite orders its jobs by.
RESULTS ?= tests/vm/results
vm-times:
	tests/scripts/vm-times $(if $(VM_TIMES_UPDATE),--update tests/vm/times) $(RESULTS)

# The power-cut tests' long forms (make check runs their short forms in
# vm-check), on 6.1 and 6.12 unless KERNELS is given:
# - power-cut-loses-nothing-flushed, CRASH_STATES crash states per kernel
#   (short form: 8).  About 3 s per state here: 1000 states took 52
#   minutes on 6.12 and 55 on 6.1.
# - power-cut-mid-restripe-loses-nothing-flushed, GROW_CRASH_STATES states
#   of a grow --add per kernel (short form: 6, make check's 4), every GROW_CRASH_FINISH-th
#   one cut mid-restripe also finished by grow --continue.
# CRASH_TESTS picks one of them.
CRASH_STATES ?= 1000
CRASH_OPS ?= 400
GROW_CRASH_STATES ?= 300
GROW_CRASH_FINISH ?= 10
CRASH_TESTS ?= power-cut-loses-nothing-flushed power-cut-mid-restripe-loses-nothing-flushed
CRASH_KERNELS := $(if $(filter command line environment,$(origin KERNELS)),$(KERNELS),6.1 6.12)
CRASH_TIMEOUT = $$(( $(CRASH_STATES) * 15 > $(GROW_CRASH_STATES) * 30 ? $(CRASH_STATES) * 15 + 1200 : $(GROW_CRASH_STATES) * 30 + 1200 ))
crash-test:
	KERNELS="$(CRASH_KERNELS)" BDS_ALL_KERNELS=1 BDS_SHARE=0 \
	BDS_VM_ARGS="-a bds.crash_states=$(CRASH_STATES) -a bds.crash_ops=$(CRASH_OPS) -a bds.grow_crash_states=$(GROW_CRASH_STATES) -a bds.grow_crash_finish=$(GROW_CRASH_FINISH) -T $(CRASH_TIMEOUT)" \
		tests/vm/run-suite $(CRASH_TESTS)

# Striping across storage hosts (tests/vm/fabrics/): three guests, two
# NVMe/TCP storage hosts and a client, on 6.1 and 6.12 unless KERNELS is
# given.  Not part of make check (its time would not fit beside it).
FABRICS_KERNELS := $(if $(filter command line environment,$(origin KERNELS)),$(KERNELS),6.1 6.12)
check-fabrics: setup
	KERNELS="$(FABRICS_KERNELS)" BDS_SHARE=0 tests/vm/run-suite \
		tests/vm/fabrics/stripe-across-storage-hosts-survives-reconnect.sh

# The soak (tests/vm/soak/): not part of make check.  SOAK_KERNELS may add
# "debug" (or 6.12, 7.2); the guest is given SOAK_MINUTES plus boot slack.
SOAK_MINUTES ?= 10
SOAK_KERNELS ?= 6.1
soak:
	KERNELS="$(SOAK_KERNELS)" BDS_SHARE=0 \
	BDS_VM_ARGS="-a bds_soak_minutes=$(SOAK_MINUTES) -T $$(( $(SOAK_MINUTES) * 60 + 900 ))" \
		tests/vm/run-suite tests/vm/soak/fio-verify-soak.sh

# make check: the unit tests first (a minute: a broken build fails at
# once), then one queue of jobs, two at a time, the longest first
# (tests/vm/run-suite): the VM tests on the stock kernels and on the debug
# kernel (its KUnit suite, and the tests whose "check-kernels" header
# names debug; they start once the debug kernel is built in the
# background by debug-kernel-bg), and the host's steps CHECK_HOST_JOBS,
# each beside one guest.
CHECK_HOST_JOBS ?= fuzz-smoke lint install-check deb-check vm-check-arm64-ci \
	blkid-check
# The unit stage builds its programs (ASan, UBSan) on every core.
UNIT_JOBS ?= $(shell nproc 2>/dev/null || echo 2)
check: setup debug-kernel-bg unit-all-cores vm-check-ci vm-json-check

unit-all-cores:
	$(MAKE) -j$(UNIT_JOBS) -Otarget unit

# The libblkid prober (tools/blkid/): Debian's util-linux source (cached
# in $(BDS_CACHE)/util-linux-src) with the patch, built once per patch
# (kept in $(BDS_CACHE)/blkid-build), tried on sparse files; about 2
# minutes when it builds, half a minute when the build is kept, one of
# make check's host jobs.
blkid-check:
	tests/blkid/blkid-check.sh

# The JSON bdsadm printed in the VM tests (bds_json_log) against
# Documentation/bdsadm.schema.json: the guests have no Python.
vm-json-check:
	tests/scripts/vm-json-check.sh

vm-check-ci: setup
	BDS_SAMPLE=1 KERNELS="$(filter-out debug,$(KERNELS)) debug" BDS_KUNIT=1 \
		BDS_HOST_JOBS="$(CHECK_HOST_JOBS)" tests/vm/run-suite

# make check-all: make check with every VM test on every kernel.
check-all: setup debug-kernel-bg unit
	BDS_ALL_KERNELS=1 KERNELS="$(filter-out debug,$(KERNELS)) debug" BDS_KUNIT=1 \
		BDS_HOST_JOBS="$(CHECK_HOST_JOBS)" tests/vm/run-suite
	tests/scripts/vm-json-check.sh

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

check-debug: setup
	tests/debug/build-kernel.sh >/dev/null
	KERNELS=debug BDS_ALL_KERNELS=1 BDS_KUNIT=1 tests/vm/run-suite $(DEBUG_TESTS)

# make check's debug leg alone: the KUnit suite and the tests whose
# "check-kernels" header names debug (Documentation/developer-guide.rst
# says what each covers).
debug-ci: setup
	tests/debug/build-kernel.sh >/dev/null
	BDS_SAMPLE=1 KERNELS=debug BDS_KUNIT=1 tests/vm/run-suite

# Starts the debug kernel's build (about 21 minutes of CPU, nothing once
# cached) in the background at nice 5: a guest keeps one core and the
# build takes the other.  At nice 19 any other work on the host starved
# it, and the debug leg, which waits for it, became make check's longest
# path.  build-kernel.sh holds a lock while it builds, and run-suite's
# preparation of the debug kernel waits for it (or builds itself if this
# one failed).
debug-kernel-bg: setup
	mkdir -p $(BDS_CACHE)
	BDS_NICE=5 nohup tests/debug/build-kernel.sh \
		>$(BDS_CACHE)/debug-build-bg.log 2>&1 </dev/null &

.PHONY: check-debug debug-ci debug-kernel-bg vm-check-ci vm-json-check blkid-check unit-all-cores check-all check-repeat vm-times $(UNIT_PARTS)

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

.PHONY: all module tools clean setup unit fuzz fuzz-smoke checkpatch pipe-lint build-all lint vm-check vm-check-all vm-check-arm64 vm-check-arm64-ci check check-fabrics demo sweep bench bench-update soak crash-test

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
	tests/scripts/make-deb.sh

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
# udev rule when its members' events are replayed, and after a power cut
# mid-restripe, at the third, the packaged grow unit finishes the restripe
# (tests/deb/boot-check.sh, about 7 minutes; uses deb-check's bookworm
# root).  Not in make check:
# the new VM tests of bdsadm (replace and its crash points) took its time
# budget; run it before a packaging change lands.
deb-boot-check: deb-check
	tests/deb/boot-check.sh

# A QEMU guest booting bookworm with / on a bds-stripe volume, assembled
# by the packaged initramfs-tools hook and local-block script, then one
# whose initramfs dracut made with the packaged module: each boots,
# boots again with the controllers and disks permuted, and with a member
# missing stops at the initramfs prompt saying which, writing nothing
# (tests/deb/root-boot-check.sh; uses deb-check's bookworm root).  Not in
# make check, for its time, as deb-boot-check.
root-boot-check: deb-check
	tests/deb/root-boot-check.sh initramfs-tools
	tests/deb/root-boot-check.sh dracut

.PHONY: check-kdir install uninstall dkms-sources dkms-install dkms-remove install-check deb deb-check deb-boot-check root-boot-check

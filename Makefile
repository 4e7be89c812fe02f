# SPDX-License-Identifier: GPL-2.0
#
# bds-stripe: out-of-tree device-mapper striping target.
#
#   make                 build dm-bds-stripe.ko for the running kernel
#   make KDIR=<dir>      build against another kernel's headers (build tree)
#   make check           unit tests, style checks, VM suite on 6.1 and 6.12
#   make demo            the target at work in a QEMU guest
#   make lint            checkpatch --strict, sparse (C=2) and W=1 builds
#   make unit            userspace tests (layout arithmetic, table builder)
#   make tools           build tools/bds-stripe-table
#   make vm-check        the VM suite only (KERNELS="6.1 6.12" by default)
#
# Everything fetched (Debian kernels, checkpatch) is cached outside the
# repository in $(BDS_CACHE).

KDIR ?= /lib/modules/$(shell uname -r)/build
KERNELS ?= 6.1 6.12
BDS_CACHE ?= $(HOME)/.cache/bds-stripe
export BDS_CACHE KERNELS

SRC := dm-bds-stripe.c dm-bds-stripe.h

all: module

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || \
		rm -f *.o *.ko *.mod *.mod.c .*.cmd modules.order Module.symvers
	$(MAKE) -C tests/unit clean
	$(MAKE) -C tests/tools-unit clean
	$(MAKE) -C tools clean

tools:
	$(MAKE) -C tools

unit:
	$(MAKE) -C tests/unit check
	$(MAKE) -C tests/tools-unit check

# checkpatch.pl comes from Debian's linux-source-6.1 package.
checkpatch:
	tests/tools/checkpatch.sh $(SRC)

# W=1 and sparse builds against every kernel in $(KERNELS).
build-all:
	tests/tools/build-all.sh

# Missing Debian packages (.ci/packages) are installed with apt-get.
setup:
	tests/tools/setup.sh

lint: checkpatch build-all

vm-check:
	tests/vm/run-suite

check: setup unit lint vm-check

demo: setup
	tests/vm/demo/demo.sh

.PHONY: all module tools clean setup unit checkpatch build-all lint vm-check check demo

# SPDX-License-Identifier: GPL-2.0
#
# bds-stripe: out-of-tree device-mapper striping target.
#
#   make                 build dm-bds-stripe.ko for the running kernel
#   make KDIR=<dir>      build against another kernel's headers (build tree)
#   make check           unit tests, style checks, VM suite on 6.1 and 6.12
#   make demo            the target at work in a QEMU guest
#   make lint            checkpatch --strict, sparse (C=2) and W=1 builds
#   make unit            userspace tests of the layout arithmetic only
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

unit:
	$(MAKE) -C tests/unit check

# checkpatch.pl comes from Debian's linux-source-6.1 package.
checkpatch:
	tests/tools/checkpatch.sh $(SRC)

# W=1 and sparse builds against every kernel in $(KERNELS).
build-all:
	tests/tools/build-all.sh

lint: checkpatch build-all

vm-check:
	tests/vm/run-suite

check: unit lint vm-check

demo:
	tests/vm/demo.sh

.PHONY: all module clean unit checkpatch build-all lint vm-check check demo

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * libbds: the code the kernel target and the tools share, compiled into
 * both (btrfs-progs' kernel-shared/ and xfsprogs' libxfs/ are the
 * model).  This header gives both sides the same names for what the
 * shared code uses: fixed-size integers, the little-endian types and
 * their conversions, __packed, static_assert, the string functions and
 * 64-by-32-bit division.  The kernel's come from its own headers; in
 * userspace they are defined here, as the kernel's tools/include does.
 * Nothing in libbds includes anything of tools/ or tests/.
 */
#ifndef LIBBDS_COMPAT_H
#define LIBBDS_COMPAT_H

#ifdef __KERNEL__
#include <linux/build_bug.h>
#include <linux/compiler_attributes.h>
#include <linux/kernel.h>
#include <linux/math64.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>
#else
#include "compat-user.h"
#endif

/* 64-by-32-bit division that 32-bit kernels can do too. */
static inline u64 bds_div(u64 n, u32 d, u32 *rem)
{
#ifdef __KERNEL__
	return div_u64_rem(n, d, rem);
#else
	*rem = (u32)(n % d);
	return n / d;
#endif
}

#endif /* LIBBDS_COMPAT_H */

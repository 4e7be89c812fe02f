/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The userspace side of libbds/compat.h: the kernel's names for what the
 * shared code uses, defined from libc and the uapi headers.  Never
 * compiled into the module (so outside checkpatch's list in Makefile:
 * it spells out the attributes the kernel's own headers define).
 */
#ifndef LIBBDS_COMPAT_USER_H
#define LIBBDS_COMPAT_USER_H

#ifdef __KERNEL__
#error "compat-user.h is for userspace; the kernel has its own"
#endif

#include <assert.h>
#include <endian.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <linux/types.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;

#ifndef __packed
#define __packed __attribute__((__packed__))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((format(printf, a, b)))
#endif

#define le32_to_cpu(x) le32toh(x)
#define le64_to_cpu(x) le64toh(x)
#define cpu_to_le32(x) htole32(x)
#define cpu_to_le64(x) htole64(x)

#endif /* LIBBDS_COMPAT_USER_H */

/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Userspace stand-ins for the kernel macros that the shared headers
 * (dm-bds-label.h) use, as the kernel's own tools/include does: byte
 * order, __packed, static_assert.  Included by those headers only when
 * __KERNEL__ is not defined.
 */
#ifndef BDS_KCOMPAT_H
#define BDS_KCOMPAT_H

#include <assert.h>
#include <endian.h>
#include <linux/types.h>

typedef __u16 u16;

#ifndef __packed
#define __packed __attribute__((__packed__))
#endif

#define le32_to_cpu(x) le32toh(x)
#define le64_to_cpu(x) le64toh(x)
#define cpu_to_le32(x) htole32(x)
#define cpu_to_le64(x) htole64(x)

#endif /* BDS_KCOMPAT_H */

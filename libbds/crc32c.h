/* SPDX-License-Identifier: GPL-2.0 */
#ifndef LIBBDS_CRC32C_H
#define LIBBDS_CRC32C_H

#include "compat.h"

/*
 * CRC-32C (Castagnoli, reflected polynomial 0x82f63b78), initial value
 * and final xor all ones: "123456789" gives 0xe3069283.  bds_crc32c_raw()
 * runs without the initial and final inversion, so that a label's crc
 * can be taken in pieces.  A byte table of its own, in the kernel too
 * (see the compatibility section of dm-bds-stripe.h); tests/libbds checks it
 * against the bitwise definition.
 */
u32 bds_crc32c_raw(u32 crc, const void *data, size_t len);
u32 bds_crc32c(const void *data, size_t len);

#endif /* LIBBDS_CRC32C_H */

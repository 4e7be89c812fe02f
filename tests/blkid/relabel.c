// SPDX-License-Identifier: GPL-2.0
/*
 * relabel IN OUT [FIELD=VALUE]... - test helper of blkid-check.sh: copy
 * the 8192-byte label copy IN to OUT with the named head fields set and
 * the crc computed again, as Documentation/bds-stripe-label.rst says
 * (CRC-32C of all 8192 bytes, bytes 16 to 19 taken as zero).  It knows
 * the format from that document only, not from libbds (whose label code
 * may not know a field value the test needs), so a label no writer of
 * the tree makes yet can be tried on the prober.
 *   FIELD  incompat (bytes 20..23), label_sector (120..127) or
 *          backup_sector (128..135)
 *   VALUE  a number as strtoull() reads it with base 0 (0x... is hex)
 * Exit 0, or 1 with a message.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COPY_SIZE	8192
#define CRC_OFF		16
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const struct {
	const char *name;
	unsigned int off, size;
} fields[] = {
	{ "incompat", 0x14, 4 },
	{ "label_sector", 0x78, 8 },
	{ "backup_sector", 0x80, 8 },
};

static void put_le(unsigned char *p, unsigned int size, uint64_t v)
{
	unsigned int i;

	for (i = 0; i < size; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* CRC-32C, reflected (0x82F63B78), bit by bit: no table for 8 KiB. */
static uint32_t crc32c(uint32_t crc, const unsigned char *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82F63B78U & -(crc & 1));
	}
	return crc;
}

int main(int argc, char **argv)
{
	static unsigned char buf[COPY_SIZE + 1];
	static const unsigned char check[] = "123456789";
	FILE *f;
	size_t n;
	uint32_t crc;
	uint64_t v;
	char *end;
	int i;
	unsigned int j;

	if (argc < 3) {
		fprintf(stderr, "usage: relabel IN OUT [FIELD=VALUE]...\n");
		return 1;
	}
	/* the document's check value */
	if ((crc32c(~0U, check, 9) ^ ~0U) != 0xE3069283U) {
		fprintf(stderr, "relabel: crc32c check value wrong\n");
		return 1;
	}
	f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	if (n != COPY_SIZE) {
		fprintf(stderr, "relabel: %s: %zu bytes, not %d\n", argv[1], n,
			COPY_SIZE);
		return 1;
	}
	for (i = 3; i < argc; i++) {
		const char *eq = strchr(argv[i], '=');

		for (j = 0; eq && j < ARRAY_SIZE(fields); j++)
			if (strlen(fields[j].name) == (size_t)(eq - argv[i]) &&
			    !strncmp(argv[i], fields[j].name, eq - argv[i]))
				break;
		if (!eq || j == ARRAY_SIZE(fields)) {
			fprintf(stderr, "relabel: unknown field in %s\n", argv[i]);
			return 1;
		}
		v = strtoull(eq + 1, &end, 0);
		if (!eq[1] || eq[1] == '-' || *end ||
		    (fields[j].size == 4 && v > UINT32_MAX)) {
			fprintf(stderr, "relabel: bad value in %s\n", argv[i]);
			return 1;
		}
		put_le(buf + fields[j].off, fields[j].size, v);
	}
	put_le(buf + CRC_OFF, 4, 0);
	crc = crc32c(~0U, buf, COPY_SIZE) ^ ~0U;
	put_le(buf + CRC_OFF, 4, crc);
	f = fopen(argv[2], "wb");
	if (!f || fwrite(buf, 1, COPY_SIZE, f) != COPY_SIZE || fclose(f)) {
		perror(argv[2]);
		return 1;
	}
	return 0;
}

// SPDX-License-Identifier: GPL-2.0
/*
 * The test build's hooks (BDS_TEST_HOOKS; see replace.h): never part of
 * bdsadm as 'make', 'make install', DKMS or the packages build it, only
 * of 'make -C tools test-build', which the VM tests use.
 *
 *   BDSADM_TEST_CRASH_AT=POINT  reboot the machine at once there (sysrq
 *                               'b', as a power cut stops it)
 *   BDSADM_TEST_KILL_AT=POINT   bdsadm kills itself (SIGKILL) there
 *   BDSADM_TEST_RUN_AT=POINT    run the shell command BDSADM_TEST_RUN
 *                               there, and wait for it
 */
#ifndef BDS_TEST_HOOKS
#error "test-hooks.c belongs to the test build only (BDS_TEST_HOOKS)"
#endif

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replace.h"

void rpl_crash_point(const char *point)
{
	const char *want = getenv("BDSADM_TEST_CRASH_AT");
	const char *kill_at = getenv("BDSADM_TEST_KILL_AT");
	const char *run_at = getenv("BDSADM_TEST_RUN_AT");
	const char *run = getenv("BDSADM_TEST_RUN");
	FILE *f;

	if (run_at && run && !strcmp(run_at, point)) {
		fprintf(stderr, "bdsadm: BDSADM_TEST_RUN_AT=%s: running %s (a test hook)\n",
			point, run);
		fflush(stderr);
		if (system(run))
			fprintf(stderr, "bdsadm: the test hook failed\n");
	}
	if (kill_at && !strcmp(kill_at, point)) {
		fprintf(stderr, "bdsadm: BDSADM_TEST_KILL_AT=%s: killed here (a test hook)\n",
			point);
		fflush(stderr);
		raise(SIGKILL);
	}
	if (!want || strcmp(want, point))
		return;
	fprintf(stderr, "bdsadm: BDSADM_TEST_CRASH_AT=%s: cutting the power here (a test hook)\n",
		point);
	fflush(stderr);
	f = fopen("/proc/sysrq-trigger", "w");
	if (f) {
		fputc('b', f);
		fclose(f);
	}
	sleep(10);
	fprintf(stderr, "bdsadm: the power cut at %s did not happen\n", point);
	exit(99);
}

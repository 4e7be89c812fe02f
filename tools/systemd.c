// SPDX-License-Identifier: GPL-2.0
/*
 * Starting bdsadm's systemd units (see systemd.h).
 */
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "systemd.h"

bool bds_in_initrd(void)
{
	return !access("/etc/initrd-release", F_OK);
}

bool bds_systemd_running(void)
{
	return !access("/run/systemd/system", F_OK);
}

/* systemctl @verb [@opt] @unit, waited for; true when it exits 0. */
static bool systemctl(const char *verb, const char *opt, const char *unit)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (opt)
			execlp("systemctl", "systemctl", verb, opt, unit,
			       (char *)NULL);
		else
			execlp("systemctl", "systemctl", verb, unit, (char *)NULL);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &status, 0) >= 0 && WIFEXITED(status) &&
	       !WEXITSTATUS(status);
}

bool bds_start_unit(const char *unit)
{
	return systemctl("start", "--no-block", unit);
}

bool bds_stop_unit(const char *unit)
{
	return systemctl("stop", NULL, unit);
}

bool bds_unit_active(const char *unit)
{
	return systemctl("is-active", "--quiet", unit);
}

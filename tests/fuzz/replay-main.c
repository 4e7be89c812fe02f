// SPDX-License-Identifier: GPL-2.0
/*
 * Replay driver: runs a fuzz target's LLVMFuzzerTestOneInput() once on
 * each file given (or each file in each directory given), without
 * libFuzzer, so that the corpus serves as a quick regression test.
 * Every input runs in a child process: a check that aborts, or a
 * sanitizer report, fails that input only.  The last line printed is
 * "<n> passed, <n> failed"; the exit status is 1 if any failed.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static unsigned int passed, failed;

static int run_one_child(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long size;

	if (!f)
		return 2;
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET))
		return 2;
	data = malloc(size ? (size_t)size : 1);
	if (!data || fread(data, 1, (size_t)size, f) != (size_t)size)
		return 2;
	fclose(f);
	LLVMFuzzerTestOneInput(data, (size_t)size);
	free(data);
	return 0;
}

static void run_file(const char *path)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("fork");
		exit(2);
	}
	if (!pid)
		_exit(run_one_child(path));
	if (waitpid(pid, &status, 0) < 0) {
		perror("waitpid");
		exit(2);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
		passed++;
		return;
	}
	failed++;
	if (WIFSIGNALED(status))
		printf("FAIL %s (signal %d)\n", path, WTERMSIG(status));
	else
		printf("FAIL %s (exit %d)\n", path, WEXITSTATUS(status));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void run_path(const char *path)
{
	struct stat st;
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, i;
	DIR *d;

	if (stat(path, &st)) {
		perror(path);
		failed++;
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		run_file(path);
		return;
	}
	d = opendir(path);
	if (!d) {
		perror(path);
		failed++;
		return;
	}
	while ((de = readdir(d))) {
		char *full;

		if (de->d_name[0] == '.')
			continue;
		full = malloc(strlen(path) + strlen(de->d_name) + 2);
		names = realloc(names, (n + 1) * sizeof(*names));
		if (!full || !names) {
			perror("malloc");
			exit(2);
		}
		sprintf(full, "%s/%s", path, de->d_name);
		names[n++] = full;
	}
	closedir(d);
	qsort(names, n, sizeof(*names), by_name);
	for (i = 0; i < n; i++) {
		run_path(names[i]);
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int i;

	for (i = 1; i < argc; i++)
		run_path(argv[i]);
	printf("%u passed, %u failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* gen.h - make test traces with tools/gen-trace and read its plan. */
#ifndef TRACENAV_TESTS_GEN_H
#define TRACENAV_TESTS_GEN_H

#include <glib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A private directory for the test's traces, removed by gen_cleanup(). */
static char gen_dir[256];

__attribute__((unused))
static const char *gen_tmpdir(void)
{
	if (!gen_dir[0]) {
		snprintf(gen_dir, sizeof(gen_dir), "%s/tracenav-test.XXXXXX",
			g_get_tmp_dir());
		if (!g_mkdtemp(gen_dir)) {
			perror("mkdtemp");
			exit(99);
		}
	}
	return gen_dir;
}

__attribute__((unused))
static void gen_cleanup(void)
{
	char *cmd;

	if (!gen_dir[0])
		return;
	cmd = g_strdup_printf("rm -rf '%s'", gen_dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", gen_dir);
	g_free(cmd);
}

/* Generate trace NAME with gen-trace OPTIONS; returns its path (freed by
 * the caller) and writes its plan to PATH.plan.  Exits 99 (hard error
 * for the test driver) if gen-trace fails. */
__attribute__((unused))
static char *gen_trace(const char *name, const char *options)
{
	const char *builddir = getenv("top_builddir");
	char *path = g_strdup_printf("%s/%s", gen_tmpdir(), name);
	char *cmd = g_strdup_printf("'%s/tools/gen-trace' %s --plan '%s.plan' "
		"'%s' >/dev/null", builddir ? builddir : ".", options, path,
		path);

	if (system(cmd) != 0) {
		fprintf(stderr, "failed: %s\n", cmd);
		exit(99);
	}
	g_free(cmd);
	return path;
}

/* Whether a test goes through the I-th trace (from 0) of the shared
 * corpus: every one, but in the sanitizer builds (5 to 20 times slower,
 * and looking for memory errors and races rather than wrong output) a
 * third, a different third for each SALT (one per test), so that the
 * tests together still cover the corpus there; as corpus_share in
 * tests/lib.sh. */
__attribute__((unused))
static int gen_corpus_share(unsigned i, unsigned salt)
{
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
	return (i + salt) % 3 == 0;
#else
	(void)i;
	(void)salt;
	return 1;
#endif
}

/* The integer value of "KEY VALUE" in the plan of trace path. */
__attribute__((unused))
static int64_t gen_plan_value(const char *path, const char *key)
{
	char *plan_path = g_strdup_printf("%s.plan", path);
	char *text = NULL;
	int64_t value = -1;

	if (g_file_get_contents(plan_path, &text, NULL, NULL)) {
		gchar **lines = g_strsplit(text, "\n", -1);

		for (gchar **line = lines; *line; line++) {
			size_t len = strlen(key);

			if (strncmp(*line, key, len) == 0 && (*line)[len] == ' ') {
				value = g_ascii_strtoll(*line + len + 1, NULL, 10);
				break;
			}
		}
		g_strfreev(lines);
	}
	g_free(text);
	g_free(plan_path);
	return value;
}

#endif

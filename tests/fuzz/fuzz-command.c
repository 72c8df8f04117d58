/* fuzz-command.c - libFuzzer harness of command lines and scripts
 * (src/cmd/parse.c: tn_command_split_script(), tn_command_parse(),
 * tn_command_split_words(); src/cmd/complete.c: the completer), as the
 * : prompt and --batch give them.
 *
 * The input is a script: it is split into lines, and each line is
 * parsed against the command table, split into words and completed
 * (except where a '/' would make the completer list directories of the
 * machine).
 *
 * Checks: the lines of a script are its bytes less the separators; a
 * parsed line names a command, with at most its arguments and a count
 * only when it takes one; an empty result only for a blank line; a
 * refusal says why; the completer's words are sorted, each once, and
 * its word starts within the line. */
#include "tests/fuzz/fuzz.h"
#include "src/commands.h"

static const char *const event_names[] = {
	"sched_switch", "sched_wakeup", "syscall_entry_openat", "app:send",
	NULL,
};
static const char *const field_names[] = {
	"prev_tid", "next_comm", "$ctx.vtid", "$payload.fd", NULL,
};
static const struct tn_completion_source source = {
	event_names, field_names, "22:13:20.000001332",
};

static void check_parse(const char *line)
{
	struct tn_parsed_command parsed;
	struct tn_error err;
	double clock = fuzz_clock_start();
	int status = tn_command_parse(line, &parsed, &err);

	fuzz_clock_stop(clock);
	if (status < 0) {
		FUZZ_CHECK(err.message[0], "\"%s\"", line);
		return;
	}
	if (status == 0) {
		FUZZ_CHECK(line[strspn(line, " \t:")] == '\0', "\"%s\"", line);
		return;
	}
	FUZZ_CHECK(parsed.command && parsed.args.argc >= 0 &&
		parsed.args.argc <= TN_COMMAND_MAX_ARGS, "\"%s\"", line);
	for (int i = 0; i < parsed.args.argc; i++)
		FUZZ_CHECK(parsed.args.argv[i] &&
			parsed.command->args[i].kind != TN_ARG_NONE,
			"\"%s\": argument %d", line, i);
	FUZZ_CHECK(!parsed.args.has_count || parsed.args.count >= 0,
		"\"%s\"", line);
	FUZZ_CHECK(!parsed.args.bang ||
		(parsed.command->flags & TN_CMD_BANG), "\"%s\"", line);
	tn_parsed_command_clear(&parsed);
}

static void check_words(const char *line)
{
	size_t last_start, count;
	char **words;
	double clock = fuzz_clock_start();
	int complete = tn_command_split_words(line, &words, &last_start);

	fuzz_clock_stop(clock);
	count = g_strv_length(words);
	FUZZ_CHECK(complete >= 0 && (size_t) complete <= count &&
		last_start <= strlen(line), "\"%s\"", line);
	g_strfreev(words);
}

static void check_completions(const char *line)
{
	GPtrArray *found;
	size_t start;
	bool whole;
	double clock;

	if (strchr(line, '/'))
		return;
	clock = fuzz_clock_start();
	found = tn_command_complete_word(line, &source, &start, &whole);
	fuzz_clock_stop(clock);
	FUZZ_CHECK(start <= strlen(line), "\"%s\"", line);
	for (guint i = 1; i < found->len; i++)
		FUZZ_CHECK(strcmp(found->pdata[i - 1], found->pdata[i]) < 0,
			"\"%s\": \"%s\" then \"%s\"", line,
			(char *) found->pdata[i - 1], (char *) found->pdata[i]);
	g_ptr_array_free(found, TRUE);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	char *script = fuzz_text(data, size);
	double clock = fuzz_clock_start();
	char **lines = tn_command_split_script(script);
	size_t bytes = 0, count;

	fuzz_clock_stop(clock);
	count = g_strv_length(lines);
	FUZZ_CHECK(count >= 1, "no line");
	for (size_t i = 0; i < count; i++) {
		bytes += strlen(lines[i]);
		check_parse(lines[i]);
		check_words(lines[i]);
		check_completions(lines[i]);
	}
	/* Every byte but the count - 1 separators. */
	FUZZ_CHECK(bytes + count - 1 == strlen(script), "\"%s\"", script);
	g_strfreev(lines);
	g_free(script);
}

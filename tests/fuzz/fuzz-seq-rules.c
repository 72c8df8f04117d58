/* fuzz-seq-rules.c - libFuzzer harness of the sequence diagram's rule
 * files (src/core/seq-rules.c: tn_seq_rules_parse(), the `where`
 * conditions through the filter expressions' parser).
 *
 * Checks: a refused file gets "rules:LINE:COLUMN: expected ..., got
 * ..." (or "bad condition", or a glob not in UTF-8) with LINE one of
 * its lines and COLUMN within that line; an accepted one holds at most
 * a rule a line, each on its line, with an event glob and the values
 * its kind needs; the rules' globs and the loaders line answer names,
 * UTF-8 or not. */
#include "tests/fuzz/fuzz.h"
#include "src/core/seq-rules-private.h"

#define NAME "rules"

/* The keys each kind needs (seq-rules.h). */
static bool has_needed_values(const struct tn_seq_rule *rule)
{
	const struct tn_seq_value *v = rule->values;

	if (rule->kind == TN_SEQ_RULE_LIFELINE)
		return v[TN_SEQ_KEY_NAME].given;
	return v[TN_SEQ_KEY_FROM].given && v[TN_SEQ_KEY_TO].given &&
		v[TN_SEQ_KEY_SIGNAL].given;
}

static void check_rules(const char *text, char **lines,
		const struct tn_seq_rules *rules)
{
	static const char *const names[] = {
		"app:send", "sched_wakeup", "ros2:rcl_publish", "",
		"sched_\xe3\xde", /* not UTF-8 */
	};
	guint line_count = g_strv_length(lines);

	FUZZ_CHECK(tn_seq_rules_get_count(rules) <= line_count, "%s", text);
	for (guint i = 0; i < rules->rules->len; i++) {
		const struct tn_seq_rule *rule = rules->rules->pdata[i];

		FUZZ_CHECK(rule->line >= 1 && (guint) rule->line <= line_count &&
			(i == 0 || rule->line > ((const struct tn_seq_rule *)
				rules->rules->pdata[i - 1])->line),
			"rule %u on line %d", i, rule->line);
		FUZZ_CHECK(rule->glob && rule->glob[0] && rule->pattern,
			"rule %u", i);
		FUZZ_CHECK(has_needed_values(rule), "rule %u (line %d)", i,
			rule->line);
		for (size_t n = 0; n < G_N_ELEMENTS(names); n++)
			(void) tn_seq_rule_matches_name(rule, names[n]);
		(void) tn_seq_rule_matches_name(rule, rule->glob);
	}
	(void) tn_seq_rules_keep_loader(rules, "kernel");
	(void) tn_seq_rules_keep_loader(rules, "reference");
}

/* "rules:LINE:COLUMN: ...": LINE and COLUMN name a place of the text. */
static void check_error(const char *text, char **lines, const char *message)
{
	long line, column;
	int skip = 0;
	char *at;

	FUZZ_CHECK(sscanf(message, NAME ":%ld:%ld: %n", &line, &column,
		&skip) == 2 && skip > 0, "%s", message);
	FUZZ_CHECK(line >= 1 && line <= (long) g_strv_length(lines),
		"%s", message);
	at = g_strdup(lines[line - 1]);
	/* The parser drops the '\r' of a CRLF line. */
	if (*at && at[strlen(at) - 1] == '\r')
		at[strlen(at) - 1] = '\0';
	FUZZ_CHECK(column >= 1 && column <= fuzz_chars(at) + 1,
		"\"%s\": %s", text, message);
	FUZZ_CHECK(g_str_has_prefix(message + skip, "expected ") ||
		g_str_has_prefix(message + skip, "bad condition: ") ||
		g_str_has_prefix(message + skip, "the event name is not "
			"UTF-8"), "%s", message);
	g_free(at);
}

static void fuzz_one(const uint8_t *data, size_t size)
{
	char *text = fuzz_text(data, size);
	char **lines = g_strsplit(text, "\n", -1);
	struct tn_seq_rules *rules;
	struct tn_error err;
	double clock = fuzz_clock_start();
	int status = tn_seq_rules_parse(NAME, text, &rules, &err);

	fuzz_clock_stop(clock);
	if (status == 0) {
		check_rules(text, lines, rules);
		tn_seq_rules_destroy(rules);
	} else {
		check_error(text, lines, err.message);
	}
	g_strfreev(lines);
	g_free(text);
}

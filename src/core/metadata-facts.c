/* metadata-facts.c - what a trace's metadata text says of its trace,
 * read by tracenav before libbabeltrace2 parses it (see
 * metadata-facts.h): the trace's UUID and tracer, and, for a trace
 * whose blocks are plain, its env entries and clock as libbabeltrace2
 * 2.0's CTF 1.8 reader makes them (trace-info.c: `--info` without a
 * reader).
 *
 * Only what is sure to read the same is taken as plain: strings of
 * printable ASCII without escapes, integers of decimal digits (no
 * leading zero, which is octal; no sign, no suffix), identifiers.  Any
 * other value, a duplicate env entry or an unknown clock attribute
 * makes the facts not plain, and the caller lets libbabeltrace2 read
 * the trace.
 */
#define _GNU_SOURCE	/* memmem() */
#include <glib.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "metadata-facts.h"

/* Skip blanks and comments from p (before end). */
static const char *skip_blanks(const char *p, const char *end)
{
	for (;;) {
		while (p < end && strchr(" \t\r\n", *p))
			p++;
		if (end - p >= 2 && p[0] == '/' && p[1] == '*') {
			const char *close = g_strstr_len(p + 2, end - p - 2,
				"*/");

			p = close ? close + 2 : end;
		} else if (end - p >= 2 && p[0] == '/' && p[1] == '/') {
			while (p < end && *p != '\n')
				p++;
		} else {
			return p;
		}
	}
}

/* The identifier at p (before end) into word (size bytes): its end. */
static const char *take_word(const char *p, const char *end, char *word,
		size_t size)
{
	size_t n = 0;

	while (p < end && (g_ascii_isalnum(*p) || *p == '_')) {
		if (n + 1 < size)
			word[n++] = *p;
		p++;
	}
	word[n] = '\0';
	return p;
}

/* The value of a `name = value;` entry. */
struct entry_value {
	enum { VALUE_OTHER, VALUE_STRING, VALUE_INTEGER } kind;
	bool plain;		/* read as libbabeltrace2 reads it */
	const char *text;	/* VALUE_STRING: its bytes (an identifier's
				 * too), not terminated */
	size_t len;
	uint64_t number;	/* VALUE_INTEGER */
};

/* The string at p (its `"`): into v; returns where it ends. */
static const char *take_string(const char *p, const char *end,
		struct entry_value *v)
{
	v->kind = VALUE_STRING;
	v->plain = true;
	v->text = ++p;
	for (; p < end && *p != '"'; p++) {
		if (*p == '\\') {
			v->plain = false;
			if (p + 1 < end)
				p++;
		} else if ((unsigned char) *p < 0x20 ||
			   (unsigned char) *p > 0x7e) {
			v->plain = false;
		}
	}
	v->len = (size_t) (p - v->text);
	if (p >= end)
		v->plain = false;	/* cut */
	return p < end ? p + 1 : p;
}

/* The value at p (blanks skipped) into v; returns where the entry ends
 * (its `;` or the block's `}`, not taken). */
static const char *take_value(const char *p, const char *end,
		struct entry_value *v)
{
	*v = (struct entry_value) { VALUE_OTHER, false, NULL, 0, 0 };
	if (p < end && *p == '"') {
		p = take_string(p, end, v);
	} else if (p < end && g_ascii_isdigit(*p)) {
		const char *digits = p;

		v->kind = VALUE_INTEGER;
		v->plain = !(*p == '0' && p + 1 < end &&
			g_ascii_isalnum(p[1]));
		for (; p < end && g_ascii_isdigit(*p); p++) {
			if (v->number > (UINT64_MAX - 9) / 10)
				v->plain = false;
			v->number = v->number * 10 + (uint64_t) (*p - '0');
		}
		v->text = digits;
		v->len = (size_t) (p - digits);
	} else if (p < end && (g_ascii_isalpha(*p) || *p == '_')) {
		v->kind = VALUE_STRING;
		v->plain = true;
		v->text = p;
		while (p < end && (g_ascii_isalnum(*p) || *p == '_'))
			p++;
		v->len = (size_t) (p - v->text);
	}
	/* Anything but the entry's end after it (a suffix, a second
	 * string, an expression): not a value read the same. */
	p = skip_blanks(p, end);
	if (p >= end || *p != ';')
		v->plain = false;
	while (p < end && *p != ';' && *p != '}') {
		if (*p == '"') {
			struct entry_value skipped;

			p = take_string(p, end, &skipped);
		} else {
			p++;
		}
	}
	return p;
}

/* A string value into buf (size bytes): false if it is not one, or
 * longer. */
static bool value_string(const struct entry_value *v, char *buf, size_t size)
{
	if (v->kind != VALUE_STRING || v->len >= size)
		return false;
	memcpy(buf, v->text, v->len);
	buf[v->len] = '\0';
	return true;
}

/* The value as libbabeltrace2 prints an env entry's: a string, or a
 * signed integer.  NULL when not plain. */
static char *env_value_text(const struct entry_value *v)
{
	if (!v->plain)
		return NULL;
	if (v->kind == VALUE_STRING)
		return g_strndup(v->text, v->len);
	if (v->kind == VALUE_INTEGER && v->number <= INT64_MAX)
		return g_strdup_printf("%" PRId64, (int64_t) v->number);
	return NULL;
}

static void note_env(struct tn_metadata_facts *facts, const char *name,
		const struct entry_value *v)
{
	char *text = env_value_text(v);

	if (strcmp(name, "tracer_name") == 0 && v->kind == VALUE_STRING) {
		size_t n = MIN(v->len, sizeof(facts->tracer_name) - 1);

		memcpy(facts->tracer_name, v->text, n);
		facts->tracer_name[n] = '\0';
		facts->has_tracer = true;
	} else if (v->kind == VALUE_INTEGER && v->number <= 1000000) {
		if (strcmp(name, "tracer_major") == 0)
			facts->tracer_major = (long) v->number;
		else if (strcmp(name, "tracer_minor") == 0)
			facts->tracer_minor = (long) v->number;
		else if (strcmp(name, "tracer_patchlevel") == 0)
			facts->tracer_patchlevel = (long) v->number;
	}
	/* src.ctf.fs names the trace after a string hostname only. */
	if (strcmp(name, "hostname") == 0 && v->kind != VALUE_STRING)
		g_clear_pointer(&text, g_free);
	if (!facts->env)
		facts->env = g_ptr_array_new_with_free_func(g_free);
	for (guint i = 0; text && i < facts->env->len; i += 2)
		if (strcmp(facts->env->pdata[i], name) == 0)
			g_clear_pointer(&text, g_free);	/* replaced */
	if (!text) {
		facts->env_plain = false;
		return;
	}
	g_ptr_array_add(facts->env, g_strdup(name));
	g_ptr_array_add(facts->env, text);
}

/* One attribute of a `clock` block, as libbabeltrace2 2.0 reads it
 * (its default: 1 GHz, no offset, not absolute). */
static void note_clock(struct tn_metadata_facts *facts, const char *name,
		const struct entry_value *v)
{
	struct tn_metadata_clock *c = &facts->clock;
	bool ok = v->plain;

	if (strcmp(name, "name") == 0)
		ok = ok && value_string(v, c->name, sizeof(c->name));
	else if (strcmp(name, "uuid") == 0 || strcmp(name, "description") == 0)
		ok = ok && v->kind == VALUE_STRING;
	else if (strcmp(name, "freq") == 0)
		ok = ok && v->kind == VALUE_INTEGER && v->number > 0;
	else if (strcmp(name, "precision") == 0 ||
		 strcmp(name, "offset") == 0)
		ok = ok && v->kind == VALUE_INTEGER;
	else if (strcmp(name, "offset_s") == 0)
		ok = ok && v->kind == VALUE_INTEGER && v->number <= INT64_MAX;
	else if (strcmp(name, "absolute") == 0)
		ok = ok && ((v->kind == VALUE_INTEGER && v->number <= 1) ||
			(v->kind == VALUE_STRING && v->len >= 4 && v->len <= 5 &&
			 (!strncmp(v->text, "true", v->len) ||
			  !strncmp(v->text, "TRUE", v->len) ||
			  !strncmp(v->text, "false", v->len) ||
			  !strncmp(v->text, "FALSE", v->len))));
	else
		ok = false;
	if (!ok) {
		facts->clock_plain = false;
		return;
	}
	if (strcmp(name, "freq") == 0)
		c->frequency = v->number;
	else if (strcmp(name, "offset") == 0)
		c->offset_cycles = v->number;
	else if (strcmp(name, "offset_s") == 0)
		c->offset_seconds = (int64_t) v->number;
	else if (strcmp(name, "absolute") == 0)
		c->absolute = v->kind == VALUE_INTEGER ? v->number != 0 :
			(v->text[0] == 't' || v->text[0] == 'T');
}

/* One `name = value;` of a block. */
static void note_fact(struct tn_metadata_facts *facts, const char *block,
		const char *name, const struct entry_value *v)
{
	char uuid[40];

	if (strcmp(block, "trace") == 0 && strcmp(name, "uuid") == 0 &&
	    value_string(v, uuid, sizeof(uuid)) && strlen(uuid) == 36) {
		for (size_t i = 0; i <= 36; i++)
			facts->uuid[i] = g_ascii_tolower(uuid[i]);
		facts->has_uuid = true;
	} else if (strcmp(block, "env") == 0) {
		note_env(facts, name, v);
	} else if (strcmp(block, "clock") == 0 && facts->clock_count == 1) {
		note_clock(facts, name, v);
	}
}

/* The block `block` whose `{` is at p: its own `name = value;` entries
 * (not those of the blocks inside it, nor `name := type;`).  Returns
 * where it ends. */
static const char *read_block(const char *p, const char *end,
		const char *block, struct tn_metadata_facts *facts)
{
	unsigned depth = 0;

	for (p++; (p = skip_blanks(p, end)) < end;) {
		char word[64];
		struct entry_value value;

		if (*p == '{') {
			depth++;
			p++;
		} else if (*p == '}') {
			if (depth-- == 0)
				return p + 1;
			p++;
		} else if (*p == '"') {
			p = take_string(p, end, &value);
		} else if (depth == 0 && (g_ascii_isalpha(*p) || *p == '_')) {
			p = skip_blanks(take_word(p, end, word, sizeof(word)),
				end);
			if (p < end && *p == '=') {
				p = take_value(skip_blanks(p + 1, end), end,
					&value);
				note_fact(facts, block, word, &value);
			}
		} else {
			p++;
		}
	}
	return p;
}

/* The clock as libbabeltrace2 2.0 makes it: LTTng's monotonic clock is
 * absolute (old LTTng versions forgot to say so), and whole seconds of
 * the offset in cycles go to the offset in seconds. */
static void finish_clock(struct tn_metadata_facts *facts, const char *text,
		size_t len)
{
	struct tn_metadata_clock *c = &facts->clock;
	char mapped[sizeof(c->name) + 16];

	if (facts->clock_count != 1 || !facts->clock_plain || !c->name[0]) {
		facts->clock_plain = false;
		return;
	}
	if (facts->has_tracer && strncmp(facts->tracer_name, "lttng", 5) == 0 &&
	    strcmp(c->name, "monotonic") == 0)
		c->absolute = true;
	if (c->offset_cycles >= c->frequency) {
		c->offset_seconds += (int64_t) (c->offset_cycles / c->frequency);
		c->offset_cycles %= c->frequency;
	}
	snprintf(mapped, sizeof(mapped), "clock.%s.value", c->name);
	facts->clock_mapped = memmem(text, len, mapped, strlen(mapped)) != NULL;
}

void tn_metadata_read_facts(const char *text, size_t len,
		struct tn_metadata_facts *facts)
{
	const char *p = text, *end = text + len;

	*facts = (struct tn_metadata_facts) { .tracer_major = -1,
		.tracer_minor = -1, .tracer_patchlevel = -1, .env_plain = true,
		.clock_plain = true, .clock = { .frequency = 1000000000 } };
	/* The top-level `trace`, `env` and `clock` blocks, up to the first
	 * stream or event class (LTTng and barectf write them first; the
	 * rest, the event classes, is not read). */
	while ((p = skip_blanks(p, end)) < end) {
		char word[64];

		if (*p == '"') {
			struct entry_value skipped;

			p = take_string(p, end, &skipped);
		} else if (g_ascii_isalpha(*p) || *p == '_') {
			p = skip_blanks(take_word(p, end, word, sizeof(word)),
				end);
			if (p < end && *p == '{' && (strcmp(word, "stream") == 0 ||
					strcmp(word, "event") == 0))
				break;
			if (p < end && *p == '{' && strcmp(word, "clock") == 0)
				facts->clock_count++;
			if (p < end && *p == '{')
				p = read_block(p, end, word, facts);
		} else {
			p++;
		}
	}
	finish_clock(facts, text, len);
}

bool tn_metadata_facts_plain(const struct tn_metadata_facts *facts)
{
	return facts->env_plain && facts->env && facts->clock_plain &&
		facts->clock_mapped;
}

void tn_metadata_facts_fini(struct tn_metadata_facts *facts)
{
	if (facts->env)
		g_ptr_array_free(facts->env, TRUE);
	facts->env = NULL;
}

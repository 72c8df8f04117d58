/* filter-expr.c - the field expressions of `filter EXPR`: a lexer, a
 * recursive-descent parser into a tree, and its evaluation on events
 * (see filter-expr.h). */
#include <errno.h>
#include <glib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter-expr.h"
#include "tracenav/regex.h"

/* Parentheses and ! nest at most this deep. */
#define MAX_DEPTH 200

enum token_kind {
	T_END, T_LPAREN, T_RPAREN, T_NOT, T_AND, T_OR,
	T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_MATCH, T_NOMATCH,
	T_NUMBER, T_STRING, T_WORD,
};

struct number {
	bool real;
	bool negative;		/* an integer: -magnitude */
	uint64_t magnitude;
	double d;		/* real */
};

struct token {
	enum token_kind kind;
	size_t offset, len;	/* in the text */
	struct number number;	/* T_NUMBER */
	char *string;		/* T_STRING, unescaped (owned) */
};

enum operand_kind { OPERAND_NAME, OPERAND_CPU, OPERAND_FIELD,
	OPERAND_NUMBER, OPERAND_STRING };

struct operand {
	enum operand_kind kind;
	enum tn_field_scope scope;	/* FIELD */
	char *path;			/* FIELD */
	struct number number;		/* NUMBER */
	char *string;			/* STRING */
};

enum node_kind { NODE_OR, NODE_AND, NODE_NOT, NODE_COMPARE };

struct node {
	enum node_kind kind;
	struct node *a, *b;		/* OR, AND: both; NOT: a */
	enum token_kind op;		/* COMPARE: T_EQ ... T_NOMATCH */
	struct operand left, right;
	int regex;			/* =~ and !~: index in regexes */
};

struct tn_expr {
	struct node *root;
	GPtrArray *regexes;		/* struct tn_regex * */
	bool name_only;
};

struct tn_expr_eval {
	const struct tn_expr *expr;
	struct tn_regex_matcher **matchers;
};

/* ---- lexer ---- */

struct parser {
	const char *text;
	GArray *tokens;		/* struct token */
	guint at;		/* the next token */
	int depth;
	struct tn_expr *expr;
	struct tn_error *err;
};

static long column_of(const char *text, size_t offset)
{
	return g_utf8_validate(text, (gssize) offset, NULL) ?
		g_utf8_strlen(text, (gssize) offset) + 1 : (long) offset + 1;
}

static void set_error(struct parser *p, size_t offset, const char *what)
{
	tn_error_set(p->err, "column %ld: %s", column_of(p->text, offset),
		what);
}

static bool is_word_start(char c)
{
	return g_ascii_isalpha(c) || c == '_' || c == '$';
}

static bool is_word_char(char c)
{
	return g_ascii_isalnum(c) || c == '_' || c == '.';
}

static int hex_digit(char c)
{
	return g_ascii_isxdigit(c) ? g_ascii_xdigit_value(c) : -1;
}

/* A quoted string at text[*pos]; *pos moves past its closing quote. */
static int lex_string(struct parser *p, size_t *pos, char **out)
{
	const char *text = p->text;
	char quote = text[*pos];
	size_t start = *pos, i = *pos + 1;
	GString *s = g_string_new(NULL);

	while (text[i] && text[i] != quote) {
		char c = text[i++];

		if (c != '\\') {
			g_string_append_c(s, c);
			continue;
		}
		c = text[i];
		if (!c)
			break;
		i++;
		switch (c) {
		case 'n': g_string_append_c(s, '\n'); break;
		case 't': g_string_append_c(s, '\t'); break;
		case 'r': g_string_append_c(s, '\r'); break;
		case 'x':
			if (hex_digit(text[i]) >= 0 &&
			    hex_digit(text[i + 1]) >= 0) {
				g_string_append_c(s, (char) (hex_digit(text[i]) *
					16 + hex_digit(text[i + 1])));
				i += 2;
				break;
			}
			set_error(p, i - 2, "\\x needs two hex digits "
				"(\\x41)");
			g_string_free(s, TRUE);
			return -1;
		default:
			/* \" \' \\ and the rest: the character itself, so
			 * that a regex keeps its own escapes (\d, \.). */
			if (c != '"' && c != '\'' && c != '\\')
				g_string_append_c(s, '\\');
			g_string_append_c(s, c);
			break;
		}
	}
	if (text[i] != quote) {
		set_error(p, start, "missing closing quote");
		g_string_free(s, TRUE);
		return -1;
	}
	*pos = i + 1;
	*out = g_string_free(s, FALSE);
	return 0;
}

/* A number at text[*pos]: [-]digits, [-]0xHEX, or with a fraction or an
 * exponent. */
static int lex_number(struct parser *p, size_t *pos, struct number *out)
{
	const char *text = p->text, *start = text + *pos, *digits = start;
	char *end;

	memset(out, 0, sizeof(*out));
	if (*digits == '-') {
		out->negative = true;
		digits++;
	}
	errno = 0;
	if (digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) {
		if (hex_digit(digits[2]) < 0) {
			set_error(p, *pos, "0x needs hex digits (0x1f)");
			return -1;
		}
		out->magnitude = strtoull(digits + 2, &end, 16);
	} else {
		out->magnitude = strtoull(digits, &end, 10);
		if (*end == '.' || *end == 'e' || *end == 'E') {
			out->real = true;
			out->d = strtod(start, &end);
		}
	}
	if (errno == ERANGE) {
		set_error(p, *pos, "number too large");
		return -1;
	}
	if (is_word_char(*end) && !(out->real && *end == '.')) {
		set_error(p, *pos, "not a number: use digits, 0x and hex "
			"digits, or a fraction (1.5)");
		return -1;
	}
	*pos = (size_t) (end - text);
	return 0;
}

static int lex(struct parser *p)
{
	static const struct {
		const char *text;
		enum token_kind kind;
	} operators[] = {
		{ "&&", T_AND }, { "||", T_OR }, { "==", T_EQ }, { "!=", T_NE },
		{ "=~", T_MATCH }, { "!~", T_NOMATCH }, { "<=", T_LE },
		{ ">=", T_GE }, { "<", T_LT }, { ">", T_GT }, { "!", T_NOT },
		{ "(", T_LPAREN }, { ")", T_RPAREN },
	};
	const char *text = p->text;
	size_t pos = 0;

	for (;;) {
		struct token token = { 0 };
		bool found = false;

		while (g_ascii_isspace(text[pos]))
			pos++;
		token.offset = pos;
		if (!text[pos]) {
			token.kind = T_END;
			g_array_append_val(p->tokens, token);
			return 0;
		}
		for (size_t i = 0; i < G_N_ELEMENTS(operators) && !found; i++) {
			size_t len = strlen(operators[i].text);

			if (strncmp(text + pos, operators[i].text, len) == 0) {
				token.kind = operators[i].kind;
				pos += len;
				found = true;
			}
		}
		if (found) {
			/* nothing more */
		} else if (text[pos] == '"' || text[pos] == '\'') {
			token.kind = T_STRING;
			if (lex_string(p, &pos, &token.string))
				return -1;
		} else if (g_ascii_isdigit(text[pos]) || (text[pos] == '-' &&
				g_ascii_isdigit(text[pos + 1]))) {
			token.kind = T_NUMBER;
			if (lex_number(p, &pos, &token.number))
				return -1;
		} else if (is_word_start(text[pos])) {
			token.kind = T_WORD;
			pos++;
			while (is_word_char(text[pos]))
				pos++;
		} else if (text[pos] == '=' || text[pos] == '&' ||
				text[pos] == '|') {
			set_error(p, pos, text[pos] == '=' ? "'=' alone is no "
				"operator: compare with ==, match with =~" :
				"use && and || for and and or");
			return -1;
		} else {
			char what[64];
			const char *next = g_utf8_find_next_char(text + pos,
				NULL);
			int len = next ? (int) (next - text - pos) : 1;

			snprintf(what, sizeof(what), "unexpected '%.*s'", len,
				text + pos);
			set_error(p, pos, what);
			return -1;
		}
		token.len = pos - token.offset;
		g_array_append_val(p->tokens, token);
	}
}

/* ---- parser ---- */

static struct token *peek(struct parser *p)
{
	return &g_array_index(p->tokens, struct token, p->at);
}

static struct token *take(struct parser *p)
{
	struct token *token = peek(p);

	if (token->kind != T_END)
		p->at++;
	return token;
}

/* "'prev_tid'" or "the end": what a message names. */
static char *describe(const struct parser *p, const struct token *token)
{
	if (token->kind == T_END)
		return g_strdup("the end");
	return g_strdup_printf("'%.*s'", (int) MIN(token->len, 40),
		p->text + token->offset);
}

static void free_operand(struct operand *operand)
{
	g_free(operand->path);
	g_free(operand->string);
}

static void free_node(struct node *node)
{
	if (!node)
		return;
	free_node(node->a);
	free_node(node->b);
	free_operand(&node->left);
	free_operand(&node->right);
	g_free(node);
}

/* A word as an operand: name, cpu, a field, $scope.field. */
static int word_operand(struct parser *p, const struct token *token,
		struct operand *out)
{
	char *word = g_strndup(p->text + token->offset, token->len);
	size_t len = strcspn(word, ".");

	out->kind = OPERAND_FIELD;
	out->scope = TN_SCOPE_ANY;
	if (strcmp(word, "name") == 0) {
		out->kind = OPERAND_NAME;
	} else if (strcmp(word, "cpu") == 0) {
		out->kind = OPERAND_CPU;
	} else if (word[0] == '$') {
		bool known = tn_field_scope_from_name(word, len, &out->scope);

		if (!known || !word[len] || !word[len + 1]) {
			set_error(p, token->offset, known ? "a scope needs a "
				"field name after it ($payload.fd)" : "unknown "
				"scope: use $payload., $ctx., $cctx., $sctx. or "
				"$pctx.");
			g_free(word);
			return -1;
		}
		out->path = g_strdup(word + len + 1);
	} else {
		out->path = g_strdup(word);
	}
	if (out->path && (strstr(out->path, "..") ||
	    out->path[strlen(out->path) - 1] == '.')) {
		set_error(p, token->offset, "a field name has no empty part "
			"(a.b)");
		g_free(word);
		return -1;
	}
	g_free(word);
	return 0;
}

/* An operand, or -1 with "expected ... after what". */
static int parse_operand(struct parser *p, const char *after,
		struct operand *out)
{
	struct token *token = peek(p);
	char *what, *message;

	memset(out, 0, sizeof(*out));
	switch (token->kind) {
	case T_NUMBER:
		out->kind = OPERAND_NUMBER;
		out->number = take(p)->number;
		return 0;
	case T_STRING:
		out->kind = OPERAND_STRING;
		out->string = g_strdup(take(p)->string);
		return 0;
	case T_WORD:
		return word_operand(p, take(p), out);
	default:
		break;
	}
	what = describe(p, token);
	message = after ? g_strdup_printf("expected a value after '%s', "
		"not %s", after, what) : g_strdup_printf("expected a "
		"comparison (name == \"sched_switch\"), not %s", what);
	set_error(p, token->offset, message);
	g_free(what);
	g_free(message);
	return -1;
}

static const char *op_text(enum token_kind kind)
{
	switch (kind) {
	case T_EQ: return "==";
	case T_NE: return "!=";
	case T_LT: return "<";
	case T_LE: return "<=";
	case T_GT: return ">";
	case T_GE: return ">=";
	case T_MATCH: return "=~";
	case T_NOMATCH: return "!~";
	default: return "?";
	}
}

static struct node *new_node(enum node_kind kind, struct node *a,
		struct node *b)
{
	struct node *node = g_new0(struct node, 1);

	node->kind = kind;
	node->a = a;
	node->b = b;
	node->regex = -1;
	return node;
}

static int compile_regex(struct parser *p, const struct token *token,
		struct node *node)
{
	struct tn_regex *re;
	struct tn_error re_err;
	long inner;
	int skip = 0;

	if (node->right.kind != OPERAND_STRING) {
		char *message2 = g_strdup_printf("expected a quoted regex "
			"after '%s' (name =~ \"^syscall_\")",
			op_text(node->op));

		set_error(p, token->offset, message2);
		g_free(message2);
		return -1;
	}
	if (tn_regex_compile(node->right.string, &re, &re_err)) {
		/* "bad regex: column 3: ...": the column in the whole
		 * expression (the pattern starts after the quote). */
		if (sscanf(re_err.message, "bad regex: column %ld: %n", &inner,
				&skip) == 1 && skip > 0)
			tn_error_set(p->err, "column %ld: bad regex: %s",
				column_of(p->text, token->offset) + inner,
				re_err.message + skip);
		else
			set_error(p, token->offset, re_err.message);
		return -1;
	}
	node->regex = (int) p->expr->regexes->len;
	g_ptr_array_add(p->expr->regexes, re);
	return 0;
}

static struct node *parse_compare(struct parser *p)
{
	struct node *node = new_node(NODE_COMPARE, NULL, NULL);
	struct token *token, *value;

	if (parse_operand(p, NULL, &node->left))
		goto fail;
	token = peek(p);
	if (token->kind < T_EQ || token->kind > T_NOMATCH) {
		const struct token *operand = &g_array_index(p->tokens,
			struct token, p->at - 1);
		char *what = describe(p, operand);
		char *message = g_strdup_printf("expected a comparison "
			"(== != < <= > >= =~ !~) after %s", what);

		set_error(p, token->offset, message);
		g_free(what);
		g_free(message);
		goto fail;
	}
	node->op = take(p)->kind;
	value = peek(p);
	if (parse_operand(p, op_text(node->op), &node->right))
		goto fail;
	if ((node->op == T_MATCH || node->op == T_NOMATCH) &&
	    compile_regex(p, value, node))
		goto fail;
	return node;
fail:
	free_node(node);
	return NULL;
}

static struct node *parse_or(struct parser *p);

static struct node *parse_unary(struct parser *p)
{
	struct token *token = peek(p);
	struct node *node;

	if (++p->depth > MAX_DEPTH) {
		set_error(p, token->offset, "nested too deeply");
		return NULL;
	}
	if (token->kind == T_NOT) {
		take(p);
		node = parse_unary(p);
		node = node ? new_node(NODE_NOT, node, NULL) : NULL;
	} else if (token->kind == T_LPAREN) {
		take(p);
		node = parse_or(p);
		if (node && peek(p)->kind != T_RPAREN) {
			char *what = describe(p, peek(p));
			char *message = g_strdup_printf("expected ')' to close "
				"the '(' of column %ld, not %s",
				column_of(p->text, token->offset), what);

			set_error(p, peek(p)->offset, message);
			g_free(what);
			g_free(message);
			free_node(node);
			node = NULL;
		} else if (node) {
			take(p);
		}
	} else {
		node = parse_compare(p);
	}
	p->depth--;
	return node;
}

/* The n terms of a chain a && b && c ... (or ||) as a balanced tree:
 * the same answers, the terms evaluated in the same order and as far,
 * and a depth that grows as the log of the chain's length (as a chain
 * from the left, a million comparisons overflowed the stack of the
 * functions that walk the tree). */
static struct node *balanced(enum node_kind kind, struct node **terms,
		size_t n)
{
	if (n == 1)
		return terms[0];
	return new_node(kind, balanced(kind, terms, n / 2),
		balanced(kind, terms + n / 2, n - n / 2));
}

/* A chain of terms (parse_term) joined by op, as kind nodes. */
static struct node *parse_chain(struct parser *p, enum token_kind op,
		enum node_kind kind, struct node *(*parse_term)(struct parser *))
{
	GPtrArray *terms = g_ptr_array_new();
	struct node *node;

	for (;;) {
		node = parse_term(p);
		if (!node)
			break;
		g_ptr_array_add(terms, node);
		if (peek(p)->kind != op)
			break;
		take(p);
	}
	if (node)
		node = balanced(kind, (struct node **) terms->pdata,
			terms->len);
	else
		for (guint i = 0; i < terms->len; i++)
			free_node(terms->pdata[i]);
	g_ptr_array_free(terms, TRUE);
	return node;
}

static struct node *parse_and(struct parser *p)
{
	return parse_chain(p, T_AND, NODE_AND, parse_unary);
}

static struct node *parse_or(struct parser *p)
{
	return parse_chain(p, T_OR, NODE_OR, parse_and);
}

static bool operand_uses_event(const struct operand *operand)
{
	return operand->kind == OPERAND_CPU || operand->kind == OPERAND_FIELD;
}

static bool node_name_only(const struct node *node)
{
	if (!node)
		return true;
	if (node->kind == NODE_COMPARE)
		return !operand_uses_event(&node->left) &&
			!operand_uses_event(&node->right);
	return node_name_only(node->a) && node_name_only(node->b);
}

int tn_expr_parse(const char *text, struct tn_expr **out,
		struct tn_error *err)
{
	struct parser p = { text, g_array_new(FALSE, TRUE,
		sizeof(struct token)), 0, 0, NULL, err };
	struct tn_expr *expr = g_new0(struct tn_expr, 1);
	int status = -1;

	expr->regexes = g_ptr_array_new_with_free_func(
		(GDestroyNotify) tn_regex_destroy);
	p.expr = expr;
	if (lex(&p) == 0) {
		if (peek(&p)->kind == T_END) {
			tn_error_set(err, "empty expression: compare a field, "
				"as in name == \"sched_switch\"");
		} else if ((expr->root = parse_or(&p)) != NULL) {
			struct token *token = peek(&p);

			if (token->kind == T_END) {
				status = 0;
			} else {
				char *what = describe(&p, token);
				char *message = g_strdup_printf("expected && or "
					"|| before %s", what);

				set_error(&p, token->offset, message);
				g_free(what);
				g_free(message);
			}
		}
	}
	for (guint i = 0; i < p.tokens->len; i++)
		g_free(g_array_index(p.tokens, struct token, i).string);
	g_array_free(p.tokens, TRUE);
	if (status) {
		tn_expr_destroy(expr);
		return -1;
	}
	expr->name_only = node_name_only(expr->root);
	*out = expr;
	return 0;
}

void tn_expr_destroy(struct tn_expr *expr)
{
	if (!expr)
		return;
	free_node(expr->root);
	g_ptr_array_free(expr->regexes, TRUE);
	g_free(expr);
}

bool tn_expr_uses_name_only(const struct tn_expr *expr)
{
	return expr->name_only;
}

/* ---- evaluation ---- */

struct tn_expr_eval *tn_expr_eval_new(const struct tn_expr *expr)
{
	struct tn_expr_eval *eval = g_new0(struct tn_expr_eval, 1);

	eval->expr = expr;
	eval->matchers = g_new0(struct tn_regex_matcher *,
		expr->regexes->len + 1);
	for (guint i = 0; i < expr->regexes->len; i++)
		eval->matchers[i] = tn_regex_matcher_new(
			g_ptr_array_index(expr->regexes, i));
	return eval;
}

void tn_expr_eval_free(struct tn_expr_eval *eval)
{
	if (!eval)
		return;
	for (guint i = 0; i < eval->expr->regexes->len; i++)
		tn_regex_matcher_free(eval->matchers[i]);
	g_free(eval->matchers);
	g_free(eval);
}

/* What an evaluation reads: an event, or only a name. */
struct source {
	const struct tn_event *ev;
	const char *name;	/* the event's, once asked */
};

static const char *source_name(struct source *src)
{
	if (!src->name)
		src->name = tn_event_get_name(src->ev);
	return src->name;
}

static void number_value(const struct number *n, struct tn_field_value *v)
{
	memset(v, 0, sizeof(*v));
	if (n->real) {
		v->type = TN_VALUE_REAL;
		v->d = n->d;
	} else if (!n->negative) {
		v->type = TN_VALUE_UNSIGNED;
		v->u = n->magnitude;
	} else if (n->magnitude <= (uint64_t) INT64_MAX + 1) {
		v->type = TN_VALUE_SIGNED;
		v->s = (int64_t) (0 - n->magnitude);
	} else {
		v->type = TN_VALUE_REAL;
		v->d = -(double) n->magnitude;
	}
}

/* The value of an operand; false when the event lacks it. */
static bool operand_value(const struct operand *operand, struct source *src,
		struct tn_field_value *v)
{
	int64_t cpu;

	memset(v, 0, sizeof(*v));
	switch (operand->kind) {
	case OPERAND_NAME:
		v->type = TN_VALUE_STRING;
		v->string = source_name(src);
		return true;
	case OPERAND_CPU:
		if (!src->ev || (cpu = tn_event_get_cpu(src->ev)) < 0)
			return false;
		v->type = TN_VALUE_UNSIGNED;
		v->u = (uint64_t) cpu;
		return true;
	case OPERAND_FIELD:
		return src->ev && tn_event_find_field(src->ev, operand->scope,
			operand->path, v);
	case OPERAND_NUMBER:
		number_value(&operand->number, v);
		return true;
	case OPERAND_STRING:
		v->type = TN_VALUE_STRING;
		v->string = operand->string;
		return true;
	}
	return false;
}

static bool is_number(const struct tn_field_value *v)
{
	return v->type == TN_VALUE_SIGNED || v->type == TN_VALUE_UNSIGNED ||
		v->type == TN_VALUE_REAL;
}

static double as_double(const struct tn_field_value *v)
{
	return v->type == TN_VALUE_REAL ? v->d : v->type == TN_VALUE_SIGNED ?
		(double) v->s : (double) v->u;
}

/* Order two numbers: -1, 0, 1, or 2 when they do not compare (NaN). */
static int compare_numbers(const struct tn_field_value *a,
		const struct tn_field_value *b)
{
	bool a_neg, b_neg;
	uint64_t a_mag, b_mag;

	if (a->type == TN_VALUE_REAL || b->type == TN_VALUE_REAL) {
		double x = as_double(a), y = as_double(b);

		if (isnan(x) || isnan(y))
			return 2;
		return (x > y) - (x < y);
	}
	a_neg = a->type == TN_VALUE_SIGNED && a->s < 0;
	b_neg = b->type == TN_VALUE_SIGNED && b->s < 0;
	if (a_neg != b_neg)
		return a_neg ? -1 : 1;
	a_mag = a->type == TN_VALUE_UNSIGNED ? a->u : a_neg ?
		0 - (uint64_t) a->s : (uint64_t) a->s;
	b_mag = b->type == TN_VALUE_UNSIGNED ? b->u : b_neg ?
		0 - (uint64_t) b->s : (uint64_t) b->s;
	if (a_neg)
		return (b_mag > a_mag) - (b_mag < a_mag);
	return (a_mag > b_mag) - (a_mag < b_mag);
}

static bool order_holds(enum token_kind op, int cmp)
{
	switch (op) {
	case T_EQ: return cmp == 0;
	case T_NE: return cmp != 0 && cmp != 2;
	case T_LT: return cmp == -1;
	case T_LE: return cmp == -1 || cmp == 0;
	case T_GT: return cmp == 1;
	case T_GE: return cmp == 1 || cmp == 0;
	default: return false;
	}
}

/* An enumeration against a string: by its labels. */
static bool labels_equal(const struct tn_field_value *v, const char *text)
{
	for (uint64_t i = 0; i < v->label_count; i++)
		if (strcmp(v->labels[i], text) == 0)
			return true;
	return false;
}

static bool compare_values(enum token_kind op, const struct tn_field_value *a,
		const struct tn_field_value *b)
{
	const struct tn_field_value *e, *s;

	if (is_number(a) && is_number(b))
		return order_holds(op, compare_numbers(a, b));
	if (a->type == TN_VALUE_STRING && b->type == TN_VALUE_STRING) {
		int cmp = strcmp(a->string, b->string);

		return order_holds(op, (cmp > 0) - (cmp < 0));
	}
	/* An enumeration and a string: == and != by its labels. */
	e = a->is_enum ? a : b;
	s = e == a ? b : a;
	if (e->is_enum && s->type == TN_VALUE_STRING) {
		if (op == T_EQ)
			return labels_equal(e, s->string);
		if (op == T_NE)
			return !labels_equal(e, s->string);
	}
	return false;
}

/* =~ and !~: a string, or an enumeration's labels; false for the rest,
 * whichever the operator. */
static bool match_value(struct tn_regex_matcher *matcher, enum token_kind op,
		const struct tn_field_value *v)
{
	bool found = false;

	if (v->type == TN_VALUE_STRING)
		found = tn_regex_matches(matcher, v->string);
	else if (v->is_enum)
		for (uint64_t i = 0; i < v->label_count && !found; i++)
			found = tn_regex_matches(matcher, v->labels[i]);
	else
		return false;
	return op == T_MATCH ? found : !found;
}

static bool eval_node(struct tn_expr_eval *eval, const struct node *node,
		struct source *src)
{
	struct tn_field_value left, right;

	switch (node->kind) {
	case NODE_OR:
		return eval_node(eval, node->a, src) ||
			eval_node(eval, node->b, src);
	case NODE_AND:
		return eval_node(eval, node->a, src) &&
			eval_node(eval, node->b, src);
	case NODE_NOT:
		return !eval_node(eval, node->a, src);
	case NODE_COMPARE:
		break;
	}
	if (!operand_value(&node->left, src, &left))
		return false;
	if (node->regex >= 0)
		return match_value(eval->matchers[node->regex], node->op,
			&left);
	if (!operand_value(&node->right, src, &right))
		return false;
	return compare_values(node->op, &left, &right);
}

bool tn_expr_eval_event(struct tn_expr_eval *eval, const struct tn_event *ev)
{
	struct source src = { ev, NULL };

	if (ev->kind != TN_EVENT_KIND_EVENT)
		return false;
	return eval_node(eval, eval->expr->root, &src);
}

bool tn_expr_eval_name(struct tn_expr_eval *eval, const char *name)
{
	struct source src = { NULL, name };

	return eval_node(eval, eval->expr->root, &src);
}

static void node_wants(const struct node *node, GArray *wants)
{
	const struct operand *sides[2];

	if (!node)
		return;
	node_wants(node->a, wants);
	node_wants(node->b, wants);
	if (node->kind != NODE_COMPARE)
		return;
	sides[0] = &node->left;
	sides[1] = &node->right;
	for (size_t i = 0; i < 2; i++) {
		struct tn_field_want want = { NULL, sides[i]->scope,
			sides[i]->path };

		if (sides[i]->kind == OPERAND_FIELD)
			g_array_append_val(wants, want);
	}
}

void tn_expr_add_wants(const struct tn_expr *expr, GArray *wants)
{
	node_wants(expr->root, wants);
}

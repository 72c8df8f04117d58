/* timeline.c - what every part of the timelines shares (timeline.h):
 * the buckets of a span, the letter of a bucket's times, a row's label,
 * a grid's end.
 * Below the accumulator (analysis-timeline.c), the summary
 * (timeline-summary.c) and the grids (timeline-grid.c). */
#include <glib.h>
#include <inttypes.h>

#include "tracenav/text.h"
#include "tracenav/timeline.h"

size_t tn_timeline_state_count(enum tn_timeline_kind kind)
{
	switch (kind) {
	case TN_TIMELINE_THREADS: return TN_THREAD_STATE_COUNT;
	case TN_TIMELINE_CPUS: return TN_CPU_STATE_COUNT;
	default: return TN_IRQ_STATE_COUNT;
	}
}

char tn_timeline_letter(enum tn_timeline_kind kind, const int64_t *ns)
{
	static const char *const of_kind[TN_TIMELINE_KIND_COUNT] = {
		TN_TIMELINE_THREAD_LETTERS, TN_TIMELINE_CPU_LETTERS,
		TN_TIMELINE_IRQ_LETTERS, TN_TIMELINE_SOFTIRQ_LETTERS,
	};
	const char *letters = of_kind[kind];
	char letter = TN_TIMELINE_NO_TIME;
	int64_t most = 0;

	if (kind == TN_TIMELINE_IRQS || kind == TN_TIMELINE_SOFTIRQS) {
		for (size_t s = 0; s < TN_IRQ_STATE_COUNT; s++)
			if (ns[s] > 0)
				return letters[s];
		return letter;
	}
	for (size_t s = 0; s < tn_timeline_state_count(kind); s++) {
		if (ns[s] > most) {
			most = ns[s];
			letter = letters[s];
		}
	}
	return letter;
}

int64_t tn_timeline_on_cpu(enum tn_timeline_kind kind, const int64_t *ns)
{
	if (kind == TN_TIMELINE_IRQS || kind == TN_TIMELINE_SOFTIRQS)
		return ns[TN_IRQ_ACTIVE];
	/* The first three states both: user, syscall, interrupted; busy,
	 * irq, softirq. */
	return ns[0] + ns[1] + ns[2];
}

void tn_timeline_grid_destroy(struct tn_timeline_grid *grid)
{
	if (!grid)
		return;
	for (size_t i = 0; i < grid->row_count; i++) {
		g_free(grid->rows[i].name);
		g_free(grid->rows[i].letters);
		g_free(grid->rows[i].names);
	}
	g_free(grid->rows);
	g_free(grid);
}

int64_t tn_timeline_bucket_begin(int64_t begin_ns, int64_t end_ns,
		unsigned buckets, unsigned k)
{
	__int128 duration = (__int128) end_ns - begin_ns;

	if (k >= buckets)
		return end_ns;
	return begin_ns + (int64_t) (duration * k / buckets);
}

unsigned tn_timeline_bucket_of(int64_t begin_ns, int64_t end_ns,
		unsigned buckets, int64_t t)
{
	__int128 duration = (__int128) end_ns - begin_ns;
	unsigned k;

	if (t <= begin_ns || duration <= 0)
		return 0;
	if (t >= end_ns)
		return buckets - 1;
	k = (unsigned) (((__int128) t - begin_ns) * buckets / duration);
	/* floor(k * D / N) <= t - B holds for this k; the division may land
	 * one past where the edges (computed the other way) put t. */
	while (k > 0 && tn_timeline_bucket_begin(begin_ns, end_ns, buckets,
			k) > t)
		k--;
	while (k + 1 < buckets && tn_timeline_bucket_begin(begin_ns, end_ns,
			buckets, k + 1) <= t)
		k++;
	return k;
}

/* The names of the softirq vectors, as Linux numbers them. */
static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET",
	"SCHED", "HRTIMER", "RCU",
};

void tn_timeline_append_label(GString *line, const struct tn_timeline_row *row,
		const struct tn_timeline_tree *tree, size_t i)
{
	int indent = tree ? (int) MIN(tree->depth[i],
		TN_TIMELINE_MAX_INDENT) : 0;
	int cols = indent;
	gsize start = line->len;
	/* The bytes of the label beyond its columns (a name's UTF-8). */
	int hidden = 0;
	const char *name;

	switch (row->kind) {
	case TN_TIMELINE_THREADS:
		break;
	case TN_TIMELINE_CPUS:
		g_string_append_printf(line, "CPU %" PRId64, row->id);
		break;
	case TN_TIMELINE_IRQS:
		g_string_append_printf(line, "IRQ %" PRId64, row->id);
		if (row->name && *row->name) {
			gsize before = line->len + 1;
			int shown;

			g_string_append_c(line, ' ');
			shown = tn_text_append_safe(line, row->name, MAX(
				TN_TIMELINE_CPU_LABEL_COLUMNS - (int) (before -
				start), 0), true);
			hidden = (int) (line->len - before) - shown;
		}
		break;
	default:
		name = row->id >= 0 && row->id < (int64_t) G_N_ELEMENTS(
			softirq_names) ? softirq_names[row->id] : NULL;
		g_string_append_printf(line, "SIRQ %" PRId64 "%s%s", row->id,
			name ? " " : "", name ? name : "");
		break;
	}
	if (row->kind != TN_TIMELINE_THREADS) {
		int used = (int) (line->len - start) - hidden;

		g_string_append_printf(line, "%*s ", MAX(
			TN_TIMELINE_CPU_LABEL_COLUMNS - used, 0), "");
		return;
	}
	g_string_append_printf(line, "%-7" PRId64 " %*s", row->id, indent, "");
	if (tree) {
		g_string_append_c(line, tree->folded[i] ? '+' :
			tree->has_children[i] ? '-' : ' ');
		cols++;
	}
	cols += tn_text_append_safe(line, row->name && *row->name ?
		row->name : "-", TN_TIMELINE_NAME_COLUMNS - cols, true);
	g_string_append_printf(line, "%*s ", TN_TIMELINE_NAME_COLUMNS - cols,
		"");
}

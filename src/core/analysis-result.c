/* analysis-result.c - the analyses' names and the result object they
 * fill (see analysis.h): below analysis.c, which runs them, and
 * analysis-save.c, which keeps and loads their results. */
#include <string.h>

#include "src/core/analysis-private.h"

static const char *const names[] = {
	"cputop", "syscallstats", "irqstats", "schedtop", NULL,
};

const char *const *tn_analysis_names(void)
{
	return names;
}

struct tn_analysis_result *tn_analysis_result_new(const char *analysis,
		int64_t begin_ns, int64_t end_ns)
{
	struct tn_analysis_result *result = g_new0(struct tn_analysis_result,
		1);

	result->analysis = analysis;
	result->begin_ns = begin_ns;
	result->end_ns = end_ns;
	result->strings = g_string_chunk_new(1024);
	return result;
}

void tn_analysis_result_destroy(struct tn_analysis_result *result)
{
	if (!result)
		return;
	for (size_t i = 0; i < result->table_count; i++)
		g_free(result->tables[i].cells);
	g_free(result->tables);
	g_free(result->owned_columns);
	g_string_chunk_free(result->strings);
	g_free(result);
}

struct tn_analysis_table *tn_analysis_result_find(
		struct tn_analysis_result *result, const char *name)
{
	for (size_t i = 0; i < result->table_count; i++)
		if (strcmp(result->tables[i].name, name) == 0)
			return &result->tables[i];
	return NULL;
}

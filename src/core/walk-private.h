/* walk-private.h - what a walk holds, for the files that build walks
 * (seek.c, walk-split.c) (internal: not part of the public API). */
#ifndef TRACENAV_CORE_WALK_PRIVATE_H
#define TRACENAV_CORE_WALK_PRIVATE_H

#include <stdbool.h>
#include <stdint.h>

#include "tracenav/reader.h"
#include "tracenav/seek.h"

struct tn_reader;
struct tn_slice;

/* What a walk reads instead of a reader: the merge of the parts of a
 * split walk (walk-split.c), behind this interface, so that the walks
 * (seek.c) do not know it. */
struct tn_walk_source_class {
	/* The next item, as tn_reader_next() gives it, adding to *lost the
	 * events discarded before it that no item of its own says. */
	enum tn_reader_status (*next)(void *source, struct tn_event *ev,
		uint64_t *lost, struct tn_error *err);
	void (*destroy)(void *source);
	/* How many parts it reads. */
	unsigned (*part_count)(const void *source);
};

struct tn_walk {
	/* What it reads: a reader (on a slice, or on the whole trace), or
	 * a source (source_class non-NULL). */
	struct tn_reader *reader;
	struct tn_slice *slice;
	const struct tn_walk_source_class *source_class;
	void *source;
	/* Events at or before this time may be missing from the view (see
	 * tn_slice_get_complete_after()); INT64_MIN: the walk reads the
	 * trace from its first event. */
	int64_t complete_after;
	bool seen_complete;	/* a row after complete_after was read */
	bool has_last;		/* time and tie of the last event read */
	int64_t last_ns;
	uint64_t last_tie;
	uint64_t lost;		/* discarded events since the last row */
	uint64_t items;		/* read, for the cancel checks */
	bool has_pending;	/* a row read ahead by tn_walk_open_at() */
	struct tn_row pending;
	/* The last keep_before complete rows read before the pending one,
	 * in a ring: before_seen of them were read, the oldest kept one is
	 * at before_seen % keep_before once it is full. */
	struct tn_row *before;
	uint64_t keep_before;
	uint64_t before_seen;
};

/* Which part of a split walk a walk reads (tn_slice_create_part()). */
struct tn_walk_part {
	unsigned part, parts;
};

/* Open a walk at pos->ns (through a slice when allow_slice; part: the
 * part of a split walk to read, or NULL) and skip the events that come
 * before pos, as tn_walk_skip_to() does. */
int tn_walk_open_at_part(const struct tn_trace *trace,
		const struct tn_position *pos, bool exclusive, bool allow_slice,
		const struct tn_walk_part *part, uint64_t keep,
		struct tn_walk **out, bool *landed, struct tn_error *err);

/* Skip the events of a new walk that come before pos (when exclusive,
 * pos too), keeping up to keep of them.  *landed says whether an event
 * is exactly at pos.  Destroys the walk on failure. */
int tn_walk_skip_to(struct tn_walk *walk, const struct tn_position *pos,
		bool exclusive, uint64_t keep, bool *landed,
		struct tn_error *err);

#endif

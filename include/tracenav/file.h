/* file.h - writing files safely: whole buffers, and replacing a file
 * at once, so that a crash or a full disk never leaves it half written
 * (the index cache, the marks, the prompt's history).
 */
#ifndef TRACENAV_FILE_H
#define TRACENAV_FILE_H

#include <stdbool.h>
#include <stddef.h>

/* Write all size bytes of buf to fd, again after EINTR and short
 * writes.  false with errno set when a write fails. */
bool tn_file_write_all(int fd, const void *buf, size_t size);

/* Replace path with the size bytes of data: written to a temporary file
 * of mode 0600 in path's directory (which must exist), synced, renamed
 * over path, and the directory synced.  Returns 0, or the errno of what
 * failed (path untouched, no temporary file left). */
int tn_file_replace(const char *path, const void *data, size_t size);

#endif

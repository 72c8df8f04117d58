/* file.c - writing files safely (see file.h). */
#include <errno.h>
#include <fcntl.h>
#include <glib.h>
#include <stdio.h>
#include <unistd.h>

#include "tracenav/file.h"
#include "tracenav/runtime.h"

bool tn_file_write_all(int fd, const void *buf, size_t size)
{
	const char *next = buf;

	while (size > 0) {
		ssize_t put = write(fd, next, size);

		if (put < 0 && errno == EINTR)
			continue;
		if (put <= 0) {
			if (put == 0)
				errno = EIO;
			return false;
		}
		next += put;
		size -= (size_t) put;
	}
	return true;
}

/* Make a rename in dir durable; a failure only risks the old file
 * after a crash. */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (fd >= 0) {
		(void) fsync(fd);
		close(fd);
	}
}

int tn_file_replace(const char *path, const void *data, size_t size)
{
	char *temp;
	int fd;
	struct tn_runtime_tree *pending;
	int error = 0;

	/* A signal that ends the process meanwhile removes the file. */
	if (!tn_runtime_create_begin())
		return ECANCELED;
	temp = g_strconcat(path, ".XXXXXX", NULL);
	fd = g_mkstemp_full(temp, O_RDWR | O_CLOEXEC, 0600);
	pending = fd >= 0 ? tn_runtime_register_temp(temp) : NULL;
	tn_runtime_create_end();
	if (fd < 0) {
		error = errno;
	} else {
		if (!tn_file_write_all(fd, data, size) || fsync(fd) != 0)
			error = errno;
		if (close(fd) != 0 && !error)
			error = errno;
		if (!error && rename(temp, path) != 0)
			error = errno;
		if (error) {
			tn_runtime_remove(pending);
			unlink(temp);	/* if it could not be registered */
		} else {
			tn_runtime_forget(pending);
		}
	}
	if (!error) {
		char *dir = g_path_get_dirname(path);

		sync_dir(dir);
		g_free(dir);
	}
	g_free(temp);
	return error;
}

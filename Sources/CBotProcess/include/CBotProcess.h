#ifndef OPLAB_CBOTPROCESS_H
#define OPLAB_CBOTPROCESS_H

#include <sys/types.h>

/// Starts `argv[0]` (searched on PATH like execvp) in a process group of its own, its
/// standard input, output and error on the given descriptors, every other descriptor
/// closed, signals at their defaults and none blocked. Returns 0 and the pid, or an
/// errno value (ENOENT for a command that does not exist).
int oplab_spawn(char *const argv[], int in_fd, int out_fd, int err_fd, pid_t *pid);

/// A pipe whose both ends close on exec (fds[0] read, fds[1] write). Returns 0 or -1.
int oplab_pipe(int fds[2]);

/// Sets O_NONBLOCK on `fd`. Returns 0 or -1.
int oplab_nonblocking(int fd);

/// A descriptor that becomes readable when process `pid` exits (Linux pidfd_open, 5.3
/// and later), or -1 where the kernel lacks it.
int oplab_pidfd(pid_t pid);

#endif

/* mcdyn — reading FCLIB problem files from untrusted sources, behind a
 * process boundary.
 *
 * The FCLIB reader of problem_io.h (mcd_problem_read_fclib) checks every
 * value it gets from libhdf5, but libhdf5 itself does not validate its own
 * metadata against hostile files: crafted files make Debian's libhdf5
 * 1.10.8 crash inside H5Lexists or H5Fopen (docs/reliability.md, threat
 * model; tests/fuzz/thirdparty/fclib holds two). The functions here run
 * that reader in a child process made with fork(): the child calls
 * mcd_problem_read_fclib with the default signal actions and no core file,
 * writes the problem (or its error) to a pipe and ends; the parent decodes
 * what arrives, checking every count and length, and gives the same
 * problem, bit for bit, as the in-process reader, or the same error. If the
 * child dies, the caller gets an error instead of a crash:
 *
 *   MCD_ERR_PARSE  "p.hdf5: the FCLIB reader (libhdf5) crashed on this file
 *                  (signal 11); FCLIB files must come from a trusted source
 *                  (docs/reliability.md)" (or "(exit status N)" when a
 *                  sanitizer ended the child), or a damaged result stream
 *   MCD_ERR_IO     the pipe or the process cannot be made
 *
 * No shell and no exec: the child runs the library's own code from the
 * forked image. Costs one fork and one copy of the problem through a pipe
 * (a few milliseconds).
 *
 * Use: POSIX systems. fork() in a process with other threads gives a child
 * with only the calling thread; the child then needs libhdf5's lock and the
 * allocator, so call these where no other thread is inside libhdf5 (the
 * `mcdyn` command reads problem files before it starts any thread). The
 * caller must not have SIGCHLD ignored (SIG_IGN), which would reap the
 * child before its status is known (MCD_ERR_IO then). A file on which the
 * child hangs makes the call hang. */
#ifndef MCDYN_PROBLEM_ISOLATED_H
#define MCDYN_PROBLEM_ISOLATED_H

#include "mcdyn/problem_io.h"
#include "mcdyn/status.h"

#ifdef __cplusplus
extern "C" {
#endif

/* mcd_problem_read_fclib in a child process (above). */
mcd_status mcd_problem_read_fclib_isolated(const char *path, mcd_problem_file *out, mcd_error *err);

/* mcd_problem_read_file with the FCLIB case in a child process: a Siconos
 * .dat file is read in this process (its reader is mcdyn's own code,
 * fuzzed, and needs no isolation). */
mcd_status mcd_problem_read_file_isolated(const char *path, mcd_problem_kind kind,
                                          mcd_problem_file *out, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* Problem files in the tools: FCLIB local frictional-contact problems
 * (HDF5), read through Debian's libfclib, and the choice between them and
 * Siconos .dat files. fclib_read.c is compiled into the CLI (and the
 * problem-file tests) only when FCLIB is found, with MCDYN_HAVE_FCLIB
 * defined, so the library never depends on it.
 *
 * The file is checked with HDF5 before libfclib reads it, because libfclib
 * trusts the file: wrong dataset sizes overrun its buffers, and an HDF5
 * error (missing or damaged group or dataset) makes it exit the process.
 * So every group it opens must open and list, and every dataset it reads
 * must have the right type and size and be read once here first. Then:
 *   W (m x m, m = spacedim nc) -> the contact rows;
 *   V (m x p), R (p x p), s (p), when present -> p bilateral rows in front:
 *       the problem's matrix is [R V^T; V W] and q is [s; q], since FCLIB's
 *       V^T r + R lambda + s = 0 with lambda free is a bilateral row;
 *   spacedim 2 -> embedded in 3D as in include/mcdyn/problem_io.h.
 * FCLIB matrices are CSparse matrices (triplet: i rows, p columns;
 * compressed column: p column starts, i rows; compressed row: p row starts,
 * i columns); repeated triplet entries are summed. Indices must be in range,
 * values finite, mu >= 0; messages name the file and the dataset entry. */
#ifndef MCDYN_TOOLS_FCLIB_READ_H
#define MCDYN_TOOLS_FCLIB_READ_H

#include "mcdyn/problem_io.h"

#include <string.h>

/* Reads the FCLIB local problem in path into out (kind MCD_PROBLEM_FC3D).
 * MCD_ERR_IO if the file cannot be opened, MCD_ERR_UNSUPPORTED for a global
 * problem, MCD_ERR_PARSE / MCD_ERR_NONFINITE for a malformed one; on failure
 * out holds nothing to free. */
mcd_status read_fclib_local(const char *path, mcd_problem_file *out, mcd_error *err);

/* 1 if path names an FCLIB file (ends in .hdf5 or .h5). */
static inline int is_fclib_path(const char *path)
{
    size_t n = strlen(path);
    return (n > 5 && strcmp(path + n - 5, ".hdf5") == 0) ||
           (n > 3 && strcmp(path + n - 3, ".h5") == 0);
}

/* Any problem file: FCLIB by name (MCD_ERR_UNSUPPORTED when built without
 * FCLIB), else a Siconos .dat file read as `kind`. */
static inline mcd_status read_problem_file(const char *path, mcd_problem_kind kind,
                                           mcd_problem_file *out, mcd_error *err)
{
    if (!is_fclib_path(path)) return mcd_problem_read_siconos(path, kind, out, err);
    memset(out, 0, sizeof *out);
    if (kind != MCD_PROBLEM_AUTO && kind != MCD_PROBLEM_FC3D)
        return mcd_fail(err, MCD_ERR_ARG,
                        "%s: an FCLIB file holds a frictional-contact problem, not %s", path,
                        mcd_problem_kind_name(kind));
#ifdef MCDYN_HAVE_FCLIB
    return read_fclib_local(path, out, err);
#else
    return mcd_fail(err, MCD_ERR_UNSUPPORTED,
                    "%s: reading FCLIB files needs mcdyn built with libfclib", path);
#endif
}

#endif

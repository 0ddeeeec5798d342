/* mcdyn — reading (and writing) complementarity problems in Siconos'
 * numerics files.
 *
 * Three kinds of Siconos `.dat` text files are read (the layouts written by
 * Siconos' linearComplementarity_printInFile, mixedLinearComplementarity_
 * printInFile and frictionContact_printInFile):
 *
 *   LCP    n, then the matrix M, then q (n numbers).
 *   MLCP   isStorageType1, isStorageType2 (0/1 flags), n (equality rows),
 *          m (complementarity rows); with the first flag: the block rows
 *          (0 ... n+m), one 0/1 "is complementarity" flag per block, the
 *          matrix M ((n+m) x (n+m)) and q; with the second flag: A (n x n),
 *          B (m x m), C (n x m), D (m x n) row by row, then a (n) and b (m),
 *          standing for M = [A C; D B], q = [a; b]. When both are present
 *          they must agree; M and its blocks are used.
 *   FC     dimension (3, or 2), number of contacts nc, the matrix W
 *          (dimension nc square), q, then mu (nc numbers).
 *
 * A matrix is a storage type (0 dense, 1 sparse-block, 2 sparse) and its
 * row and column counts, then:
 *   0  the two counts again and the entries column by column;
 *   1  Siconos' sparse-block layout: block count, block-row and block-column
 *      counts, cumulative block-row and block-column sizes, the compressed
 *      block-row index and block-column index arrays, then each block as its
 *      number followed by its entries column by column;
 *   2  a sparse-matrix origin (1 triplet, 2 compressed column) followed by
 *      CSparse's text print-out ("i j : x" triplets, or "col j : locations
 *      a to b" followed by "i : x" lines).
 *
 * Numbers are separated by any white space; text after the last number a
 * problem needs (comments, stored solutions) is ignored, as Siconos does.
 * Every value is checked: sizes must agree, indices must be in range,
 * entries must be finite and mu >= 0. Failures: MCD_ERR_IO when the file
 * cannot be read, MCD_ERR_NONFINITE for a NaN or infinite entry,
 * MCD_ERR_UNSUPPORTED for compressed-row sparse storage (valid, not
 * handled), MCD_ERR_PARSE for everything else (truncated, wrong sizes,
 * negative mu, bad indices, text where a number belongs, sizes above 10000:
 * problems are stored dense). The message names the file and the line,
 * and the entry when there is one, e.g. "p.dat:7: M(1,0) is not finite
 * ('nan')" or "p.dat:12: file ends before q[3] (truncated?)".
 *
 * A 2D frictional-contact problem (dimension 2: normal, one tangent) is
 * embedded exactly in 3D: each contact gets a second tangent row and column
 * that is decoupled from the rest (diagonal entry equal to the first
 * tangent's, or 1 if that is not positive; q entry 0), so its solution has
 * r_t2 = u_t2 = 0 and the other components are those of the 2D problem.
 * `dimension` records 2.
 */
#ifndef MCDYN_PROBLEM_IO_H
#define MCDYN_PROBLEM_IO_H

#include "mcdyn/problem.h"
#include "mcdyn/status.h"

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum mcd_problem_kind {
    MCD_PROBLEM_AUTO = 0, /* reader input only: tell the kind from the file */
    MCD_PROBLEM_LCP,
    MCD_PROBLEM_MLCP,
    MCD_PROBLEM_FC3D,
    MCD_PROBLEM_KIND_COUNT
} mcd_problem_kind;

/* "auto", "lcp", "mlcp", "fc3d". */
const char *mcd_problem_kind_name(mcd_problem_kind k);
/* MCD_ERR_ARG with the valid names in err if name is unknown. */
mcd_status mcd_problem_kind_from_name(const char *name, mcd_problem_kind *k, mcd_error *err);

/* A problem read from a file. LCP and MLCP fill `mlcp` (an LCP as an MLCP
 * whose rows are all complementarity rows: lo = 0, hi = +inf); FC3D fills
 * `fc3d` (nb = 0). The arrays are owned (allocated by mcd_mlcp_alloc /
 * mcd_fc3d_alloc) and released by mcd_problem_file_free. */
typedef struct mcd_problem_file {
    mcd_problem_kind kind;
    int dimension; /* FC3D: contact dimension in the file (3, or 2 when embedded); else 0 */
    mcd_mlcp mlcp;
    mcd_fc3d fc3d;
} mcd_problem_file;

/* Size of the problem's unknown vector: mlcp.n or nb + 3 nc. */
int mcd_problem_file_size(const mcd_problem_file *f);

/* Reads a Siconos `.dat` problem file into out (which must not hold a
 * problem; it is zeroed first). With kind MCD_PROBLEM_AUTO the kind is told
 * from the file's leading numbers; a file that fits more than one kind is
 * read as each and must be valid as exactly one (MCD_ERR_PARSE asking for
 * an explicit kind otherwise). On failure out holds nothing to free. */
mcd_status mcd_problem_read_siconos(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                    mcd_error *err);

/* FCLIB local frictional-contact problems (HDF5 files of the FCLIB
 * collection), read with libhdf5 (mcd_problem_fclib_available() is always 1;
 * it stays for callers that asked when the reader was optional). The file
 * is checked as it is read: every group must open, every dataset must have
 * the right class (integer or float), the right number of entries, a stored
 * number of at most 16 bytes and storage that can hold its entries (so a
 * small damaged file cannot make the reader allocate much more than its own
 * size), and sizes must agree. Then:
 *   W (m x m, m = spacedim nc) -> the contact rows;
 *   V (m x p), R (p x p), s (p), when present -> p bilateral rows in front:
 *       the problem's matrix is [R V^T; V W] and q is [s; q], since FCLIB's
 *       V^T r + R lambda + s = 0 with lambda free is a bilateral row;
 *   spacedim 2 -> embedded in 3D as the Siconos 2D problems above.
 * FCLIB matrices are CSparse matrices (triplet, compressed column or
 * compressed row); repeated triplet entries are summed. Indices must be in
 * range, values finite, mu >= 0; at most 10000 unknowns. Messages name the
 * file and the dataset entry ("path: /fclib_local/W/p has 9 entries,
 * expected 7 ..."). The info groups (titles, matrix descriptions) are not
 * read. out receives kind MCD_PROBLEM_FC3D; MCD_ERR_IO if the file cannot
 * be opened, MCD_ERR_UNSUPPORTED for a global problem or one too large,
 * MCD_ERR_PARSE / MCD_ERR_NONFINITE for a malformed one; on failure out
 * holds nothing to free.
 * Trusted input only: libhdf5 does not check its own metadata against
 * crafted files, and some crash it (and with it the calling process) before
 * the reader sees any data (docs/reliability.md). For files from elsewhere
 * use mcd_problem_read_fclib_isolated (problem_isolated.h), which runs this
 * reader in a child process; the `mcdyn` command does. */
int mcd_problem_fclib_available(void);
mcd_status mcd_problem_read_fclib(const char *path, mcd_problem_file *out, mcd_error *err);

/* The same from an FCLIB file's bytes in memory (an HDF5 file image, e.g.
 * read from a socket or an archive): size bytes at image, which libhdf5
 * copies; the caller keeps the buffer. name labels the messages in place of
 * a path (NULL: "(FCLIB image)"). A truncated or damaged image is
 * MCD_ERR_PARSE with a message saying so; an empty one too. Gives the same
 * problem, bit for bit, as mcd_problem_read_fclib on the file. Trusted
 * images only, as for the file reader above. */
mcd_status mcd_problem_read_fclib_image(const void *image, size_t size, const char *name,
                                        mcd_problem_file *out, mcd_error *err);

/* 1 if path names an FCLIB file (ends in .hdf5 or .h5), else 0. */
int mcd_problem_is_fclib_path(const char *path);

/* Any problem file: FCLIB by its name (kind must be AUTO or FC3D), else a
 * Siconos .dat file read as kind. FCLIB files: trusted input only (above);
 * mcd_problem_read_file_isolated (problem_isolated.h) for the others. */
mcd_status mcd_problem_read_file(const char *path, mcd_problem_kind kind, mcd_problem_file *out,
                                 mcd_error *err);

/* Releases the arrays of f and zeroes it. f may be NULL or already free. */
void mcd_problem_file_free(mcd_problem_file *f);

/* Writes a problem as a Siconos `.dat` file in dense storage, every number
 * with 17 significant digits, so that mcd_problem_read_siconos reads back
 * exactly the same problem (e.g. to keep the problem of a failing
 * simulation step as regression data):
 *   mlcp  the MLCP layout with M and q (isStorageType1), the equality and
 *         complementarity rows as blocks in their order; rows with other
 *         bounds than (-inf, inf) or [0, inf): MCD_ERR_UNSUPPORTED;
 *   fc3d  the FC layout, dimension 3; bilateral rows (nb > 0):
 *         MCD_ERR_UNSUPPORTED.
 * Invalid problems as for mcd_mlcp_check / mcd_fc3d_check; MCD_ERR_IO if
 * the file cannot be written. */
mcd_status mcd_problem_write_mlcp(const char *path, const mcd_mlcp *p, mcd_error *err);
mcd_status mcd_problem_write_fc3d(const char *path, const mcd_fc3d *p, mcd_error *err);

#ifdef __cplusplus
}
#endif
#endif

/* libFuzzer target: the library's FCLIB reader (src/io/problem_fclib.c,
 * HDF5 through libfclib), which reads from a path. */
#include "mcdyn/problem_io.h"
#include "fuzz_input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_file(data, size, ".hdf5", path) != 0) return 0;
    mcd_problem_file f;
    mcd_error err;
    memset(&f, 0, sizeof f);
    if (mcd_problem_read_fclib(path, &f, &err) == MCD_OK) mcd_problem_file_free(&f);
    unlink(path);
    return 0;
}

/* libFuzzer target: the Siconos `.dat` reader (mcd_problem_read_siconos,
 * kind told from the file), which reads from a path. */
#include "fuzz_input.h"
#include "mcdyn/problem_io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    if (fuzz_file(data, size, ".dat", path) != 0) return 0;
    mcd_problem_file f;
    mcd_error err;
    if (mcd_problem_read_siconos(path, MCD_PROBLEM_AUTO, &f, &err) == MCD_OK)
        mcd_problem_file_free(&f);
    unlink(path);
    return 0;
}

/* libFuzzer target: the library's FCLIB reader (src/io/problem_fclib.c,
 * libhdf5 alone) on the input as an HDF5 file image in memory, so that no
 * file is written per input. */
#include "mcdyn/problem_io.h"

#include <stdint.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mcd_problem_file f;
    mcd_error err;
    memset(&f, 0, sizeof f);
    if (mcd_problem_read_fclib_image(data, size, "fuzz", &f, &err) == MCD_OK)
        mcd_problem_file_free(&f);
    return 0;
}

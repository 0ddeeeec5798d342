/* libFuzzer target: the command line's number parsers (tools/args.c). Any
 * text must be refused or give a value inside the documented range; a value
 * outside it aborts (a finding). */
#include <math.h>

#include "../../tools/args.h"
#include "fuzz_input.h"

static void require(int ok)
{
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    if (!text) return 0;
    double x, v[8];
    int k, w, h;
    char msg[256];
    if (args_parse_double(text, &x) == 0) require(isfinite(x));
    if (args_parse_int(text, -5, &k) == 0) require(k >= -5 && k <= ARGS_INT_MAX);
    if (args_parse_size(text, 100, 10000, &w, &h) == 0)
        require(w >= 100 && w <= 10000 && h >= 100 && h <= 10000);
    int n = args_parse_doubles(text, v, 8, msg, sizeof msg);
    require(n >= -1 && n <= 8);
    for (int i = 0; i < n; i++) require(isfinite(v[i]));
    free(text);
    return 0;
}

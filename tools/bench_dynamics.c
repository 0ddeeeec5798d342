/* PLACEHOLDER: replaced by its owner before any issue is resolved. */
#include <stdio.h>
#include "cli.h"
int mcd_bench_dynamics(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "mcdyn: this command is being written\n");
    return 1;
}

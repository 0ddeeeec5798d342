/* mcdyn — command-line entry point: dispatches to the subcommands. */
#define _GNU_SOURCE /* RTLD_DEFAULT */
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

typedef struct subcommand {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} subcommand;

static const subcommand subcommands[] = {
    {"sim", mcd_cmd_sim, "simulate a scenario with frictional contact (CSV, PNG plot, summary)"},
    {"query", mcd_cmd_query, "load a URDF and print M, C, forward dynamics and Jacobians as JSON"},
    {"solve", mcd_cmd_solve, "solve an LCP/MLCP/frictional-contact problem file"},
    {"bench", mcd_cmd_bench, "run a benchmark (dynamics, solve)"},
    {"draw", mcd_cmd_draw, "draw a scenario or URDF model into a PNG picture (gnuplot)"},
    {"sweep", mcd_cmd_sweep, "run the cases of a parameter sweep (threads, MPI) into one CSV"},
    {"view", mcd_cmd_view, "write an HDF5 run log as a self-contained 3D replay page (HTML)"},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: mcdyn <command> [options]\n\n"
                 "Minimal-coordinate dynamics of articulated robots with frictional contact.\n\n"
                 "commands:\n");
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        fprintf(out, "  %-8s %s\n", subcommands[i].name, subcommands[i].summary);
    fprintf(out, "\n`mcdyn <command> --help` describes each command's options.\n");
}

/* Exit code 1 with a message when standard output could not be written
 * (a full disk, /dev/full, a closed pipe), whatever the command returned:
 * every write to it is checked here, once, at the end. */
static int checked_stdout(int code)
{
    errno = 0;
    if (fflush(stdout) == 0 && !ferror(stdout)) return code;
    fprintf(stderr, "mcdyn: cannot write standard output: %s\n", strerror(errno ? errno : EIO));
    return code ? code : 1;
}

/* One BLAS thread unless the user chose (OPENBLAS_NUM_THREADS or
 * OMP_NUM_THREADS set): mcdyn's LAPACK calls are on problems of tens to a
 * few hundred unknowns, where OpenBLAS's threads only add synchronisation,
 * and on a loaded machine they spin against the other processes (measured:
 * `mcdyn sim models/box_tower.yaml` at load 20, 296 s with OpenBLAS's
 * default threads, 17 s with one). The benchmarks of docs/performance.md
 * use one thread for both engines. */
static void blas_single_threaded(void)
{
    if (getenv("OPENBLAS_NUM_THREADS") || getenv("OMP_NUM_THREADS")) return;
    void (*set_threads)(int) = (void (*)(int))dlsym(RTLD_DEFAULT, "openblas_set_num_threads");
    if (set_threads) set_threads(1);
}

int main(int argc, char **argv)
{
    blas_single_threaded();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("mcdyn %s\n", MCDYN_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof subcommands / sizeof *subcommands; i++)
        if (!strcmp(argv[1], subcommands[i].name))
            return checked_stdout(subcommands[i].run(argc - 1, argv + 1));
    fprintf(stderr, "mcdyn: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}

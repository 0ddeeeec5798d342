/* `mcdyn bench <name>`: dispatches to one benchmark. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct bench {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} bench;

static const bench benches[] = {
    {"dynamics", mcd_bench_dynamics, "inverse/forward dynamics, mass matrix, M^-1 x per call"},
    {"lambda", mcd_bench_lambda, "operational-space compliance: O(N) recursion vs dense"},
    {"sim", mcd_bench_sim, "pendulum12 with each solver (and MuJoCo): us per step, split"},
    {"main", mcd_bench_main, "the main job end to end with its CSV, beside MuJoCo's bare loop"},
    {"solve", mcd_bench_solve, "complementarity solvers on problem files, beside Siconos"},
    {"scenes", mcd_bench_scenes, "every step method on every contact-rich scene: success rate"},
#if defined(MCDYN_HAVE_MUJOCO)
    {"contacts", mcd_bench_contacts, "contact-rich scenes beside MuJoCo: us per step, growth in K"},
#endif
};

static void usage(FILE *out)
{
    fprintf(out, "usage: mcdyn bench <name> [options]\n\nbenchmarks (median time per call):\n");
    for (size_t i = 0; i < sizeof benches / sizeof *benches; i++)
        fprintf(out, "  %-9s %s\n", benches[i].name, benches[i].summary);
    fprintf(out, "\n`mcdyn bench <name> --help` describes each benchmark's options.\n");
}

int mcd_cmd_bench(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    for (size_t i = 0; i < sizeof benches / sizeof *benches; i++)
        if (!strcmp(argv[1], benches[i].name)) return benches[i].run(argc - 1, argv + 1);
    fprintf(stderr, "mcdyn bench: unknown benchmark '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}

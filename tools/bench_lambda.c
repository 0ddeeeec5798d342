/* `mcdyn bench lambda`: the operational-space compliance Lambda = J M^-1 J^T
 * of K nodes on revolute chains of N links, by the O(N) + O(K^2) recursion
 * (factorization of M included) and by the dense reference (mass matrix,
 * Cholesky, triangular solves; LAPACK), microseconds per call (median
 * [min, max] over the samples). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "bench_lambda_robots.h"
#include "bench_timer.h"
#include "chain_model.h"
#include "cli.h"
#include "mcdyn/dynamics.h"
#include "mcdyn/osc.h"

#define DEFAULT_SAMPLES   15
#define DEFAULT_MAX_DENSE 512
#define MIN_N             16
#define MAX_N             4096

static const int node_counts[] = {1, 8, 32};
#define NK ((int)(sizeof node_counts / sizeof *node_counts))

typedef struct lambda_case {
    mcd_model *m;
    mcd_data *d;
    double *q, *L;
    mcd_osc_point pts[32];
    int K;
} lambda_case;

static int call_recursion(void *ctx)
{
    lambda_case *c = ctx;
    return mcd_minv_factor(c->m, c->d, c->q) != MCD_OK ||
           mcd_osc_compliance(c->m, c->d, c->K, c->pts, MCD_OSC_SPATIAL, c->L) != MCD_OK;
}

static int call_dense(void *ctx)
{
    lambda_case *c = ctx;
    return mcd_osc_compliance_dense(c->m, c->d, c->q, c->K, c->pts, MCD_OSC_SPATIAL, c->L) !=
           MCD_OK;
}

/* K nodes spread evenly along the chain, 5 cm off each link's origin. */
static int setup_case(lambda_case *c, int N, int K)
{
    mcd_error err;
    memset(c, 0, sizeof *c);
    c->K = K;
    if (chain_model_make(N, &c->m, &err) != MCD_OK ||
        mcd_data_create(c->m, &c->d, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn bench lambda: %s\n", err.msg);
        return 1;
    }
    c->q = calloc((size_t)c->m->nq, sizeof *c->q);
    c->L = malloc(sizeof *c->L * 36 * (size_t)K * K);
    if (!c->q || !c->L) return 1;
    for (int i = 0; i < N; i++) c->q[i] = 0.3 * ((i * 7) % 11) / 11.0 - 0.15;
    if (mcd_forward_kinematics(c->m, c->d, c->q) != MCD_OK) return 1;
    for (int i = 0; i < K; i++) {
        int body = (int)((long)(i + 1) * N / (K + 1));
        const double local[3] = {0.05, 0.0, 0.0};
        c->pts[i].body = body;
        mcd_pose_apply(c->pts[i].x, &c->d->bd[body].X_world, local);
    }
    return 0;
}

static void free_case(lambda_case *c)
{
    free(c->q);
    free(c->L);
    mcd_data_free(c->d);
    mcd_model_free(c->m);
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn bench lambda [--reps N] [--max-dense N]\n\n"
            "Microseconds per call (median [min, max]) of Lambda = J M^-1 J^T (spatial\n"
            "rows, 6K x 6K) for K = 1, 8, 32 nodes on revolute chains of N = %d ... %d links\n"
            "(doubling, and 100):\n"
            "  recursion  O(N) + O(K^2): factorization of M(q) plus the Omega recursion\n"
            "  dense      mass matrix, Cholesky (LAPACK dpotrf) and solves (dpotrs)\n"
            "and, per K, the growth t(%d)/t(64) of the recursion (linear: 64).\n"
            "Then, with MuJoCo, Lambda of the linear velocities of K = 1, 2, 4, 8, 16 points on\n"
            "example-robot-data/a1.urdf and bullet3/humanoid.urdf (floating base; found in\n"
            "./models, $MCDYN_SHARED/models or ../shared/models) by mcdyn (mcd_minv_factor +\n"
            "mcd_osc_compliance) and by MuJoCo's factor-and-solve path (mj_kinematics, mj_comPos,\n"
            "mj_crb, mj_factorM, mj_jac per point, X = mj_solveM2(J^T), X X^T), cross-checked\n"
            "to 1e-9 relative before timing.\n\n"
            "options:\n"
            "  --reps N       samples per measurement (default %d, each >= 1 ms)\n"
            "  --max-dense N  largest N for the dense reference (default %d; it is O(N^3))\n"
            "  -h, --help     print this help\n",
            MIN_N, MAX_N, MAX_N, DEFAULT_SAMPLES, DEFAULT_MAX_DENSE);
}

int mcd_bench_lambda(int argc, char **argv)
{
    int samples = DEFAULT_SAMPLES, max_dense = DEFAULT_MAX_DENSE;
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        int *slot = !strcmp(argv[i], "--reps")        ? &samples
                    : !strcmp(argv[i], "--max-dense") ? &max_dense
                                                      : NULL;
        if (!slot || i + 1 >= argc || args_parse_int(argv[++i], 1, slot) != 0) {
            fprintf(stderr, "mcdyn bench lambda: bad option '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
    }
    bench_print_machine(stdout, "");
    printf("time per call [us]: median [min, max] of %d samples of >= 1 ms each\n\n", samples);
    printf("%6s %3s %31s %31s %9s\n", "N", "K", "recursion_us", "dense_us", "speedup");
    double t64[NK] = {0}, tmax[NK] = {0};
    /* doubling N, plus N = 100 where the issue states its goal */
    for (int N = MIN_N; N <= MAX_N; N = N == 64 ? 100 : N == 100 ? 128 : 2 * N)
        for (int k = 0; k < NK; k++) {
            lambda_case c;
            if (setup_case(&c, N, node_counts[k])) return 1;
            bench_spread tr, td = {-1, -1, -1};
            int failed = bench_time_us(call_recursion, &c, samples, &tr) != 0;
            if (!failed && N <= max_dense)
                failed = bench_time_us(call_dense, &c, samples, &td) != 0;
            free_case(&c);
            if (failed) {
                fprintf(stderr, "mcdyn bench lambda: a call failed at N = %d\n", N);
                return 1;
            }
            if (N == 64) t64[k] = tr.median;
            if (N == MAX_N) tmax[k] = tr.median;
            printf("%6d %3d %9.2f [%8.2f, %8.2f]", N, node_counts[k], tr.median, tr.min, tr.max);
            if (td.median > 0)
                printf(" %9.2f [%8.2f, %8.2f] %8.1fx\n", td.median, td.min, td.max,
                       td.median / tr.median);
            else
                printf(" %31s %9s\n", "-", "-");
            fflush(stdout);
        }
    printf("\ngrowth of the recursion t(%d)/t(64) (linear: %.0f; goal <= %.0f):\n", MAX_N,
           MAX_N / 64.0, 1.3 * MAX_N / 64.0);
    for (int k = 0; k < NK; k++) printf("  K = %2d: %.1f\n", node_counts[k], tmax[k] / t64[k]);
    return bench_lambda_robots(samples);
}

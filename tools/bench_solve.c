/* `mcdyn bench solve DIR`: every problem file in DIR solved by each of our
 * solvers for its kind and, when built with the Debian Siconos library
 * (MCDYN_HAVE_SICONOS), by Siconos' peers on the same problem in the same
 * run: Lemke for an LCP, the enumerative MLCP solver for an MLCP, NSGS and
 * NSN-AC for frictional contact. Per solver: status, iterations, median
 * wall time of cold-started solves, and the error of its solution measured
 * by our error function (include/mcdyn/solver.h), so that the rows are
 * comparable. The timed region is one call of the solver (mcd_solve_*,
 * Siconos' driver) from a zero start, for us and for Siconos alike; the
 * options are made before it (Siconos' solver_options_create allocates and
 * costs up to ~2 us, more than some whole solves) and released after it. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "../src/base/clock.h"
#include "args.h"
#include "cli.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/problem_isolated.h"
#include "mcdyn/solver.h"

#ifdef MCDYN_HAVE_SICONOS
#include <fcntl.h>
#include <unistd.h>

#include <siconos/numerics/FrictionContactProblem.h>
#include <siconos/numerics/Friction_cst.h>
#include <siconos/numerics/LinearComplementarityProblem.h>
#include <siconos/numerics/MLCP_Solvers.h>
#include <siconos/numerics/MixedLinearComplementarityProblem.h>
#include <siconos/numerics/NonSmoothDrivers.h>
#include <siconos/numerics/NumericsMatrix.h>
#include <siconos/numerics/SolverOptions.h>
#include <siconos/numerics/lcp_cst.h>
#include <siconos/numerics/mlcp_cst.h>
#endif

#define DEFAULT_REPS 5
#define MAX_REPS     1000
#define MAX_FILES    4096

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn bench solve DIR [--reps N]\n\n"
            "Solves every problem file in DIR (Siconos .dat; FCLIB .hdf5/.h5) with each of\n"
            "our solvers for its kind and, when built with the Siconos\n"
            "library, with Siconos' peers on the same problem: Lemke (LCP), the enumerative\n"
            "MLCP solver (MLCP), NSGS and NSN-AC (frictional contact), at our default\n"
            "tolerance and Siconos' default iteration limits. Prints, per problem and\n"
            "solver: status, iterations, the median wall time over N cold-started solves\n"
            "(microseconds) and the final error, measured by our error function on every\n"
            "solution.\n\n"
            "options:\n"
            "  --reps N    solves per solver and problem, 1 <= N <= %d (default %d)\n"
            "  -h, --help  show this help\n",
            MAX_REPS, DEFAULT_REPS);
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The error of solution x (z, or r followed by room for u) by our measure. */
static double our_error(const mcd_problem_file *f, double *x)
{
    int n = mcd_problem_file_size(f);
    if (f->kind != MCD_PROBLEM_FC3D) return mcd_mlcp_error(&f->mlcp, x, x + n);
    const mcd_fc3d *p = &f->fc3d;
    for (int i = 0; i < n; i++) {
        x[n + i] = p->q[i];
        for (int j = 0; j < n; j++) x[n + i] += p->W[(size_t)i * n + j] * x[j];
    }
    return mcd_fc3d_error(p, x, x + n);
}

/* One solver: options made by make_options (not timed), then solve (the
 * timed call) from x = 0 into x, then free_options (not timed), which also
 * reads the iteration count the solver left in its options. */
typedef struct bench_solver {
    const char *name;
    void *(*make_options)(const struct bench_solver *s);
    void (*solve)(const struct bench_solver *s, void *options, const mcd_problem_file *f, double *x,
                  int *iterations, const char **status);
    void (*free_options)(void *options, int *iterations);
    int kind;      /* ours: mcd_solver_kind; Siconos: its solver id */
    void *problem; /* Siconos' copy of the problem */
    mcd_solver_ws *ws;
    mcd_solver_opts opts; /* ours */
} bench_solver;

static void *our_options(const bench_solver *s)
{
    return (void *)&s->opts;
}

static void solve_ours(const bench_solver *s, void *options, const mcd_problem_file *f, double *x,
                       int *iterations, const char **status)
{
    mcd_solver_kind k = (mcd_solver_kind)s->kind;
    mcd_solver_stats stats = {0};
    int n = mcd_problem_file_size(f);
    mcd_status st = f->kind == MCD_PROBLEM_FC3D
                        ? mcd_solve_fc3d(s->ws, k, &f->fc3d, options, x, x + n, &stats, NULL)
                        : mcd_solve_mlcp(s->ws, k, &f->mlcp, options, x, &stats, NULL);
    *iterations = stats.iterations;
    *status = mcd_status_str(st);
}

static void no_free(void *options, int *iterations)
{
    (void)options;
    (void)iterations;
}

/* reps cold solves: prints the row with the median time. */
static void run_row(const bench_solver *s, const mcd_problem_file *f, int reps, double *x,
                    double *times)
{
    int n = mcd_problem_file_size(f), iterations = 0;
    const char *status = "";
    for (int r = 0; r < reps; r++) {
        memset(x, 0, sizeof(double) * 2 * (size_t)n);
        void *options = s->make_options(s);
        double t0 = mcd_clock_seconds();
        s->solve(s, options, f, x, &iterations, &status);
        times[r] = mcd_clock_seconds() - t0;
        s->free_options(options, &iterations);
    }
    qsort(times, reps, sizeof(double), by_value);
    printf("  %-16s %-16s %8d %14.1f %12.3e\n", s->name, status, iterations, 1e6 * times[reps / 2],
           our_error(f, x));
    fflush(stdout);
}

#ifdef MCDYN_HAVE_SICONOS
/* Our tolerance for Siconos' solvers too. */
static void *siconos_options(const bench_solver *s)
{
    SolverOptions *o = solver_options_create(s->kind);
    o->dparam[SICONOS_DPARAM_TOL] = mcd_solver_default_opts(MCD_SOLVER_MNCP_PLM).tol;
    return o;
}

static void siconos_options_free(void *options, int *iterations)
{
    SolverOptions *o = options;
    *iterations = o->iparam[SICONOS_IPARAM_ITER_DONE];
    solver_options_delete(o);
}

/* "ok", or "failed (info N)" (a static buffer). */
static const char *siconos_status(int info)
{
    static char text[32];
    if (info == 0) return "ok";
    snprintf(text, sizeof text, "failed (info %d)", info);
    return text;
}

static void solve_siconos(const bench_solver *s, void *options, const mcd_problem_file *f,
                          double *x, int *iterations, const char **status)
{
    int n = mcd_problem_file_size(f), info;
    SolverOptions *o = options;
    if (f->kind == MCD_PROBLEM_LCP) {
        info = linearComplementarity_driver(s->problem, x, x + n, o);
    } else if (f->kind == MCD_PROBLEM_MLCP) {
        mlcp_driver_init(s->problem, o);
        info = mlcp_driver(s->problem, x, x + n, o);
        mlcp_driver_reset(s->problem, o);
    } else {
        info = fc3d_driver(s->problem, x, x + n, o);
    }
    *iterations = 0; /* read from the options after the timed call */
    *status = siconos_status(info);
}

/* A column-major copy of the row-major n x n matrix A, as Siconos' dense matrix. */
static NumericsMatrix *siconos_dense(const double *A, int n)
{
    double *B = malloc(sizeof(double) * (size_t)n * n);
    if (!B) return NULL;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) B[i + (size_t)j * n] = A[(size_t)i * n + j];
    return NM_create_from_data(NM_DENSE, n, n, B);
}

static double *copy_of(const double *v, int n)
{
    double *c = malloc(sizeof(double) * (size_t)n);
    if (c) memcpy(c, v, sizeof(double) * (size_t)n);
    return c;
}

static void *siconos_lcp(const mcd_mlcp *p)
{
    LinearComplementarityProblem *s = newLCP();
    s->size = p->n;
    s->M = siconos_dense(p->M, p->n);
    s->q = copy_of(p->q, p->n);
    return s;
}

/* Siconos' MLCP (M storage): our equality rows must come first. */
static void *siconos_mlcp(const mcd_mlcp *p)
{
    int eq = 0;
    while (eq < p->n && p->lo[eq] < 0) eq++;
    for (int i = eq; i < p->n; i++)
        if (p->lo[i] != 0.0) return NULL;
    MixedLinearComplementarityProblem *s = mixedLinearComplementarity_new();
    s->isStorageType1 = 1;
    s->n = eq;
    s->m = p->n - eq;
    s->blocksRows = malloc(3 * sizeof(int));
    s->blocksIsComp = malloc(2 * sizeof(int));
    s->blocksRows[0] = 0;
    s->blocksRows[1] = eq;
    s->blocksRows[2] = p->n;
    s->blocksIsComp[0] = 0;
    s->blocksIsComp[1] = 1;
    s->M = siconos_dense(p->M, p->n);
    s->q = copy_of(p->q, p->n);
    return s;
}

/* Siconos' problem needs no bilateral rows. */
static void *siconos_fc3d(const mcd_fc3d *p)
{
    int n = mcd_fc3d_size(p);
    if (p->nb) return NULL;
    return frictionContactProblem_new_with_data(3, p->nc, siconos_dense(p->W, n), copy_of(p->q, n),
                                                copy_of(p->mu, p->nc));
}

static void siconos_free(mcd_problem_kind kind, void *problem)
{
    if (!problem) return;
    if (kind == MCD_PROBLEM_LCP) freeLinearComplementarityProblem(problem);
    if (kind == MCD_PROBLEM_MLCP) mixedLinearComplementarity_free(problem);
    if (kind == MCD_PROBLEM_FC3D) frictionContactProblem_free(problem);
}

/* Siconos reports on standard error as it goes (e.g. each failed LU); its
 * outcome is in the table, so that output is dropped while it runs. */
static int silence_stderr(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (null >= 0) {
        dup2(null, STDERR_FILENO);
        close(null);
    }
    return saved;
}

static void restore_stderr(int saved)
{
    if (saved < 0) return;
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
}

static void run_siconos(const mcd_problem_file *f, int reps, double *x, double *times)
{
    static const struct {
        mcd_problem_kind kind;
        int id;
        const char *name;
    } peers[] = {
        {MCD_PROBLEM_LCP, SICONOS_LCP_LEMKE, "siconos-lemke"},
        {MCD_PROBLEM_MLCP, SICONOS_MLCP_ENUM, "siconos-enum"},
        {MCD_PROBLEM_FC3D, SICONOS_FRICTION_3D_NSGS, "siconos-nsgs"},
        {MCD_PROBLEM_FC3D, SICONOS_FRICTION_3D_NSN_AC, "siconos-nsn-ac"},
    };
    void *problem = f->kind == MCD_PROBLEM_LCP    ? siconos_lcp(&f->mlcp)
                    : f->kind == MCD_PROBLEM_MLCP ? siconos_mlcp(&f->mlcp)
                                                  : siconos_fc3d(&f->fc3d);
    if (!problem) {
        printf("  (Siconos: not run, the problem has equality rows it does not take)\n");
        return;
    }
    int saved = silence_stderr();
    for (size_t k = 0; k < sizeof peers / sizeof *peers; k++) {
        if (peers[k].kind != f->kind) continue;
        bench_solver s = {.name = peers[k].name,
                          .make_options = siconos_options,
                          .solve = solve_siconos,
                          .free_options = siconos_options_free,
                          .kind = peers[k].id,
                          .problem = problem};
        run_row(&s, f, reps, x, times);
    }
    restore_stderr(saved);
    siconos_free(f->kind, problem);
}
#endif

static void run_ours(const mcd_problem_file *f, int reps, double *x, double *times)
{
    bench_solver s = {.make_options = our_options, .solve = solve_ours, .free_options = no_free};
    if (mcd_solver_ws_create(mcd_problem_file_size(f), &s.ws, NULL) != MCD_OK) {
        printf("  (out of memory for our workspace)\n");
        return;
    }
    for (int k = 0; k < MCD_SOLVER_KIND_COUNT; k++) {
        if (mcd_solver_is_mlcp(k) != (f->kind != MCD_PROBLEM_FC3D)) continue;
        s.name = mcd_solver_name(k);
        s.kind = k;
        s.opts = mcd_solver_default_opts(k);
        run_row(&s, f, reps, x, times);
    }
    mcd_solver_ws_free(s.ws);
}

static void print_problem(const char *name, const mcd_problem_file *f)
{
    int n = mcd_problem_file_size(f);
    if (f->kind == MCD_PROBLEM_FC3D)
        printf("\n%s: fc3d, %d contacts%s, %d bilateral rows, %d unknowns\n", name, f->fc3d.nc,
               f->dimension == 2 ? " (2D, embedded)" : "", f->fc3d.nb, n);
    else
        printf("\n%s: %s, %d unknowns\n", name, mcd_problem_kind_name(f->kind), n);
    printf("  %-16s %-16s %8s %14s %12s\n", "solver", "status", "iters", "median us", "error");
}

/* Benchmarks one file; returns 0, or -1 if it cannot be read. */
static int bench_file(const char *path, const char *name, int reps)
{
    mcd_problem_file f;
    mcd_error err = {0};
    if (mcd_problem_read_file_isolated(path, MCD_PROBLEM_AUTO, &f, &err) != MCD_OK) {
        printf("\n%s: not read: %s\n", name, err.msg);
        return -1;
    }
    int n = mcd_problem_file_size(&f);
    double *x = calloc(2 * (size_t)n, sizeof(double)), *times = malloc(sizeof(double) * reps);
    if (x && times) {
        print_problem(name, &f);
        run_ours(&f, reps, x, times);
#ifdef MCDYN_HAVE_SICONOS
        run_siconos(&f, reps, x, times);
#endif
    }
    free(x);
    free(times);
    mcd_problem_file_free(&f);
    return 0;
}

/* "model name" of /proc/cpuinfo, or "unknown CPU". */
static void cpu_name(char *buf, size_t cap)
{
    char line[512];
    snprintf(buf, cap, "unknown CPU");
    FILE *in = fopen("/proc/cpuinfo", "r");
    if (!in) return;
    while (fgets(line, sizeof line, in)) {
        char *colon = strchr(line, ':');
        if (strncmp(line, "model name", 10) != 0 || !colon) continue;
        snprintf(buf, cap, "%s", colon + 2);
        buf[strcspn(buf, "\n")] = '\0';
        break;
    }
    fclose(in);
}

static void print_header(const char *dir, int reps)
{
    char cpu[256], date[64];
    time_t t = time(NULL);
    cpu_name(cpu, sizeof cpu);
    strftime(date, sizeof date, "%Y-%m-%d %H:%M:%S %Z", localtime(&t));
    printf("mcdyn bench solve: %s\nCPU:  %s\ndate: %s\n", dir, cpu, date);
    const char *threads = getenv("OPENBLAS_NUM_THREADS");
    printf("median of %d cold-started solves; error by mcdyn's measure on every solution\n", reps);
    printf("OPENBLAS_NUM_THREADS: %s\n", threads ? threads : "(unset)");
#ifdef MCDYN_HAVE_SICONOS
    printf("Siconos: Debian's libsiconos-numerics, our tolerance, its iteration limits\n");
#else
    printf("Siconos: not built in (libsiconos-numerics-dev was not found)\n");
#endif
}

/* The regular files of dir, sorted; NULL (with a message) if unreadable. */
static char **list_files(const char *dir, int *count)
{
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "mcdyn bench solve: cannot read the folder '%s'\n", dir);
        return NULL;
    }
    char **names = malloc(sizeof(char *) * MAX_FILES), path[4096];
    struct stat st;
    *count = 0;
    for (struct dirent *e; names && *count < MAX_FILES && (e = readdir(d));) {
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
            names[(*count)++] = strdup(e->d_name);
    }
    closedir(d);
    if (names) qsort(names, *count, sizeof(char *), by_name);
    return names;
}

static int bench_dir(const char *dir, int reps)
{
    int count, failed = 0;
    char **names = list_files(dir, &count), path[4096];
    if (!names) return 1;
    print_header(dir, reps);
    for (int i = 0; i < count; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        failed |= bench_file(path, names[i], reps) != 0;
        free(names[i]);
    }
    free(names);
    if (!count) fprintf(stderr, "mcdyn bench solve: no files in '%s'\n", dir);
    return failed || !count;
}

int mcd_bench_solve(int argc, char **argv)
{
    const char *dir = NULL;
    int reps = DEFAULT_REPS;
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--reps")) {
            if (i + 1 < argc && args_parse_int(argv[i + 1], 1, &reps) == 0 && reps <= MAX_REPS) {
                i++;
                continue;
            }
            fprintf(stderr, "mcdyn bench solve: --reps needs an integer in [1, %d]\n", MAX_REPS);
            return 2;
        }
        if (argv[i][0] == '-' || dir) {
            fprintf(stderr, "mcdyn bench solve: unexpected argument '%s'\n\n", argv[i]);
            usage(stderr);
            return 2;
        }
        dir = argv[i];
    }
    if (!dir) {
        usage(stderr);
        return 2;
    }
    return bench_dir(dir, reps);
}

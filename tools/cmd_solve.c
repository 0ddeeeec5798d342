/* `mcdyn solve FILE`: reads an LCP, MLCP or frictional-contact problem file,
 * solves it and prints one JSON object. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "cli.h"
#include "atomic_file.h"
#include "json.h"
#include "mcdyn/problem_io.h"
#include "mcdyn/problem_isolated.h"
#include "mcdyn/solver.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mcdyn solve FILE [options]\n\n"
            "Solves the problem in FILE and prints one JSON object. FILE is a Siconos\n"
            "numerics file (.dat: LCP, MLCP or 3D/2D frictional contact; dense, sparse-block\n"
            "or sparse matrices) or an FCLIB local problem (.hdf5, .h5).\n\n"
            "options:\n"
            "  --solver NAME  mlcp-pfb-rlm, mlcp-pfb-plm, mlcp-lemke (LCP/MLCP) or\n"
            "                 mncp-rlm, mncp-plm, mncp-nsn, mncp-fixpoint (frictional\n"
            "                 contact); default\n"
            "                 mlcp-lemke for LCP/MLCP and mncp-plm for frictional contact\n"
            "  --tol T        stop when the error measure is <= T (default: the solver's, 1e-10)\n"
            "  --max-iter K   iteration limit, K >= 1 (Lemke: pivots; default: the solver's)\n"
            "  --kind KIND    read a .dat file as auto (default), lcp, mlcp or fc3d\n"
            "  --json OUT     write the JSON object to the file OUT instead of standard output\n"
            "  -h, --help     show this help\n\n"
            "The object holds: file, kind, size (and equality_rows for an MLCP; contacts,\n"
            "bilateral_rows, dimension for frictional contact), solver, tol, max_iter,\n"
            "status, iterations, seconds, error (docs/solvers.md), and the solution: z for\n"
            "LCP/MLCP; r and u = W r + q for frictional contact. max_iter 0 stands for the\n"
            "solver's own limit (Lemke: 50 n pivots).\n\n"
            "exit status: 0 solved to tolerance; 1 not solved (the JSON's status says why)\n"
            "or an error (message on standard error); 2 bad usage.\n");
}

typedef struct solve_args {
    const char *file;
    const char *json_path;
    int has_solver; /* 0: the default for the problem's kind */
    mcd_solver_kind solver;
    mcd_problem_kind kind;
    double tol;   /* <= 0: the solver's default */
    int max_iter; /* 0: the solver's default */
} solve_args;

/* The value after option argv[*i]; NULL (with a message) if missing. */
static const char *option_value(int argc, char **argv, int *i)
{
    if (*i + 1 >= argc) {
        fprintf(stderr, "mcdyn solve: %s needs a value\n", argv[*i]);
        return NULL;
    }
    return argv[++*i];
}

/* Applies option opt with value v; returns 0 on success. */
static int apply_option(const char *opt, const char *v, solve_args *a)
{
    mcd_error err = {0};
    if (!strcmp(opt, "--json")) {
        a->json_path = v;
        return 0;
    }
    if (!strcmp(opt, "--solver")) {
        a->has_solver = 1;
        if (mcd_solver_from_name(v, &a->solver, &err) == MCD_OK) return 0;
        fprintf(stderr, "mcdyn solve: --solver: %s\n", err.msg);
    } else if (!strcmp(opt, "--tol")) {
        if (args_parse_double(v, &a->tol) == 0 && a->tol > 0) return 0;
        fprintf(stderr, "mcdyn solve: --tol needs a positive number, got '%s'\n", v);
    } else if (!strcmp(opt, "--max-iter")) {
        if (args_parse_int(v, 1, &a->max_iter) == 0) return 0;
        fprintf(stderr, "mcdyn solve: --max-iter needs an integer >= 1, got '%s'\n", v);
    } else {
        if (mcd_problem_kind_from_name(v, &a->kind, &err) == MCD_OK) return 0;
        fprintf(stderr, "mcdyn solve: --kind: %s\n", err.msg);
    }
    return -1;
}

/* Parses the option at argv[*i] and its value; returns 0 on success. */
static int parse_option(int argc, char **argv, int *i, solve_args *a)
{
    static const char *const known[] = {"--solver", "--tol", "--max-iter", "--kind", "--json"};
    const char *opt = argv[*i];
    for (size_t k = 0; k < sizeof known / sizeof *known; k++) {
        if (strcmp(opt, known[k]) != 0) continue;
        const char *v = option_value(argc, argv, i);
        return v ? apply_option(opt, v, a) : -1;
    }
    fprintf(stderr, "mcdyn solve: unknown option '%s'\n", opt);
    return -1;
}

static int parse_args(int argc, char **argv, solve_args *a)
{
    for (int i = 1; i < argc; i++) {
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            if (parse_option(argc, argv, &i, a) != 0) return -1;
        } else if (!a->file) {
            a->file = argv[i];
        } else {
            fprintf(stderr, "mcdyn solve: more than one FILE ('%s', '%s')\n", a->file, argv[i]);
            return -1;
        }
    }
    if (a->file) return 0;
    fprintf(stderr, "mcdyn solve: no FILE given\n");
    return -1;
}

/* The solver given, or the default for the problem's kind. */
static mcd_solver_kind pick_solver(const solve_args *a, mcd_problem_kind kind)
{
    if (a->has_solver) return a->solver;
    return kind == MCD_PROBLEM_FC3D ? MCD_SOLVER_MNCP_PLM : MCD_SOLVER_MLCP_LEMKE;
}

/* A solve's outcome: the solution arrays and the statistics. */
typedef struct solve_result {
    mcd_solver_kind solver;
    mcd_solver_opts opts;
    mcd_solver_stats stats;
    double *x; /* z, or r */
    double *u; /* frictional contact only */
} solve_result;

/* Statuses that describe a finished solve (written as JSON) rather than an
 * error that stopped it. */
static int is_solve_outcome(mcd_status s)
{
    return s == MCD_OK || s == MCD_ERR_NOT_CONVERGED || s == MCD_ERR_INFEASIBLE ||
           s == MCD_ERR_SINGULAR;
}

static mcd_status run_solver(const mcd_problem_file *f, solve_result *r, mcd_error *err)
{
    int n = mcd_problem_file_size(f);
    mcd_solver_ws *ws = NULL;
    mcd_status s = mcd_solver_ws_create(n, &ws, err);
    if (s != MCD_OK) return s;
    if (f->kind == MCD_PROBLEM_FC3D)
        s = mcd_solve_fc3d(ws, r->solver, &f->fc3d, &r->opts, r->x, r->u, &r->stats, err);
    else
        s = mcd_solve_mlcp(ws, r->solver, &f->mlcp, &r->opts, r->x, &r->stats, err);
    mcd_solver_ws_free(ws);
    r->stats.status = s;
    return s;
}

static void write_sizes(json_writer *w, const mcd_problem_file *f)
{
    json_key(w, "size");
    json_int(w, mcd_problem_file_size(f));
    if (f->kind == MCD_PROBLEM_FC3D) {
        json_key(w, "contacts");
        json_int(w, f->fc3d.nc);
        json_key(w, "bilateral_rows");
        json_int(w, f->fc3d.nb);
        json_key(w, "dimension");
        json_int(w, f->dimension);
    } else if (f->kind == MCD_PROBLEM_MLCP) {
        int eq = 0;
        for (int i = 0; i < f->mlcp.n; i++) eq += f->mlcp.lo[i] < 0;
        json_key(w, "equality_rows");
        json_int(w, eq);
    }
}

static void write_json(FILE *out, const char *file, const mcd_problem_file *f,
                       const solve_result *r, const mcd_error *err)
{
    json_writer w;
    int n = mcd_problem_file_size(f);
    json_begin(&w, out);
    json_key(&w, "file");
    json_string(&w, file);
    json_key(&w, "kind");
    json_string(&w, mcd_problem_kind_name(f->kind));
    write_sizes(&w, f);
    json_key(&w, "solver");
    json_string(&w, mcd_solver_name(r->solver));
    json_key(&w, "tol");
    json_double(&w, r->opts.tol);
    json_key(&w, "max_iter");
    json_int(&w, r->opts.max_iter);
    json_key(&w, "status");
    json_string(&w, mcd_status_str(r->stats.status));
    if (r->stats.status != MCD_OK && err->msg[0]) {
        json_key(&w, "message");
        json_string(&w, err->msg);
    }
    json_key(&w, "iterations");
    json_int(&w, r->stats.iterations);
    json_key(&w, "seconds");
    json_double(&w, r->stats.seconds);
    json_key(&w, "error");
    json_double(&w, r->stats.error);
    json_key(&w, f->kind == MCD_PROBLEM_FC3D ? "r" : "z");
    json_double_array(&w, r->x, n);
    if (f->kind == MCD_PROBLEM_FC3D) {
        json_key(&w, "u");
        json_double_array(&w, r->u, n);
    }
    json_end(&w);
}

/* Writes the JSON to a->json_path (all or nothing) or standard output
 * (checked when the command ends, mcdyn.c); 0 on success. */
static int emit(const solve_args *a, const mcd_problem_file *f, const solve_result *r,
                const mcd_error *err)
{
    if (!a->json_path) {
        write_json(stdout, a->file, f, r, err);
        return 0;
    }
    atomic_file out;
    char msg[512];
    if (atomic_file_open(&out, a->json_path, msg, sizeof msg) == 0) {
        write_json(out.f, a->file, f, r, err);
        if (atomic_file_commit(&out, msg, sizeof msg) == 0) return 0;
    }
    fprintf(stderr, "mcdyn solve: %s\n", msg);
    return -1;
}

/* Solves f and reports; returns the exit code. */
static int solve_and_report(const solve_args *a, const mcd_problem_file *f, solve_result *r)
{
    mcd_error err = {0};
    r->opts = mcd_solver_default_opts(r->solver);
    if (a->tol > 0) r->opts.tol = a->tol;
    if (a->max_iter > 0) r->opts.max_iter = a->max_iter;
    mcd_status s = run_solver(f, r, &err);
    if (!is_solve_outcome(s)) {
        fprintf(stderr, "mcdyn solve: %s: %s\n", mcd_status_str(s), err.msg);
        return 1;
    }
    if (emit(a, f, r, &err) != 0) return 1;
    if (s == MCD_OK) return 0;
    fprintf(stderr, "mcdyn solve: %s: %s (error %.3g)\n", mcd_status_str(s),
            err.msg[0] ? err.msg : "no solution to tolerance", r->stats.error);
    return 1;
}

static int solve_file(const solve_args *a, const mcd_problem_file *f)
{
    solve_result r = {0};
    r.solver = pick_solver(a, f->kind);
    size_t n = (size_t)mcd_problem_file_size(f);
    r.x = calloc(2 * n, sizeof(double));
    if (!r.x) {
        fprintf(stderr, "mcdyn solve: out of memory\n");
        return 1;
    }
    r.u = r.x + n;
    int code = solve_and_report(a, f, &r);
    free(r.x);
    return code;
}

int mcd_cmd_solve(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (args_is_help(argv[i])) {
            usage(stdout);
            return 0;
        }
    }
    solve_args a = {NULL, NULL, 0, MCD_SOLVER_MLCP_LEMKE, MCD_PROBLEM_AUTO, 0, 0};
    if (parse_args(argc, argv, &a) != 0) {
        fprintf(stderr, "(`mcdyn solve --help` describes the options)\n");
        return 2;
    }
    mcd_problem_file f;
    mcd_error err = {0};
    if (mcd_problem_read_file_isolated(a.file, a.kind, &f, &err) != MCD_OK) {
        fprintf(stderr, "mcdyn solve: %s\n", err.msg);
        return 1;
    }
    int code = solve_file(&a, &f);
    mcd_problem_file_free(&f);
    return code;
}

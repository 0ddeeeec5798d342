/* capture-problems: runs a scenario through the public API and writes the
 * step problem of every step whose solve failed to a Siconos `.dat` file,
 * the way the regression problems of tests/solver_data/data/captured/ were
 * made (docs/solvers.md, "Robustness").
 *
 *   capture-problems SCENARIO.yaml MODELS_DIR METHOD MAX_FILES OUT_PREFIX
 *
 * The scenario's URDF paths are resolved from MODELS_DIR; METHOD replaces
 * its step method, and failures are kept going past (warn-and-continue is
 * forced). For an MLCP method (mlcp-*) the step's MLCP is written, else the
 * frictional-contact problem: OUT_PREFIX_<step>.dat, at most MAX_FILES of
 * them. One line per failing step on stdout: step, time, contacts, status,
 * iterations, error. */
#include "mcdyn/mcdyn.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The whole file, NUL-terminated (malloc'd), or NULL. */
static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    rewind(f);
    char *buf = len >= 0 ? malloc((size_t)len + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)len, f) == (size_t)len) {
        buf[len] = '\0';
    } else {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    return buf;
}

/* Writes step's problem to path = PREFIX_<step>.dat (path: 1024 chars). */
static mcd_status write_step_problem(mcd_sim *s, int mlcp, const char *prefix, long step,
                                     char *path, mcd_error *err)
{
    snprintf(path, 1024, "%s_%ld.dat", prefix, step);
    mcd_contact_ws *cws = (mcd_contact_ws *)mcd_sim_contact_ws(s);
    if (mlcp) {
        mcd_mlcp p;
        mcd_status st = mcd_contact_mlcp(cws, &p);
        return st == MCD_OK ? mcd_problem_write_mlcp(path, &p, err) : st;
    }
    mcd_fc3d p;
    mcd_status st = mcd_contact_fc3d(cws, &p);
    return st == MCD_OK ? mcd_problem_write_fc3d(path, &p, err) : st;
}

static int run(mcd_scenario *sc, const char *method, int max_files, const char *prefix)
{
    mcd_error err = {0};
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.solver = method;
    sc->settings.solver.on_failure = MCD_ON_FAILURE_WARN;
    mcd_runner *r = NULL;
    if (mcd_runner_create(sc, &ov, &r, &err) != MCD_OK) {
        fprintf(stderr, "capture-problems: %s\n", err.msg);
        return 1;
    }
    mcd_sim *s = mcd_runner_sim(r);
    int mlcp = strncmp(method, "mlcp-", 5) == 0, files = 0, rc = 0;
    for (long i = 0; i < mcd_runner_steps(r) && files < max_files && rc == 0; i++) {
        mcd_step_stats st;
        char path[1024];
        if (mcd_runner_step(r, &st) != MCD_OK) { /* e.g. a Lemke ray: its problem is kept too */
            fprintf(stderr, "capture-problems: step %ld: %s\n", i, mcd_sim_error(s));
            if (write_step_problem(s, mlcp, prefix, i, path, &err) == MCD_OK)
                printf("-> %s\n", path);
            rc = 1;
        } else if (st.solver_status != MCD_OK && st.ncontacts > 0) {
            mcd_status w = write_step_problem(s, mlcp, prefix, i, path, &err);
            printf("%ld t=%.4f nc=%d status=%s iterations=%d error=%.3g -> %s\n", i,
                   mcd_sim_time(s), st.ncontacts, mcd_status_str(st.solver_status), st.iterations,
                   st.residual, path);
            if (w != MCD_OK) {
                fprintf(stderr, "capture-problems: %s\n", err.msg);
                rc = 1;
            }
            files++;
        }
    }
    mcd_runner_free(r);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: %s SCENARIO.yaml MODELS_DIR METHOD MAX_FILES OUT_PREFIX\n",
                argv[0]);
        return 2;
    }
    char *yaml = slurp(argv[1]);
    if (!yaml) {
        fprintf(stderr, "capture-problems: cannot read %s\n", argv[1]);
        return 1;
    }
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    int rc = 1;
    if (mcd_scenario_load_string(yaml, argv[1], argv[2], &sc, &err) != MCD_OK) {
        fprintf(stderr, "capture-problems: %s\n", err.msg);
    } else {
        rc = run(sc, argv[3], atoi(argv[4]), argv[5]);
    }
    mcd_scenario_free(sc);
    free(yaml);
    return rc;
}

/* Per-step wall time of a grid of n independent boxes resting on a plane
 * (box_grid.h): K = 4 n contacts, by default mncp-plm with dt = 1 ms. Not
 * a test (no timing thresholds in tests): a measuring program, built with
 * the tests and run by hand:
 *   build-test/tests/sim/time_box_grid [--steps S] [METHOD [N...]]
 * Prints K, microseconds per step (median of 5 runs of up to 200 steps
 * each, at most ~1 s per run), and the solver's iterations per step. With
 * --steps, one run of exactly S steps, for instruction counts that do not
 * depend on the machine's speed:
 *   valgrind --tool=callgrind build-dev/tests/sim/time_box_grid --steps 50 mncp-plm 16 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "box_grid.h"
#include "base/clock.h"

static int cmp(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int run(mcd_step_method method, int n, int fixed_steps)
{
    mcd_model *m = box_grid_model(n);
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    mcd_sim *s = NULL;
    mcd_error err = {0};
    if (mcd_sim_create(m, &o, &s, &err) != MCD_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 1;
    }
    mcd_sim_set_contact_provider(s, box_grid_plane, NULL);
    double *q = malloc(7 * (size_t)n * sizeof *q), *qd = calloc(6 * (size_t)n, sizeof *qd);
    box_grid_rest(n, -1e-4, q);
    mcd_sim_set_state(s, q, qd, 0);
    double us[5];
    long iters = 0, steps = 0;
    const int runs = fixed_steps > 0 ? 1 : 5, max_steps = fixed_steps > 0 ? fixed_steps : 200;
    for (int r = 0; r < runs; r++) {
        int k = 0;
        const double t0 = mcd_clock_seconds();
        for (; k < max_steps && (fixed_steps > 0 || mcd_clock_seconds() - t0 < 1.0); k++) {
            mcd_step_stats st;
            if (mcd_sim_step(s, &st) != MCD_OK) {
                fprintf(stderr, "%s\n", mcd_sim_error(s));
                return 1;
            }
            iters += st.iterations, steps++;
        }
        us[r] = 1e6 * (mcd_clock_seconds() - t0) / k;
    }
    qsort(us, (size_t)runs, sizeof *us, cmp);
    printf("%-12s K = %5d  %10.1f us/step  %.1f iterations/step\n", mcd_step_method_name(method),
           4 * n, us[runs / 2], (double)iters / (double)steps);
    free(q), free(qd);
    mcd_sim_free(s);
    mcd_model_free(m);
    return 0;
}

int main(int argc, char **argv)
{
    mcd_step_method method = MCD_METHOD_MNCP_PLM;
    mcd_error err = {0};
    int fixed_steps = 0;
    if (argc > 2 && strcmp(argv[1], "--steps") == 0) {
        fixed_steps = atoi(argv[2]);
        if (fixed_steps < 1) {
            fprintf(stderr, "--steps needs a positive count\n");
            return 2;
        }
        argc -= 2, argv += 2;
    }
    if (argc > 1 && mcd_step_method_from_name(argv[1], &method, &err) != MCD_OK) {
        fprintf(stderr, "%s\n", err.msg);
        return 2;
    }
    static const int grid[] = {1, 4, 16, 64};
    int status = 0;
    if (argc > 2)
        for (int i = 2; i < argc; i++) status |= run(method, atoi(argv[i]), fixed_steps);
    else
        for (int i = 0; i < 4; i++) status |= run(method, grid[i], fixed_steps);
    return status;
}

/* Warm start (src/sim/sim_warm.c): a box resting on its four corners
 * (tests/common/contact_scenes.h, contacts in closed form) simulated twice
 * in lockstep, warm started and cold (warm_start = 0, the default of every
 * method but mncp-plm and the Lemke methods): before
 * every step the cold simulator is put in the warm one's state, so both
 * solve the same problem, and after it
 *  - the velocities agree to what the solver tolerance leaves free, and
 *  - the warm runs take fewer solver iterations in all than the cold ones.
 * Every method that warm starts is run (mlcp-lemke from the guessed
 * basis, src/solver/lemke.h; nslcp-lemke from its previous solution,
 * mcd_nslcp_start; nslcp-judice always starts cold). Then a box sliding to rest, whose frames and
 * friction change from step to step: no step fails warm that converges
 * cold. And mlcp-lemke on a block of boxes, statically indeterminate
 * (four coplanar corners per box face: its positive impulses do not name
 * a nonsingular basis), takes fewer pivots when each step starts from the
 * previous solution's basis (src/sim/sim_warm_basis.c) than from the
 * impulses alone. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/check_main.h"
#include "common/contact_scenes.h"
#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"
#include "sim/sim_internal.h"

static const mcd_step_method warm_methods[] = {
    MCD_METHOD_MLCP_PFB_RLM, MCD_METHOD_MLCP_PFB_PLM, MCD_METHOD_MNCP_RLM,
    MCD_METHOD_MNCP_PLM,     MCD_METHOD_CCP_PGS,      MCD_METHOD_CCP_APGD,
    MCD_METHOD_MAXDISS_BGS,  MCD_METHOD_MLCP_LEMKE,   MCD_METHOD_NSLCP_LEMKE,
};

static mcd_sim *make_sim(const mcd_model *m, mcd_step_method method, int warm)
{
    mcd_sim_options o = mcd_sim_default_options();
    o.solver = method;
    o.solver_opts = mcd_step_method_default_opts(method);
    /* on by default for the default method and Lemke's (sim_method.c) */
    ck_assert_int_eq(o.solver_opts.warm_start, method == MCD_METHOD_MNCP_PLM ||
                                                   method == MCD_METHOD_MLCP_LEMKE ||
                                                   method == MCD_METHOD_NSLCP_LEMKE);
    o.solver_opts.warm_start = warm;
    o.impact_law = MCD_IMPACT_NEWTON;
    o.on_failure = MCD_ON_FAILURE_WARN;
    mcd_sim *s = NULL;
    mcd_error err = {0};
    ck_assert_msg(mcd_sim_create(m, &o, &s, &err) == MCD_OK, "%s", err.msg);
    mcd_sim_set_contact_provider(s, scene_box_plane, NULL);
    return s;
}

/* The lockstep run of method from (q0, qd0) for nstep steps, both
 * simulators under on_failure warn (a step that did not converge is
 * reported in its statistics and the run goes on): solver iterations of
 * the warm and the cold runs over the steps after the first (which has
 * nothing to start from), the largest velocity difference after a step
 * that both solved, and the steps that only one of them solved. */
typedef struct lockstep_result {
    long it_warm, it_cold;
    double dqd;
    int only_warm_failed, only_cold_failed;
} lockstep_result;

static lockstep_result lockstep(mcd_step_method method, const double q0[7], const double qd0[6],
                                int nstep)
{
    mcd_model *m = scene_box_model();
    mcd_sim *warm = make_sim(m, method, 1), *cold = make_sim(m, method, 0);
    ck_assert_int_eq(mcd_sim_set_state(warm, q0, qd0, 0), MCD_OK);
    const char *name = mcd_step_method_name(method);
    lockstep_result r = {0};
    for (int k = 0; k < nstep; k++) {
        ck_assert_int_eq(mcd_sim_set_state(cold, mcd_sim_q(warm), mcd_sim_qd(warm), 0), MCD_OK);
        mcd_step_stats sw, sc;
        ck_assert_msg(mcd_sim_step(warm, &sw) == MCD_OK, "%s warm, step %d: %s", name, k,
                      mcd_sim_error(warm));
        ck_assert_msg(mcd_sim_step(cold, &sc) == MCD_OK, "%s cold, step %d: %s", name, k,
                      mcd_sim_error(cold));
        ck_assert_int_eq(sw.ncontacts, sc.ncontacts);
        if (k > 0) r.it_warm += sw.iterations, r.it_cold += sc.iterations;
        r.only_warm_failed += sw.solver_status != MCD_OK && sc.solver_status == MCD_OK;
        r.only_cold_failed += sc.solver_status != MCD_OK && sw.solver_status == MCD_OK;
        if (sw.solver_status != MCD_OK || sc.solver_status != MCD_OK) continue;
        for (int i = 0; i < m->nv; i++)
            r.dqd = fmax(r.dqd, fabs(mcd_sim_qd(warm)[i] - mcd_sim_qd(cold)[i]));
    }
    printf("%-13s warm %5ld iterations, cold %5ld; largest |dqd| %.2e; failed only warm %d, "
           "only cold %d\n",
           name, r.it_warm, r.it_cold, r.dqd, r.only_warm_failed, r.only_cold_failed);
    mcd_sim_free(warm), mcd_sim_free(cold);
    mcd_model_free(m);
    return r;
}

/* [m/s] Both runs stop at the method's tolerance (1e-9 ... 1e-10, velocity
 * units or the scaled residual of the MNCP); the velocities of two
 * solutions of one problem then differ by the contact velocity errors,
 * mapped to the box's twist through corners 0.7 m from its centre (a
 * factor of order 1): a few 1e-9. 1e-7 leaves room for the scaling of the
 * error measures and is 1e-5 of the velocity gravity gives per step
 * (9.81e-3 m/s), so a start that changed the answer would show. */
#define DQD_TOL 1e-7
/* The CCP's complementarity term is |gamma_k . d_k| / max(1, |gamma_k|)
 * <= tol (ccp.h): with a corner's impulse |gamma_k| = m g h / 4 = 2.45e-3
 * N s it lets the velocity along gamma_k be tol / 2.45e-3 = 4.1e-7 m/s
 * (tol 1e-9), which either run may use: 5 times that covers the twist
 * mapping and two runs. */
#define DQD_TOL_CCP (5 * 1e-9 / 2.45e-3)

static double dqd_tol(mcd_step_method m)
{
    return m == MCD_METHOD_CCP_PGS || m == MCD_METHOD_CCP_APGD ? DQD_TOL_CCP : DQD_TOL;
}

START_TEST(resting_box_converges_faster_warm)
{
    const mcd_step_method method = warm_methods[_i];
    const double q0[7] = {0, 0, SCENE_BOX_HALF, 1, 0, 0, 0}, qd0[6] = {0};
    const lockstep_result r = lockstep(method, q0, qd0, 200);
    const char *name = mcd_step_method_name(method);
    ck_assert_msg(r.only_warm_failed == 0 && r.only_cold_failed == 0, "%s: failures", name);
    ck_assert_msg(r.dqd <= dqd_tol(method), "%s: warm and cold velocities differ by %.3e", name,
                  r.dqd);
    ck_assert_msg(r.it_warm < r.it_cold, "%s: %ld iterations warm, %ld cold", name, r.it_warm,
                  r.it_cold);
}
END_TEST

/* A box sliding and spinning to rest: its contact frames and friction
 * change from step to step and the stick-slip transition is hard for
 * every method; a warm-started step fails only where the same problem
 * fails cold too (the failed warm solve is repeated cold). The velocities
 * are not compared: at the transition Coulomb friction on four coplanar
 * contacts can have more than one solution. */
START_TEST(sliding_box_fails_no_more_than_cold)
{
    const mcd_step_method method = warm_methods[_i];
    const double q0[7] = {0, 0, SCENE_BOX_HALF, 1, 0, 0, 0};
    const double qd0[6] = {0, 0, 0.5, 0.8, 0.3, 0}; /* spin about z, sliding along x, y */
    const lockstep_result r = lockstep(method, q0, qd0, 300);
    ck_assert_msg(r.only_warm_failed == 0, "%s: %d steps failed warm that converge cold",
                  mcd_step_method_name(method), r.only_warm_failed);
}
END_TEST

/* A runner of models/NAME.yaml by mlcp-lemke at its default options. */
static mcd_runner *lemke_runner(const char *name, mcd_scenario **sc)
{
    char path[1024];
    const char *src = getenv("MCDYN_SOURCE");
    snprintf(path, sizeof path, "%s/models/%s.yaml", src ? src : ".", name);
    mcd_error err = {0};
    ck_assert_msg(mcd_scenario_load(path, sc, &err) == MCD_OK, "%s", err.msg);
    (*sc)->settings.solver.kind = MCD_METHOD_MLCP_LEMKE;
    (*sc)->settings.solver.opts = mcd_step_method_default_opts(MCD_METHOD_MLCP_LEMKE);
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    mcd_runner *r = NULL;
    ck_assert_msg(mcd_runner_create(*sc, &ov, &r, &err) == MCD_OK, "%s", err.msg);
    return r;
}

/* models/box_block.yaml (27 boxes in a 3 x 3 x 3 block: stacked corner
 * contacts, statically indeterminate) by mlcp-lemke, two runs in lockstep
 * (the second put in the first's state before every step): the first
 * warm-starts from the previous step's basis (src/sim/sim_warm_basis.c),
 * the second's recorded bases are wiped after every step, so it guesses
 * from the impulses' positive entries alone. Both solve every step; the
 * first takes fewer pivots in all. */
START_TEST(box_block_mlcp_lemke_pivots_less_from_the_last_basis)
{
    mcd_scenario *sa = NULL, *sb = NULL;
    mcd_runner *ra = lemke_runner("box_block", &sa), *rb = lemke_runner("box_block", &sb);
    mcd_sim *a = mcd_runner_sim(ra), *b = mcd_runner_sim(rb);
    long pivots_basis = 0, pivots_impulses = 0;
    for (int k = 0; k < 200; k++) {
        ck_assert_int_eq(mcd_sim_set_state(b, mcd_sim_q(a), mcd_sim_qd(a), mcd_sim_time(a)),
                         MCD_OK);
        mcd_step_stats sta, stb;
        ck_assert_msg(mcd_runner_step(ra, &sta) == MCD_OK, "step %d: %s", k, mcd_sim_error(a));
        ck_assert_msg(mcd_runner_step(rb, &stb) == MCD_OK, "step %d: %s", k, mcd_sim_error(b));
        ck_assert_int_eq(sta.solver_status, MCD_OK);
        ck_assert_int_eq(stb.solver_status, MCD_OK);
        pivots_basis += sta.iterations, pivots_impulses += stb.iterations;
        mcd_sim_warm_basis_forget_step(b); /* nothing kept: nothing recorded */
        mcd_sim_warm_basis_record(b);
    }
    printf("box_block mlcp-lemke, 200 steps: %ld pivots from the last basis, %ld from the "
           "impulses\n",
           pivots_basis, pivots_impulses);
    ck_assert_int_lt(pivots_basis, pivots_impulses);
    mcd_runner_free(ra), mcd_runner_free(rb);
    mcd_scenario_free(sa), mcd_scenario_free(sb);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("warm_start");
    TCase *tc = tcase_create("warm_start");
    tcase_set_timeout(tc, 300);
    const int n = (int)(sizeof warm_methods / sizeof *warm_methods);
    tcase_add_loop_test(tc, resting_box_converges_faster_warm, 0, n);
    tcase_add_loop_test(tc, sliding_box_fails_no_more_than_cold, 0, n);
    tcase_add_test(tc, box_block_mlcp_lemke_pivots_less_from_the_last_basis);
    suite_add_tcase(s, tc);
    return run_suite(s);
}

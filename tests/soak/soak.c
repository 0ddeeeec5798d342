/* Soak run (issue 13, item 7; docs/reliability.md, soak): a scenario run
 * for many steps on its own settings, checked after every step:
 *   - the step succeeds (no solver failure, no guard stop) and the solver
 *     converged (mcd_sim_solver_failures stays 0);
 *   - q and qd are finite;
 *   - the mechanical energy E = T + U (mcd_energy on a data of its own,
 *     independent of the simulator's guard) stays within
 *       E_n <= E_0 + W_n + M |g| d,
 *     W_n = sum over steps of dt max(0, tau_a . qd+): the work the actuators
 *     can have put in (tau_a the actuators' torques, mcd_sim_actuator_torque;
 *     the positions advance by qd+ dt, so tau_a . qd+ dt is their work over
 *     the step, and only its positive part counts, since a braking actuator
 *     stores nothing); M |g| d, d = 1 cm: an allowance for what the
 *     penetration correction can add by lifting the model out of a
 *     penetration, and for the solver's tolerance (the printed largest
 *     E_n - E_0 - W_n shows how much of it a run used: none in the runs
 *     recorded in docs/reliability.md). Contacts (Stronge's law, or
 *     Newton's with e = 0, and friction) and the implicit
 *     damping only remove energy, and gravity's work is in U.
 *
 *   soak SCENARIO STEPS     exit 0 when every step passed
 *
 * Prints the steps run, the largest E_n - E_0 - W_n, the final energy, the
 * work bound, and the contacts per step (mean, largest, last), which tell
 * how contact-rich the run was. Leaks: run it under AddressSanitizer
 * (LeakSanitizer) or valgrind. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "mcdyn/mcdyn.h"
#include "mcdyn/runner.h"

#define LIFT_MARGIN 0.01 /* d above [m] */

typedef struct soak_energy {
    double dt, E0, W, worst; /* step, initial energy, actuator work bound, largest E - E0 - W */
} soak_energy;

/* Contacts per step (mcd_sim_ncontacts) over the run. */
typedef struct soak_contacts {
    double sum;
    int max, last;
} soak_contacts;

static void count_contacts(const mcd_sim *s, soak_contacts *c)
{
    c->last = mcd_sim_ncontacts(s);
    c->sum += c->last;
    if (c->last > c->max) c->max = c->last;
}

static double energy(const mcd_model *m, mcd_data *d, const mcd_sim *s)
{
    double T, U;
    if (mcd_energy(m, d, mcd_sim_q(s), mcd_sim_qd(s), &T, &U) != MCD_OK) return NAN;
    return T + U;
}

static int finite_state(const mcd_model *m, const mcd_sim *s)
{
    for (int i = 0; i < m->nq; i++)
        if (!isfinite(mcd_sim_q(s)[i])) return 0;
    for (int i = 0; i < m->nv; i++)
        if (!isfinite(mcd_sim_qd(s)[i])) return 0;
    return 1;
}

/* Checks step n; returns 0, or -1 with the reason printed. */
static int check_step(const mcd_model *m, mcd_data *d, mcd_sim *s, long n, soak_energy *e,
                      double margin)
{
    if (mcd_sim_solver_failures(s) != 0) {
        fprintf(stderr, "soak: step %ld: the solver did not converge\n", n);
        return -1;
    }
    if (!finite_state(m, s)) {
        fprintf(stderr, "soak: step %ld: non-finite state\n", n);
        return -1;
    }
    double P = 0.0;
    for (int i = 0; i < m->nv; i++) P += mcd_sim_actuator_torque(s)[i] * mcd_sim_qd(s)[i];
    e->W += e->dt * fmax(0.0, P);
    const double rise = energy(m, d, s) - e->E0 - e->W;
    e->worst = fmax(e->worst, rise);
    if (!(rise <= margin)) {
        fprintf(stderr,
                "soak: step %ld (t = %.4f): energy %.6g J above E0 + W = %.6g J, more than the "
                "%.4g J margin\n",
                n, mcd_sim_time(s), rise, e->E0 + e->W, margin);
        return -1;
    }
    return 0;
}

static int run(const mcd_scenario *sc, long steps)
{
    mcd_runner_overrides ov = mcd_runner_default_overrides();
    ov.duration = (double)steps * sc->settings.dt;
    mcd_runner *r = NULL;
    mcd_data *d = NULL;
    mcd_error err = {0};
    if (mcd_runner_create(sc, &ov, &r, &err) != MCD_OK ||
        mcd_data_create(sc->model, &d, &err) != MCD_OK) {
        fprintf(stderr, "soak: %s\n", err.msg);
        mcd_runner_free(r);
        return -1;
    }
    mcd_sim *s = mcd_runner_sim(r);
    const mcd_model *m = sc->model;
    const double margin = m->total_mass *
                          sqrt(m->gravity[0] * m->gravity[0] + m->gravity[1] * m->gravity[1] +
                               m->gravity[2] * m->gravity[2]) *
                          LIFT_MARGIN;
    soak_energy e = {sc->settings.dt, energy(m, d, s), 0.0, -INFINITY};
    soak_contacts c = {0.0, 0, 0};
    long n = 0;
    int status = 0;
    for (; n < steps && status == 0; n++) {
        if (mcd_runner_step(r, NULL) != MCD_OK) {
            fprintf(stderr, "soak: step %ld: %s\n", n, mcd_sim_error(s));
            status = -1;
        } else {
            status = check_step(m, d, s, n, &e, margin);
            count_contacts(s, &c);
        }
    }
    printf("soak: %s: %ld of %ld steps, E0 %.6g J, final E %.6g J, actuator work bound W %.6g J, "
           "largest E - E0 - W %.4g J (margin %.4g J): %s\n",
           sc->name, n, steps, e.E0, energy(m, d, s), e.W, e.worst, margin,
           status == 0 ? "pass" : "FAIL");
    printf("soak: contacts per step: mean %.2f, largest %d, last step %d\n",
           n > 0 ? c.sum / (double)n : 0.0, c.max, c.last);
    mcd_data_free(d);
    mcd_runner_free(r);
    return status;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: soak SCENARIO STEPS\n");
        return 2;
    }
    char *end;
    long steps = strtol(argv[2], &end, 10);
    if (*end || steps < 1 || steps > MCD_RUNNER_MAX_STEPS) {
        fprintf(stderr, "soak: STEPS must be an integer from 1 to %ld\n", MCD_RUNNER_MAX_STEPS);
        return 2;
    }
    mcd_scenario *sc = NULL;
    mcd_error err = {0};
    if (mcd_scenario_load(argv[1], &sc, &err) != MCD_OK) {
        fprintf(stderr, "soak: %s\n", err.msg);
        return 1;
    }
    int status = run(sc, steps);
    mcd_scenario_free(sc);
    return status == 0 ? 0 : 1;
}

/* The MuJoCo side of `mcdyn bench sim`: the twelve-link pendulum
 * (models/pendulum12.xml, the scene of models/pendulum12.yaml) run by
 * MuJoCo 2.2.2. Compiled only when MuJoCo is found (MCDYN_HAVE_MUJOCO).
 */
#ifndef MCDYN_TOOLS_BENCH_MUJOCO_H
#define MCDYN_TOOLS_BENCH_MUJOCO_H

/* Loads the MJCF at mjcf_path once, then runs it 3 times from its keyframe
 * "initial" (else its first keyframe, else the model's reference state) for
 * round(duration / timestep) calls of mj_step each, timed with
 * CLOCK_MONOTONIC around the stepping only. Outputs the median run:
 *  - *wall_seconds: wall time of the run [s];
 *  - *us_per_step: wall time per mj_step [us];
 *  - *last_link_height_at_2s: z of the centre of mass of the body "link12"
 *    (else the model's last body) when the simulated time is 2 s, measured
 *    from the world origin (the floor's mid-plane); NaN when duration < 2 s.
 * Returns 0 on success. On failure (the file does not load, a MuJoCo error,
 * a non-finite state, MuJoCo's bad-number or buffer-full warnings, a
 * duration shorter than one step) returns nonzero and writes the reason to
 * msg (msglen bytes, may be 0). The outputs may be NULL.
 *
 * MuJoCo's error and warning handlers are replaced during the call (MuJoCo
 * errors are caught with longjmp and nothing is printed or logged to
 * MUJOCO_LOG.TXT), so the function must not run concurrently with other
 * MuJoCo calls of the process. */
int bench_mujoco_pendulum(const char *mjcf_path, double duration, double *wall_seconds,
                          double *us_per_step, double *last_link_height_at_2s, char *msg,
                          int msglen);

#endif

/* The robot table of `mcdyn bench lambda`: Lambda = J M^-1 J^T of 1 to 16
 * points on the A1 and the humanoid, by mcdyn's recursion and by MuJoCo's
 * factor-and-solve path (bench_mujoco_robot.h), cross-checked before
 * timing. */
#ifndef MCDYN_TOOLS_BENCH_LAMBDA_ROBOTS_H
#define MCDYN_TOOLS_BENCH_LAMBDA_ROBOTS_H

/* Prints the table (samples per measurement); a robot that is not found
 * is skipped with a note, as is the whole table without MuJoCo. Returns 0,
 * or 1 when a call or a cross-check fails. */
int bench_lambda_robots(int samples);

#endif

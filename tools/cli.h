/* The `mcdyn` command: one function per subcommand, each in its own file.
 * Each returns the process exit code (0 success, 1 failure, 2 usage). */
#ifndef MCDYN_TOOLS_CLI_H
#define MCDYN_TOOLS_CLI_H

int mcd_cmd_query(int argc, char **argv); /* cmd_query.c */
int mcd_cmd_solve(int argc, char **argv); /* cmd_solve.c */
int mcd_cmd_bench(int argc, char **argv); /* cmd_bench.c: dispatches to the benches */
int mcd_cmd_draw(int argc, char **argv);  /* cmd_draw.c */
int mcd_cmd_sim(int argc, char **argv);   /* cmd_sim.c */
int mcd_cmd_sweep(int argc, char **argv); /* cmd_sweep.c */
int mcd_cmd_view(int argc, char **argv);  /* cmd_view.c */

int mcd_bench_dynamics(int argc, char **argv); /* bench_dynamics.c */
int mcd_bench_solve(int argc, char **argv);    /* bench_solve.c */
int mcd_bench_lambda(int argc, char **argv);   /* bench_lambda.c */
int mcd_bench_sim(int argc, char **argv);      /* bench_sim.c */
int mcd_bench_contacts(int argc, char **argv); /* bench_contacts.c (with MuJoCo only) */
int mcd_bench_main(int argc, char **argv);     /* bench_output.c */
int mcd_bench_scenes(int argc, char **argv);   /* bench_scenes.c */

#endif

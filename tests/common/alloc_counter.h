/* Counts the heap allocations made between alloc_counter_start and
 * alloc_counter_stop, by any code of the process (the library included):
 * alloc_counter.c defines malloc, calloc and realloc, which take precedence
 * over libc's for a whole executable linked with it, and forwards them to
 * libc. AddressSanitizer owns malloc, so under it nothing is interposed and
 * ALLOC_COUNTER_AVAILABLE is 0: tests of "no allocation" then skip their
 * assertion at compile time (their sanitizer build still runs the code). */
#ifndef MCDYN_TESTS_ALLOC_COUNTER_H
#define MCDYN_TESTS_ALLOC_COUNTER_H

#if defined(__SANITIZE_ADDRESS__)
#define ALLOC_COUNTER_AVAILABLE 0
#else
#define ALLOC_COUNTER_AVAILABLE 1
#endif

/* Starts counting from zero. */
void alloc_counter_start(void);
/* Stops counting; returns the allocations since alloc_counter_start. */
long alloc_counter_stop(void);

#endif

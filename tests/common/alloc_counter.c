/* The allocation counter of alloc_counter.h. */
#include "alloc_counter.h"

#include <stddef.h>

static int counting;
static long allocations;

void alloc_counter_start(void)
{
    allocations = 0;
    counting = 1;
}

long alloc_counter_stop(void)
{
    counting = 0;
    return allocations;
}

#if ALLOC_COUNTER_AVAILABLE
extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_realloc(void *p, size_t size);

void *malloc(size_t size)
{
    allocations += counting;
    return __libc_malloc(size);
}

void *calloc(size_t n, size_t size)
{
    allocations += counting;
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t size)
{
    allocations += counting;
    return __libc_realloc(p, size);
}
#endif

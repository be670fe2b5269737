/* SPDX-License-Identifier: Apache-2.0 */
/* The monotonic clock in microseconds, for the C benchmarks of bench/. */
#ifndef BENCH_NOW_US_H
#define BENCH_NOW_US_H

#include <time.h>

static inline double now_us(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

#endif

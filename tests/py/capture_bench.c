/* SPDX-License-Identifier: Apache-2.0 */
/* capture_bench.c: times sg_python_capture in the Python process that loads
 * it (capture_bench.py builds it with src/capture/python.c and stand-ins for
 * the rest of libsyncguard). Also usable from a plain C program, to time the
 * not-Python path. */
#include <dlfcn.h>
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "base/options.h"
#include "capture/python.h"

__thread int sg_in_syncguard;
struct sg_options sg_opt;

void *sg_real_dlsym(void *handle, const char *name)
{
    return dlsym(handle, name);
}

void sg_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
}

static double now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

/* Nanoseconds per capture over iters calls; *nframes: frames found. */
double bench_capture(long iters, int *nframes)
{
    struct sg_pyframe f[SG_MAX_PYFRAMES];
    int n = 0;
    sg_python_init();
    double t0 = now_ns();
    for (long i = 0; i < iters; i++) {
        n = sg_python_capture(f, SG_MAX_PYFRAMES);
        __asm__ volatile("" ::: "memory");
    }
    *nframes = n;
    return (now_ns() - t0) / (double)iters;
}

/* The calling thread's Python stack as "function file:line" lines. */
int bench_stack(char *buf, int len)
{
    struct sg_pyframe f[SG_MAX_PYFRAMES];
    sg_python_init();
    int n = sg_python_capture(f, SG_MAX_PYFRAMES), used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < len; i++) {
        struct sg_pysym s;
        if (sg_python_symbolize(&f[i], &s) == 0)
            used += snprintf(buf + used, (size_t)(len - used), "%s %s:%d\n", s.function, s.file,
                             s.line);
    }
    return n;
}

#ifdef BENCH_MAIN
int main(void)
{
    int n;
    double ns = bench_capture(10000000, &n);
    printf("plain C program: %d frames, %.1f ns per capture\n", n, ns);
    return 0;
}
#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* CHECK(call): a driver call that must succeed, for the C benchmarks of
 * bench/; on failure the program says which call and exits 2. */
#ifndef BENCH_CU_CHECK_H
#define BENCH_CU_CHECK_H

#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>

#define CHECK(x)                                                                        \
    do {                                                                                \
        CUresult r_ = (x);                                                              \
        if (r_ != CUDA_SUCCESS) {                                                       \
            fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #x, (int)r_); \
            exit(2);                                                                    \
        }                                                                               \
    } while (0)

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* Async copies with pageable host memory: DtoH returns only once the copy
 * completed (so it waits for the held stream: the release fires when it
 * blocks), HtoD stages the source before it returns without waiting. */
#include "t-util.h"

#include <stdlib.h>

#define N 8192

int main(void)
{
    sgt_watchdog(30);
    sgt_init();
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, 0));

    CUdeviceptr d = device_with_pattern(N, 1);
    unsigned char *pageable = calloc(1, N);
    sgt_hold *hold = sgt_hold_stream(s);
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuMemcpyDtoHAsync(pageable, d, N, s));
    SGT_EXPECT(has_pattern(pageable, N, 1));    /* complete on return */

    unsigned char *src = malloc(N);
    fill_pattern(src, N, 2);
    CUdeviceptr d2;
    SGT_CHECK(cuMemAlloc(&d2, N));
    hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(d2, src, N, s));
    SGT_EXPECT(cuStreamQuery(s) == CUDA_ERROR_NOT_READY);   /* it did not wait */
    fill_pattern(src, N, 3);                     /* too late to matter: staged */
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned char back[N];
    SGT_CHECK(cuMemcpyDtoH(back, d2, N));
    SGT_EXPECT(has_pattern(back, N, 2));
    free(pageable);
    free(src);
    return pass("t-pageable-async", "pageable DtoH waits for completion, pageable HtoD is staged");
}

/* SPDX-License-Identifier: Apache-2.0 */
/* k_learn_no_library_verbose: learn_kernels on, but the Compute Sanitizer
 * library named cannot be loaded: syncguard says so at verbosity 1, names
 * the path, and guards kernels as before (by a guess). A correct program:
 * a kernel fills pinned words, the host reads them after synchronizing.
 *
 * SG-LEARN
 * SG-OPTIONS: sanitizer_lib=/nonexistent/libsanitizer-public.so:verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: not learning kernels' accesses: sanitizer_lib=/nonexistent/libsanitizer-public.so cannot be loaded
 */
#include <stdio.h>

#include "k_launch.h"

int main(void)
{
    CUdeviceptr dev, alias;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUfunction f = sgt_kernel("sgt_fill");
    uint32_t *words = k_mapped_words(&alias);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_launch_fill(f, s, alias, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = SGT_COUNT_WRONG(words, SGT_WORDS, SGT_NEW);
    SGT_CHECK(cuMemFreeHost(words));
    sgt_free_buffers(dev, host);
    return sgt_verdict(wrong, "the words after the synchronized launch");
}

/* SPDX-License-Identifier: Apache-2.0 */
/* robust_exit_work_race: a program linked with a shared library that has exit
 * work of its own (libexitwork: an atexit handler and a destructor, each
 * printing a line), with a race reported (an early read of a held copy).
 * Whatever syncguard found, the library's exit work runs: syncguard sets the
 * exit status without cutting anyone's exit work short (it used to call
 * _exit when the loader finalized libsyncguard.so, before the libraries
 * finalized after it).
 *
 * SG-EXPECT: early-host-read
 * SG-GREP: ^exit work: the library's atexit handler ran
 * SG-GREP: ^exit work: the library's destructor ran
 * SG-LINK: -L@TMP@ -lexitwork -Wl,-rpath,@TMP@
 */
#include <cuda.h>
#include <stdint.h>
#include <stdio.h>

#include "exitwork.h"
#include "sgt_robust.h"

#define WORDS 1024u
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    if (!sgt_exit_work_linked())
        return 2;
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, WORDS * sizeof(uint32_t), s));
    sgt_release_when_host_waits(hold);

    unsigned wrong = 0;
    for (unsigned i = 0; i < WORDS; i++)
        wrong += ((volatile uint32_t *)host)[i] != NEW; /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    printf("%u words wrong\n", wrong);
    fflush(stdout);
    return sgt_check_line(wrong == 0);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* robust_map_count_budget_ok: guards must never use up the mappings the
 * program needs.  The program leaves itself 200 mappings below the
 * kernel's limit, then enqueues 400 copies (max_pending allows them all)
 * into the middle pages of 400 pinned buffers, each of which a guard
 * would split in three; then it makes 100 mappings of its own and starts
 * a thread, which must succeed.  syncguard may guard fewer copies (it
 * says how many it skipped at verbosity 1); the program is correct, so no
 * report, and every copy's data is right after synchronizing.
 *
 * SG-OPTIONS: verbosity=1
 * SG-EXPECT: silent
 * SG-GREP: guards_skipped_maps=[1-9]
 */
#include "robust_map_count.h"

#define COPIES 400
#define PAGE_WORDS 1024u
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

int main(void)
{
    sgt_watchdog(120);
    sgt_init();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(PAGE_WORDS, NEW);
    uint32_t *host[COPIES];
    for (int i = 0; i < COPIES; i++)
        host[i] = sgt_pinned_words(3 * PAGE_WORDS, OLD);
    sgt_hold *hold = sgt_hold_stream(s);
    struct filler f;
    fill_mappings(&f, 200);
    for (int i = 0; i < COPIES; i++)
        SGT_CHECK(cuMemcpyDtoHAsync(host[i] + PAGE_WORDS, dev, page, s));
    int can_map = program_can_map(100);
    unfill_mappings(&f);
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (int i = 0; i < COPIES; i++)
        wrong += SGT_COUNT_WRONG(host[i] + PAGE_WORDS, PAGE_WORDS, NEW) +
                 SGT_COUNT_WRONG(host[i], PAGE_WORDS, OLD) +
                 SGT_COUNT_WRONG(host[i] + 2 * PAGE_WORDS, PAGE_WORDS, OLD);
    printf("after synchronizing: %u words wrong\n", wrong);
    for (int i = 0; i < COPIES; i++)
        SGT_CHECK(cuMemFreeHost(host[i]));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(can_map && wrong == 0);
}

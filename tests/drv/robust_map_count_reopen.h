/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_map_count_reopen_ok and _race: three copies in flight
 * into three neighbouring pages of one pinned buffer, on three streams, so
 * that their guards are one mapping; then the program uses up every
 * mapping the kernel allows it.  Opening the middle page alone would need
 * two more mappings (a split in three), which the kernel refuses at the
 * limit: syncguard must not leave the page closed with nothing guarding
 * it (the program's next read would crash), but open it some other way.
 *   ok:   the program synchronizes with the middle copy, then reads it;
 *   race: the program reads the middle copy while it is in flight
 *         (reported, then synchronized by syncguard).
 * Either way the read sees the copied data; then the program frees its
 * mappings, synchronizes with the other copies and checks all three. */
#include "robust_map_count.h"

#define PAGE_WORDS 1024u
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

static int reopen_main(int racy)
{
    sgt_watchdog(120);
    sgt_init();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUstream s[3];
    sgt_hold *hold[3];
    CUdeviceptr dev = sgt_dev_words(PAGE_WORDS, NEW);
    uint32_t *host = sgt_pinned_words(5 * PAGE_WORDS, OLD);
    for (int i = 0; i < 3; i++) {
        s[i] = sgt_stream(CU_STREAM_NON_BLOCKING);
        /* behind a graph's wait node, not a gate: the fault handler's own
         * thread waits (syncguard's waiter thread, a gate's, may find no
         * room to allocate at the limit: see syncguard(7)) */
        hold[i] = sgt_hold_stream_in_graph(s[i]);
        /* pages 1, 2 and 3 of the buffer */
        SGT_CHECK(cuMemcpyDtoHAsync(host + (i + 1) * PAGE_WORDS, dev, page, s[i]));
    }
    struct filler f;
    fill_mappings(&f, 0);
    size_t filled = f.n;
    uint32_t *middle = host + 2 * PAGE_WORDS;
    if (racy)
        sgt_release_when_host_waits(hold[1]);
    else {
        sgt_release(hold[1]);
        SGT_CHECK(cuStreamSynchronize(s[1]));
    }
    unsigned wrong_middle = SGT_COUNT_WRONG(middle, PAGE_WORDS, NEW);
    unfill_mappings(&f);
    sgt_release(hold[0]);
    sgt_release(hold[2]);
    SGT_CHECK(cuCtxSynchronize());
    unsigned wrong_all = SGT_COUNT_WRONG(host + PAGE_WORDS, 3 * PAGE_WORDS, NEW) +
                         SGT_COUNT_WRONG(host, PAGE_WORDS, OLD) +
                         SGT_COUNT_WRONG(host + 4 * PAGE_WORDS, PAGE_WORDS, OLD);
    printf("%zu mappings made by the program; the middle copy read %s: %u words wrong; "
           "after synchronizing all: %u words wrong\n", filled,
           racy ? "early" : "after synchronizing with it", wrong_middle, wrong_all);
    for (int i = 0; i < 3; i++)
        SGT_CHECK(cuStreamDestroy(s[i]));
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    return sgt_check_line(wrong_middle == 0 && wrong_all == 0);
}

/* SPDX-License-Identifier: Apache-2.0 */
/* robust_map_count_many_ok: many copies in flight near the limit on
 * mappings, counted without reading /proc/self/maps for each copy.  With
 * map_count_limit=3000 (planned for, far below the kernel's), the program
 * holds 4000 copies of one page each in flight, into every other page of
 * one pinned buffer: each guard splits the buffer's mapping, so syncguard
 * guards copies until about 3000 - 3000/8 mappings, then leaves the rest
 * unguarded.  It used to read /proc/self/maps again for every copy it
 * left unguarded (bench/map_count_cliff.c: 40,000 copies took minutes);
 * now a reading holds for several copies (guard/maps.c), so the readings
 * (maps_reads) are a few dozen at most, not thousands.  While all copies
 * are in flight the process has no more mappings than the limit minus its
 * reserve, and more than half the limit (guards went on until near it);
 * after synchronizing, every copied page holds the copy and every page
 * between them its old bytes.  A correct program: no report.
 *
 * On the real driver (580, H200, tests/gpu/RESULTS.md run 39) the program
 * did not end within 65 s natively either (4000 copies queued behind one
 * held stream: a stream's queue is finite, so an enqueue probably blocks
 * until the hold ends, which never comes). It runs on the emulator only.
 * SG-EMU-ONLY
 *
 * SG-OPTIONS: verbosity=1:map_count_limit=3000
 * SG-EXPECT: silent
 * SG-GREP: guards_skipped_maps=[1-9]
 * SG-GREP: , maps_reads=[1-3]\{0,1\}[0-9],
 */
#include "robust_map_count.h"

#define LIMIT 3000
#define COPIES 4000
#define PAGE_WORDS 1024u
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

static long maps_lines(void)
{
    FILE *f = fopen("/proc/self/maps", "re");
    long n = 0;
    int c;
    while (f && (c = getc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(void)
{
    sgt_watchdog(120);
    sgt_init();
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(PAGE_WORDS, NEW);
    uint32_t *host = sgt_pinned_words(2 * COPIES * PAGE_WORDS, OLD);
    sgt_hold *hold = sgt_hold_stream(s);
    for (int i = 0; i < COPIES; i++)
        SGT_CHECK(cuMemcpyDtoHAsync(host + 2 * i * PAGE_WORDS, dev, page, s));
    long lines = maps_lines();
    sgt_release(hold);
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (int i = 0; i < COPIES; i++)
        wrong += SGT_COUNT_WRONG(host + 2 * i * PAGE_WORDS, PAGE_WORDS, NEW) +
                 SGT_COUNT_WRONG(host + (2 * i + 1) * PAGE_WORDS, PAGE_WORDS, OLD);
    printf("%ld mappings with %d copies in flight (limit %d, reserve %d); after "
           "synchronizing: %u words wrong\n", lines, COPIES, LIMIT, LIMIT / 8, wrong);
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(wrong == 0 && lines <= LIMIT - LIMIT / 8 && lines > LIMIT / 2);
}

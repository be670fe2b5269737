/* SPDX-License-Identifier: Apache-2.0 */
/* dw_memset2d_alias_write_race: cuMemsetD2D8Async through the device's
 * own address of mapped pinned memory (SGEMU_DEVICE_ALIAS on the
 * emulator; the host address under unified addressing) fills rows of it,
 * and the host writes a byte of a row before observing the memset.
 * syncguard must report the write (only the rows are guarded) and let it
 * land after the memset, so the host's byte survives.  Twin:
 * dw_memset2d_alias_event_ok.
 *
 * SG-EXPECT: early-host-write
 * SG-GREP: Memset enqueued on .* by cuMemsetD2D8Async
 */
#include <stdio.h>

#include "k_launch.h"

#define PITCH 1024u
#define WIDTH 512u
#define ROWS 16u /* 16 KiB: the whole buffer, half of each 1 KiB stretch */
#define FILL 0x5au
#define MINE 0xa7u

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUdeviceptr alias;
    unsigned char *host = (unsigned char *)k_mapped_words(&alias);
    CUstream s = sgt_stream(0);
#ifdef SG_TWIN /* dw_memset2d_alias_event_ok */
    CUevent e = sgt_event();
#endif

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemsetD2D8Async(alias, PITCH, FILL, WIDTH, ROWS, s));
#ifdef SG_TWIN /* dw_memset2d_alias_event_ok */
    SGT_CHECK(cuEventRecord(e, s));
    sgt_release_when_host_waits(hold);
    SGT_CHECK(cuEventSynchronize(e));
#else
    sgt_release_when_host_waits(hold);
#endif
    ((volatile unsigned char *)host)[3 * PITCH + 5] = MINE; /* in row 3: the race, unless synced */
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned wrong = 0;
    for (unsigned y = 0; y < ROWS; y++)
        for (unsigned x = 0; x < PITCH; x++) {
            static const unsigned char old[4] = { 0x0d, 0xf0, 0xad, 0x0b }; /* SGT_OLD */
            unsigned char want = x >= WIDTH          ? old[x % 4] /* between rows: untouched */
                                 : y == 3 && x == 5 ? MINE
                                                    : FILL;
            wrong += host[y * PITCH + x] != want;
        }
    SGT_CHECK(cuMemFreeHost(host));
    printf("after cuStreamSynchronize: %u of %u bytes wrong (the host's byte must survive the "
           "memset, the gaps keep their old bytes)\n",
           wrong, ROWS * PITCH);
    printf("check: %s\n", wrong ? "MISMATCH" : "ok");
    return wrong != 0;
}

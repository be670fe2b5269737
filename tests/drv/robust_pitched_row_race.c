/* SPDX-License-Identifier: Apache-2.0 */
/* robust_pitched_row_race: accesses that never fault on their own, on a
 * pitched (2D) copy.  A cuMemcpy2DAsync device-to-host fills the first
 * 2048 bytes of each of four 4096-byte rows of a pinned buffer; the other
 * 2048 bytes of each row are a gap the copy never touches, on the same page
 * as the row.  While a copy is in flight (a fresh one for each), the host
 *   (a) write()s row 0's gap to a pipe,
 *   (b) read()s a file into row 1's gap,
 *   (c) reads row 2's gap with rep movsb, and
 *   (d) fills row 0's gap with rep stosb,
 * each access running 16 bytes on into the next row: four races, each
 * reported at the first byte of that row (the first byte the access and the
 * copy share), not at the gap where the access starts.  Each access waits
 * for its copy; the data are the copied data.  Twin: robust_pitched_gap_ok,
 * the same accesses stopping at the end of the gap: no report.
 *
 * Each copy brings its own byte value, so an access that did not wait for
 * it would see (or be overwritten by) the previous one's.  The copy waits
 * behind a hold on its stream, released when the host first blocks in the
 * driver (syncguard's wait, or the test's cuStreamSynchronize).
 *
 * SG-EXPECT: early-host-read early-host-write
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 4096 of a 14336-byte copy
 * SG-GREP: ^  WRITE at 0x[0-9a-f]* (byte 8192 of a 14336-byte copy
 * SG-GREP: ^  READ at 0x[0-9a-f]* (byte 12288 of a 14336-byte copy
 * SG-GREP: ^  WRITE at 0x[0-9a-f]* (byte 4096 of a 14336-byte copy
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in op_write$
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .* in op_read$
 * SG-GREP: ^SUMMARY: syncguard: early-host-read .* in rep_movsb$
 * SG-GREP: ^SUMMARY: syncguard: early-host-write .* in rep_stosb$
 */
/* This program is also built, with SG_TWIN defined, as its twin
 * robust_pitched_gap_ok.c (INTO_ROW is all that differs). */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"
#include "sgt_x86_only.h"

#if !defined(__x86_64__)
SGT_X86_ONLY("rep movsb and rep stosb (aarch64 has no rep string instructions)")
#else

#define W 2048u                         /* bytes per row */
#define PITCH 4096u                     /* twice the width: a gap after each row */
#define H 4u                            /* rows */
#define BYTES (H * PITCH)               /* the pinned buffer */
#define OLD 0x11                        /* the host buffer before the copies */
#define FILE_BYTE 0xf1                  /* what the file holds */
#define STOS_BYTE 0x5a                  /* what rep stosb stores */
#ifdef SG_TWIN /* robust_pitched_gap_ok */
#define INTO_ROW 0u                     /* the gap, nothing more */
#else
#define INTO_ROW 16u                    /* bytes of the next row touched */
#endif

static unsigned char *host;
static unsigned char *out;              /* where reads go (not pinned) */
static int pipe_in, file;

static void rep_movsb(void *dst, const void *src, size_t n)
{
    __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

static void rep_stosb(void *dst, unsigned char v, size_t n)
{
    __asm__ volatile("rep stosb" : "+D"(dst), "+c"(n) : "a"(v) : "memory");
}

/* Each access: from `at` in host (a gap's start), `len` bytes. */
static size_t at, len;

static __attribute__((noinline)) void *op_write(void *arg)
{
    (void)arg;
    if (write(pipe_in, host + at, len) != (ssize_t)len)
        perror("write");
    return NULL;
}

static __attribute__((noinline)) void *op_read(void *arg)
{
    (void)arg;
    if (read(file, host + at, len) != (ssize_t)len)
        perror("read");
    return NULL;
}

static __attribute__((noinline)) void *op_movsb(void *arg)
{
    (void)arg;
    rep_movsb(out, host + at, len);
    return NULL;
}

static __attribute__((noinline)) void *op_stosb(void *arg)
{
    (void)arg;
    rep_stosb(host + at, STOS_BYTE, len);
    return NULL;
}

int main(void)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(W * H, 0);
    host = sgt_pinned_bytes(BYTES, OLD);
    out = sgt_malloc(PITCH);
    unsigned char *expect = sgt_malloc(BYTES), *content = sgt_malloc(PITCH);
    memcpy(expect, host, BYTES);
    int p[2];
    sgt_pipe(p);
    pipe_in = p[1];
    file = sgt_temp_file("robust_pitched");
    sgt_fill_file(file, content, PITCH, FILE_BYTE);

    struct {
        const char *name;
        void *(*fn)(void *);
        unsigned row;                   /* the access starts at this row's gap */
        int writes;                     /* else it reads the bytes */
        unsigned char value;            /* what a write stores */
    } ops[] = {
        { "write() to a pipe", op_write, 0, 0, 0 },
        { "read() from a file", op_read, 1, 1, FILE_BYTE },
        { "rep movsb", op_movsb, 2, 0, 0 },
        { "rep stosb", op_stosb, 0, 1, STOS_BYTE },
    };
    unsigned bad = 0;
    for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        unsigned char value = (unsigned char)(0xc0 + i); /* this copy's bytes */
        SGT_CHECK(cuMemsetD8(dev, value, W * H));
        SGT_CHECK(cuCtxSynchronize());
        CUDA_MEMCPY2D c = {             /* packed device rows to pitched host rows */
            .srcMemoryType = CU_MEMORYTYPE_DEVICE, .srcDevice = dev, .srcPitch = W,
            .dstMemoryType = CU_MEMORYTYPE_HOST, .dstHost = host, .dstPitch = PITCH,
            .WidthInBytes = W, .Height = H,
        };
        sgt_hold *hold = sgt_hold_stream(s);
        SGT_CHECK(cuMemcpy2DAsync(&c, s));
        sgt_release_when_host_waits(hold);
        CUresult q = cuStreamQuery(s);  /* NOT_READY: held */
        at = ops[i].row * PITCH + W, len = PITCH - W + INTO_ROW;
        memset(out, 0, PITCH);
        sgt_run_in_thread(ops[i].fn);
        SGT_CHECK(cuStreamSynchronize(s));

        /* The copy landed before any byte the access shares with it. */
        for (unsigned r = 0; r < H; r++)
            memset(expect + r * PITCH, value, W);
        unsigned wrong = 0;
        if (ops[i].writes) {
            memset(expect + at, ops[i].value, len);
        } else if (ops[i].fn == op_write) {
            wrong += sgt_read_all(p[0], (char *)out, len + 1) != len;
            wrong += memcmp(out, expect + at, len) != 0;
        } else {
            wrong += memcmp(out, expect + at, len) != 0;
        }
        wrong += memcmp(host, expect, BYTES) != 0;
        printf("%s: copy in flight before: %s; data %s\n", ops[i].name,
               q == CUDA_ERROR_NOT_READY ? "yes" : "no", wrong ? "WRONG" : "right");
        bad += wrong || q != CUDA_ERROR_NOT_READY;
    }
    close(file);
    free(out);
    free(expect);
    free(content);
    sgt_free_all(s, dev, host);
    return sgt_check_line(!bad);
}

#endif

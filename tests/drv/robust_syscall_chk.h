/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_syscall_chk_race and robust_syscall_chk_ok (see
 * there): fortified reads into pinned memory while copies are in flight. */
#include <cuda.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sgt_robust.h"

#if !defined(_FORTIFY_SOURCE) || !defined(__OPTIMIZE__)
#error "build with -O2 -D_FORTIFY_SOURCE=2: the calls under test are the fortified ones"
#endif

#define BYTES 8192u                     /* two pages */
#define ORIG 0x5e                       /* the source when a copy is enqueued */
#define FILL 0xf1                       /* what the file and the socket deliver */
#define NCALLS 5

/* A global array registered with cuMemHostRegister: the compiler knows
 * its size, so read(fd, buf, n) with n unknown at compile time becomes
 * __read_chk(fd, buf, n, BYTES). */
struct pinned {
    unsigned char buf[BYTES];
};
static struct pinned registered __attribute__((aligned(65536)));

static volatile size_t len_of_call = BYTES; /* not a constant: fortified */

static const char *const names[NCALLS] = { "__read_chk", "__pread_chk", "__recv_chk",
                                           "__recvfrom_chk", "__fread_chk" };

/* Call number i (names[i]) into the array from byte off, len bytes;
 * returns the count.  Inlined, so that the compiler sees the array and
 * fortifies every call (objdump -d shows only _chk calls in main). */
static inline __attribute__((always_inline)) ssize_t call(int i, size_t off, size_t len, int fd,
                                                          int sock, FILE *fp)
{
    unsigned char *dst = registered.buf + off;
    switch (i) {
    case 0:
        lseek(fd, 0, SEEK_SET);
        return read(fd, dst, len);
    case 1:
        return pread(fd, dst, len, 0);
    case 2:
        return recv(sock, dst, len, MSG_WAITALL);
    case 3:
        return recvfrom(sock, dst, len, MSG_WAITALL, NULL, NULL);
    default:
        rewind(fp);
        return (ssize_t)fread(dst, 1, len, fp);
    }
}

static void feed_socket(int peer, size_t len)
{
    static unsigned char chunk[BYTES];
    memset(chunk, FILL, sizeof chunk);
    if (write(peer, chunk, len) != (ssize_t)len) {
        perror("write to socket");
        exit(2);
    }
}

static unsigned count_not(const unsigned char *p, size_t n, unsigned char want)
{
    unsigned bad = 0;
    for (size_t i = 0; i < n; i++)
        bad += p[i] != want;
    return bad;
}

/* The copy to watch: `copied` bytes of the struct from its start, a
 * host-to-device copy from pinned memory behind a hold; then the call
 * into `at` (len bytes) while it is in flight (correct: after a
 * synchronize when `after_sync`). */
static inline __attribute__((always_inline)) int one(int i, struct pinned *p, CUdeviceptr dev, CUstream s, int fd, int sock[2],
               FILE *fp, size_t copied, unsigned char *at, size_t len, int after_sync)
{
    memset(p->buf, ORIG, BYTES);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyHtoDAsync(dev, p->buf, copied, s));
    if (after_sync) {
        sgt_release(hold);
        SGT_CHECK(cuStreamSynchronize(s));
    } else
        sgt_release_when_host_waits(hold);
    if (i == 2 || i == 3)
        feed_socket(sock[1], len);
    errno = 0;
    ssize_t r = call(i, (size_t)(at - p->buf), len, fd, sock[0], fp);
    int err = errno;
    SGT_CHECK(cuStreamSynchronize(s));
    unsigned char back[BYTES];
    SGT_CHECK(cuMemcpyDtoH(back, dev, copied));
    unsigned dev_wrong = count_not(back, copied, ORIG), host_wrong = count_not(at, len, FILL);
    printf("%s (%s): returned %zd (%s); device: %u bytes not the original; buffer: %u bytes "
           "not delivered\n", names[i], after_sync ? "after synchronize" : at == p->buf ?
           "copy in flight" : "neighbour bytes", r, r < 0 ? strerror(err) : "no error",
           dev_wrong, host_wrong);
    return r == (ssize_t)len && !dev_wrong && !host_wrong;
}

static int chk_main(int correct)
{
    sgt_watchdog(60);
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_bytes(BYTES, 0);
    struct pinned *p = &registered;
    SGT_CHECK(cuMemHostRegister(p, sizeof *p, 0));

    int fd = sgt_temp_file("robust_syscall_chk");
    unsigned char content[BYTES];
    sgt_fill_file(fd, content, BYTES, FILL);
    FILE *fp = fdopen(dup(fd), "r");
    int sock[2];
    if (!fp || socketpair(AF_UNIX, SOCK_STREAM, 0, sock) != 0) {
        perror("fdopen/socketpair");
        return 2;
    }
    setvbuf(fp, NULL, _IONBF, 0);       /* fread reads straight into the buffer */

    size_t len = len_of_call;
    int ok = 1;
    for (int i = 0; i < NCALLS; i++) {
        if (!correct) {
            ok &= one(i, p, dev, s, fd, sock, fp, BYTES, p->buf, len, 0);
        } else {
            ok &= one(i, p, dev, s, fd, sock, fp, BYTES, p->buf, len, 1);
            /* The copy: the first 256 bytes; the call fills the next 4096. */
            ok &= one(i, p, dev, s, fd, sock, fp, 256, p->buf + 256, len / 2, 0);
        }
    }
    fclose(fp);
    close(fd);
    close(sock[0]);
    close(sock[1]);
    SGT_CHECK(cuMemHostUnregister(p));
    SGT_CHECK(cuMemFree(dev));
    SGT_CHECK(cuStreamDestroy(s));
    return sgt_check_line(ok);
}

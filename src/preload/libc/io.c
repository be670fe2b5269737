/* SPDX-License-Identifier: Apache-2.0 */
/* Shims of the system calls (and stdio calls) that hand user buffers to
 * the kernel. A guarded buffer would make them fail with EFAULT instead of
 * faulting, so each announces its buffer as an access first: reading from
 * the kernel's side (read, recv) writes the buffer; write and send read it.
 * Calls glibc makes internally (inside fread, say) bypass these shims,
 * which is why the stdio calls that pass user buffers straight through are
 * wrapped too. Programs built with _FILE_OFFSET_BITS=64 (CPython, most
 * distribution packages) call the 64-bit names, distinct symbols. */
#include "config.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "base/common.h"
#include "base/dl.h"
#include "base/lock.h"
#include "fault/access.h"
#include "preload/shim.h"

/* glibc may define these as macros when optimizing. */
#undef fread_unlocked
#undef fwrite_unlocked

static void access_iov(struct sg_access_window *w, const struct iovec *iov, long n, int is_write)
{
    for (long i = 0; iov && i < n; i++)
        sg_access_begin(w, (uintptr_t)iov[i].iov_base, iov[i].iov_len, is_write);
}

static void access_msg(struct sg_access_window *w, const struct msghdr *m, int is_write)
{
    if (m)
        access_iov(w, m->msg_iov, (long)m->msg_iovlen, is_write);
}

static void access_mmsg(struct sg_access_window *w, struct mmsghdr *v, unsigned n, int is_write)
{
    for (unsigned i = 0; v && i < n; i++)
        access_msg(w, &v[i].msg_hdr, is_write);
}

/* One shim: announce the buffer (ANNOUNCE names how), make the call, close
 * what the announcement opened. */
#define SHIM(ret, name, PARAMS, ANNOUNCE, ...)                                  \
    SG_SHIM(ret, name, PARAMS)                                                   \
    {                                                                           \
        struct sg_access_window w;                                              \
        w.n = 0; /* only the count: the ranges are written before read */     \
        ANNOUNCE;                                                               \
        ret r = SG_NEXT(name)(__VA_ARGS__);                                     \
        sg_access_end(&w);                                                      \
        return r;                                                               \
    }

#define BUF(buf, len, is_write) sg_access_begin(&w, (uintptr_t)(buf), (len), (is_write))
#define IOV(iov, n, is_write) access_iov(&w, (iov), (n), (is_write))
#define MSG(m, is_write) access_msg(&w, (m), (is_write))

SHIM(ssize_t, read, (int fd, void *b, size_t n), BUF(b, n, 1), fd, b, n)
SHIM(ssize_t, write, (int fd, const void *b, size_t n), BUF(b, n, 0), fd, b, n)
SHIM(ssize_t, pread, (int fd, void *b, size_t n, off_t o), BUF(b, n, 1), fd, b, n, o)
SHIM(ssize_t, pwrite, (int fd, const void *b, size_t n, off_t o), BUF(b, n, 0), fd, b, n, o)
SHIM(ssize_t, pread64, (int fd, void *b, size_t n, off64_t o), BUF(b, n, 1), fd, b, n, o)
SHIM(ssize_t, pwrite64, (int fd, const void *b, size_t n, off64_t o), BUF(b, n, 0), fd, b, n, o)
SHIM(ssize_t, readv, (int fd, const struct iovec *v, int n), IOV(v, n, 1), fd, v, n)
SHIM(ssize_t, writev, (int fd, const struct iovec *v, int n), IOV(v, n, 0), fd, v, n)
SHIM(ssize_t, preadv, (int fd, const struct iovec *v, int n, off_t o), IOV(v, n, 1), fd, v, n, o)
SHIM(ssize_t, pwritev, (int fd, const struct iovec *v, int n, off_t o), IOV(v, n, 0), fd, v, n,
     o)
SHIM(ssize_t, preadv64, (int fd, const struct iovec *v, int n, off64_t o), IOV(v, n, 1), fd, v,
     n, o)
SHIM(ssize_t, pwritev64, (int fd, const struct iovec *v, int n, off64_t o), IOV(v, n, 0), fd, v,
     n, o)
#ifdef HAVE_PREADV2
SHIM(ssize_t, preadv2, (int fd, const struct iovec *v, int n, off_t o, int f), IOV(v, n, 1), fd,
     v, n, o, f)
SHIM(ssize_t, preadv64v2, (int fd, const struct iovec *v, int n, off64_t o, int f),
     IOV(v, n, 1), fd, v, n, o, f)
#endif
#ifdef HAVE_PWRITEV2
SHIM(ssize_t, pwritev2, (int fd, const struct iovec *v, int n, off_t o, int f), IOV(v, n, 0),
     fd, v, n, o, f)
SHIM(ssize_t, pwritev64v2, (int fd, const struct iovec *v, int n, off64_t o, int f),
     IOV(v, n, 0), fd, v, n, o, f)
#endif
SHIM(ssize_t, recv, (int fd, void *b, size_t n, int f), BUF(b, n, 1), fd, b, n, f)
SHIM(ssize_t, recvfrom, (int fd, void *b, size_t n, int f, struct sockaddr *a, socklen_t *al),
     BUF(b, n, 1), fd, b, n, f, a, al)
SHIM(ssize_t, recvmsg, (int fd, struct msghdr *m, int f), MSG(m, 1), fd, m, f)
SHIM(ssize_t, send, (int fd, const void *b, size_t n, int f), BUF(b, n, 0), fd, b, n, f)
SHIM(ssize_t, sendto,
     (int fd, const void *b, size_t n, int f, const struct sockaddr *a, socklen_t al),
     BUF(b, n, 0), fd, b, n, f, a, al)
SHIM(ssize_t, sendmsg, (int fd, const struct msghdr *m, int f), MSG(m, 0), fd, m, f)
#ifdef HAVE_RECVMMSG
SHIM(int, recvmmsg, (int fd, struct mmsghdr *v, unsigned int n, int f, struct timespec *t),
     access_mmsg(&w, v, n, 1), fd, v, n, f, t)
#endif
#ifdef HAVE_SENDMMSG
SHIM(int, sendmmsg, (int fd, struct mmsghdr *v, unsigned int n, int f), access_mmsg(&w, v, n, 0),
     fd, v, n, f)
#endif
SHIM(size_t, fread, (void *b, size_t size, size_t n, FILE *fp), BUF(b, size * n, 1), b, size, n,
     fp)
SHIM(size_t, fwrite, (const void *b, size_t size, size_t n, FILE *fp), BUF(b, size * n, 0), b,
     size, n, fp)
SHIM(size_t, fread_unlocked, (void *b, size_t size, size_t n, FILE *fp), BUF(b, size * n, 1), b,
     size, n, fp)
SHIM(size_t, fwrite_unlocked, (const void *b, size_t size, size_t n, FILE *fp),
     BUF(b, size * n, 0), b, size, n, fp)

/* The fortified entry points (-D_FORTIFY_SOURCE, distributions' default
 * flags): where the compiler knows the buffer's size, glibc's headers call
 * these instead, and glibc's own implementation reaches the system call
 * through its internal names, past the shims above. buflen is what the
 * compiler knows of the buffer: the real function aborts the program
 * (__chk_fail) when the call asks for more, so only that much is
 * announced, and an overflowing size*n of fread is left to it too. */
static size_t chk_len(size_t n, size_t buflen)
{
    return n < buflen ? n : buflen;
}

static size_t chk_fread_len(size_t size, size_t n, size_t buflen)
{
    if (size && n > SIZE_MAX / size)
        return 0;
    return chk_len(size * n, buflen);
}

SHIM(ssize_t, __read_chk, (int fd, void *b, size_t n, size_t bl), BUF(b, chk_len(n, bl), 1), fd,
     b, n, bl)
SHIM(ssize_t, __pread_chk, (int fd, void *b, size_t n, off_t o, size_t bl),
     BUF(b, chk_len(n, bl), 1), fd, b, n, o, bl)
SHIM(ssize_t, __pread64_chk, (int fd, void *b, size_t n, off64_t o, size_t bl),
     BUF(b, chk_len(n, bl), 1), fd, b, n, o, bl)
SHIM(ssize_t, __recv_chk, (int fd, void *b, size_t n, size_t bl, int f),
     BUF(b, chk_len(n, bl), 1), fd, b, n, bl, f)
SHIM(ssize_t, __recvfrom_chk,
     (int fd, void *b, size_t n, size_t bl, int f, struct sockaddr *a, socklen_t *al),
     BUF(b, chk_len(n, bl), 1), fd, b, n, bl, f, a, al)
SHIM(size_t, __fread_chk, (void *b, size_t bl, size_t size, size_t n, FILE *fp),
     BUF(b, chk_fread_len(size, n, bl), 1), b, bl, size, n, fp)
SHIM(size_t, __fread_unlocked_chk, (void *b, size_t bl, size_t size, size_t n, FILE *fp),
     BUF(b, chk_fread_len(size, n, bl), 1), b, bl, size, n, fp)

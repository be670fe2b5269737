/* Shims of the system calls (and stdio calls) that hand user buffers to
 * the kernel. A guarded buffer would make them fail with EFAULT instead of
 * faulting, so each announces its buffer as an access first: reading from
 * the kernel's side (read, recv) writes the buffer; write and send read it.
 * Calls glibc makes internally (inside fread, say) bypass these shims,
 * which is why the stdio calls that pass user buffers straight through are
 * wrapped too. */
#include "config.h"

#include <dlfcn.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "syncguard/common.h"
#include "syncguard/intercept.h"

void sg_access_range(uintptr_t buf, size_t len, int is_write);

/* glibc may define these as macros when optimizing. */
#undef fread_unlocked
#undef fwrite_unlocked

#define REAL(name) ((__typeof__(&name))real_fn(&real_##name, #name))

static void *real_fn(void **slot, const char *name)
{
    void *fn = __atomic_load_n(slot, __ATOMIC_ACQUIRE);
    if (!fn) {
        fn = sg_real_dlsym(RTLD_NEXT, name);
        __atomic_store_n(slot, fn, __ATOMIC_RELEASE);
    }
    return fn;
}

static void access_iov(const struct iovec *iov, int n, int is_write)
{
    for (int i = 0; iov && i < n; i++)
        sg_access_range((uintptr_t)iov[i].iov_base, iov[i].iov_len, is_write);
}

static void access_msg(const struct msghdr *m, int is_write)
{
    if (m)
        access_iov(m->msg_iov, (int)m->msg_iovlen, is_write);
}

static void *real_read, *real_write, *real_pread, *real_pwrite, *real_readv, *real_writev,
    *real_preadv, *real_pwritev, *real_recv, *real_recvfrom, *real_recvmsg, *real_send,
    *real_sendto, *real_sendmsg, *real_fread, *real_fwrite, *real_fread_unlocked,
    *real_fwrite_unlocked, *real_pread64, *real_pwrite64, *real_preadv64, *real_pwritev64,
    *real_preadv2, *real_pwritev2, *real_preadv64v2, *real_pwritev64v2, *real_recvmmsg,
    *real_sendmmsg;

SG_EXPORT ssize_t read(int fd, void *buf, size_t n)
{
    sg_access_range((uintptr_t)buf, n, 1);
    return REAL(read)(fd, buf, n);
}

SG_EXPORT ssize_t write(int fd, const void *buf, size_t n)
{
    sg_access_range((uintptr_t)buf, n, 0);
    return REAL(write)(fd, buf, n);
}

SG_EXPORT ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    sg_access_range((uintptr_t)buf, n, 1);
    return REAL(pread)(fd, buf, n, off);
}

SG_EXPORT ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
    sg_access_range((uintptr_t)buf, n, 0);
    return REAL(pwrite)(fd, buf, n, off);
}

SG_EXPORT ssize_t readv(int fd, const struct iovec *iov, int n)
{
    access_iov(iov, n, 1);
    return REAL(readv)(fd, iov, n);
}

SG_EXPORT ssize_t writev(int fd, const struct iovec *iov, int n)
{
    access_iov(iov, n, 0);
    return REAL(writev)(fd, iov, n);
}

SG_EXPORT ssize_t preadv(int fd, const struct iovec *iov, int n, off_t off)
{
    access_iov(iov, n, 1);
    return REAL(preadv)(fd, iov, n, off);
}

SG_EXPORT ssize_t pwritev(int fd, const struct iovec *iov, int n, off_t off)
{
    access_iov(iov, n, 0);
    return REAL(pwritev)(fd, iov, n, off);
}

SG_EXPORT ssize_t recv(int fd, void *buf, size_t n, int flags)
{
    sg_access_range((uintptr_t)buf, n, 1);
    return REAL(recv)(fd, buf, n, flags);
}

SG_EXPORT ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a,
                           socklen_t *al)
{
    sg_access_range((uintptr_t)buf, n, 1);
    return REAL(recvfrom)(fd, buf, n, flags, a, al);
}

SG_EXPORT ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
    access_msg(m, 1);
    return REAL(recvmsg)(fd, m, flags);
}

SG_EXPORT ssize_t send(int fd, const void *buf, size_t n, int flags)
{
    sg_access_range((uintptr_t)buf, n, 0);
    return REAL(send)(fd, buf, n, flags);
}

SG_EXPORT ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a,
                         socklen_t al)
{
    sg_access_range((uintptr_t)buf, n, 0);
    return REAL(sendto)(fd, buf, n, flags, a, al);
}

SG_EXPORT ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
    access_msg(m, 0);
    return REAL(sendmsg)(fd, m, flags);
}

SG_EXPORT size_t fread(void *buf, size_t size, size_t n, FILE *f)
{
    sg_access_range((uintptr_t)buf, size * n, 1);
    return REAL(fread)(buf, size, n, f);
}

SG_EXPORT size_t fwrite(const void *buf, size_t size, size_t n, FILE *f)
{
    sg_access_range((uintptr_t)buf, size * n, 0);
    return REAL(fwrite)(buf, size, n, f);
}

SG_EXPORT size_t fread_unlocked(void *buf, size_t size, size_t n, FILE *f)
{
    sg_access_range((uintptr_t)buf, size * n, 1);
    return REAL(fread_unlocked)(buf, size, n, f);
}

SG_EXPORT size_t fwrite_unlocked(const void *buf, size_t size, size_t n, FILE *f)
{
    sg_access_range((uintptr_t)buf, size * n, 0);
    return REAL(fwrite_unlocked)(buf, size, n, f);
}

/* Programs built with _FILE_OFFSET_BITS=64 (CPython, most distribution
 * packages) call the 64-bit names, which are distinct symbols. */
SG_EXPORT ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
    sg_access_range((uintptr_t)buf, n, 1);
    return REAL(pread64)(fd, buf, n, off);
}

SG_EXPORT ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
    sg_access_range((uintptr_t)buf, n, 0);
    return REAL(pwrite64)(fd, buf, n, off);
}

SG_EXPORT ssize_t preadv64(int fd, const struct iovec *iov, int n, off64_t off)
{
    access_iov(iov, n, 1);
    return REAL(preadv64)(fd, iov, n, off);
}

SG_EXPORT ssize_t pwritev64(int fd, const struct iovec *iov, int n, off64_t off)
{
    access_iov(iov, n, 0);
    return REAL(pwritev64)(fd, iov, n, off);
}

#ifdef HAVE_PREADV2
SG_EXPORT ssize_t preadv2(int fd, const struct iovec *iov, int n, off_t off, int flags)
{
    access_iov(iov, n, 1);
    return REAL(preadv2)(fd, iov, n, off, flags);
}

SG_EXPORT ssize_t preadv64v2(int fd, const struct iovec *iov, int n, off64_t off, int flags)
{
    access_iov(iov, n, 1);
    return REAL(preadv64v2)(fd, iov, n, off, flags);
}
#endif

#ifdef HAVE_PWRITEV2
SG_EXPORT ssize_t pwritev2(int fd, const struct iovec *iov, int n, off_t off, int flags)
{
    access_iov(iov, n, 0);
    return REAL(pwritev2)(fd, iov, n, off, flags);
}

SG_EXPORT ssize_t pwritev64v2(int fd, const struct iovec *iov, int n, off64_t off, int flags)
{
    access_iov(iov, n, 0);
    return REAL(pwritev64v2)(fd, iov, n, off, flags);
}
#endif

#ifdef HAVE_RECVMMSG
SG_EXPORT int recvmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags,
                       struct timespec *timeout)
{
    for (unsigned int i = 0; v && i < n; i++)
        access_msg(&v[i].msg_hdr, 1);
    return REAL(recvmmsg)(fd, v, n, flags, timeout);
}
#endif

#ifdef HAVE_SENDMMSG
SG_EXPORT int sendmmsg(int fd, struct mmsghdr *v, unsigned int n, int flags)
{
    for (unsigned int i = 0; v && i < n; i++)
        access_msg(&v[i].msg_hdr, 0);
    return REAL(sendmmsg)(fd, v, n, flags);
}
#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* Linked into a --enable-static-deps libsyncguard.so (configure compiles
 * it, packaging/static-deps.m4; no floor's library holds it) to keep the
 * glibc it needs as old as its functions are: built against glibc 2.34 or
 * newer, a call of pthread_create, sem_wait or dlopen binds
 * to the GLIBC_2.34 version those got when libpthread and libdl moved into
 * libc, stat and fstat to GLIBC_2.33 (pthread_sigmask, at GLIBC_2.32, is syncguard's own shim, preload/libc/sigmask.c, which finds libc's at run time),
 * and the dynamic linker of an older glibc refuses the library. Every
 * libc of today still carries the older versions of these functions, the
 * same code: the hidden definitions here, which the calls of syncguard and
 * of the archives linked in bind to, call those. Older glibcs define them
 * in libpthread.so.0 and libdl.so.2, which the library then names as
 * NEEDED (stubs in glibc 2.34 and later). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/stat.h>

#define HIDDEN __attribute__((visibility("hidden")))
/* OLD(name, version): old_name is the name's symbol of that version. */
#define OLD(name, version) __asm__(".symver old_" #name "," #name "@" #version)

OLD(pthread_create, GLIBC_2.2.5);
OLD(pthread_detach, GLIBC_2.2.5);
OLD(pthread_key_create, GLIBC_2.2.5);
OLD(pthread_once, GLIBC_2.2.5);
OLD(pthread_setspecific, GLIBC_2.2.5);
OLD(pthread_setname_np, GLIBC_2.12);
OLD(pthread_rwlock_init, GLIBC_2.2.5);
OLD(pthread_rwlock_destroy, GLIBC_2.2.5);
OLD(pthread_rwlock_rdlock, GLIBC_2.2.5);
OLD(pthread_rwlock_tryrdlock, GLIBC_2.2.5);
OLD(pthread_rwlock_wrlock, GLIBC_2.2.5);
OLD(pthread_rwlock_unlock, GLIBC_2.2.5);
OLD(sem_init, GLIBC_2.2.5);
OLD(sem_post, GLIBC_2.2.5);
OLD(sem_wait, GLIBC_2.2.5);
OLD(dlopen, GLIBC_2.2.5);
OLD(dlerror, GLIBC_2.2.5);
OLD(dlvsym, GLIBC_2.2.5);
OLD(__xstat, GLIBC_2.2.5);
OLD(__fxstat, GLIBC_2.2.5);

int old_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int old_pthread_detach(pthread_t);
int old_pthread_key_create(pthread_key_t *, void (*)(void *));
int old_pthread_once(pthread_once_t *, void (*)(void));
int old_pthread_setspecific(pthread_key_t, const void *);
int old_pthread_setname_np(pthread_t, const char *);
int old_pthread_rwlock_init(pthread_rwlock_t *, const pthread_rwlockattr_t *);
int old_pthread_rwlock_destroy(pthread_rwlock_t *);
int old_pthread_rwlock_rdlock(pthread_rwlock_t *);
int old_pthread_rwlock_tryrdlock(pthread_rwlock_t *);
int old_pthread_rwlock_wrlock(pthread_rwlock_t *);
int old_pthread_rwlock_unlock(pthread_rwlock_t *);
int old_sem_init(sem_t *, int, unsigned);
int old_sem_post(sem_t *);
int old_sem_wait(sem_t *);
void *old_dlopen(const char *, int);
char *old_dlerror(void);
void *old_dlvsym(void *, const char *, const char *);
int old___xstat(int, const char *, struct stat *);
int old___fxstat(int, int, struct stat *);

HIDDEN int pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*f)(void *), void *arg)
{
    return old_pthread_create(t, a, f, arg);
}
HIDDEN int pthread_detach(pthread_t t) { return old_pthread_detach(t); }
HIDDEN int pthread_key_create(pthread_key_t *k, void (*d)(void *)) { return old_pthread_key_create(k, d); }
HIDDEN int pthread_once(pthread_once_t *o, void (*f)(void)) { return old_pthread_once(o, f); }
/* (GCC takes the header's access attribute for a read of *v.) */
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
HIDDEN int pthread_setspecific(pthread_key_t k, const void *v) { return old_pthread_setspecific(k, v); }
HIDDEN int pthread_setname_np(pthread_t t, const char *n) { return old_pthread_setname_np(t, n); }
HIDDEN int pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a)
{
    return old_pthread_rwlock_init(l, a);
}
HIDDEN int pthread_rwlock_destroy(pthread_rwlock_t *l) { return old_pthread_rwlock_destroy(l); }
HIDDEN int pthread_rwlock_rdlock(pthread_rwlock_t *l) { return old_pthread_rwlock_rdlock(l); }
HIDDEN int pthread_rwlock_tryrdlock(pthread_rwlock_t *l) { return old_pthread_rwlock_tryrdlock(l); }
HIDDEN int pthread_rwlock_wrlock(pthread_rwlock_t *l) { return old_pthread_rwlock_wrlock(l); }
HIDDEN int pthread_rwlock_unlock(pthread_rwlock_t *l) { return old_pthread_rwlock_unlock(l); }
HIDDEN int sem_init(sem_t *s, int shared, unsigned v) { return old_sem_init(s, shared, v); }
HIDDEN int sem_post(sem_t *s) { return old_sem_post(s); }
HIDDEN int sem_wait(sem_t *s) { return old_sem_wait(s); }
HIDDEN void *dlopen(const char *f, int mode) { return old_dlopen(f, mode); }
HIDDEN char *dlerror(void) { return old_dlerror(); }
HIDDEN void *dlvsym(void *h, const char *s, const char *v) { return old_dlvsym(h, s, v); }
/* Before 2.33, stat and fstat were inline calls of __xstat and __fxstat
 * with the structure's version (1 on x86-64). */
HIDDEN int stat(const char *p, struct stat *b) { return old___xstat(1, p, b); }
HIDDEN int fstat(int fd, struct stat *b) { return old___fxstat(1, fd, b); }

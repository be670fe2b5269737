/* SPDX-License-Identifier: Apache-2.0 */
/* The body of robust_dlopen_ctor_race and robust_dlopen_ctor_ok: a library
 * that the program dlopen()s reads a pinned buffer from its constructor,
 * which the dynamic loader runs with its loader lock held (the lock that
 * dlopen, dladdr and dl_iterate_phdr take).  The copy into the buffer waits
 * behind a hold on its stream. */
#include <cuda.h>
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "sgt_robust.h"

#define WORDS 1024u
#define BYTES (WORDS * sizeof(uint32_t))
#define OLD 0x0badf00du
#define NEW 0x5eed1234u

/* tests/lib/.libs/sgt_ctor_read.so, next to this program's directory. */
static int library_path(char *out, size_t len)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0)
        return -1;
    exe[n] = '\0';
    char *slash = strrchr(exe, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    snprintf(out, len, "%s/../lib/.libs/sgt_ctor_read.so", exe);
    return access(out, R_OK);
}

static void setenv_number(const char *name, unsigned long v)
{
    char num[32];
    snprintf(num, sizeof num, "%#lx", v);
    setenv(name, num, 1);
}

static int ctor_main(int correct)
{
    sgt_watchdog(60);
    char lib[PATH_MAX + 64];
    if (library_path(lib, sizeof lib) != 0) {
        printf("SKIP: no sgt_ctor_read.so next to the program\n");
        return 77;
    }
    sgt_init();
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    CUdeviceptr dev = sgt_dev_words(WORDS, NEW);
    uint32_t *host = sgt_pinned_words(WORDS, OLD);
    setenv_number("SGT_CTOR_BUF", (unsigned long)(uintptr_t)host);
    setenv_number("SGT_CTOR_WORDS", WORDS);
    setenv_number("SGT_CTOR_WANT", NEW);

    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, BYTES, s));
    if (correct) {
        sgt_release(hold);
        SGT_CHECK(cuStreamSynchronize(s));
    } else
        sgt_release_when_host_waits(hold);
    void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);  /* the constructor reads host */
    if (!h) {
        printf("dlopen: %s\n", dlerror());
        return 2;
    }
    unsigned *wrong = dlsym(h, "sgt_ctor_wrong");
    SGT_CHECK(cuStreamSynchronize(s));
    printf("the constructor's read: %u of %u words wrong\n", wrong ? *wrong : ~0u, WORDS);
    int ok = wrong && *wrong == 0;
    dlclose(h);
    sgt_free_all(s, dev, host);
    return sgt_check_line(ok);
}

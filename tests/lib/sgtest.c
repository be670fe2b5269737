/* SPDX-License-Identifier: Apache-2.0 */
/* sgtest.c - see sgtest.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1           /* RTLD_DEFAULT */
#endif
#include "sgtest.h"

#include <dirent.h>
#include <dlfcn.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* What tests/emu/sgemu.h declares; looked up at run time so that the same
 * program links against a real driver. */
typedef void (*release_on_host_wait_fn)(CUdeviceptr flag, cuuint32_t value);

struct sgt_hold {
    volatile cuuint32_t *flag;  /* page-locked, device-mapped */
    CUdeviceptr dflag;
    cuuint32_t value;           /* the stream waits for *flag >= value */
    struct sgt_hold *next;
};

/* Every hold, so that they stay reachable until exit (a stream may still
 * be waiting on a flag when the test forgets its hold). */
static sgt_hold *all_holds;
static pthread_mutex_t holds_lock = PTHREAD_MUTEX_INITIALIZER;

void sgt_check_(CUresult r, const char *text, const char *file, int line)
{
    if (r == CUDA_SUCCESS)
        return;
    const char *name = NULL;
    if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name)
        name = "unknown CUresult";
    fprintf(stderr, "%s:%d: %s failed: %s (%d)\n", file, line, text, name, (int)r);
    exit(2);
}

void sgt_expect_(int ok, const char *text, const char *file, int line)
{
    if (ok)
        return;
    printf("FAIL: %s:%d: %s\n", file, line, text);
    fflush(stdout);
    exit(1);
}

CUcontext sgt_init(void)
{
    CUresult r = cuInit(0);
    if (r == CUDA_ERROR_NO_DEVICE) {
        fprintf(stderr, "sgtest: no CUDA device, skipping\n");
        exit(77);
    }
    SGT_CHECK(r);
    CUdevice dev;
    CUcontext ctx;
    SGT_CHECK(cuDeviceGet(&dev, 0));
    SGT_CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    SGT_CHECK(cuCtxSetCurrent(ctx));
    return ctx;
}

/* Hold flags come from page-locked pages allocated a page at a time: not
 * one allocation per hold, because on a real driver an allocation of
 * pinned memory may wait for work already queued, such as other threads'
 * held streams. */
#define FLAGS_PER_PAGE 1024
static volatile cuuint32_t *flag_page;
static CUdeviceptr flag_page_dev;
static unsigned flags_used = FLAGS_PER_PAGE;

static void take_flag(sgt_hold *h)
{
    if (flags_used == FLAGS_PER_PAGE) {
        void *p;
        SGT_CHECK(cuMemHostAlloc(&p, FLAGS_PER_PAGE * sizeof *h->flag, CU_MEMHOSTALLOC_DEVICEMAP));
        SGT_CHECK(cuMemHostGetDevicePointer(&flag_page_dev, p, 0));
        flag_page = p;
        flags_used = 0;
    }
    h->flag = flag_page + flags_used;
    h->dflag = flag_page_dev + flags_used * sizeof *h->flag;
    flags_used++;
}

static sgt_hold *new_hold(void)
{
    sgt_hold *h = calloc(1, sizeof *h);
    if (!h) {
        fprintf(stderr, "sgtest: out of memory\n");
        exit(2);
    }
    pthread_mutex_lock(&holds_lock);
    take_flag(h);
    h->next = all_holds;
    all_holds = h;
    pthread_mutex_unlock(&holds_lock);
    *h->flag = 0;
    h->value = 1;
    return h;
}

sgt_hold *sgt_hold_stream(CUstream s)
{
    sgt_hold *h = new_hold();
    SGT_CHECK(cuStreamWaitValue32(s, h->dflag, h->value, CU_STREAM_WAIT_VALUE_GEQ));
    return h;
}

sgt_hold *sgt_hold_gate(CUdeviceptr *flag, cuuint32_t *value)
{
    sgt_hold *h = new_hold();
    *flag = h->dflag;
    *value = h->value;
    return h;
}

sgt_hold *sgt_hold_stream_in_graph(CUstream s)
{
    sgt_hold *h = new_hold();
    CUstream g;
    CUgraph graph;
    CUgraphExec exec;
    SGT_CHECK(cuStreamCreate(&g, CU_STREAM_NON_BLOCKING));
    SGT_CHECK(cuStreamBeginCapture(g, CU_STREAM_CAPTURE_MODE_GLOBAL));
    SGT_CHECK(cuStreamWaitValue32(g, h->dflag, h->value, CU_STREAM_WAIT_VALUE_GEQ));
    SGT_CHECK(cuStreamEndCapture(g, &graph));
    SGT_CHECK(cuGraphInstantiate(&exec, graph, 0));
    SGT_CHECK(cuGraphLaunch(exec, s));
    return h;
}

void sgt_release(sgt_hold *h)
{
    *h->flag = h->value;
    __sync_synchronize();       /* the store is visible before anything after it */
}

static release_on_host_wait_fn emulator_hook(void)
{
    return (release_on_host_wait_fn)(void (*)(void))dlsym(RTLD_DEFAULT, "sgemu_release_on_host_wait");
}

int sgt_on_emulator(void)
{
    return emulator_hook() != NULL;
}

static void *release_later(void *arg)
{
    struct timespec t = { 0, 200 * 1000 * 1000 };
    nanosleep(&t, NULL);
    sgt_release(arg);
    return NULL;
}

void sgt_release_when_host_waits(sgt_hold *h)
{
    release_on_host_wait_fn hook = emulator_hook();
    if (hook) {
        hook(h->dflag, h->value);
        return;
    }
    /* A real driver cannot say when the host blocks: release a little
     * later, long enough for the program to be blocked by then. */
    pthread_t t;
    if (pthread_create(&t, NULL, release_later, h) != 0) {
        fprintf(stderr, "sgtest: cannot start the release thread\n");
        exit(2);
    }
    pthread_detach(t);
}

/* A hung test says where each of its threads is: the watchdog sends every
 * thread a signal whose handler writes its stack (module+offset frames:
 * enough to tell a wait in the driver from one in syncguard). The process
 * is about to exit, so backtrace()'s laxness about signal safety is
 * acceptable here; it was called once before, so it loads nothing now. */
#define DUMP_SIGNAL SIGURG

static void put(const char *s)
{
    ssize_t n = write(STDERR_FILENO, s, strlen(s));
    (void)n;
}

static void dump_my_stack(int sig)
{
    (void)sig;
    void *pcs[32];
    char line[64];
    int n = backtrace(pcs, 32);
    snprintf(line, sizeof line, "sgtest: thread %ld:\n", (long)syscall(SYS_gettid));
    put(line);
    backtrace_symbols_fd(pcs, n, STDERR_FILENO);
}

static void dump_all_threads(void)
{
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    long self = (long)syscall(SYS_gettid);
    while (d && (e = readdir(d)) != NULL) {
        long tid = strtol(e->d_name, NULL, 10);
        if (tid <= 0 || tid == self)
            continue;
        syscall(SYS_tgkill, (long)getpid(), tid, DUMP_SIGNAL);
        struct timespec t = { 0, 20 * 1000 * 1000 };
        nanosleep(&t, NULL); /* one stack at a time */
    }
    if (d)
        closedir(d);
    dump_my_stack(0);
}

static void watchdog_fired(int sig)
{
    (void)sig;
    put("sgtest: watchdog: the test hung, failing it; the threads' stacks:\n");
    dump_all_threads();
    _exit(3);
}

/* Opt-in (SGT_WATCHDOG=1 in the environment, or =N for N seconds), for a developer chasing a
 * hang: make check bounds no test by the clock, since a loaded CI machine
 * can be arbitrarily slow and a hang is caught by the CI job's own limit. */
void sgt_watchdog(unsigned int seconds)
{
    const char *on = getenv("SGT_WATCHDOG");
    if (!on || !*on || *on == '0')
        return;
    void *warm[1];
    backtrace(warm, 1);
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = dump_my_stack;
    sigaction(DUMP_SIGNAL, &sa, NULL);
    sa.sa_handler = watchdog_fired;
    sigaction(SIGALRM, &sa, NULL);
    unsigned int asked = (unsigned int)strtoul(on, NULL, 10); /* SGT_WATCHDOG=N: N seconds */
    alarm(asked > 1 ? asked : seconds);
}

CUdeviceptr sgt_device_words(size_t n, uint32_t word)
{
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, n * sizeof(uint32_t)));
    SGT_CHECK(cuMemsetD32(d, word, n));
    SGT_CHECK(cuCtxSynchronize());
    return d;
}

CUdeviceptr sgt_device_bytes(size_t n, unsigned char byte)
{
    CUdeviceptr d;
    SGT_CHECK(cuMemAlloc(&d, n));
    SGT_CHECK(cuMemsetD8(d, byte, n));
    SGT_CHECK(cuCtxSynchronize());
    return d;
}

void *sgt_pinned(size_t n)
{
    void *p;
    SGT_CHECK(cuMemAllocHost(&p, n));
    return p;
}

/* Fills SGT_WORDS words of host with SGT_OLD. */
static void fill_old(uint32_t *host)
{
    for (unsigned i = 0; i < SGT_WORDS; i++)
        host[i] = SGT_OLD;
}

void sgt_buffers(CUdeviceptr *dev, uint32_t **host)
{
    *dev = sgt_device_words(SGT_WORDS, SGT_NEW);
    *host = sgt_pinned(SGT_BYTES);
    fill_old(*host);
}

int sgt_verdict(unsigned wrong, const char *when)
{
    printf("%s: %u of %u words wrong\n", when, wrong, SGT_WORDS);
    if (wrong) {
        printf("check: MISMATCH the read did not see the copied data\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

CUcontext sgt_start(CUdeviceptr *dev, uint32_t **host)
{
    sgt_watchdog(60);
    CUcontext ctx = sgt_init();
    sgt_buffers(dev, host);
    return ctx;
}

CUstream sgt_stream(unsigned int flags)
{
    CUstream s;
    SGT_CHECK(cuStreamCreate(&s, flags));
    return s;
}

CUevent sgt_event(void)
{
    CUevent e;
    SGT_CHECK(cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
    return e;
}

static int host_function_done;

void CUDA_CB sgt_set_done(void *arg)
{
    (void)arg;
    __atomic_store_n(&host_function_done, 1, __ATOMIC_RELEASE);
}

void sgt_wait_done(void)
{
    while (!__atomic_load_n(&host_function_done, __ATOMIC_ACQUIRE))
        sched_yield(); /* bounded by the watchdog */
}

void sgt_buffers_for(CUdeviceptr *dev, uint32_t *host)
{
    *dev = sgt_device_words(SGT_WORDS, SGT_NEW);
    fill_old(host);
}

void sgt_registered_buffers(CUdeviceptr *dev, uint32_t **host)
{
    uint32_t *h = mmap(NULL, SGT_BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    SGT_EXPECT(h != MAP_FAILED);
    SGT_CHECK(cuMemHostRegister(h, SGT_BYTES, 0));
    sgt_buffers_for(dev, h);
    *host = h;
}

void sgt_free_buffers(CUdeviceptr dev, uint32_t *host)
{
    SGT_CHECK(cuMemFreeHost(host));
    SGT_CHECK(cuMemFree(dev));
}

int sgt_race_verdict(unsigned early, unsigned late, const char *after)
{
    printf("early read: %u of %u words wrong\n", early, SGT_WORDS);
    if (!early)
        return sgt_verdict(late, after);
    printf("%s: %u of %u words wrong\n", after, late, SGT_WORDS);
    printf("check: MISMATCH the early read saw data the copy had not delivered yet\n");
    return 1;
}

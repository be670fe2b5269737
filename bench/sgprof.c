/* SPDX-License-Identifier: Apache-2.0 */
// sgprof: a wall-clock sampling profiler of a program's main thread, for the
// GPU machine, which has no perf. Preload it beside (after) syncguard:
//
//   gcc -O2 -shared -fPIC -o libsgprof.so bench/sgprof.c -ldl
//   LD_PRELOAD=libsyncguard.so:libsgprof.so SGPROF_OUT=prof.txt ./micro 1 d2h_pinned_4KiB
//   python3 bench/sgprof_report.py prof.txt src/.libs/libsyncguard.so
//
// SGPROF_MODE=wall (default): a POSIX timer on CLOCK_MONOTONIC (SGPROF_HZ,
// default 20000) sends SIGPROF to the main thread; the handler records the
// interrupted stack with backtrace(). Wall clock: time the thread spends
// blocked in a system call (an mprotect waiting for other CPUs' TLBs, a
// futex, the driver's ioctl) is where it is, which is what a latency
// profile of a single-threaded loop needs.
// SGPROF_MODE=cpu: ITIMER_PROF, the process's CPU time in every thread (the
// kernel's tick limits the rate), for a program whose work is spread over
// threads (PyTorch's DataLoader pin-memory thread). A "%p" in SGPROF_OUT
// becomes the process id (programs that start others).
// SGPROF_ARM=signal: no samples until the program sends itself SIGUSR2, and
// none after the next one (bench/train.py and bench/resnet.py do so around
// their timed steps when SGPROF_TOGGLE=1 is set).
// SGPROF_ONLY=TEXT: only a program whose executable's path contains TEXT is
// profiled (not the shells and tools that start it, which inherit the
// preload).
// At exit the stacks are written one per line, each frame as
// "module+0xoffset" or "module+0xoffset:symbol" where dladdr names one;
// bench/sgprof_report.py symbolizes syncguard's frames with addr2line on
// the same build. Samples past the buffer are counted, not kept.
// backtrace() from a signal is not async-signal-safe and trusts the unwind
// tables of whatever code it interrupts: the sampler alone crashes a program
// that single-steps itself (tests/drv/robust_sigtrap_program_steps, two runs
// of three at 20 kHz), and two profiled runs of the GPU run 31 ended the
// same way. A tool for measuring, never for a run whose result matters.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

enum { MAX_SAMPLES = 200000, MAX_DEPTH = 40 };

struct sample {
  int depth;
  void *pc[MAX_DEPTH];
};

static struct sample samples[MAX_SAMPLES];
static volatile int nsamples, dropped;
static timer_t timer;
static int running, cpu_mode, sampling;
static struct timespec every;

// Starts or stops the samples; async-signal-safe (SIGUSR2 calls it).
static void set_sampling(int on) {
  if (cpu_mode) {
    struct timeval tv = {every.tv_sec, every.tv_nsec / 1000};
    struct itimerval it = {tv, tv};
    if (!on) memset(&it, 0, sizeof it);
    setitimer(ITIMER_PROF, &it, NULL);
  } else {
    struct itimerspec its = {every, every};
    if (!on) memset(&its, 0, sizeof its);
    timer_settime(timer, 0, &its, NULL);
  }
  sampling = on;
}

static void on_sigusr2(int sig) {
  (void)sig;
  set_sampling(!sampling);
}

static void *interrupted_pc(void *uc_) {
#if defined(__x86_64__)
  return (void *)((ucontext_t *)uc_)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (void *)((ucontext_t *)uc_)->uc_mcontext.pc;
#else
  (void)uc_;
  return NULL;
#endif
}

// The unwinder starts in this handler: keep the frames from the interrupted
// PC on (it is the frame after the signal trampoline).
static void on_sigprof(int sig, siginfo_t *si, void *uc) {
  (void)sig, (void)si;
  int n = nsamples;
  if (n >= MAX_SAMPLES) {
    dropped++;
    return;
  }
  void *raw[MAX_DEPTH + 4];
  int depth = backtrace(raw, MAX_DEPTH + 4);
  void *pc = interrupted_pc(uc);
  int from = 0;
  while (from < depth && raw[from] != pc) from++;
  struct sample *s = &samples[n];
  s->depth = 0;
  if (from == depth) s->pc[s->depth++] = pc;  // unwinding stopped early
  for (int i = from; i < depth && s->depth < MAX_DEPTH; i++) s->pc[s->depth++] = raw[i];
  nsamples = n + 1;
}

static void write_frame(FILE *f, void *pc, int innermost) {
  Dl_info info;
  // A return address points after its call: look the call itself up.
  void *at = innermost ? pc : (void *)((char *)pc - 1);
  if (!dladdr(at, &info) || !info.dli_fname) {
    fprintf(f, " ?+%p", pc);
    return;
  }
  const char *base = strrchr(info.dli_fname, '/');
  base = base ? base + 1 : info.dli_fname;
  if (!*base) base = "main";
  fprintf(f, " %s+0x%lx", base, (unsigned long)((char *)at - (char *)info.dli_fbase));
  if (info.dli_sname) fprintf(f, ":%s", info.dli_sname);
}

__attribute__((destructor)) static void sgprof_stop(void) {
  if (!running) return;
  running = 0;
  set_sampling(0);
  if (!cpu_mode) timer_delete(timer);
  const char *out = getenv("SGPROF_OUT");
  char path[4096];
  if (!out) out = "sgprof.%p.txt";
  const char *pid = strstr(out, "%p");
  if (pid)
    snprintf(path, sizeof path, "%.*s%d%s", (int)(pid - out), out, (int)getpid(), pid + 2);
  else
    snprintf(path, sizeof path, "%s", out);
  FILE *f = fopen(path, "w");
  if (!f) {
    perror(path);
    return;
  }
  fprintf(f, "# sgprof samples=%d dropped=%d hz=%s mode=%s\n", nsamples, dropped,
          getenv("SGPROF_HZ") ? getenv("SGPROF_HZ") : "20000", cpu_mode ? "cpu" : "wall");
  for (int i = 0; i < nsamples; i++) {
    for (int k = 0; k < samples[i].depth; k++) write_frame(f, samples[i].pc[k], k == 0);
    fputc('\n', f);
  }
  fclose(f);
}

__attribute__((constructor)) static void sgprof_start(void) {
  long hz = getenv("SGPROF_HZ") ? atol(getenv("SGPROF_HZ")) : 20000;
  if (hz <= 0) return;
  const char *only = getenv("SGPROF_ONLY");
  if (only) {
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (!strstr(exe, only)) return;
  }
  void *warm[4];
  backtrace(warm, 4);  // loads the unwinder now, not inside the handler
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_sigprof;
  sa.sa_flags = SA_SIGINFO | SA_RESTART;
  sigemptyset(&sa.sa_mask);
  if (sigaction(SIGPROF, &sa, NULL)) return perror("sgprof: sigaction");
  long ns = 1000000000L / hz;
  every.tv_sec = ns / 1000000000L;
  every.tv_nsec = ns % 1000000000L;
  const char *mode = getenv("SGPROF_MODE");
  cpu_mode = mode && strcmp(mode, "cpu") == 0;
  if (!cpu_mode) {
    struct sigevent ev;
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGPROF;
    ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_MONOTONIC, &ev, &timer)) return perror("sgprof: timer_create");
  }
  const char *arm = getenv("SGPROF_ARM");
  if (arm && strcmp(arm, "signal") == 0) {
    sa.sa_handler = on_sigusr2;
    sa.sa_flags = SA_RESTART;
    if (sigaction(SIGUSR2, &sa, NULL)) return perror("sgprof: sigaction");
  } else {
    set_sampling(1);
  }
  running = 1;
}

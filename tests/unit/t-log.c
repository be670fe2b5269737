/* SPDX-License-Identifier: Apache-2.0 */
/* The logging idiom (base/log.c): sg_vformat writes what glibc's vsnprintf
 * writes, byte for byte, for every conversion it knows, cut or not; the
 * prefixes; SG_VLOG's level; SG_ONCE and SG_WARN_ONCE say a thing once per
 * call site; a cut line still ends in a newline. */
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/log.h"
#include "base/options.h"
#include "unit.h"

static int mismatches;

/* fmt through both formatters, into buffers of len bytes. */
static void __attribute__((format(printf, 2, 3))) same_cut(size_t len, const char *fmt, ...)
{
    char ours[512], theirs[512];
    va_list ap, aq;
    va_start(ap, fmt);
    va_copy(aq, ap);
    memset(ours, 'X', sizeof ours);
    memset(theirs, 'X', sizeof theirs);
    size_t n = sg_vformat(ours, len, fmt, ap);
    int m = vsnprintf(theirs, len, fmt, aq);
    va_end(aq);
    va_end(ap);
    if (m < 0 || n != (size_t)m || memcmp(ours, theirs, len ? len : 1) != 0) {
        printf("# \"%s\" (room %zu): ours \"%.*s\" (%zu), glibc's \"%.*s\" (%d)\n", fmt, len,
               (int)(len ? len : 1), ours, n, (int)(len ? len : 1), theirs, m);
        mismatches++;
    }
}

#define SAME(...) same_cut(sizeof(char[512]), __VA_ARGS__)

/* What the log got: stderr is the log (log_path=stderr), here a file. */
static char logged[16384];

static const char *read_log(FILE *f)
{
    fflush(f);
    long end = ftell(f);
    rewind(f);
    size_t n = fread(logged, 1, sizeof logged - 1, f);
    logged[n] = '\0';
    fseek(f, end, SEEK_SET);
    return logged;
}

static void say_twice(void)
{
    for (int i = 0; i < 2; i++) {
        SG_WARN_ONCE("warned %d\n", i);
        SG_ONCE(sg_log("noted %d\n", i));
    }
}

int main(void)
{
    int zero = 0, *volatile null = NULL;
    const char *volatile none = NULL; /* unknown to the compiler's format checks */

    SAME("plain text, no conversion");
    SAME("%d %d %d %d %i", 0, 7, -7, INT_MIN, INT_MAX);
    SAME("%u %u %lu %llu %zu", 0u, UINT_MAX, ULONG_MAX, ULLONG_MAX, (size_t)12345);
    SAME("%ld %lld %zd %jd %td", LONG_MIN, LLONG_MIN, (ssize_t)-5, (intmax_t)-9, (ptrdiff_t)-3);
    SAME("%hd %hu %hhd %hhu", (short)-12, (unsigned short)65535, (signed char)-100,
         (unsigned char)200);
    SAME("%x %X %#x %#X %#x %lx %#lx %#lx", 0xabcu, 0xabcu, 0xabcu, 0xabcu, 0u, 0xdeadbeefUL,
         0x7f0000001000UL, 0UL);
    SAME("%o %#o %#o %#.3o %#.0o", 8u, 8u, 0u, 8u, 0u);
    /* (What -Wformat calls ignored flags, -Werror keeps out of the tree.) */
    SAME("[%6lu] [%-6lu] [%06lu] [%6.3lu] [%-6d] [%+d] [% d] [%+d] [%06d]", 42UL, 42UL, 42UL,
         42UL, -42, 5, 5, -5, -42);
    SAME("[%.0d] [%.0u] [%.0x] [%5.0d] [%.5d] [%8.3d] [%#010x] [%#-10x]", 0, 0u, 0u, 0, -42, 7,
         0x1fu, 0x1fu);
    SAME("[%*d] [%-*d] [%*d] [%.*d] [%.*d]", 5, 1, 5, 1, -5, 1, 3, 1, -1, 1);
    SAME("[%s] [%.3s] [%.256s] [%10s] [%-10s] [%.*s]", "syncguard", "syncguard", "short",
         "right", "left", 4, "syncguard");
    SAME("[%s] [%.3s] [%.6s] [%8s]", none, none, none, none);
    SAME("[%p] [%p] [%18p] [%-18p|] [%p] [%10p] [%-10p|]", (void *)&zero, (void *)0x1000,
         (void *)0x1000, (void *)0x1000, (void *)null, (void *)null, (void *)null);
    SAME("[%c] [%3c] [%-3c] [%%] [100%%]", 'a', 'b', 'c');
    SAME("==%d==syncguard: copy #%llu %s %#lx+%zu guarded on stream %p\n", 1234, 7ULL,
         "cuMemcpyDtoHAsync", 0x7f0000200000UL, (size_t)16384, (void *)null);
    /* Cut: every length around the end, and none at all. */
    for (size_t len = 0; len < 24; len++)
        same_cut(len, "%s=%ld and %#lx [%6lu]", "sample", -12345L, 0xabcdefUL, 7UL);
    CHECK(mismatches == 0, "sg_vformat writes what vsnprintf writes, cut or not");

    char prefix[64];
    char want[64];
    snprintf(want, sizeof want, "==%d==WARNING: syncguard: ", (int)getpid());
    CHECK(sg_log_prefix(prefix, sizeof prefix, SG_LOG_WARNING) == strlen(want) &&
              strcmp(prefix, want) == 0,
          "the prefix of a warning");
    snprintf(want, sizeof want, "==%d==", (int)getpid());
    CHECK(sg_log_prefix(prefix, strlen(want) + 1, SG_LOG_ERROR) == strlen(want) &&
              strcmp(prefix, want) == 0,
          "a prefix cut to the room given");

    /* The log is stderr: make stderr a file. */
    FILE *f = tmpfile();
    if (!f || dup2(fileno(f), 2) < 0)
        return 1;
    sg_opt.verbosity = 1;
    sg_log("a note %d\n", 1);
    sg_log_warning("a warning\n");
    sg_log_error("an error: %s\n", "why");
    SG_VLOG(1, "said at verbosity 1\n");
    SG_VLOG(2, "not said at verbosity 1\n");
    sg_log_printf("  a continuation\n");
    sg_log_stderr(SG_LOG_ERROR, "on stderr\n");
    say_twice();
    say_twice();
    char all[2048];
    int pid = (int)getpid();
    snprintf(all, sizeof all,
             "==%d==syncguard: a note 1\n==%d==WARNING: syncguard: a warning\n"
             "==%d==ERROR: syncguard: an error: why\n==%d==syncguard: said at verbosity 1\n"
             "  a continuation\n==%d==ERROR: syncguard: on stderr\n"
             "==%d==WARNING: syncguard: warned 0\n==%d==syncguard: noted 0\n",
             pid, pid, pid, pid, pid, pid, pid);
    CHECK(strcmp(read_log(f), all) == 0, "each line with its prefix; each once-site once");

    long before = ftell(f);
    char big[6000];
    memset(big, 'b', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    sg_log("%s\n", big);
    const char *cut = read_log(f) + before;
    size_t n = strlen(cut);
    CHECK(n == 4095 && cut[n - 1] == '\n' && cut[n - 2] == 'b', "a long line is cut, a line still");
    return unit_done();
}

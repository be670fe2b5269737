/* SPDX-License-Identifier: Apache-2.0 */
/* options_secure_mode: in secure-execution mode (a set-user-ID or
 * set-group-ID program, or one with file capabilities: getauxval(AT_SECURE)
 * is non-zero) SYNCGUARD_OPTIONS comes from whoever started the program and
 * must be ignored, as glibc ignores LD_LIBRARY_PATH and the sanitizers their
 * options then: syncguard says so once on stderr and runs with its
 * defaults.  The program stands in for the kernel's auxiliary vector with
 * its own getauxval (exported: tests/Makefile.am links it with
 * --export-dynamic-symbol), answering AT_SECURE with 1, since a test cannot
 * count on being able to make a set-user-ID program.  The options ask for
 * mode=abort and a log file next to the program: ignored, the race is
 * reported on stderr in the default report mode (exit status 66), and no
 * log file is made.
 *
 * SG-OPTIONS: mode=abort:log_path=options_secure_mode.log
 * SG-EXPECT: early-host-read
 * SG-GREP: ==[0-9]*==WARNING: syncguard: secure-execution mode (AT_SECURE): SYNCGUARD_OPTIONS ignored
 */
#include <cuda.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/auxv.h>
#include <unistd.h>

#include "sgtest.h"

unsigned long getauxval(unsigned long type)
{
    if (type == AT_SECURE)
        return 1;
    static unsigned long (*real)(unsigned long);
    if (!real)
        real = (unsigned long (*)(unsigned long))dlsym(RTLD_NEXT, "getauxval");
    return real ? real(type) : 0;
}

int main(void)
{
    sgt_watchdog(60);
    CUdeviceptr dev;
    uint32_t *host;
    sgt_start(&dev, &host);
    CUstream s = sgt_stream(CU_STREAM_NON_BLOCKING);
    sgt_hold *hold = sgt_hold_stream(s);
    SGT_CHECK(cuMemcpyDtoHAsync(host, dev, SGT_BYTES, s));
    sgt_release_when_host_waits(hold);
    unsigned wrong = SGT_COUNT_WRONG(host, SGT_WORDS, SGT_NEW); /* the race */
    SGT_CHECK(cuStreamSynchronize(s));
    int log_made = access("options_secure_mode.log", F_OK) == 0 ||
                   access("options_secure_mode.log.1", F_OK) == 0;
    char pid_log[64];
    snprintf(pid_log, sizeof pid_log, "options_secure_mode.log.%d", (int)getpid());
    log_made |= access(pid_log, F_OK) == 0;
    if (log_made)
        unlink(pid_log);
    printf("early read: %u words wrong; log file %s\n", wrong, log_made ? "MADE" : "not made");
    sgt_free_buffers(dev, host);
    SGT_CHECK(cuStreamDestroy(s));
    if (wrong || log_made) {
        printf("check: MISMATCH\n");
        return 1;
    }
    printf("check: ok\n");
    return 0;
}

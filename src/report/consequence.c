/* SPDX-License-Identifier: Apache-2.0 */
/* What a race leads to, decided in one place for every path that reports
 * one (the fault handler, an access inside a driver call, copy-overlap at
 * enqueue) and for the reporter, which writes the summary first when the
 * process is about to end. Async-signal-safe. */
#include "config.h"

#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/options.h"
#include "report/report.h"

enum sg_consequence sg_report_consequence(int reported)
{
    if (!reported)
        return SG_GO_ON;
    if (sg_opt.mode == SG_MODE_ABORT)
        return SG_ABORT;
    if (sg_opt.halt_on_error)
        return SG_HALT;
    return SG_GO_ON;
}

void sg_report_act(int reported)
{
    switch (sg_report_consequence(reported)) {
    case SG_ABORT:
        signal(SIGABRT, SIG_DFL); /* not the program's handler: it is a report */
        abort();
    case SG_HALT:
        _exit((int)sg_opt.exitcode);
    case SG_GO_ON:
        break;
    }
}

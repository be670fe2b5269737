/* SPDX-License-Identifier: Apache-2.0 */
/* Exit: the summary, and the exit status that says whether syncguard found
 * anything. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "base/options.h"
#include "preload/root.h"
#include "report/report.h"

/* Registered first, so it runs after the program's own exit handlers. */
static void at_exit(void)
{
    sg_report_at_exit();
    if (sg_reports_written() > 0) {
        fflush(NULL);
        _exit((int)sg_opt.exitcode);
    }
}

void sg_exit_install(void)
{
    atexit(at_exit);
}

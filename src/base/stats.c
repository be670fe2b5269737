/* SPDX-License-Identifier: Apache-2.0 */
/* The counters of stats.h. */
#include "config.h"

#include <stdio.h>

#include "base/stats.h"

unsigned long sg_stats[SG_NSTATS];

static const char *const names[SG_NSTATS] = {
#define SG_STAT_NAME(name, what) #name,
    SG_STATS(SG_STAT_NAME)
#undef SG_STAT_NAME
};

const char *sg_stat_name(enum sg_stat s)
{
    return names[s];
}

void sg_stats_format(char *buf, unsigned long len)
{
    unsigned long n = 0;
    buf[0] = '\0';
    for (int i = 0; i < SG_NSTATS && n < len; i++) {
        int w = snprintf(buf + n, len - n, "%s%s=%lu", i ? ", " : "", names[i],
                         sg_stat_get((enum sg_stat)i));
        if (w < 0)
            break;
        n += (unsigned long)w;
    }
}

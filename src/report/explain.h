/* SPDX-License-Identifier: Apache-2.0 */
/* The part of a report that says why the host's synchronization did not
 * cover the copy (explain.c). Reporter thread only. */
#ifndef SG_REPORT_EXPLAIN_H
#define SG_REPORT_EXPLAIN_H

#include <stddef.h>

#include "report/view.h"

/* Fills v->nreasons and v->reasons from the race's sync sites. */
void sg_explain_race(struct sg_race_view *v);
/* The line before the reasons. */
const char *sg_explain_intro(const struct sg_race_view *v);
/* "the legacy default stream", "non-blocking stream 0x...", ... */
void sg_describe_stream(char *buf, size_t len, const struct sg_stream_info *s);

#endif

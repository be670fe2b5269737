/* The part of a report that says why the host's synchronization did not
 * cover the copy (src/report/explain.c). Reporter thread only. */
#ifndef SG_REPORT_EXPLAIN_H
#define SG_REPORT_EXPLAIN_H

#include <stddef.h>

#include "report/report.h"

/* Appends the explanation lines to buf; returns the bytes written. */
size_t sg_explain_race(char *buf, size_t len, const struct sg_race *r);
/* "the legacy default stream", "non-blocking stream 0x...", ... */
void sg_describe_stream(char *buf, size_t len, const struct sg_stream_info *s);

#endif

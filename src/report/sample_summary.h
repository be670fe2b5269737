/* SPDX-License-Identifier: Apache-2.0 */
/* The sampled mode's part of the exit summary (sample=N): per enqueue
 * site, where it is and how many of its copies were guarded and sampled
 * out. Normal context (symbolizes). */
#ifndef SG_REPORT_SAMPLE_SUMMARY_H
#define SG_REPORT_SAMPLE_SUMMARY_H

#include "report/json.h"

/* Text lines, at verbosity>=1. */
void sg_sample_summary_text(void);
/* A "sampling" member of the JSON summary. */
void sg_sample_summary_json(struct sg_json *j);

#endif

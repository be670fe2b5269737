/* SPDX-License-Identifier: Apache-2.0 */
/* The reports the C API hands out (include/syncguard/syncguard.h, exported
 * by preload/api.c): the reporter thread records each race occurrence here;
 * the program's threads read them. Normal context only. */
#ifndef SG_REPORT_API_H
#define SG_REPORT_API_H

#include <stddef.h>

/* A race reported for the first time: json is its JSON object without the
 * closing brace (the API adds count, first and last; NULL: one too big to
 * keep), copied. Returns its handle, or -1 when it cannot be kept (then it
 * is only counted). Reporter thread only. */
int sg_api_race_first(const char *json, size_t len);
/* Another occurrence of the race of handle h (-1: one not kept). */
void sg_api_race_again(int h);
/* Race occurrences so far: first reports and repeats. */
unsigned long sg_api_race_count(void);
/* The races with an occurrence above since, as JSON Lines, snprintf style
 * (see syncguard_races_json). */
size_t sg_api_races_json(unsigned long since, char *buf, size_t len);
/* A forked child's reports are its own. */
void sg_api_after_fork_child(void);

#endif

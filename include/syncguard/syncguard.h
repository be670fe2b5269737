/* SPDX-License-Identifier: Apache-2.0 */
/* syncguard's C API: what a program, a test framework or a plugin (the
 * pytest plugin, syncguard-pytest(1)) can ask libsyncguard.so while it is
 * loaded into the process. See syncguard-api(3).
 *
 * The functions exist only when the library is loaded (preloaded, as
 * syncguard runs): look them up with dlsym(RTLD_DEFAULT, "...") or declare
 * them weak, and call nothing when they are absent. Link nothing against
 * libsyncguard.so: it must come first in the process, through LD_PRELOAD.
 *
 * Versions only add: a function, once in a version, keeps its name,
 * arguments and meaning in every later one. A program written for version
 * N works with a library whose syncguard_api_version() is N or more.
 *
 * None of these is async-signal-safe; all are thread-safe. */
#ifndef SYNCGUARD_SYNCGUARD_H
#define SYNCGUARD_SYNCGUARD_H

#include <stddef.h>

/* The version this header describes. */
#define SYNCGUARD_API_VERSION 1

#ifdef __cplusplus
extern "C" {
#endif

/* The API version of the library loaded. (Version 1.) */
int syncguard_api_version(void);

/* The number of race occurrences reported so far in this process: each
 * first report and each repeat of a race already reported (a repeat is not
 * printed again), not the races a suppression matched. It only grows
 * (a forked child starts again at 0). In mode=report the access that
 * raced has been counted by the time it returns to the program. (Version 1.) */
unsigned long syncguard_race_count(void);

/* The distinct races with an occurrence numbered above since (0: all),
 * as JSON Lines in buf: one object per race, in the order of their first
 * reports, each the race object that json_path files hold, plus
 *   "text":  the text report as written to the log, without colors;
 *   "count": its occurrences so far;
 *   "first", "last": the numbers of its first and latest occurrence
 *            (1 for the first race of the process; the last is at most
 *            syncguard_race_count()).
 * Writes at most len bytes, the last a '\0' (nothing when len is 0);
 * returns the length of the whole text, so a return of len or more means
 * it was cut: call again with a buffer of the returned length plus one.
 * Reports of at most 1024 distinct races are kept. (Version 1.) */
size_t syncguard_races_json(unsigned long since, char *buf, size_t len);

/* Names what the program is doing now (a test and its phase, a training
 * step): each report made until the next call says it, in a line
 * "  Context: LABEL" of the text report and as "context" in JSON. The
 * label is copied (at most 255 bytes are kept); NULL or "" clears it.
 * The pytest plugin sets it to the test's node id and phase, so that even
 * a report that ends the process (mode=abort) names the test. (Version 1.) */
void syncguard_set_context(const char *label);

#ifdef __cplusplus
}
#endif

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* The table behind the C API (syncguard-api(3)): the number of race
 * occurrences so far and the reports of the distinct races, as JSON Lines,
 * for a caller that wants to know which of its stretches (a test, say)
 * raced without reading the log. preload/api.c exports it.
 *
 * The reporter thread adds entries; any thread of the program reads them.
 * Both are normal context, so a plain mutex guards the table; the fault
 * handler never comes here (it waits for the reporter, which does). */
#include "config.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/api.h"

#define MAX_RACES 1024 /* as many as report.c tells apart */

struct entry {
    char *json; /* the object without its closing '}' */
    size_t len;
    unsigned long count, first, last;
};

static struct entry entries[MAX_RACES];
static int nentries;
static unsigned long occurrences;
static pthread_mutex_t table_lock = PTHREAD_MUTEX_INITIALIZER;

static void occurred(struct entry *e)
{
    occurrences++;
    if (e) {
        e->count++;
        e->last = occurrences;
        if (e->count == 1)
            e->first = occurrences;
    }
}

int sg_api_race_first(const char *json, size_t len)
{
    char *copy = json ? malloc(len) : NULL; /* NULL: a report too big to keep */
    if (copy)
        memcpy(copy, json, len);
    pthread_mutex_lock(&table_lock);
    int h = -1;
    if (copy && nentries < MAX_RACES) {
        h = nentries++;
        entries[h] = (struct entry){ copy, len, 0, 0, 0 };
        copy = NULL;
    }
    occurred(h >= 0 ? &entries[h] : NULL);
    pthread_mutex_unlock(&table_lock);
    free(copy);
    return h;
}

void sg_api_race_again(int h)
{
    pthread_mutex_lock(&table_lock);
    occurred(h >= 0 && h < nentries ? &entries[h] : NULL);
    pthread_mutex_unlock(&table_lock);
}

void sg_api_after_fork_child(void)
{
    /* The child has only the forking thread: nobody holds the lock's
     * meaning any more, so it starts afresh (the entries' memory is the
     * child's copy, freed like any). */
    pthread_mutex_init(&table_lock, NULL);
    for (int i = 0; i < nentries; i++)
        free(entries[i].json);
    memset(entries, 0, sizeof entries);
    nentries = 0;
    occurrences = 0;
}

unsigned long sg_api_race_count(void)
{
    pthread_mutex_lock(&table_lock);
    unsigned long n = occurrences;
    pthread_mutex_unlock(&table_lock);
    return n;
}

/* Appends n bytes of s to buf as far as they fit (keeping a byte for the
 * '\0'); returns the length the whole text has so far. */
static size_t append(char *buf, size_t len, size_t used, const char *s, size_t n)
{
    if (used + 1 < len) {
        size_t room = len - 1 - used;
        memcpy(buf + used, s, n < room ? n : room);
    }
    return used + n;
}

size_t sg_api_races_json(unsigned long since, char *buf, size_t len)
{
    size_t used = 0;
    char tail[96];
    pthread_mutex_lock(&table_lock);
    for (int i = 0; i < nentries; i++) {
        const struct entry *e = &entries[i];
        if (e->last <= since)
            continue;
        int n = snprintf(tail, sizeof tail, ",\"count\":%lu,\"first\":%lu,\"last\":%lu}\n",
                         e->count, e->first, e->last);
        used = append(buf, len, used, e->json, e->len);
        used = append(buf, len, used, tail, (size_t)n);
    }
    pthread_mutex_unlock(&table_lock);
    if (len > 0)
        buf[used < len ? used : len - 1] = '\0';
    return used;
}

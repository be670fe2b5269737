/* SPDX-License-Identifier: Apache-2.0 */
/* JSON Lines output (json_path=PREFIX): a small writer that builds one
 * object in a growing buffer, and the per-process file it goes to. Normal
 * context only (it allocates): the reporter thread and the exit handler. */
#ifndef SG_REPORT_JSON_H
#define SG_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>

struct sg_json {
    char *buf;
    size_t len, cap;
    int first;  /* the next member is the first of its object or array */
    int failed; /* out of memory: the line is dropped */
};

/* Members take a key inside an object; inside an array pass key NULL. */
void sg_json_begin(struct sg_json *j);
void sg_json_open(struct sg_json *j, const char *key, char bracket); /* '{' or '[' */
void sg_json_close(struct sg_json *j, char bracket);                 /* '}' or ']' */
void sg_json_str(struct sg_json *j, const char *key, const char *s); /* NULL: null */
void sg_json_int(struct sg_json *j, const char *key, long long v);
void sg_json_bool(struct sg_json *j, const char *key, int v);
void sg_json_null(struct sg_json *j, const char *key);
void sg_json_hex(struct sg_json *j, const char *key, uintptr_t v); /* "0x..." */
/* Writes the object as one line to the json_path file (opened on first
 * use) and frees the buffer. */
void sg_json_end(struct sg_json *j);
/* The same, but the object stays open and its buffer kept: members can be
 * added for another reader (the C API's table), then sg_json_free. */
void sg_json_write_open(struct sg_json *j);
void sg_json_free(struct sg_json *j);

/* Whether json_path names a file (and it could be created, so far). */
int sg_json_enabled(void);
/* A forked child writes its own file, named with its own pid. */
void sg_json_after_fork_child(void);

#endif

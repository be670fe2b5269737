/* SPDX-License-Identifier: Apache-2.0 */
/* From a program counter to function, file:line and module+offset. */
#ifndef SG_REPORT_SYMBOLIZE_H
#define SG_REPORT_SYMBOLIZE_H

#include <stddef.h>
#include <stdint.h>

struct sg_symbol {
    char function[256]; /* "" when unknown */
    char file[512];     /* "" when unknown */
    int line;           /* 0 when unknown */
    char module[256];   /* basename of the object */
    uintptr_t module_offset;
};

/* Normal context only (allocates, may read files). pc is a return address
 * unless is_exact: the line is looked up at pc-1 so that it names the call.
 * One frame per function inlined at pc: out[0] is the
 * innermost inlined function at pc's line, each next one the function it
 * was inlined into at the call's line, the last the real function. All
 * share pc's module and offset. Returns how many were filled (1 where
 * nothing is inlined; 0 where not even the module is known). */
int sg_symbolize_inlined(uintptr_t pc, int is_exact, struct sg_symbol *out, int max);
/* Frames one pc may stand for that callers make room for. */
#define SG_MAX_INLINED 8

/* The part of path after its last '/' (path itself if none; NULL: NULL). */
const char *sg_base_name(const char *path);

/* Code from the system's or the compiler's headers (glibc's fortified
 * wrappers, intrinsics): not the line a user wants named in a summary. */
int sg_symbol_in_system_header(const struct sg_symbol *s);

/* Code of a library a program enqueues its GPU work through: the CUDA
 * driver and runtime, the CUDA libraries, the frameworks over them (the
 * list, by file name, is in symbolize.c and syncguard(7)). Where a copy
 * was made, not where the program asked for it: an enqueue site is named
 * by the first frame outside them. */
int sg_symbol_in_gpu_library(const struct sg_symbol *s);

#endif

/* SPDX-License-Identifier: Apache-2.0 */
/* Suppressions (report/suppress.c): the file's syntax and its errors, the
 * whole-name glob (*, ?, \), which frame names a pattern is matched
 * against, and which stacks each kind looks at. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/suppress.h"
#include "unit.h"

static char path[] = "/tmp/sg-unit-supp-XXXXXX";

static int load(const char *text, char *err, size_t len)
{
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text))
        return -2;
    close(fd);
    err[0] = '\0';
    int rc = sg_suppressions_load(path, err, len);
    unlink(path);
    memcpy(path + strlen(path) - 6, "XXXXXX", 6);
    return rc;
}

static struct sg_frame_names frame(const char *fn, const char *file, const char *mod)
{
    return (struct sg_frame_names){ fn, file, mod };
}

int main(void)
{
    char err[512];
    CHECK(sg_suppressions_load(NULL, err, sizeof err) == 0 && sg_suppressions_count() == 0,
          "no file: no suppressions");
    CHECK(sg_suppressions_load("/nonexistent/supp", err, sizeof err) < 0 &&
              strstr(err, "/nonexistent/supp") && strstr(err, "cannot open"),
          "a missing file is named");
    CHECK(load("early-host-raed:foo\n", err, sizeof err) < 0 && strstr(err, ":1:") &&
              strstr(err, "'early-host-raed'") &&
              strstr(err, "race, early-host-read, early-host-write, free-in-flight, "
                          "kernel-early-host-read, kernel-early-host-write, copy-overlap, "
                          "device-read-after-write, device-write-after-read, device-write-after-write, "
                          "access_site or copy_site"),
          "an unknown kind is named with its line, and the kinds listed");
    CHECK(load("# comment\n\nrace\n", err, sizeof err) < 0 && strstr(err, ":3:") &&
              strstr(err, "expected KIND:PATTERN"),
          "a line without a colon is refused with its number");
    CHECK(load("race:   \n", err, sizeof err) < 0 && strstr(err, "empty pattern"),
          "an empty pattern is refused");
    CHECK(sg_suppressions_count() == 0, "a refused file adds nothing before its bad line");

    CHECK(load("  # the file of the test\n"
               "early-host-read:read_lab*ls\n"
               "early-host-write: fill_?\n"
               "access_site:libdata.so\n"
               "copy_site:*/loader/*\n"
               "free-in-flight:lit\\*eral\n"
               "race:racy.c\n",
               err, sizeof err) == 0,
          "a good file loads");
    CHECK(sg_suppressions_count() == 6, "comments and blank lines are no suppressions");
    const struct sg_suppression *s1 = sg_suppression_get(1);
    CHECK(s1 && strcmp(s1->pattern, "fill_?") == 0 && s1->line == 3 &&
              strcmp(s1->name, "early-host-write") == 0,
          "patterns are trimmed and keep their kind's name and line");

    struct sg_frame_names none = frame("main", "/src/main.c", "app");
    struct sg_frame_names labels = frame("read_labels", "/src/io.c", "app");
    struct sg_frame_names fill1 = frame("fill_1", "/src/io.c", "app");
    struct sg_frame_names fill12 = frame("fill_12", "/src/io.c", "app");
    struct sg_frame_names lib = frame("helper", "/usr/lib/x.c", "libdata.so");
    struct sg_frame_names loader = frame("load", "/src/loader/batch.c", "app");
    struct sg_frame_names literal = frame("lit*eral", NULL, NULL);
    struct sg_frame_names literal2 = frame("litXeral", NULL, NULL);
    struct sg_frame_names racy = frame(NULL, "/home/u/racy.c", NULL);

    CHECK(sg_suppress_find(SG_RACE_EARLY_READ, &none, 1, &none, 1) == -1, "nothing matches main");
    CHECK(sg_suppress_find(SG_RACE_EARLY_READ, &labels, 1, &none, 1) == 0,
          "'*' matches within a function name (access stack)");
    CHECK(sg_suppress_find(SG_RACE_EARLY_READ, &none, 1, &labels, 1) == 0,
          "a kind's suppression looks at the enqueue stack too");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &labels, 1, &none, 1) == -1,
          "an early-host-read suppression does not apply to a write");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_SRC, &fill1, 1, &none, 1) == 1,
          "'?' matches one character; early-host-write covers H2D sources");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &fill1, 1, &none, 1) == 1,
          "early-host-write covers D2H destinations");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &fill12, 1, &none, 1) == -1,
          "'?' matches exactly one character: the whole name must match");
    CHECK(sg_suppress_find(SG_RACE_EARLY_READ, &lib, 1, &none, 1) == 2,
          "access_site matches the access stack, by module name");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &none, 1, &lib, 1) == -1,
          "access_site does not look at the enqueue stack");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &none, 1, &loader, 1) == 3,
          "copy_site matches the enqueue stack, '*' across '/' in a path");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_DST, &loader, 1, &none, 1) == -1,
          "copy_site does not look at the access stack");
    CHECK(sg_suppress_find(SG_RACE_FREE_IN_FLIGHT, &literal, 1, &none, 1) == 4,
          "'\\*' matches a literal '*'");
    CHECK(sg_suppress_find(SG_RACE_FREE_IN_FLIGHT, &literal2, 1, &none, 1) == -1,
          "'\\*' matches nothing else");
    CHECK(sg_suppress_find(SG_RACE_EARLY_WRITE_SRC, &none, 1, &racy, 1) == 5,
          "race applies to every kind; a file's base name matches");

    struct sg_frame_names stack[2] = { none, labels };
    CHECK(sg_suppress_find(SG_RACE_EARLY_READ, stack, 2, &none, 1) == 0,
          "any frame of a stack may match");

    sg_suppress_hit(0);
    sg_suppress_hit(0);
    CHECK(sg_suppression_get(0)->hits == 2, "hits are counted");
    sg_suppressions_reset_hits();
    CHECK(sg_suppression_get(0)->hits == 0, "and start again from zero in a child");
    return unit_done();
}

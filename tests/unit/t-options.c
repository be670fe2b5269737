/* SPDX-License-Identifier: Apache-2.0 */
/* Option parsing (base/options.c): defaults, the separators, each type,
 * ranges, and an error message that names the culprit. */
#include <string.h>

#include "base/options.h"
#include "unit.h"

static int parse(const char *text, struct sg_options *o, char *err, size_t len)
{
    err[0] = '\0';
    return sg_options_parse(text, o, err, len);
}

int main(void)
{
    struct sg_options o;
    char err[512];

    CHECK(parse(NULL, &o, err, sizeof err) == 0, "no SYNCGUARD_OPTIONS is fine");
    CHECK(o.mode == SG_MODE_REPORT && o.exitcode == 66 && o.max_pending == 16384 &&
              o.verbosity == 0 && strcmp(o.log_path, "stderr") == 0,
          "the defaults of options.def");

    CHECK(parse("mode=abort:exitcode=3 verbosity=2,max_frames=64", &o, err, sizeof err) == 0,
          "':', ' ' and ',' all separate options");
    CHECK(o.mode == SG_MODE_ABORT && o.exitcode == 3 && o.verbosity == 2 && o.max_frames == 64,
          "each option took its value");

    CHECK(parse("mode=sync", &o, err, sizeof err) == 0 && o.mode == SG_MODE_SYNC &&
              o.exitcode == 66,
          "each parse starts again from the defaults");

    CHECK(parse("halt_on_error=yes", &o, err, sizeof err) == 0 && o.halt_on_error == 1,
          "a boolean takes yes");
    CHECK(parse("halt_on_error=off", &o, err, sizeof err) == 0 && o.halt_on_error == 0,
          "a boolean takes off");
    CHECK(parse("halt_on_error=2", &o, err, sizeof err) < 0 && strstr(err, "halt_on_error") &&
              strstr(err, "'2'"),
          "a bad boolean is refused, naming option and value");

    CHECK(parse("max_pending=16", &o, err, sizeof err) == 0 && o.max_pending == 16,
          "an integer at its lower bound");
    CHECK(parse("max_pending=1048576", &o, err, sizeof err) == 0 && o.max_pending == 1048576,
          "an integer at its upper bound");
    CHECK(parse("max_pending=15", &o, err, sizeof err) < 0 && strstr(err, "max_pending") &&
              strstr(err, "16..1048576"),
          "an integer below its range is refused, naming the range");
    CHECK(parse("verbosity=4", &o, err, sizeof err) < 0 && strstr(err, "0..3"),
          "an integer above its range is refused");
    CHECK(parse("exitcode=0x10", &o, err, sizeof err) == 0 && o.exitcode == 16,
          "integers may be hexadecimal");
    CHECK(parse("exitcode=12abc", &o, err, sizeof err) < 0 && strstr(err, "12abc"),
          "trailing garbage after an integer is refused");

    CHECK(parse("mode=loud", &o, err, sizeof err) < 0 && strstr(err, "'loud'") &&
              strstr(err, "report|abort|sync"),
          "a bad choice is refused, listing the choices");
    CHECK(parse("colour=never", &o, err, sizeof err) < 0 && strstr(err, "unknown option 'colour'"),
          "an unknown key is named");
    CHECK(parse("mode", &o, err, sizeof err) < 0 && strstr(err, "malformed option 'mode'"),
          "a key without a value is refused");
    CHECK(parse("log_path=/tmp/sg.%p:json_path=out", &o, err, sizeof err) == 0 &&
              strcmp(o.log_path, "/tmp/sg.%p") == 0 && strcmp(o.json_path, "out") == 0,
          "strings keep their value");
    return unit_done();
}

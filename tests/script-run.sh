#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Runs a self-checking test script (automake's SH and PY LOG_COMPILER):
# "script-run.sh INTERPRETER SCRIPT". Under qemu-user (SG_QEMU set: the
# programs are another machine's) the scripts are a skip with the reason:
# they start test programs, the launcher and the report tools themselves,
# as host programs, which only a binfmt_misc registration of qemu would
# make work (CI containers have none).
if [ -n "${SG_QEMU:-}" ]; then
    echo "SKIP: $(basename "$2"): starts the test programs itself (no binfmt_misc under qemu-user)"
    exit 77
fi
exec "$@"

# SPDX-License-Identifier: Apache-2.0
# The launcher (tools/syncguard), run as a user would: flags, errors and a
# racy program through it. Included from tests/Makefile.am; paths relative
# to tests/.
TESTS += tools/t-launcher.sh
EXTRA_DIST += tools/t-launcher.sh

# The floors of libsyncguard: no upward include or symbol, no circle.
TESTS += tools/t-layers.sh
EXTRA_DIST += tools/t-layers.sh

# libsyncguard.so exports its floors' SG_EXPORT definitions, all and only
# them (and needs glibc alone in a --enable-static-deps build).
TESTS += tools/t-exports.sh
EXTRA_DIST += tools/t-exports.sh

# The option documentation: syncguard(7)'s option list and docs/options.md
# are what tools/gen-options-doc makes of src/base/options.def, and help=1
# prints the same descriptions.
TESTS += tools/t-options-doc.py
EXTRA_DIST += tools/t-options-doc.py

# No source file of the library over 450 lines.
TESTS += tools/t-file-size.sh
EXTRA_DIST += tools/t-file-size.sh

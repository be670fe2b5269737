# The launcher (tools/syncguard), run as a user would: flags, errors and a
# racy program through it. Included from tests/Makefile.am; paths relative
# to tests/.
TESTS += tools/t-launcher.sh
EXTRA_DIST += tools/t-launcher.sh

# SPDX-License-Identifier: Apache-2.0
"""`syncguard [options] -- command` and `python -m syncguard ...`.

The console script and `python -m syncguard` run the launcher (the same
shell script `make install` installs, see syncguard(1)) with SYNCGUARD_LIB
naming the bundled library, unless SYNCGUARD_LIB is already set (the
launcher documents it as the library to preload). The launcher replaces
this process with the command, so its exit status is the command's.
"""

import os
import sys

from ._locate import NotBundled, launcher_path, library_path


def main(argv=None):
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        launcher = launcher_path()
        if not os.environ.get("SYNCGUARD_LIB"):
            os.environ["SYNCGUARD_LIB"] = library_path()
    except NotBundled as e:
        sys.stderr.write("syncguard: %s\n" % e)
        return 127
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv("/bin/sh", ["/bin/sh", launcher] + args)


if __name__ == "__main__":
    sys.exit(main())

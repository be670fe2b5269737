# SPDX-License-Identifier: Apache-2.0
"""The syncguard-report console script: tools/syncguard-report, bundled by
make wheel as syncguard._report (see syncguard-report(1))."""

import sys


def main(argv=None):
    from . import _report

    return _report.main(sys.argv[1:] if argv is None else list(argv))


if __name__ == "__main__":
    sys.exit(main())

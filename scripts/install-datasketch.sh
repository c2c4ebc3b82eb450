#!/usr/bin/env bash
# datasketch 2.0.0 from PyPI (numpy and scipy come with it): the independent reference of the
# --scheme datasketch-* tests (test/signatures/datasketch.test.ts, test/math/mt19937.test.ts) and the
# runtime of the README's Python example. Idempotent: installs only what is missing.
set -euo pipefail

if ! python3 -c 'import datasketch, sys; sys.exit(datasketch.__version__ != "2.0.0")' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'datasketch==2.0.0'
fi
python3 -c 'import datasketch, numpy; print("datasketch", datasketch.__version__, "numpy", numpy.__version__)'

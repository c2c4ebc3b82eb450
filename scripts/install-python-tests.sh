#!/usr/bin/env bash
# Python packages the tests check gpudedup against: pyarrow, the independent Parquet reader and writer of the
# round-trip suite (test/formats/roundTrip.test.ts); pydivsufsort, the independent suffix array of the
# substrings suite (test/substrings/suffixArray.test.ts). Idempotent: installs only what is missing.
set -euo pipefail

if ! python3 -c 'import pyarrow' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'pyarrow==26.0.1'
fi
python3 -c 'import pyarrow; print("pyarrow", pyarrow.__version__)'

if ! python3 -c 'import pydivsufsort, numpy' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'pydivsufsort==0.0.20'
fi
python3 -c 'import pydivsufsort, numpy; print("pydivsufsort", "numpy", numpy.__version__)'

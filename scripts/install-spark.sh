#!/usr/bin/env bash
# Spark for the `gpudedup cluster --engine spark` tests: PySpark from PyPI (Spark's jars come inside the
# wheel) in local mode on Java 17. Idempotent: installs only what is missing.
set -euo pipefail

if ! command -v java >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless
fi
if ! python3 -c 'import pyspark' >/dev/null 2>&1; then
  python3 -m pip install --quiet --disable-pip-version-check 'pyspark==4.3.0'
fi
python3 -c 'import pyspark; print("pyspark", pyspark.__version__)'

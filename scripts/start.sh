#!/usr/bin/env bash
# Set up and start the app on the offline engine (no key, no network needed). Open http://localhost:8501
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -r requirements.txt
# the local model for LLM_PROVIDER=local (1.1 GB from PyPI, verified, skipped when there); the offline engine
# needs none of it, so the app starts without it
python3 -m memory_bank fetch-model || echo "the local model could not be fetched: the local LLM provider is unavailable" >&2
# the embedding model as ONNX (exported from the verified package, no download); without it PyTorch embeds
python3 -m memory_bank prepare-embedder || echo "the ONNX embedding model could not be prepared: PyTorch will embed" >&2
# OCR for images is optional; install it when we can (root on Debian), carry on without it otherwise.
if ! command -v tesseract >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tesseract-ocr) \
    || echo "tesseract-ocr could not be installed: images will be stored without OCR" >&2
fi
exec python3 -m streamlit run app.py "$@"

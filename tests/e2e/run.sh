#!/usr/bin/env bash
# The browser tests: headless Chromium drives the app served by the release
# binary (build it first: cargo build --release -p brett; or set BRETT_BIN).
# Needs node (>= 20) and Debian's chromium (apt-get install -y chromium).
# E2E_WEB_DIR=$PWD/web: the pages load web/'s scripts and styles from disk instead of the
# binary's embedded copy (to try a UI change without a rebuild; check with a rebuild at the end).
# E2E_CONCURRENCY: how many test files run at once (default 2; each file starts its own
# server with its own database, and its own browser).
set -euo pipefail
# A relative BRETT_BIN means relative to where the script was started.
if [ -n "${BRETT_BIN:-}" ]; then BRETT_BIN="$(realpath -m "$BRETT_BIN")"; export BRETT_BIN; fi
cd "$(dirname "$0")"
CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM" ]; then
  echo "tests/e2e: no Chromium at $CHROMIUM (apt-get install -y chromium, or set CHROMIUM)" >&2
  exit 1
fi
if [ ! -d node_modules/playwright-core ]; then
  npm ci --no-audit --no-fund
fi
mkdir -p artifacts
exec node --test --test-concurrency="${E2E_CONCURRENCY:-2}" .

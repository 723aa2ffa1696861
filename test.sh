#!/usr/bin/env bash
# Runs all tests: the Rust workspace and the browser tests (headless Chromium).
# Installs what the browser tests need when it is missing (Debian's chromium
# via apt-get when run as root; playwright-core via npm ci).
set -euo pipefail
cd "$(dirname "$0")"

# The `ci` profile is release without LTO (see Cargo.toml): fast to build.
echo "== Rust tests (cargo test --workspace --profile ci)"
cargo test --workspace --profile ci

echo "== browser tests (tests/e2e)"
if [ ! -x "${CHROMIUM:-/usr/bin/chromium}" ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "test.sh: the browser tests need Chromium: apt-get install -y chromium" >&2
    exit 1
  fi
fi
cargo build --profile ci -p brett
BRETT_BIN="${CARGO_TARGET_DIR:-$PWD/target}/ci/brett" tests/e2e/run.sh

#!/usr/bin/env bash
# Runs all tests: the Rust workspace (with a throw-away PostgreSQL server
# for the storage tests) and the browser tests (headless Chromium).
# Installs what is missing: Debian's postgresql and chromium via apt-get when
# run as root; playwright-core via npm ci.
set -euo pipefail
cd "$(dirname "$0")"

# PostgreSQL in a temporary folder, stopped and removed when this script
# exits; exports BRETT_TEST_POSTGRES and BRETT_REQUIRE_POSTGRES=1.
source tests/pg/start.sh

# The `ci` profile is release without LTO (see Cargo.toml): fast to build.
# The examples are not built here (clippy --all-targets in .ci/run checks
# them; the load benchmark below builds its own).
echo "== Rust tests (cargo test --workspace --profile ci --tests, then --doc)"
cargo test --workspace --profile ci --tests
cargo test --workspace --profile ci --doc

echo "== the API tests again, every test server on PostgreSQL (BRETT_TEST_BACKEND=postgres)"
BRETT_TEST_BACKEND=postgres cargo test --profile ci -p server --test integration -- api:: dame:: clocks::

echo "== load benchmark, a short run of each (figures of the full runs: docs/INSTANCES.md)"
# roundtrip on SQLite and across two PostgreSQL instances; kill fails when an
# acknowledged move is missing after the kills.
cargo run --profile ci -q -p server --example load -- roundtrip --games 50 --rate 100 --plies 10 --saturation-plies 10
cargo run --profile ci -q -p server --example load -- roundtrip --database "$BRETT_TEST_POSTGRES" --instances 2 --games 50 --rate 100 --plies 10 --saturation-plies 10
cargo run --profile ci -q -p server --example load -- kill --database "$BRETT_TEST_POSTGRES" --games 40 --rate 80 --seconds 12 --kill-every 4
# clocks fails when a flag falls before its deadline.
cargo run --profile ci -q -p server --example load -- clocks --games 50 --idle 200 --idle-seconds 2

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

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
# them), but for the load benchmark below.
echo "== Rust tests (cargo test --workspace --profile ci --tests, then --doc)"
cargo test --workspace --profile ci --tests
cargo test --workspace --profile ci --doc

echo "== the API tests again, every test server on PostgreSQL (BRETT_TEST_BACKEND=postgres)"
# (The other crates' test binaries named `integration` hold no test of these
# modules; they start and find nothing to run.)
BRETT_TEST_BACKEND=postgres cargo test --workspace --profile ci --test integration -- api:: dame:: clocks::

# Every build here names the workspace and a target that uses the
# dev-dependencies, as `cargo test --workspace` does: the crates' features
# come out the same, so nothing is built twice (`-p server` alone would
# build the engine, the server and brett again with other features).
cargo build --workspace --profile ci --example load --bin brett
TARGET="${CARGO_TARGET_DIR:-$PWD/target}/ci"

echo "== load benchmark, a short run of each (figures of the full runs: docs/INSTANCES.md)"
# roundtrip on SQLite and across two PostgreSQL instances; kill fails when an
# acknowledged move is missing after the kills.
"$TARGET/examples/load" roundtrip --games 50 --rate 100 --plies 10 --saturation-plies 10
"$TARGET/examples/load" roundtrip --database "$BRETT_TEST_POSTGRES" --instances 2 --games 50 --rate 100 --plies 10 --saturation-plies 10
"$TARGET/examples/load" kill --database "$BRETT_TEST_POSTGRES" --games 40 --rate 80 --seconds 12 --kill-every 4
# clocks fails when a flag falls before its deadline.
"$TARGET/examples/load" clocks --games 50 --idle 200 --idle-seconds 2

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
BRETT_BIN="$TARGET/brett" tests/e2e/run.sh

#!/usr/bin/env bash
# Fuzz TARGET in chunks of 1 M inputs until N chunks (default 10) have ended
# without a failure. Resumable: the corpus (corpus/TARGET) persists and the
# chunks done are counted in LOGDIR/TARGET.chunks, one line each with
# libFuzzer's count of executed inputs. A failing chunk stops the loop and
# keeps its output in LOGDIR/TARGET.fail.<time>.
#
#   fuzz/run-chunks.sh api_requests [N] [LOGDIR]
#
# Runs on a stable toolchain (RUSTC_BOOTSTRAP=1) without a sanitizer (-s
# none: the server targets are safe Rust and run several times faster).
set -u
T=$1
N=${2:-10}
LOGDIR=${3:-$PWD/fuzz-chunks}
cd "$(dirname "$0")"
mkdir -p "$LOGDIR" "corpus/$T"
LOG=$LOGDIR/$T.chunks
touch "$LOG"
while [ "$(grep -c '^done' "$LOG")" -lt "$N" ]; do
  RUSTC_BOOTSTRAP=1 cargo fuzz run -s none "$T" "corpus/$T" "seeds/$T" -- \
    -runs=1000000 -print_final_stats=1 -rss_limit_mb=4096 > "$LOGDIR/$T.last" 2>&1
  rc=$?
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$LOGDIR/$T.last" | grep -o '[0-9]*$')
  if [ $rc -eq 0 ]; then
    echo "done $(date -Is) runs=$runs" >> "$LOG"
  else
    echo "FAIL rc=$rc $(date -Is) runs=$runs" >> "$LOG"
    cp "$LOGDIR/$T.last" "$LOGDIR/$T.fail.$(date +%s)"
    exit 1
  fi
done

#!/usr/bin/env bash
# Runs one libFuzzer target of rote-fuzz (built by `make fuzz-build` into .build/fuzz, or
# by `make fuzz-smoke` into .build/debug, which passes ROTE_FUZZ_BINARY).
#   Fuzz/run.sh TARGET [libFuzzer options…]   e.g. Fuzz/run.sh yaml-block -runs=1000000
# The committed seeds in Fuzz/corpus/TARGET are read, never written; inputs the fuzzer finds
# go to .build/fuzz/corpus/TARGET, crashes to .build/fuzz/crashes/. Prints one summary line:
#   fuzz TARGET: N executions in S s, no crash
set -euo pipefail
cd "$(dirname "$0")/.."
target=$1; shift
binary=${ROTE_FUZZ_BINARY:-.build/fuzz/release/rote-fuzz}
[ -x "$binary" ] || { echo "no $binary: run make fuzz-build (or make fuzz-smoke) first" >&2; exit 1; }
work=.build/fuzz/corpus/$target
mkdir -p "$work" .build/fuzz/crashes
log=.build/fuzz/$target.log
# The importers unpack into temporary files: in memory where the machine has /dev/shm.
if [ -d /dev/shm ] && [ -w /dev/shm ]; then export TMPDIR=/dev/shm; fi
start=$(date +%s)
# -timeout: an input that takes 10 s is a hang. -rss_limit_mb: a leak or a blow-up is a failure.
# SWIFT_BACKTRACE: the Swift runtime's backtracer would take the crash from libFuzzer, which
# then could not save the input.
if ! SWIFT_BACKTRACE=enable=no ROTE_FUZZ_TARGET=$target "$binary" "$work" "Fuzz/corpus/$target" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix=.build/fuzz/crashes/$target- -print_final_stats=1 "$@" >"$log" 2>&1; then
    echo "fuzz $target: FAILED — see $log; the input is in .build/fuzz/crashes/" >&2
    grep -E "property failed|Fatal error|ERROR: libFuzzer|SUMMARY" "$log" | head -5 >&2
    exit 1
fi
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
echo "fuzz $target: ${runs:-?} executions in $(( $(date +%s) - start )) s, no crash"

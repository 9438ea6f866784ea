#!/usr/bin/env bash
# Replay speed against py-fsrs 6.3.2, and a check that both compute the same results.
#
#   Benchmarks/bench.sh            # 50 000 entries, 1 000 000 reviews; py-fsrs on 50 000
#
# Builds rote-bench in release, generates a deterministic library of histories (Swift, from a
# seed) and writes it as JSON lines; py-fsrs (in a throwaway virtualenv, .build/bench-venv)
# replays the first 50 000 reviews' worth and compares its states with Rote's; rote-bench then
# prints one table: rote (median of 5 runs) | py-fsrs (median of 3) | ratio. Times are
# printed, never asserted.
#
# Environment: ENTRIES, REVIEWS, SUBSET_REVIEWS, ROTE_RUNS, PY_RUNS, SEED change the sizes;
# PACKAGE_PATH builds another checkout (default: this script's package).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
package=${PACKAGE_PATH:-$(cd "$here/.." && pwd)}
entries=${ENTRIES:-50000}
reviews=${REVIEWS:-1000000}
subset=${SUBSET_REVIEWS:-50000}
rote_runs=${ROTE_RUNS:-5}
py_runs=${PY_RUNS:-3}
seed=${SEED:-20261121}

venv="$package/.build/bench-venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
"$venv/bin/pip" install --quiet --disable-pip-version-check fsrs==6.3.2

swift build -c release --product rote-bench --package-path "$package" >&2
bench="$(swift build -c release --show-bin-path --package-path "$package")/rote-bench"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sizes=(--entries "$entries" --reviews "$reviews" --seed "$seed" --subset-reviews "$subset")
"$bench" replay "${sizes[@]}" --export "$work" >&2
# A mismatch exits non-zero but still writes its summary, which the table below reports.
"$venv/bin/python" "$here/pyfsrs_replay.py" --histories "$work/histories.jsonl" \
    --rote "$work/rote-subset.jsonl" --subset-reviews "$subset" --runs "$py_runs" \
    --out "$work/reference.json" >&2 || [ -s "$work/reference.json" ]
"$bench" replay "${sizes[@]}" --runs "$rote_runs" --reference "$work/reference.json"

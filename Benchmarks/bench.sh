#!/usr/bin/env bash
# Rote's benchmarks, each printed as one table: measurement | rote | reference | ratio. Times
# are printed, never asserted.
#
#   Benchmarks/bench.sh                        # every benchmark at the default sizes
#   BENCHES="merge commit" Benchmarks/bench.sh # only some of them
#
# replay  FSRS replay against py-fsrs 6.3.2, and a check that both compute the same results.
#         rote-bench generates 50 000 histories (2 000 000 reviews, as many as the library
#         holds) from a seed and writes them as JSON lines; py-fsrs (in a throwaway
#         virtualenv, .build/bench-venv) replays the first 50 000 reviews' worth and compares
#         its states with Rote's.
# merge   Two branches of a generated library each add a review to 10 000 progress files,
#         5 000 of them on both: merged in process (libgit2 + Rote's drivers, as `rote sync`)
#         against the system `git merge` running `rote merge-driver` once per file changed on
#         both sides (and with a no-op driver, git's own share); the merged trees are compared.
# commit  A 200-review study session committed with LibraryGit.commitSession against `git add`
#         + `git commit` in a copy of the same repository (trees compared); and the same files
#         found in the work tree, LibraryGit.commitPending against `git add -A` + `git commit`.
# launch  Opening the library through the launch index cache (.git/rote/): cold (full load,
#         index built), warm (cached index, stat check beside it), after 100 changed progress
#         files, and in a fresh process with its peak memory; reading every file's bytes is
#         the floor beside the cold launch, and Anki (the `anki` package, in .build/anki-venv;
#         ANKI=none skips it) opening a collection of the same cards and counting what is due
#         is the reference beside the warm one (Benchmarks/anki_due.py); lookups per second.
# commands  Every command a user runs (show, history, lookup, list, stats, review, suspend,
#         ignore, activate, reset, study --plan, check, export, sync), each a fresh process from
#         start to exit on a clone of the library, beside `git status --porcelain` in the same
#         runs: "every command at 100k", median wall time and peak memory (COMMAND_RUNS, 5).
# optimize  Fitting FSRS-6's parameters (`rote optimize`) against fsrs-rs 6.6 (fsrs-rs-python
#         0.9.3, the optimizer inside Anki, in a throwaway virtualenv, .build/fsrs-venv), on the
#         histories of a simulated learner whose memory follows FSRS-6 with parameters far from
#         the defaults: OPTIMIZE_SIZES cards:reviews (1000:30000, 5000:150000, 20000:500000).
#         Both fits are timed from items in memory (medians of OPTIMIZE_RUNS, 3), and both
#         parameter sets are scored by fsrs-rs's own evaluate (Benchmarks/fsrs_optimize.py).
# serve   `rote serve` on a clone of the library: every API call behind a page, server side
#         (its Server-Timing header, goal ≤ 50 ms), the first render of Today in headless
#         Chromium (≤ 1 s) and the server's peak memory (≤ 200 MB), by Benchmarks/serve_bench.py
#         in the browser tests' virtualenv (.build/browser-venv); SERVE_RUNS (5).
# simulate  The workload simulator (`rote simulate`) against fsrs-rs's (fsrs-rs-python 0.9.3,
#         .build/fsrs-venv) on fsrs-rs's default simulator settings and parameters: one simulated
#         year (median of SIMULATE_RUNS, 5), the optimal-retention search (median of
#         OPTIMAL_RUNS, 3), and what each gives: the memorised count (mean of 10 seeds) and the
#         retention (Benchmarks/fsrs_simulate.py). SIMULATE_DECK, SIMULATE_NEW, SIMULATE_REVIEWS
#         and SIMULATE_MAX_COST change the settings.
# trace   Scoring one tracing attempt (LetterTracing), goal ≤ 5 ms.
#
# The git benchmarks use a library made by `rote-bench generate` from SEED in
# .build/bench-libraries/ (reused when present; about 3 minutes to make at the default size):
# LIB_ENTRIES vocabulary entries (100 000), LIB_PROGRESS progress files (50 000) holding
# LIB_REVIEWS reviews (2 000 000) over ten simulated years, LIB_SESSIONS sessions (5 000).
# Smaller sizes show how the costs grow, e.g. LIB_ENTRIES=10000 LIB_PROGRESS=5000
# LIB_REVIEWS=200000 LIB_SESSIONS=500 MERGE_CHANGED=2000.
#
# Environment: ENTRIES, REVIEWS, SUBSET_REVIEWS, ROTE_RUNS, PY_RUNS (replay); LIB_* and SEED
# (the library); MERGE_CHANGED (10000), MERGE_RUNS (3), MERGE_REFERENCE (full; sample
# estimates the full-size reference from a one-file merge, for a slow driver; none skips git),
# MERGE_REFERENCE_RUNS (1), MERGE_SAMPLE (1), MERGE_SYNC_RUNS (0; 1 adds the row "all rote sync
# does", about 6 minutes a run at the default size); COMMIT_REVIEWS (200), COMMIT_RUNS (5);
# LAUNCH_RUNS (3), LOOKUPS (2000000); OPTIMIZE_SIZES, OPTIMIZE_RUNS (3); PACKAGE_PATH builds
# another checkout (default: this script's package).
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
package=${PACKAGE_PATH:-$(cd "$here/.." && pwd)}
benches=${BENCHES:-replay merge commit launch commands optimize simulate serve trace}
seed=${SEED:-20261121}

want() { [[ " $benches " == *" $1 "* ]]; }

# Static like `make release`, so the bench, the package and `make install` share one build.
swift build -c release --static-swift-stdlib --product rote-bench --package-path "$package" >&2
bin="$(swift build -c release --show-bin-path --package-path "$package")"
bench="$bin/rote-bench"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if want replay; then
    entries=${ENTRIES:-50000}
    reviews=${REVIEWS:-2000000}
    subset=${SUBSET_REVIEWS:-50000}
    rote_runs=${ROTE_RUNS:-5}
    py_runs=${PY_RUNS:-3}
    venv="$package/.build/bench-venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check fsrs==6.3.2

    sizes=(--entries "$entries" --reviews "$reviews" --seed "$seed" --subset-reviews "$subset")
    "$bench" replay "${sizes[@]}" --export "$work" >&2
    # A mismatch exits non-zero but still writes its summary, which the table below reports.
    "$venv/bin/python" "$here/pyfsrs_replay.py" --histories "$work/histories.jsonl" \
        --rote "$work/rote-subset.jsonl" --subset-reviews "$subset" --runs "$py_runs" \
        --out "$work/reference.json" >&2 || [ -s "$work/reference.json" ]
    "$bench" replay "${sizes[@]}" --runs "$rote_runs" --reference "$work/reference.json"
fi

if want merge || want commit || want launch || want commands || want serve; then
    # `rote merge-driver` is what git runs in the merge reference.
    swift build -c release --static-swift-stdlib --product rote --package-path "$package" >&2
    lib_entries=${LIB_ENTRIES:-100000}
    lib_progress=${LIB_PROGRESS:-50000}
    lib_reviews=${LIB_REVIEWS:-2000000}
    lib_sessions=${LIB_SESSIONS:-5000}
    libraries="$package/.build/bench-libraries"
    library="$libraries/lib-e$lib_entries-p$lib_progress-r$lib_reviews-s$lib_sessions-seed$seed"
    if [ ! -d "$library" ]; then
        mkdir -p "$libraries"
        "$bench" generate --out "$library" --entries "$lib_entries" --progress "$lib_progress" \
            --reviews "$lib_reviews" --sessions "$lib_sessions" --seed "$seed" >&2
    fi
    clones="$package/.build/bench-work"
    mkdir -p "$clones"
fi

if want merge; then
    echo
    "$bench" merge --library "$library" --work "$clones" --rote "$bin/rote" --seed "$seed" \
        --changed "${MERGE_CHANGED:-10000}" --runs "${MERGE_RUNS:-3}" \
        --reference "${MERGE_REFERENCE:-full}" --reference-runs "${MERGE_REFERENCE_RUNS:-1}" \
        --sample "${MERGE_SAMPLE:-1}" --sync-runs "${MERGE_SYNC_RUNS:-0}"
fi

if want commit; then
    echo
    "$bench" commit --library "$library" --work "$clones" --seed "$seed" \
        --reviews "${COMMIT_REVIEWS:-200}" --runs "${COMMIT_RUNS:-5}"
fi

if want launch; then
    echo
    # Anki (the `anki` package, in a throwaway virtualenv) opening a collection of the same
    # cards and counting what is due, beside the warm launch; ANKI=none skips it.
    anki_args=()
    if [ "${ANKI:-}" != none ]; then
        anki_venv="$package/.build/anki-venv"
        if [ ! -x "$anki_venv/bin/python" ] || ! "$anki_venv/bin/python" -c "import anki" 2>/dev/null; then
            python3 -m venv "$anki_venv" && "$anki_venv/bin/pip" install -q "anki==26.9.3" >&2 || echo "bench: could not install anki; the Anki row is skipped" >&2
        fi
        if "$anki_venv/bin/python" -c "import anki" 2>/dev/null; then anki_args=(--anki-python "$anki_venv/bin/python"); fi
    fi
    "$bench" launch --library "$library" --runs "${LAUNCH_RUNS:-3}" --lookups "${LOOKUPS:-2000000}" "${anki_args[@]}"
fi

if want commands; then
    echo
    "$bench" commands --library "$library" --rote "$bin/rote" --runs "${COMMAND_RUNS:-5}" --work "$clones"
fi

if want serve; then
    echo
    browser_venv="$package/.build/browser-venv"
    if ! "$browser_venv/bin/python" -c "import selenium" 2>/dev/null; then
        python3 -m venv "$browser_venv" && "$browser_venv/bin/pip" install -q "selenium==4.51.0" >&2
    fi
    "$browser_venv/bin/python" "$here/serve_bench.py" --library "$library" --rote "$bin/rote" --runs "${SERVE_RUNS:-5}" --work "$clones"
fi

if want trace; then
    echo
    "$bench" trace
fi

if want optimize; then
    echo
    venv="$package/.build/fsrs-venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check fsrs-rs-python==0.9.3
    runs=${OPTIMIZE_RUNS:-3}
    "$bench" optimize --export "$work/optimize" --sizes "${OPTIMIZE_SIZES:-1000:30000,5000:150000,20000:500000}" \
        --runs "$runs" --seed "$seed" >&2
    "$venv/bin/python" "$here/fsrs_optimize.py" --dir "$work/optimize" --runs "$runs" --out "$work/optimize/reference.json" >&2
    "$bench" optimize --results "$work/optimize/rote.json" --reference "$work/optimize/reference.json"
fi

if want simulate; then
    echo
    venv="$package/.build/fsrs-venv"
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install --quiet --disable-pip-version-check fsrs-rs-python==0.9.3
    # fsrs-rs's default simulator settings (10 000 cards, no daily limits, 30 minutes a day).
    sim=(--deck-size "${SIMULATE_DECK:-10000}" --learn-limit "${SIMULATE_NEW:-9223372036854775807}"
        --review-limit "${SIMULATE_REVIEWS:-9223372036854775807}" --max-cost "${SIMULATE_MAX_COST:-1800}")
    defaults=$("$venv/bin/python" -c "from fsrs_rs_python import DEFAULT_PARAMETERS as w; print(','.join(repr(float(x)) for x in w))")
    "$venv/bin/python" "$here/fsrs_simulate.py" "${sim[@]}" --parameters "$defaults" \
        --runs "${SIMULATE_RUNS:-5}" --optimal-runs "${OPTIMAL_RUNS:-3}" --out "$work/simulate.json" >&2
    "$bench" simulate "${sim[@]}" --runs "${SIMULATE_RUNS:-5}" --optimal-runs "${OPTIMAL_RUNS:-3}" \
        --reference "$work/simulate.json"
fi

"""fsrs-rs (fsrs-rs-python 0.9.3, the optimizer inside Anki) on the histories rote-bench
simulated: fits each size, times the fit, and scores fsrs-rs's and Rote's parameters with
fsrs-rs's own evaluate. Writes one JSON file for `rote-bench optimize --results … --reference`.

Items are built exactly as Rote builds them (Sources/Scheduling/Optimizer/FSRSDataset.swift):
per history, delta_t is the whole 24-hour periods since the previous review (floored), every
review with delta_t > 0 after the first is an item holding the reviews up to it, and items are
ordered by the time of that review, then history, then position. The script checks the
conversion by comparing its item count with Rote's.

    python fsrs_optimize.py --dir DIR [--runs 3] [--out reference.json]
"""

import argparse
import calendar
import json
import os
import sys
import time

from fsrs_rs_python import FSRS, FSRSItem, FSRSReview, DEFAULT_PARAMETERS


def seconds(text):
    # "2026-01-01T09:12:25Z", whole seconds, as rote-bench writes them.
    return calendar.timegm(time.strptime(text, "%Y-%m-%dT%H:%M:%SZ"))


def items_from(path):
    """FSRSItems and their card ids, in Rote's order."""
    keyed = []
    with open(path) as lines:
        for card, line in enumerate(lines):
            if not line.strip():
                continue
            reviews = json.loads(line)["reviews"]
            times = [seconds(r["at"]) for r in reviews]
            ratings = [int(r["rating"]) for r in reviews]
            deltas = [0] + [max(0, (times[i] - times[i - 1]) // 86400) for i in range(1, len(times))]
            for i in range(1, len(times)):
                if deltas[i] > 0:
                    keyed.append((times[i], card, i, ratings[: i + 1], deltas[: i + 1]))
    keyed.sort(key=lambda k: (k[0], k[1], k[2]))
    items = [FSRSItem([FSRSReview(r, d) for r, d in zip(k[3], k[4])]) for k in keyed]
    return items, [k[1] for k in keyed]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dir", required=True)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out")
    args = parser.parse_args()
    rote = json.load(open(os.path.join(args.dir, "rote.json")))
    truth = json.load(open(os.path.join(args.dir, "truth.json")))
    sizes = []
    for result in rote:
        items, card_ids = items_from(os.path.join(args.dir, result["name"] + ".jsonl"))
        if len(items) != result["items"]:
            print(f"{result['name']}: {len(items)} items here but {result['items']} in Rote: the conversions differ", file=sys.stderr)
            sys.exit(1)
        fsrs = FSRS(DEFAULT_PARAMETERS)
        times, parameters = [], None
        for _ in range(args.runs):
            start = time.perf_counter()
            parameters = fsrs.compute_parameters(items)
            times.append(time.perf_counter() - start)
        start = time.perf_counter()
        fsrs.compute_parameters(items, card_ids=card_ids)
        card_ids_seconds = time.perf_counter() - start
        times.sort()
        median = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2

        def score(w):
            evaluation = FSRS(w).evaluate(items)
            return evaluation.log_loss, evaluation.rmse_bins

        fsrs_loss, fsrs_rmse = score(parameters)
        rote_loss, rote_rmse = score(result["parameters"])
        truth_loss, truth_rmse = score(truth)
        sizes.append({
            "name": result["name"], "items": len(items),
            "fsrs_rs_parameters": [float(w) for w in parameters],
            "fsrs_rs_fit_seconds": median, "fsrs_rs_card_ids_fit_seconds": card_ids_seconds,
            "fsrs_rs_log_loss": fsrs_loss, "fsrs_rs_rmse_bins": fsrs_rmse,
            "rote_log_loss": rote_loss, "rote_rmse_bins": rote_rmse,
            "truth_log_loss": truth_loss, "truth_rmse_bins": truth_rmse,
        })
        print(f"{result['name']}: fsrs-rs {median:.3f} s (card ids {card_ids_seconds:.3f} s), rote {result['fit_seconds']:.3f} s; "
              f"log loss fsrs-rs {fsrs_loss:.5f} rote {rote_loss:.5f} truth {truth_loss:.5f}; "
              f"RMSE(bins) fsrs-rs {fsrs_rmse:.5f} rote {rote_rmse:.5f} truth {truth_rmse:.5f}", file=sys.stderr)
    out = json.dumps({"sizes": sizes, "runs": args.runs}, indent=1)
    if args.out:
        open(args.out, "w").write(out)
    else:
        print(out)


if __name__ == "__main__":
    main()

"""Writes expected.json beside this file: what fsrs-rs (fsrs-rs-python 0.9.3, fsrs 6.6.2 — the
optimizer inside Anki) computes on histories.jsonl. See README.md.

    python3 -m venv .build/fsrs-venv && .build/fsrs-venv/bin/pip install fsrs-rs-python==0.9.3
    .build/fsrs-venv/bin/python Tests/SchedulingTests/Fixtures/fsrs-rs/make_expected.py
"""

import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "..", "..", "..", "Benchmarks"))
from fsrs_optimize import items_from  # noqa: E402  (Rote's item conversion, in Python)
from fsrs_rs_python import DEFAULT_PARAMETERS, FSRS, FSRSItem  # noqa: E402

# The simulated learner's parameters (FSRSSimulator.farFromDefaults).
TRUTH = [1.2, 3.5, 7.0, 20.0, 7.5, 0.6, 1.5, 0.05, 1.2, 0.3, 1.1, 1.8, 0.15, 0.35, 1.3, 0.4, 2.5, 0.7, 0.25, 0.15, 0.35]


def score(items, parameters):
    evaluation = FSRS(parameters).evaluate(items)
    return {"parameters": [float(w) for w in parameters], "log_loss": evaluation.log_loss, "rmse_bins": evaluation.rmse_bins}


items, _ = items_from(os.path.join(here, "histories.jsonl"))
fitted = FSRS(DEFAULT_PARAMETERS).compute_parameters(items)
# With only each card's first long-term review, fsrs-rs's training set is its pre-training set,
# so compute_parameters returns the pre-trained initial stabilities and the other defaults.
first_intervals = [item for item in items if item.long_term_review_cnt() == 1]
pretrained = FSRS(DEFAULT_PARAMETERS).compute_parameters(first_intervals)
expected = {
    "items": len(items),
    "first_interval_items": len(first_intervals),
    "defaults": score(items, DEFAULT_PARAMETERS),
    "truth": score(items, TRUTH),
    "fsrs_rs_fit": score(items, fitted),
    "pretrained_initial_stability": [float(w) for w in pretrained[:4]],
}
with open(os.path.join(here, "expected.json"), "w") as out:
    json.dump(expected, out, indent=1)
    out.write("\n")
print(json.dumps(expected, indent=1))

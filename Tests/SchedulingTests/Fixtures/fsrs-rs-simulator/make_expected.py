"""Writes expected.json beside this file: what fsrs-rs's simulator (fsrs-rs-python 0.9.3,
fsrs 6.6.2) gives for three parameter sets on two simulator settings. See README.md.

    python3 -m venv .build/fsrs-venv && .build/fsrs-venv/bin/pip install fsrs-rs-python==0.9.3
    .build/fsrs-venv/bin/python Tests/SchedulingTests/Fixtures/fsrs-rs-simulator/make_expected.py
"""

import json
import os
import statistics

from fsrs_rs_python import DEFAULT_PARAMETERS, default_simulator_config, optimal_retention, simulate

here = os.path.dirname(os.path.abspath(__file__))

PARAMETER_SETS = {
    "defaults": [float(w) for w in DEFAULT_PARAMETERS],
    # FSRSSimulator.farFromDefaults: every weight moved, several by more than their spread.
    "farFromDefaults": [1.2, 3.5, 7.0, 20.0, 7.5, 0.6, 1.5, 0.05, 1.2, 0.3, 1.1, 1.8, 0.15, 0.35, 1.3, 0.4, 2.5, 0.7, 0.25, 0.15, 0.35],
    # High stakes: stability grows fast after a hard-won recall (w10) and little survives a
    # lapse (w11, w14), so the best retention is above the lower bound.
    "highStakes": [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 2.5, 0.3, 0.0614, 0.2629, 2.5, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542],
}

SEEDS = list(range(1, 11))
RETENTION = 0.9


def configurations():
    # fsrs-rs's defaults: 10 000 cards, no daily limits but 30 minutes a day.
    default = default_simulator_config()
    # A learner's settings: 2 000 entries, 10 new and 200 reviews a day, up to an hour.
    learner = default_simulator_config()
    learner.deck_size = 2000
    learner.learn_limit = 10
    learner.review_limit = 200
    learner.max_cost_perday = 3600.0
    # The same learner, whose lapses cost dear (a minute to answer again, 40 s a relearning
    # again): so the best retention is well inside 0.70…0.95, not on its lower bound.
    costly = default_simulator_config()
    costly.deck_size = 2000
    costly.learn_limit = 10
    costly.review_limit = 200
    costly.max_cost_perday = 3600.0
    costs = [list(row) for row in costly.state_rating_costs]
    costs[1][0] = 60.0
    costs[2][0] = 40.0
    costly.state_rating_costs = costs
    return {"default": default, "learner": learner, "costly_lapses": costly}


def describe(config):
    return {
        "deck_size": config.deck_size,
        "learn_span": config.learn_span,
        "max_cost_perday": config.max_cost_perday,
        "learn_limit": min(config.learn_limit, 2**63 - 1),
        "review_limit": min(config.review_limit, 2**63 - 1),
        "new_cards_ignore_review_limit": config.new_cards_ignore_review_limit,
        "state_rating_costs": [[float(c) for c in row] for row in config.state_rating_costs],
    }


expected = {"desired_retention": RETENTION, "seeds": SEEDS, "configurations": {}}
for config_name, config in configurations().items():
    entry = {"settings": describe(config), "parameter_sets": {}}
    for name, parameters in PARAMETER_SETS.items():
        runs = [simulate(parameters, RETENTION, config, seed) for seed in SEEDS]
        memorized = [run.memorized_cnt_per_day[-1] for run in runs]
        costs = [sum(run.cost_per_day) for run in runs]
        reviews = [sum(run.review_cnt_per_day) for run in runs]
        entry["parameter_sets"][name] = {
            "parameters": parameters,
            "memorized_final_mean": statistics.mean(memorized),
            "memorized_final_stdev": statistics.stdev(memorized),
            "cost_total_mean": statistics.mean(costs),
            "reviews_total_mean": statistics.mean(reviews),
            "optimal_retention": optimal_retention(config, parameters),
        }
        print(config_name, name, entry["parameter_sets"][name], flush=True)
    expected["configurations"][config_name] = entry
with open(os.path.join(here, "expected.json"), "w") as out:
    json.dump(expected, out, indent=1)
    out.write("\n")

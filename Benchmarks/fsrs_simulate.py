"""fsrs-rs's workload simulator (fsrs-rs-python 0.9.3, fsrs 6.6.2) timed on the settings
`rote-bench simulate` uses, for its side-by-side table (Benchmarks/bench.sh, `simulate`).

    fsrs_simulate.py --deck-size N --learn-limit K --review-limit R --max-cost S
                     --parameters w0,…,w20 --seeds N --runs K --optimal-runs K --out FILE

Times `simulate` (one run at desired retention 0.9, seed 42; the median of --runs) and
`optimal_retention` (median of --optimal-runs), and records the memorised count after the last
day (mean over --seeds seeds) and the optimal retention, for the table to set beside Rote's.
"""

import argparse
import json
import statistics
import time

from fsrs_rs_python import default_simulator_config, optimal_retention, simulate

parser = argparse.ArgumentParser()
parser.add_argument("--deck-size", type=int, required=True)
parser.add_argument("--learn-limit", type=int, required=True)
parser.add_argument("--review-limit", type=int, required=True)
parser.add_argument("--max-cost", type=float, required=True)
parser.add_argument("--parameters", required=True)
parser.add_argument("--seeds", type=int, default=10)
parser.add_argument("--runs", type=int, default=5)
parser.add_argument("--optimal-runs", type=int, default=3)
parser.add_argument("--out", required=True)
args = parser.parse_args()

config = default_simulator_config()
config.deck_size = args.deck_size
config.learn_limit = args.learn_limit
config.review_limit = args.review_limit
config.max_cost_perday = args.max_cost
parameters = [float(w) for w in args.parameters.split(",")]


def timed(work):
    start = time.perf_counter()
    result = work()
    return time.perf_counter() - start, result


simulate_times = [timed(lambda: simulate(parameters, 0.9, config, 42))[0] for _ in range(args.runs)]
memorized = statistics.mean(simulate(parameters, 0.9, config, seed).memorized_cnt_per_day[-1] for seed in range(1, args.seeds + 1))
optimal = [timed(lambda: optimal_retention(config, parameters)) for _ in range(args.optimal_runs)]
result = {
    "simulate_seconds": statistics.median(simulate_times),
    "memorized_final_mean": memorized,
    "optimal_retention_seconds": statistics.median(t for t, _ in optimal),
    "optimal_retention": optimal[0][1],
}
with open(args.out, "w") as out:
    json.dump(result, out, indent=1)
print(json.dumps(result))

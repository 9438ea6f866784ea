#!/usr/bin/env python3
"""Replays Rote's benchmark histories with py-fsrs 6.3.2: times it, and checks Rote's results.

Reads the first lines of `histories.jsonl` (written by `rote-bench replay --export`) until they
hold `--subset-reviews` reviews, the same lines `rote-subset.jsonl` holds Rote's results for.
Times two things, each the median of `--runs` runs:

- replay: `Scheduler.review_card` over every review, from timestamps and ratings parsed
  beforehand (what `rote-bench` times as "FSRS replay, events in memory");
- JSON lines: parse each line, replay it, write the states as JSON (what `rote replay` does).

Then compares py-fsrs's states with Rote's review by review (state, step and due exactly;
stability and difficulty within 1e-9 relative) and writes the rates and the verdict as JSON
to `--out` for `rote-bench replay --reference`.
"""

import argparse
import json
import statistics
import sys
import time
from datetime import datetime, timedelta

from fsrs import Card, Rating, Scheduler

STATE_NAMES = {1: "learning", 2: "review", 3: "relearning"}


def read_subset(path, reviews):
    lines, total = [], 0
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if not line.strip():
                continue
            lines.append(line)
            total += len(json.loads(line)["reviews"])
            if total >= reviews:
                break
    return lines, total


def scheduler_for(history):
    return Scheduler(
        parameters=history["parameters"],
        desired_retention=history["desired_retention"],
        learning_steps=[timedelta(seconds=s) for s in history["learning_steps_s"]],
        relearning_steps=[timedelta(seconds=s) for s in history["relearning_steps_s"]],
        maximum_interval=history["maximum_interval"],
        enable_fuzzing=False,
    )


def parse_time(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def card_json(card):
    return {
        "state": STATE_NAMES[card.state.value],
        "step": card.step,
        "stability": card.stability,
        "difficulty": card.difficulty,
        "due": card.due.strftime("%Y-%m-%dT%H:%M:%SZ"),
    }


def replay_events(prepared):
    """The timed loop: review_card over pre-parsed events; returns the last cards."""
    last = None
    for scheduler, events in prepared:
        card = Card(card_id=1)  # an explicit id: Card() would sleep 1 ms to make one
        for at, rating in events:
            card, _ = scheduler.review_card(card, rating, at)
        last = card
    return last


def replay_json_lines(lines):
    """The JSON-lines path: parse, replay, write every state."""
    out = []
    for line in lines:
        history = json.loads(line)
        scheduler = scheduler_for(history)
        card = Card(card_id=1)
        states = []
        for review in history["reviews"]:
            card, _ = scheduler.review_card(card, Rating(review["rating"]), parse_time(review["at"]))
            states.append(card_json(card))
        out.append(json.dumps({"id": history["id"], "reviews": states}))
    return out


def median_rate(runs, reviews, work):
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        rates.append(reviews / (time.perf_counter() - start))
    return statistics.median(rates)


def compare(ours, theirs):
    """First differences between py-fsrs's output lines and Rote's, at most five."""
    problems = []
    if len(ours) != len(theirs):
        problems.append(f"{len(ours)} lines from py-fsrs, {len(theirs)} from Rote")
    for mine, rote in zip(ours, theirs):
        a, b = json.loads(mine), json.loads(rote)
        if a["id"] != b["id"] or len(a["reviews"]) != len(b["reviews"]):
            problems.append(f"{a['id']}: different history")
            continue
        for index, (x, y) in enumerate(zip(a["reviews"], b["reviews"])):
            exact = all(x[k] == y[k] for k in ("state", "step", "due"))
            close = all(
                abs(x[k] - y[k]) <= 1e-9 * max(abs(x[k]), 1e-300) for k in ("stability", "difficulty")
            )
            if not (exact and close):
                problems.append(f"{a['id']} review {index}: py-fsrs {x} vs Rote {y}")
                break
        if len(problems) >= 5:
            break
    return problems


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--histories", required=True, help="histories.jsonl from rote-bench")
    parser.add_argument("--rote", required=True, help="rote-subset.jsonl: Rote's results")
    parser.add_argument("--subset-reviews", type=int, default=50_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--out", required=True, help="where to write the JSON summary")
    options = parser.parse_args()

    lines, reviews = read_subset(options.histories, options.subset_reviews)
    histories = [json.loads(line) for line in lines]
    prepared = [
        (scheduler_for(h), [(parse_time(r["at"]), Rating(r["rating"])) for r in h["reviews"]])
        for h in histories
    ]
    replay_rate = median_rate(options.runs, reviews, lambda: replay_events(prepared))
    jsonl_rate = median_rate(options.runs, reviews, lambda: replay_json_lines(lines))

    with open(options.rote, encoding="utf-8") as handle:
        rote = [line for line in handle if line.strip()]
    problems = compare(replay_json_lines(lines), rote)
    detail = f"{len(lines)} entries, {reviews} reviews" if not problems else "; ".join(problems)
    summary = {
        "replay_reviews_per_second": replay_rate,
        "jsonl_reviews_per_second": jsonl_rate,
        "reviews": reviews,
        "runs": options.runs,
        "match": not problems,
        "detail": detail,
    }
    with open(options.out, "w", encoding="utf-8") as handle:
        json.dump(summary, handle)
    print(f"py-fsrs: {replay_rate:,.0f} reviews/s replay, {jsonl_rate:,.0f} reviews/s JSON lines;",
          "results match" if not problems else "RESULTS DIFFER: " + detail)
    return 0 if not problems else 1


if __name__ == "__main__":
    sys.exit(main())

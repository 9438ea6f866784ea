#!/usr/bin/env python3
"""Anki opening a collection of a generated library's cards and counting what is due: the
reference for Rote's warm launch (`rote-bench launch --anki-python PYTHON`).

    anki_due.py --library DIR --user NAME --collection FILE --now EPOCH [--runs K]

The collection is built once and kept (FILE): one note and card per entry of the library
(front: the entry id) in the default deck, with the highest daily limits Anki accepts
(9999: where more cards are due, Anki stops counting there), and for every progress file of NAME the card's schedule from its
`state:` line — review cards due on the same day relative to --now as in Rote, learning
cards due at the same distance in minutes, suspended ones suspended. Then, K times in this
process (imports done, page cache warm): open the collection, ask the scheduler for its
due counts (new, learning, review), close. Prints the median seconds and the counts:

    anki <seconds> <new> <learning> <review>
"""
import argparse
import os
import re
import statistics
import sys
import time
from datetime import datetime, timezone

from anki.collection import AddNoteRequest, Collection

STATE = re.compile(r"^state: \{phase: (\w+)(?:, step: \d+)?, stability: ([\d.e+-]+), difficulty: [\d.e+-]+, due: (\S+?)(?:,|\})")


def entry_ids(library):
    corpus = os.path.join(library, "corpus")
    for deck in sorted(os.listdir(corpus)):
        for folder, _, names in os.walk(os.path.join(corpus, deck)):
            for name in sorted(names):
                if name.endswith(".yaml") and name != "deck.yaml":
                    yield os.path.relpath(os.path.join(folder, name), corpus)[:-5]


def schedules(library, user):
    progress = os.path.join(library, "profiles", user, "progress")
    for folder, _, names in os.walk(progress):
        for name in names:
            if not name.endswith(".yaml"):
                continue
            entry, status, state = None, "active", None
            with open(os.path.join(folder, name), encoding="utf-8") as handle:
                for line in handle:
                    if line.startswith("entry: "):
                        entry = line[7:].strip()
                    elif line.startswith("status: "):
                        status = line[8:].strip()
                    elif line.startswith("state: "):
                        state = STATE.match(line)
                    elif line.startswith("reviews:"):
                        break
            if entry:
                yield entry, status, state


def build(args):
    started = time.time()
    collection = Collection(args.collection)
    # The current deck (Default), with limits that let the scheduler count every due card,
    # as Rote's due total does.
    deck = collection.decks.get_current_id()
    config = collection.decks.config_dict_for_deck_id(deck)
    config["new"]["perDay"] = 9999  # the most Anki takes (it ignores larger limits)
    config["rev"]["perDay"] = 9999
    collection.decks.update_config(config)
    model = collection.models.by_name("Basic")
    ids = list(entry_ids(args.library))
    requests = []
    for entry in ids:
        note = collection.new_note(model)
        note["Front"] = entry
        note["Back"] = entry
        requests.append(AddNoteRequest(note=note, deck_id=deck))
    collection.add_notes(requests)
    card_by_entry = dict(collection.db.all("select n.flds, c.id from cards c join notes n on n.id = c.nid"))
    card_by_entry = {fields.split("\x1f")[0]: card for fields, card in card_by_entry.items()}
    today = collection.sched.today
    real_now = int(time.time())
    updates = []
    for entry, status, state in schedules(args.library, args.user):
        card = card_by_entry.get(entry)
        if card is None or state is None:
            continue
        phase, stability, due = state.group(1), float(state.group(2)), state.group(3)
        due_at = datetime.strptime(due, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc).timestamp()
        seconds = due_at - args.now
        queue_suspended = status != "active"
        if phase == "review":
            values = (2, -1 if queue_suspended else 2, today + int(seconds // 86400), max(1, round(stability)), 2500)
        else:
            values = (1 if phase == "learning" else 3, -1 if queue_suspended else 1, int(real_now + seconds), 0, 2500)
        updates.append(values + (card,))
    collection.db.executemany("update cards set type=?, queue=?, due=?, ivl=?, factor=? where id=?", updates)
    collection.close()
    print(f"built {args.collection}: {len(ids)} cards, {len(updates)} scheduled, in {time.time() - started:.0f} s", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--library", required=True)
    parser.add_argument("--user", required=True)
    parser.add_argument("--collection", required=True)
    parser.add_argument("--now", type=int, required=True)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    if not os.path.exists(args.collection):
        build(args)
    times, counts = [], None
    for _ in range(max(1, args.runs) + 1):
        started = time.perf_counter()
        collection = Collection(args.collection)
        counts = collection.sched.counts()
        times.append(time.perf_counter() - started)
        collection.close()
    # The first open warms Anki's own caches; the rest are the warm figure.
    print(f"anki {statistics.median(times[1:]):.6f} {counts[0]} {counts[1]} {counts[2]}")


if __name__ == "__main__":
    main()

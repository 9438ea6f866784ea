#!/usr/bin/env python3
"""Writes the placement fields of every english-a1 word and the deck's description, from
words.tsv (made by select_words.py).

The word files in corpus/english-a1/ are written by hand (meaning, Arabic, examples,
questions); this script owns only their `rank`, `cefr`, `batch`, `level` and `placement` lines,
which it puts right after `ipa:`, and the word count in deck.yaml. Running it twice changes
nothing, and running it on a checkout rebuilds the committed deck byte for byte (the tests and
`--check` hold that).

Usage: build_deck.py [--check]   (--check: change nothing, exit 1 if anything would change)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DECK = os.path.normpath(os.path.join(HERE, "..", "..", "corpus", "english-a1"))
OWNED = ("rank:", "cefr:", "batch:", "level:", "placement:")


def placed(text, row):
    rank, word, cefr, batch, level, placement = row[:6]
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith(OWNED)]
    block = [f"rank: {rank}\n", f"cefr: {cefr}\n", f"batch: {batch}\n", f"level: {level}\n", f"placement: {placement}\n"]
    for index, line in enumerate(lines):
        if line.startswith("ipa:"):
            return "".join(lines[: index + 1] + block + lines[index + 1 :])
    raise ValueError("has no ipa: line to place the rank after")


def main():
    check = "--check" in sys.argv[1:]
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(HERE, "words.tsv"), encoding="utf-8")]
    problems, changed = [], []
    listed = set()
    for row in rows:
        name = row[1].lower() + ".yaml"
        listed.add(name)
        path = os.path.join(DECK, name)
        if not os.path.exists(path):
            problems.append(f"{path}: missing: words.tsv lists '{row[1]}' (write its entry, or rerun select_words.py)")
            continue
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
        try:
            new = placed(text, row)
        except ValueError as error:
            problems.append(f"{path}: {error}")
            continue
        if new != text:
            changed.append(path)
            if not check:
                with open(path + ".tmp", "w", encoding="utf-8") as handle:
                    handle.write(new)
                os.replace(path + ".tmp", path)
    for name in sorted(os.listdir(DECK)):
        if name.endswith(".yaml") and name != "deck.yaml" and name not in listed:
            problems.append(f"{os.path.join(DECK, name)}: not in words.tsv; remove it or add the word to select_words.py's choice")
    deck = os.path.join(DECK, "deck.yaml")
    with open(deck, encoding="utf-8") as handle:
        text = handle.read()
    lines = text.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith("description:"):
            lines[index] = f"description: The {len(rows)} most frequent English words at level A1, for Arabic-speaking beginners, in frequency order.\n"
    new = "".join(lines)
    if new != text:
        changed.append(deck)
        if not check:
            with open(deck + ".tmp", "w", encoding="utf-8") as handle:
                handle.write(new)
            os.replace(deck + ".tmp", deck)
    for problem in problems:
        print(problem, file=sys.stderr)
    verb = "would change" if check else "changed"
    print(f"{verb} {len(changed)} of {len(rows) + 1} files", file=sys.stderr)
    if check and changed:
        for path in changed:
            print(f"  {path}", file=sys.stderr)
    return 1 if problems or (check and changed) else 0


if __name__ == "__main__":
    sys.exit(main())

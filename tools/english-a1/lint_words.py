#!/usr/bin/env python3
"""Checks english-a1 word files against the deck's content bar (issue #19), beyond what
`rote check` enforces for every vocabulary deck:

- Arabic translation, alternatives, definition.ar and every example's `ar` are in Arabic script;
- at least 4 examples, at least 2 of them primary;
- one translation_match, one reverse_translation and at least 2 sentence_completion questions,
  each with at least 6 distinct distractors that differ from the answer;
- a usage note, a root and an IPA transcription.

Usage: lint_words.py FILE... (prints `file: problem` lines; exit 1 if any). Needs PyYAML,
which requirements.txt pins for the authoring venv.
"""
import re
import sys

import yaml

ARABIC = re.compile(r"[\u0600-\u06FF]")
LATIN = re.compile(r"[A-Za-z]")


def arabic(text):
    return bool(ARABIC.search(text or "")) and not LATIN.search(text or "")


def lint(path):
    problems = []
    try:
        with open(path, encoding="utf-8") as handle:
            entry = yaml.safe_load(handle)
    except Exception as error:  # a YAML error is the first thing to fix
        return [f"YAML: {error}"]
    if not isinstance(entry, dict):
        return ["not a mapping"]
    for field in ("word", "pos", "translation", "forms", "ipa", "root", "usage_notes", "definition", "examples", "questions"):
        if field not in entry:
            problems.append(f"missing {field}")
    if not arabic(entry.get("translation", "")):
        problems.append("translation is not Arabic")
    for alternative in entry.get("alternatives", []) or []:
        if not arabic(alternative):
            problems.append(f"alternative '{alternative}' is not Arabic")
    definition = entry.get("definition") or {}
    if not definition.get("en"):
        problems.append("definition.en missing")
    if not arabic(definition.get("ar", "")):
        problems.append("definition.ar missing or not Arabic")
    examples = entry.get("examples") or []
    if len(examples) < 4:
        problems.append(f"{len(examples)} examples; needs at least 4")
    if sum(1 for example in examples if example.get("primary")) < 2:
        problems.append("fewer than 2 primary examples")
    forms = entry.get("forms") or {}
    for index, example in enumerate(examples, 1):
        ar = example.get("ar", "")
        if not ARABIC.search(ar):
            problems.append(f"examples[{index}].ar is not Arabic")
        if ar.count("{") != 1 or ar.count("}") != 1:
            problems.append(f"examples[{index}].ar must mark one span with braces")
        en = example.get("en", "")
        if en.count("{") != 1 or en.count("}") != 1:
            problems.append(f"examples[{index}].en must mark one span with braces")
        else:
            marked = en[en.index("{") + 1 : en.index("}")]
            expected = str(forms.get(example.get("form"), ""))
            if marked.lower() != expected.lower():
                problems.append(f"examples[{index}] marks '{marked}' but forms.{example.get('form')} is '{expected}'")
    kinds = {}
    for question in entry.get("questions") or []:
        kinds.setdefault(question.get("type"), []).append(question)
        distractors = [d["text"] if isinstance(d, dict) else d for d in question.get("distractors") or []]
        distractors = [str(d) for d in distractors]
        label = f"question '{question.get('id')}'"
        if len(distractors) < 6:
            problems.append(f"{label}: {len(distractors)} distractors; needs at least 6")
        if len(set(distractors)) != len(distractors):
            problems.append(f"{label}: repeated distractor")
        if str(question.get("answer")) in distractors:
            problems.append(f"{label}: the answer is also a distractor")
        if question.get("type") == "translation_match":
            for d in distractors:
                if not arabic(d):
                    problems.append(f"{label}: distractor '{d}' is not Arabic")
        if question.get("type") == "sentence_completion":
            number = question.get("example")
            if not isinstance(number, int) or not 1 <= number <= len(examples):
                problems.append(f"{label}: example {number} does not exist")
            else:
                en = examples[number - 1].get("en", "")
                plain = re.sub(r"\{[^}]*\}", "___", en)
                if plain != question.get("sentence"):
                    problems.append(f"{label}: sentence should be '{plain}'")
                if "{" in en and en[en.index("{") + 1 : en.index("}")] != str(question.get("answer")):
                    problems.append(f"{label}: answer must equal the example's marked text")
                words = question.get("sentence", "").split()
                if "___" in words and question.get("blank") != words.index("___"):
                    problems.append(f"{label}: blank should be {words.index('___')}")
                elif "___" not in words:
                    problems.append(f"{label}: ___ must stand as its own word (punctuation after it is fine only if split off), got blank {question.get('blank')}")
    if len(kinds.get("translation_match", [])) < 1:
        problems.append("no translation_match question")
    if len(kinds.get("reverse_translation", [])) < 1:
        problems.append("no reverse_translation question")
    if len(kinds.get("sentence_completion", [])) < 2:
        problems.append("fewer than 2 sentence_completion questions")
    return problems


def main(paths):
    failed = False
    for path in paths:
        for problem in lint(path):
            failed = True
            print(f"{path}: {problem}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

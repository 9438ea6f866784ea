"""Builds Anki decks with the real tools, for AnkiImportTests.

    python make_anki_decks.py OUT_DIR

writes into OUT_DIR:
  genanki.apkg        Basic + Cloze notes and one media file, made by genanki (no history)
  history.apkg        a deck exported by Anki itself (legacy format) with review history
  history.colpkg      the whole collection, legacy format, with the same history
  modern.apkg         the same deck in Anki's default format since 2.1.50 (zstd-compressed
                      collection.anki21b, protobuf media index, compressed media)
  modern.colpkg       the whole collection in that format
  expected.json       the review log as Anki stored it, for the tests to compare against
"""
import json
import os
import sys
import tempfile

import genanki
from anki.collection import Collection, DeckIdLimit, ExportAnkiPackageOptions
from anki.scheduler_pb2 import CardAnswer

out = sys.argv[1]
os.makedirs(out, exist_ok=True)

# --- genanki: Basic and Cloze, with a sound file -------------------------------------------
basic = genanki.Model(
    1607392319, "Basic",
    fields=[{"name": "Front"}, {"name": "Back"}],
    templates=[{"name": "Card 1", "qfmt": "{{Front}}", "afmt": "{{FrontSide}}<hr id=answer>{{Back}}"}],
)
deck = genanki.Deck(2059400110, "French::Basics")
deck.add_note(genanki.Note(model=basic, fields=["bonjour", "hello [sound:bonjour.mp3]"], guid="g-bonjour"))
deck.add_note(genanki.Note(model=basic, fields=["<b>merci</b>", "thank you&nbsp;"], guid="g-merci"))
deck.add_note(genanki.Note(model=basic, fields=["au revoir", "goodbye<br>bye"], guid="g-aurevoir"))
deck.add_note(genanki.Note(
    model=genanki.CLOZE_MODEL,
    fields=["{{c1::Paris}} is the capital of {{c2::France::country}}.", "geography"], guid="g-paris"))
media = os.path.join(tempfile.mkdtemp(), "bonjour.mp3")
with open(media, "wb") as f:
    f.write(b"ID3 not really an mp3, but bytes to copy")
package = genanki.Package(deck)
package.media_files = [media]
package.write_to_file(os.path.join(out, "genanki.apkg"))

# --- anki: a collection with review history at fixed times ---------------------------------
folder = tempfile.mkdtemp()
col = Collection(os.path.join(folder, "collection.anki2"))
deck_id = col.decks.id("Spanish")
notetype = col.models.by_name("Basic")
words = [("hola", "hello [sound:hola.mp3]"), ("gracias", "thank you"), ("adiós", "goodbye")]
col.media.write_data("hola.mp3", b"ID3 hola, bytes to copy " * 40)
for front, back in words:
    note = col.new_note(notetype)
    note["Front"], note["Back"] = front, back
    col.add_note(note, deck_id)
cloze = col.new_note(col.models.by_name("Cloze"))
cloze["Text"] = "{{c1::Madrid}} is in Spain."
col.add_note(cloze, deck_id)

DAY = 86_400_000
start = 1_767_261_600_000  # 2026-01-01T10:00:00Z
ratings = {"hola": [CardAnswer.GOOD, CardAnswer.GOOD, CardAnswer.EASY],
           "gracias": [CardAnswer.AGAIN, CardAnswer.HARD, CardAnswer.GOOD]}
for index, (front, ratings_for_word) in enumerate(ratings.items()):
    note_id = col.find_notes(f"Front:{front}")[0]
    card = col.get_note(note_id).cards()[0]
    for step, rating in enumerate(ratings_for_word):
        card = col.get_card(card.id)
        card.start_timer()
        states = col._backend.get_scheduling_states(card.id)
        answer = col.sched.build_answer(card=card, states=states, rating=rating)
        answer.answered_at_millis = start + step * 2 * DAY + index * 60_000 + 123
        answer.milliseconds_taken = 1500 + 100 * step
        col.sched.answer_card(answer)

revlog = [
    {"id": rid, "cid": cid, "ease": ease, "time": taken,
     "front": col.get_card(cid).note()["Front"]}
    for rid, cid, ease, taken in col.db.all("select id, cid, ease, time from revlog order by id")
]
limit = DeckIdLimit(deck_id=deck_id)
col.export_anki_package(
    out_path=os.path.join(out, "history.apkg"),
    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=True),
    limit=limit)
col.export_anki_package(
    out_path=os.path.join(out, "modern.apkg"),
    options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False),
    limit=limit)
col.export_collection_package(os.path.join(out, "history.colpkg"), include_media=True, legacy=True)
# Exporting a whole collection closes it; open it again for the second export.
col = Collection(os.path.join(folder, "collection.anki2"))
col.export_collection_package(os.path.join(out, "modern.colpkg"), include_media=True, legacy=False)
col.close()

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump({"revlog": revlog}, f, indent=1)
print("made", sorted(os.listdir(out)))

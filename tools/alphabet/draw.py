#!/usr/bin/env python3
"""Draws the alphabet deck's stroke templates to PNG, so a person can look at each letter.

    python3 tools/alphabet/draw.py [OUT_DIR] [LETTER_FILE ...]

With no letter files, draws every corpus/alphabet/*.yaml. Writes one PNG per letter (OUT_DIR,
default .build/alphabet-png) and sheet.png with them all. Standard library only: the PNG is
written by hand (zlib + struct).

Each letter is drawn in its 100x100 box with the deck's guide lines (grey): the cap/ascender
line y=10, the x-height y=40, the baseline y=80 and the descender line y=100. Strokes are
coloured in writing order (1 red, 2 blue, 3 green, 4 orange); a dot marks each stroke's start
and a small tick near its end shows the pen's direction.
"""
import glob
import os
import re
import struct
import sys
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCALE, MARGIN = 2, 10
COLOURS = [(220, 40, 40), (40, 90, 220), (30, 160, 60), (240, 140, 20), (150, 60, 180)]


def read_letter(path):
    text = open(path, encoding="utf-8").read()
    character = re.search(r"^character: (.*)$", text, re.M)
    strokes = []
    in_strokes = False
    for line in text.splitlines():
        if line.startswith("strokes:"):
            in_strokes = True
            continue
        if in_strokes:
            if not line.startswith("  - "):
                break
            points = [(int(x), int(y)) for x, y in re.findall(r"\[(-?\d+), (-?\d+)\]", line)]
            strokes.append(points)
    return (character.group(1) if character else os.path.basename(path)), strokes


class Canvas:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = bytearray([255] * (width * height * 3))

    def dot(self, x, y, colour, radius):
        for dy in range(-radius, radius + 1):
            for dx in range(-radius, radius + 1):
                if dx * dx + dy * dy <= radius * radius:
                    px, py = int(x + dx), int(y + dy)
                    if 0 <= px < self.width and 0 <= py < self.height:
                        at = (py * self.width + px) * 3
                        self.pixels[at:at + 3] = bytes(colour)

    def line(self, a, b, colour, radius):
        steps = int(max(abs(b[0] - a[0]), abs(b[1] - a[1]))) + 1
        for i in range(steps + 1):
            t = i / steps
            self.dot(a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, colour, radius)

    def png(self, path):
        raw = b"".join(b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3]) for y in range(self.height))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        with open(path, "wb") as f:
            f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0))
                    + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def draw(canvas, left, top, strokes):
    def at(point):
        return (left + MARGIN + point[0] * SCALE, top + MARGIN + point[1] * SCALE)
    for y, shade in ((10, 170), (40, 210), (80, 120), (100, 210)):
        canvas.line(at((0, y)), at((100, y)), (shade, shade, shade), 0)
    for x in (0, 100):
        canvas.line(at((x, 0)), at((x, 100)), (230, 230, 230), 0)
    for index, stroke in enumerate(strokes):
        colour = COLOURS[index % len(COLOURS)]
        for a, b in zip(stroke, stroke[1:]):
            canvas.line(at(a), at(b), colour, 2)
        canvas.dot(*at(stroke[0]), colour, 6)
        if len(stroke) > 1:
            (x0, y0), (x1, y1) = at(stroke[-2]), at(stroke[-1])
            canvas.dot(x1, y1, (0, 0, 0), 3)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "alphabet-png")
    files = sys.argv[2:] or sorted(glob.glob(os.path.join(ROOT, "corpus", "alphabet", "*.yaml")))
    letters = [read_letter(f) for f in files if not f.endswith("deck.yaml")]
    os.makedirs(out, exist_ok=True)
    cell = 100 * SCALE + 2 * MARGIN
    for character, strokes in letters:
        canvas = Canvas(cell, cell)
        draw(canvas, 0, 0, strokes)
        name = ("capital-" + character.lower()) if character.isupper() else character
        canvas.png(os.path.join(out, f"{name}.png"))
    columns = 7
    rows = (len(letters) + columns - 1) // columns
    sheet = Canvas(columns * cell, rows * cell)
    for index, (_, strokes) in enumerate(letters):
        draw(sheet, (index % columns) * cell, (index // columns) * cell, strokes)
    sheet.png(os.path.join(out, "sheet.png"))
    print(f"{len(letters)} letters drawn to {out}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Turns a transcript of tests/web/orca.test.js (target/transcripts/orca-*.txt: what Orca
spoke, brailled and showed on the 40 cells, line by line from its debug log) into the
Markdown table of docs/orca-transcripts.md: each spoken message, the 40 cells shown with it,
and what those cells hold, counted with liblouis (the longest start of the message whose
contracted braille the cells begin with). Orca's echo of each key the test typed is left
out. Needs python3-louis (Debian's; the test command installs it).

    /usr/bin/python3 scripts/orca_transcript.py target/transcripts/orca-vi.txt
"""

import re
import sys

import louis

TABLE = ["zh-hk.ctb"]
# Orca's echo of a key the test pressed: its name, or the one character typed.
KEYS = re.compile(r"^(left |right )?(alt|shift|control|tab|return|backspace|escape|up|down|left|right|home|end|space)$|^.$", re.I)


def lines(path):
    """(time, kind, text) for each line of a transcript."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r"^(\d\d:\d\d:\d\d)\.\d+ (speech|braille|visible) ?(.*)$", line.rstrip("\n"))
            if m:
                yield m.group(1), m.group(2), m.group(3)


def held(message, cells):
    """The longest start of `message` whose braille the 40 `cells` begin with."""
    shown = cells.strip()
    best = ""
    for end in range(1, len(message) + 1):
        start = louis.translateString(TABLE, message[:end]).strip()
        if shown.startswith(start):
            best = message[:end]
        elif not start.startswith(shown[: len(start)]):
            break
    return best


def rows(path):
    """Each message Orca spoke, with the cells shown next and what they hold."""
    items = list(lines(path))
    for i, (time, kind, text) in enumerate(items):
        if kind != "speech" or not text.strip() or KEYS.match(text.strip()):
            continue
        cells = next((t for _, k, t in items[i + 1 : i + 4] if k == "visible"), "")
        yield time, text.strip(), cells, held(text.strip(), cells) if cells else ""


def cell(s):
    """A table cell: the pipe escaped, backquotes kept out of code spans."""
    return s.replace("|", "\\|")


# Orca's own state, said as it changes: in italics, no cells of their own.
MODES = {"Browse mode", "Focus mode"}


def main(path):
    print("| time | Orca speaks | the 40 cells (braille ASCII) | what they hold |")
    print("|---|---|---|---|")
    for time, said, cells, hold in rows(path):
        if said in MODES:
            print(f"| {time} | *{said}* | | |")
            continue
        shown = f"`` {cells.strip()} ``" if cells.strip() and cells.strip() not in MODES else ""
        print(f"| {time} | {cell(said)} | {cell(shown)} | {cell(hold) if shown else ''} |")


if __name__ == "__main__":
    main(sys.argv[1])

#!/usr/bin/python3
"""The braille cells of each message's first sentence, in contracted Chinese braille.

Reads a JSON list of messages (strings) on standard input; writes a JSON list, one object per
message: {"text", "first", "zh-hk", "zh-tw", "shown"}, where `first` is the message's first
sentence (up to its first 「。」, or ". " in English), the two counts are its cells in liblouis's
Hong Kong Cantonese and Taiwanese tables (the ones screen readers use for contracted Chinese
braille), and `shown` is what a 40-cell display shows of the whole message (Hong Kong table).

Cells, not characters: a Chinese character is two or three cells, digits take a number sign,
a Latin letter after Chinese takes a letter sign. Debian: python3-louis, liblouis-data.
"""
import json
import re
import sys

import louis

TABLES = {"zh-hk": "zh-hk.ctb", "zh-tw": "zh-tw.ctb"}
CELLS = 40


def cells(table, text):
    return len(louis.translateString([table], text))


def first_sentence(text):
    return re.split(r"(?<=。)|(?<=\.) ", text, maxsplit=1)[0].rstrip("。").strip()


def shown(table, text):
    """The longest start of `text` that fits the display."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if cells(table, text[:mid]) <= CELLS:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


def main():
    out = []
    for text in json.load(sys.stdin):
        first = first_sentence(text)
        row = {"text": text, "first": first, "shown": shown(TABLES["zh-hk"], text)}
        for name, table in TABLES.items():
            row[name] = cells(table, first)
        out.append(row)
    json.dump(out, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()

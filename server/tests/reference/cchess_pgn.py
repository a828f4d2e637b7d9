"""Reads a PGN file exported by baoqi with the PGN reader of the PyPI package `cchess`
(`cchess.Game.read_from`) and prints the main line's moves in ICCS, one per line.

Usage: .venv/bin/python server/tests/reference/cchess_pgn.py GAME.pgn

cchess's reader is a simple one: it knows no `{}` comments, `;` comments or `$` glyphs
(the first one stops its reading), splits move text on single spaces, and reads only
simplified characters (车 马 进 后 帅 将). So the file is first brought to what cchess reads,
exactly as a user of cchess would have to: comments and glyphs removed, spaces collapsed,
traditional characters mapped to simplified ones. The tag pairs and the moves themselves
are left to cchess.
"""
import os
import re
import sys
import tempfile

import cchess

SIMPLIFY = str.maketrans({'車': '车', '俥': '车', '馬': '马', '傌': '马', '砲': '炮', '包': '炮',
                          '進': '进', '後': '后', '帥': '帅', '將': '将'})


def for_cchess(text):
    """The record as cchess's reader can take it."""
    lines = []
    in_tags = True
    body = []
    for line in text.splitlines():
        if in_tags and line.startswith('['):
            lines.append(line)
            continue
        in_tags = False
        body.append(line)
    moves = '\n'.join(body)
    moves = re.sub(r'\{[^}]*\}', ' ', moves)
    moves = re.sub(r';[^\n]*', ' ', moves)
    moves = re.sub(r'\$\d+', ' ', moves)
    moves = moves.translate(SIMPLIFY)
    for line in moves.splitlines():
        line = ' '.join(line.split())
        if line:
            lines.append(line)
    return '\n'.join(lines) + '\n'


def main():
    with open(sys.argv[1], encoding='utf-8') as f:
        text = f.read()
    fd, path = tempfile.mkstemp(suffix='.pgn')
    try:
        with os.fdopen(fd, 'w', encoding='utf-8') as f:
            f.write(for_cchess(text))
        game = cchess.Game.read_from(path)
    finally:
        os.remove(path)
    lines = game.dump_iccs_moves()
    for mv in (lines[0] if lines else []):
        print(mv)


if __name__ == '__main__':
    main()

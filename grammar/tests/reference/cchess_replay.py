"""Differential check of baoqi's corpus replay against the PyPI package `cchess`.

Usage: .venv/bin/python grammar/tests/reference/cchess_replay.py CORPUS_DIR|FILE... > cchess.tsv
Prints `path<TAB>ok<TAB>PLIES<TAB>BOARD SIDE` or `path<TAB>fail<TAB>PLY` for each *.pgn file
(sorted), to be compared with `baoqi replay --format tsv` (board and side of the final FEN).
cchess reads simplified characters and does not know every 附表六 form (e.g. 一兵, 前三),
so its failures are expected to be a superset of baoqi's.
"""
import os
import re
import sys

import cchess

SIMPLIFY = str.maketrans({'進': '进', '後': '后', '車': '车', '馬': '马', '帥': '帅', '將': '将',
                          '俥': '车', '傌': '马', '砲': '炮', '包': '炮', '仕': '仕', '卒': '卒'})
BLACK_NAMES = str.maketrans({'帅': '将', '相': '象', '仕': '士', '兵': '卒'})
RED_NAMES = str.maketrans({'将': '帅', '象': '相', '士': '仕', '卒': '兵'})


def moves_of(text):
    body = '\n'.join(l for l in text.splitlines() if not l.startswith('['))
    body = re.sub(r'\{[^}]*\}', ' ', body)
    out = []
    for tok in body.split():
        tok = re.sub(r'^[0-9０-９]+[.．]+', '', tok)
        if not tok or tok in ('1-0', '0-1', '1/2-1/2', '*') or re.fullmatch(r'[0-9.]+', tok):
            continue
        out.append(tok)
    return out


def replay(path):
    text = open(path, 'rb').read().decode('big5', errors='replace')
    m = re.search(r'\[FEN "([^"]*)"\]', text)
    fen = m.group(1) if m else 'rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1'
    try:
        board = cchess.ChessBoard(fen)
    except Exception:
        return 'fail', 0
    moves = moves_of(text)
    for ply, mv in enumerate(moves):
        mv = mv.translate(SIMPLIFY)
        red = board.get_move_color() == cchess.RED
        mv = mv[0].translate(RED_NAMES if red else BLACK_NAMES) + mv[1:]
        try:
            ok = board.move_text(mv)
        except Exception:
            ok = None
        if not ok:
            return 'fail', ply
        board.next_turn()
    return 'ok', len(moves), board.to_fen()


def main():
    paths = []
    for arg in sys.argv[1:]:
        if os.path.isdir(arg):
            for d, _, files in os.walk(arg):
                paths += [os.path.join(d, f) for f in files if f.lower().endswith('.pgn')]
        else:
            paths.append(arg)
    for p in sorted(paths):
        r = replay(p)
        print('\t'.join([p] + [str(x) for x in r]))


if __name__ == '__main__':
    main()

"""Reference legal moves from Fairy-Stockfish (pyffish), for the differential test.

Reads one FEN per line on stdin and writes, per line, the legal moves in ICCS
(ranks 0-9; pyffish numbers them 1-10), sorted and space-separated.
"""
import sys

import pyffish


def iccs(move: str) -> str:
    # pyffish writes e.g. "b3b10": file letter then rank 1..10.
    i = 1
    while move[i].isdigit():
        i += 1
    from_rank, to_rank = int(move[1:i]) - 1, int(move[i + 1:]) - 1
    return f"{move[0]}{from_rank}{move[i]}{to_rank}"


for line in sys.stdin:
    fen = line.strip()
    if not fen:
        continue
    moves = sorted(iccs(m) for m in pyffish.legal_moves("xiangqi", fen, []))
    print(" ".join(moves), flush=False)

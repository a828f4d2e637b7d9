"""Reads XQF files with the cchess package and prints, for each: the result, the players,
the main line in ICCS and each move's comment (joined by |), tab-separated (tests/xqf_cchess.rs compares them)."""
import sys

import cchess
from cchess.read_xqf import read_from_xqf

for path in sys.argv[1:]:
    game = read_from_xqf(path)
    lines = game.dump_iccs_moves()
    main = lines[0] if lines else []
    info = game.info
    notes = "|".join((m.annote or "") for m in game.move_line_to_list())
    print("\t".join([info.get("result", ""), info.get("red", ""), info.get("black", ""), " ".join(main), notes]))

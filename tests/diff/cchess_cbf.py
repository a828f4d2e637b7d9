"""Reads CBF files with the cchess package and prints each main line in ICCS, one a line
(tests/xqf_cchess.rs compares them)."""
import sys

from cchess.read_cbf import read_from_cbf

for path in sys.argv[1:]:
    lines = read_from_cbf(path).dump_iccs_moves()
    print(" ".join(lines[0] if lines else []))

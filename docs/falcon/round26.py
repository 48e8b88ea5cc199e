#!/usr/bin/env python3
"""Round 26 (issue 26, branch react28; docs/falcon/rounds.md "Round 26"): a spread that opens fast attacks and leaves slow
ones alone: escape_spread with Rs 12.5, p 3 and the speed gate escape_spread_speed v0 (the spread's gain times
clamp((c - v0) / v0, 0, 1), c the falcon's closing speed on the bird that started the front, carried to its copiers), on
the tuning seeds 101-103 (no reporting seeds this round, no default changed).

    /usr/bin/python3 docs/falcon/round26.py           # the sweep's rows, the best row, round 20's rule on it
    /usr/bin/python3 docs/falcon/round26.py seeds     # the seeds >= 100 the jsons hold (for the later run's)

The declaration (committed before any row of the sweep was read):
- Seeds: the tuning seeds 101, 102, 103 only (run.py --tuning --cases strategies: the 27 at N = 2,000; spread.py
  --strategies --seeds 101 102 103). No reporting seeds are run.
- Rows (sweep_react28.sh): escape_spread 15 and 20 m/s^2, each with v0 15 and 20 m/s; Rs 12.5 m, p 3 throughout.
  Beside them for comparison: off (react20_off, main's bits) and round 24's ungated row (escape_spread 15, Rs 12.5,
  p 3: react26_r12.5_p3_spread15).
- Per row, round 23's table (round24.py's reading, unchanged): reactions by the issue's reading and per group, the
  group_jump median, flashes by the speed the birds met (slow / medium / fast), waves by the same classes, the wave over
  flock speed median.
- The best row by round 23's order (round24.py sweep: among the rows that add reactions over off with no slow flash,
  no more medium flashes than off and no wave lost, the most reactions, then the fewest flashes over the 27, then the
  larger NN jump median; if none passes, the same order among the rows with no slow flash and no more medium flashes
  than off) is run across N (--cases sizes) and with the control (--cases control) if time allows.
- A candidate is named only if round 20's rule (round20.py decide's five points, as round24.py applies them on the
  tuning seeds: the best row's 33 against off's 33, per-group reactions against off's) passes it. Named or not, no
  reporting seeds are run and no default moves.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import round24  # noqa: E402

# (tag, the row's name before ", Rs .., p ..", Rs, p): round24.sweep's rows
ROWS = [("react28_v15_spread15", "15, v0 15", 12.5, 3), ("react28_v20_spread15", "15, v0 20", 12.5, 3),
        ("react28_v15_spread20", "20, v0 15", 12.5, 3), ("react28_v20_spread20", "20, v0 20", 12.5, 3)]
EARLIER = [("react26_r12.5_p3_spread15", "15, no gate", 12.5, 3)]

if __name__ == "__main__":
    if sys.argv[1:] == ["seeds"]:
        round24.seeds()
    else:
        round24.ROWS = ROWS
        round24.EARLIER = EARLIER
        round24.sweep()

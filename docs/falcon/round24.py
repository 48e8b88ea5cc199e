#!/usr/bin/env python3
"""Round 24 (issue 26, branch react26; docs/falcon/rounds.md "Round 24"): why some attacks make no reaction, and one fix
swept on the tuning seeds 101-103 (no reporting seeds this round, no default changed).

    /usr/bin/python3 docs/falcon/round24.py diagnose MURMUR   # every attack without a reaction on main: what happened
    /usr/bin/python3 docs/falcon/round24.py sweep             # the sweep's rows, the best row, the declared test

The declaration (committed before any row of the sweep below was read, and before the diagnosis runs of this round):
- Seeds: the tuning seeds 101, 102, 103 only (run.py --tuning; spread.py --seeds 101 102 103). No reporting seeds are run.
- The reaction is the issue's reading (run.py's `reacted`: the whole flock's NN jump >= 1.25 or more groups); the
  per-group reading (spread.py: the attacked group's `group_jump` >= 1.25 or more groups) is shown beside it as a
  diagnostic only.
- The diagnosis classes each attack without a reaction on main (off: react20_off, main's bits) by one rule:
  * the falcon's: the flock could not see it (the falcon never within escape_radius, 20 m, of a flying bird while
    attacking, or no bird alarmed by the falcon itself);
  * the reading's: seen, and the attacked group's own reading reacts (spread.py: group_jump >= 1.25 or more groups)
    while the whole flock's does not;
  * the prey's: seen, and the attacked group did not open by 1.25 either (no spread).
- The sweep (the brief's fix for the prey's cause): `escape_spread` 15 m/s^2 with `escape_spread_falloff` 3 and
  `escape_spread_radius` 10 and 12.5 m (round 23's left rows), the 27 at N = 2,000 (run.py --cases strategies), with
  spread.py's per-group reading of the 27 on each row. The best row by round 23's order (round23.py: among the rows that
  add reactions over off with no slow flash, no more medium flashes than off and no wave lost, the most reactions, then
  the fewest flashes over the 27, then the larger NN jump median; if none passes, the same order among the rows with no
  slow flash and no more medium flashes than off) is run across N (--cases sizes) and with the control (--cases control).
- A candidate is named only if round 20's rule (round20.py `decide`'s five points) passes it on the tuning seeds, the
  best row's 33 (its 27 and its 9 across N) against off's 33 (react20_off) and its per-group reactions (the 27) against
  off's (spread_tuning_react20_off_strategies.json): (1a) more reactions by the issue's reading over the 33; (1b)
  per-group reactions not fewer; (2) waves over the 33 at most one fewer; (3) the medium peak kept (more medium waves
  than slow and than fast among the 27, at least off's medium count less one); (4) slow flashes (the 27) at most off's.
  Named or not, no reporting seeds are run this round and no default moves.
"""
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
OFF = "react20_off"
ROWS = [("react26_r10_p3_spread15", 15, 10, 3), ("react26_r12.5_p3_spread15", 15, 12.5, 3)]
# for comparison (round 21's and 23's rows at 15 m/s^2, p 2)
EARLIER = [("react23_r10_p2_spread15", 15, 10, 2), ("react25_r12.5_p2_spread15", 15, 12.5, 2)]
REACH = 20.0  # escape_radius of the starling preset, m


def load(name):
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return None
    with open(path) as fp:
        return json.load(fp)


def med(xs):
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else float("nan")

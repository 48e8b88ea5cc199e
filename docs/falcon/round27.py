#!/usr/bin/env python3
"""Round 27 (issue 26, branch react29; docs/falcon/rounds.md "Round 27"): round 26's declared run, once, on seeds 121-123.

    /usr/bin/python3 docs/falcon/round27.py decide   # round 20's rule, unchanged (round20.py decide), main (react28_main)
                                                     # against round 26's candidate (react28_cand); beside it, not part of
                                                     # the rule: each attack whose reaction differs with its length under
                                                     # both; main's target figures on 121-123 (and pooled with 71-73,
                                                     # 81-83, 91-93, 111-113, as round22.py pooled reads them)

The declaration is round 26's (docs/falcon/rounds.md, "The declared run for the candidate"), written before any run of it.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import round25  # noqa: E402

if __name__ == "__main__":
    round25.report("react28_main", "react28_cand", "121-123", (("111-113", "react26_main"), ("121-123", "react28_main")))

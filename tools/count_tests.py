#!/usr/bin/env python3
"""Sum meson test logs (testlog.json, one JSON object a line) into 'N passed, N failed'.
Exits 1 when a test failed or no test ran at all."""
import json
import sys

passed = failed = skipped = 0
for path in sys.argv[1:]:
    try:
        with open(path) as fp:
            for line in fp:
                if not line.strip():
                    continue
                r = json.loads(line)
                res = r.get("result")
                if res in ("OK", "EXPECTEDFAIL"):
                    passed += 1
                elif res == "SKIP":
                    skipped += 1
                else:
                    failed += 1
                    print("FAILED: %s (%s) in %s" % (r.get("name"), res, path))
    except OSError as e:
        print("missing test log %s: %s" % (path, e))
        failed += 1
# a skipped test counts as a failure: in CI every test must really run
print("%d passed, %d failed" % (passed, failed + skipped))
sys.exit(0 if failed + skipped == 0 and passed > 0 else 1)

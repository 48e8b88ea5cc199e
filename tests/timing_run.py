"""Run murmur for a benchmark script and read one timing line from its standard output."""
import os
import re
import subprocess


def timing(cmd, pattern, display=True, extra_env=None):
    """Run cmd (with no DISPLAY unless display), exit with its stderr when it fails, and return the
    groups of the first match of pattern in its output as floats."""
    env = dict(os.environ, **(extra_env or {}))
    if not display:
        env.pop('DISPLAY', None)
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        raise SystemExit('failed: %s\n%s' % (' '.join(cmd), r.stderr))
    m = re.search(pattern, r.stdout)
    if not m:
        raise SystemExit('no match for %r in:\n%s' % (pattern, r.stdout))
    return tuple(float(x) for x in m.groups())

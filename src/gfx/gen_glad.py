#!/usr/bin/env python3
"""Run glad 2 into a temporary folder and copy its files flat into the build folder.

A meson custom_target cannot declare outputs in subfolders, so the generated files are renamed
(glad_gl.c, glad_gl.h, glad_egl.c, glad_egl.h, glad_khrplatform.h, glad_eglplatform.h) and their
#include lines rewritten to the flat names.

usage: gen_glad.py GLAD_PROGRAM OUTDIR API EXTENSIONS
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

FLAT = {
    'glad/gl.h': 'glad_gl.h',
    'glad/egl.h': 'glad_egl.h',
    'KHR/khrplatform.h': 'glad_khrplatform.h',
    'EGL/eglplatform.h': 'glad_eglplatform.h',
}
SOURCES = {'src/gl.c': 'glad_gl.c', 'src/egl.c': 'glad_egl.c'}


def rewrite(text):
    def repl(m):
        name = m.group(1)
        return '#include "%s"' % FLAT[name] if name in FLAT else m.group(0)
    return re.sub(r'#include\s*<([^>]+)>', repl, text)


def main():
    glad, outdir, api, extensions = sys.argv[1:5]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [glad, '--quiet', '--reproducible', '--api', api, '--extensions', extensions,
               '--out-path', tmp, 'c', '--loader']
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if r.returncode != 0:
            sys.stderr.write('glad failed (%d): %s\n%s\n' % (r.returncode, ' '.join(cmd), r.stdout))
            return 1
        pairs = [('include/' + k, v) for k, v in FLAT.items()] + list(SOURCES.items())
        for src, dst in pairs:
            with open(os.path.join(tmp, src), encoding='utf-8') as f:
                text = rewrite(f.read())
            with open(os.path.join(outdir, dst), 'w', encoding='utf-8') as f:
                f.write(text)
    return 0


if __name__ == '__main__':
    sys.exit(main())

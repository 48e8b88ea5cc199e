#!/usr/bin/env python3
"""Docs that run: every command in the code blocks of README.md, docs/recording.md and
docs/controls.md runs, at small sizes and frame counts substituted here, and makes what the page
says it makes (standard library, ffprobe and xvfb-run only).

usage: docs_run_test.py MURMUR SOURCE_ROOT [--list]   (--list prints the commands as run, and stops)

What is substituted, and nothing else: `murmur` / `build/src/app/murmur` is the program under test;
--frames N becomes at most 8 (and --keys frames at most 8); --size WxH an eighth of it (even),
160x90 where a frame-making command has none; --boids at most 400 (400 where none is given);
--warmup at most 10; --steps at most 20. Each command runs in a fresh temporary folder, so the
paths it writes (docs/screenshot.png, frames/...) land there.

What is checked, from the command itself: exit status 0; a video (--record .mp4/.mkv/.webm/.gif)
has the codec the page gives, the frame count asked for, the size, and lasts frames / fps (one
second of video a second at the given rate), and the summary line says the pace the page claims
(1 simulated s per video s by default: real time; S with --speed S); a PNG pattern gives one PNG
a frame; --screenshot writes a PNG of the size; --metrics and --export write the columns the README
lists; "an Nx time-lapse" in the paragraph before a command is the pace it prints, and "The same,
..." keeps every flag and value of the command before it. Keyframe blocks (--camera-path files) are written to a file and flown. Usage lines
(`murmur [--flag ...]`) only have their flags checked against `murmur --help`. Two commands are
not run, named in SKIP with the reason; the test fails if they are no longer in the pages.
"""
import os
import re
import shlex
import struct
import subprocess
import sys
import tempfile

PAGES = ['README.md', 'docs/recording.md', 'docs/controls.md']
PROGRAM = ('murmur', 'build/src/app/murmur')
SKIP = {
    'tools/install.sh': 'installs packages (sudo apt-get), builds and opens the viewer',
    'tools/test.sh': 'runs every test suite, this one included',
}
MAX_FRAMES, MAX_BOIDS, MAX_WARMUP, MAX_STEPS = 8, 400, 10, 20
CODEC = {'.mp4': 'h264', '.mov': 'h264', '.mkv': 'h264', '.webm': 'vp9', '.gif': 'gif'}


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def blocks(text):
    """The page's code blocks (indented by 4 spaces after a blank line, or fenced without a language
    or in sh), each with the prose paragraph just before it: [(lines, prose)]."""
    out, cur, fence, prev, prose = [], [], None, '', ''
    for line in text.splitlines():
        blank_before, prev = not prev.strip(), line
        if fence is not None:
            if line.startswith('```'):
                if fence in ('', 'sh', 'bash', 'console'):
                    out.append((cur, prose))
                cur, fence = [], None
            else:
                cur.append(line)
            continue
        if line.startswith('```'):
            if cur:
                out.append((cur, prose))
            cur, fence = [], line[3:].strip()
            continue
        if line.startswith('    ') and (cur or (line.strip() and blank_before)):
            cur.append(line[4:])
            continue
        if cur and not line.strip():
            cur.append('')
            continue
        if cur:
            out.append((cur, prose))
            cur = []
        if line.strip():
            prose = (prose + ' ' + line.strip()) if not blank_before else line.strip()
    if cur:
        out.append((cur, prose))
    return out


def logical_lines(block):
    """Lines with their backslash continuations joined."""
    out, acc = [], ''
    for line in block:
        s = line.rstrip()
        if s.endswith('\\'):
            acc += s[:-1].rstrip() + ' '
            continue
        out.append(acc + s.strip())
        acc = ''
    if acc:
        out.append(acc.strip())
    return [l for l in out if l]


def is_keyframe_block(lines):
    """A --camera-path file: keyframe lines (numbers), comments and `relative`."""
    words = [l.split()[0] for l in lines if l.split()]
    return bool(words) and all(w == 'relative' or w.startswith('#') or re.match(r'^-?[\d.]+$', w)
                               for w in words) and any(re.match(r'^[\d.]+$', w) for w in words)


def smaller(tokens):
    """The command with the test's substitutions; returns (tokens, the facts the checks need)."""
    out, facts = [], {'size': None, 'frames': None, 'fps': 30.0, 'speed': None, 'tpf': None}
    i = 0
    while i < len(tokens):
        t = tokens[i]
        v = tokens[i + 1] if i + 1 < len(tokens) else None
        if t == '--frames':
            n = min(int(v), MAX_FRAMES)
            facts['frames'] = n
            out += [t, str(n)]
            i += 2
            continue
        if t == '--keys':
            keys = re.sub(r'(\d+):', lambda m: '%d:' % min(int(m.group(1)), MAX_FRAMES), v)
            out += [t, keys]
            i += 2
            continue
        if t in ('--size', '--screenshot-size'):
            w, h = (int(x) for x in v.split('x'))
            w, h = max(32, w // 8 // 2 * 2), max(32, h // 8 // 2 * 2)
            if t == '--size':
                facts['size'] = (w, h)
            out += [t, '%dx%d' % (w, h)]
            i += 2
            continue
        caps = {'--boids': MAX_BOIDS, '--warmup': MAX_WARMUP, '--steps': MAX_STEPS}
        if t in caps:
            n = min(int(v), caps[t])
            facts[t[2:]] = n
            out += [t, str(n)]
            i += 2
            continue
        if t == '--fps':
            facts['fps'] = float(v)
        elif t == '--speed':
            facts['speed'] = float(v)
        elif t == '--ticks-per-frame':
            facts['tpf'] = int(v)
        out.append(t)
        i += 1
    makes_frames = facts['frames'] is not None or '--record' in out
    if makes_frames and facts['size'] is None:
        facts['size'] = (160, 90)
        out += ['--size', '160x90']
    if '--boids' not in out and '--steps' not in out and '--init' not in out:
        out += ['--boids', str(MAX_BOIDS)]
    return out, facts


def arg(tokens, flag):
    return tokens[tokens.index(flag) + 1] if flag in tokens else None


def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    check(head[:8] == b'\x89PNG\r\n\x1a\n', '%s is not a PNG' % path)
    return struct.unpack('>II', head[16:24])


def probe(path):
    r = subprocess.run(['ffprobe', '-v', 'error', '-count_frames', '-select_streams', 'v:0', '-show_entries',
                        'stream=codec_name,width,height,nb_read_frames,pix_fmt:format=duration', '-of',
                        'default=nw=1', path], capture_output=True, text=True, timeout=120)
    check(r.returncode == 0, 'ffprobe %s: %s' % (path, r.stderr.strip()))
    return dict(l.split('=', 1) for l in r.stdout.split('\n') if '=' in l)


def check_outputs(tokens, facts, tmp, r):
    rec = arg(tokens, '--record')
    if rec:
        n, fps = facts['frames'], facts['fps']
        w, h = facts['size']
        ext = os.path.splitext(rec)[1].lower()
        if '%' in rec:
            files = sorted(os.listdir(os.path.join(tmp, os.path.dirname(rec))))
            check(len(files) == n, '%s: %d PNGs for %d frames' % (rec, len(files), n))
            got = png_size(os.path.join(tmp, os.path.dirname(rec), files[0]))
            check(got == (w, h), '%s: %s, want %dx%d' % (files[0], got, w, h))
        else:
            p = probe(os.path.join(tmp, rec))
            check(p.get('codec_name') == CODEC[ext], '%s: codec %s, want %s' % (rec, p.get('codec_name'), CODEC[ext]))
            if ext in ('.mp4', '.mov', '.mkv', '.webm'):
                check(p.get('pix_fmt') == 'yuv420p', '%s: pixel format %s, want yuv420p' % (rec, p.get('pix_fmt')))
            check(int(p['nb_read_frames']) == n, '%s: %s frames, want %d' % (rec, p['nb_read_frames'], n))
            check((int(p['width']), int(p['height'])) == (w + w % 2, h + h % 2),
                  '%s: %sx%s, want %dx%d' % (rec, p['width'], p['height'], w, h))
            dur = float(p['duration'])
            check(abs(dur - n / fps) <= 0.06 * n / fps + 0.011,
                  '%s: lasts %.3f s, want %d frames at %g fps = %.3f s' % (rec, dur, n, fps, n / fps))
        # the pace: real time unless --speed or --ticks-per-frame say otherwise
        if facts['tpf'] is None:
            want = 'video pace: %g simulated s per video s' % (facts['speed'] or 1.0)
            check(want in r.stdout, 'want "%s" in the summary:\n%s' % (want, r.stdout))
        if facts.get('lapse'):
            # "a 20x time-lapse" in the prose before the command: the pace it prints
            m = re.search(r'video pace: .*?([\d.]+) simulated s per video s', r.stdout)
            check(m and abs(float(m.group(1)) - facts['lapse']) < 0.05 * facts['lapse'],
                  'the page promises a %gx time-lapse; the run says: %s' % (facts['lapse'], m and m.group(0)))
    shot = arg(tokens, '--screenshot')
    if shot:
        got = png_size(os.path.join(tmp, shot))
        check(got == facts['size'], '%s: %s, want %s' % (shot, got, facts['size']))
    met = arg(tokens, '--metrics')
    if met:
        with open(os.path.join(tmp, met)) as f:
            rows = [l for l in f.read().splitlines() if not l.startswith('#')]
        check(rows[0].startswith('tick,centre_x,centre_y,centre_z,diameter,polarisation,mean_neighbours,'
                                 'nn_distance,perching,groups'), '%s: header %s' % (met, rows[0]))
        if facts.get('steps'):
            check(len(rows) - 1 >= facts['steps'], '%s: %d rows for %d ticks' % (met, len(rows) - 1, facts['steps']))
    exp = arg(tokens, '--export')
    if exp:
        with open(os.path.join(tmp, exp)) as f:
            rows = [l for l in f.read().splitlines() if not l.startswith('#')]
        check(rows[0].split(',')[:8] == 'kind,x,y,z,vx,vy,vz,perch'.split(','), '%s: header %s' % (exp, rows[0]))
    if '--steps' in tokens:
        check('hash' in r.stdout + r.stderr, 'a batch run should print the state hash:\n' + r.stdout + r.stderr)


def run(cmd, tmp, timeout=300):
    env = dict(os.environ, MURMUR_THREADS='2')
    return subprocess.run(cmd, cwd=tmp, capture_output=True, text=True, timeout=timeout, env=env)


def main():
    murmur, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    listing = '--list' in sys.argv[3:]
    help_text = subprocess.run([murmur, '--help'], capture_output=True, text=True).stdout
    seen_skips, failures, ran, paths, last = set(), 0, 0, 0, None
    for page in PAGES:
        with open(os.path.join(root, page)) as f:
            text = f.read()
        tmpdir = tempfile.TemporaryDirectory(prefix='murmur-docs-run-')
        tmp = tmpdir.name
        for block, prose in blocks(text):
            lines = logical_lines(block)
            lapse = re.search(r'(\d+)x time-lapse', prose)
            if is_keyframe_block(lines):
                paths += 1
                path = os.path.join(tmp, 'path%d.txt' % paths)
                with open(path, 'w') as f:
                    f.write('\n'.join(lines) + '\n')
                jobs = [([murmur, '--headless', '--record', 'path%d.mp4' % paths, '--frames', '4', '--size',
                          '160x90', '--boids', '200', '--camera-path', path], None)]
            else:
                jobs = []
                for line in lines:
                    toks = shlex.split(line)
                    if not toks or toks[0] == 'murmur:' or toks[0].endswith(':'):
                        continue  # a sample of output
                    if toks[0].startswith('['):
                        toks = ['murmur'] + toks  # a usage line's continuation
                    if toks[0] in SKIP:
                        seen_skips.add(toks[0])
                        continue
                    if toks[0] in PROGRAM and any(t.startswith('[') for t in toks):
                        # a usage line: its flags exist
                        for flag in re.findall(r'--[a-z0-9-]+', line):
                            if flag not in help_text:
                                print('FAIL %s: usage line names %s, which murmur --help does not list' % (page, flag))
                                failures += 1
                        continue
                    if toks[0] == 'mkdir':
                        jobs.append((toks, None))
                        continue
                    if toks[0] == 'xvfb-run':
                        k = next(i for i, t in enumerate(toks) if t in PROGRAM)
                        small, facts = smaller(toks[k + 1:])
                        jobs.append((toks[:k] + [murmur] + small, facts))
                        continue
                    check(toks[0] in PROGRAM, '%s: a command this test does not know: %s' % (page, line))
                    if prose.startswith('The same') and last is not None:
                        # "the same, ..." keeps every flag and value of the command before it
                        lost = [t for t in last if t not in toks]
                        if lost:
                            print('FAIL %s: "%s" drops %s of the command before it' % (page, prose, ' '.join(lost)))
                            failures += 1
                    last = toks
                    small, facts = smaller(toks[1:])
                    if lapse:
                        facts['lapse'] = float(lapse.group(1))
                    if '--headless' not in small and ('--frames' in small or '--record' in small):
                        # the page says these need a display: the test gives them one
                        small_cmd = ['xvfb-run', '-a', '-s', '-screen 0 1280x720x24', murmur] + small
                    else:
                        small_cmd = [murmur] + small
                    jobs.append((small_cmd, facts))
            for cmd, facts in jobs:
                if listing:
                    print('%s: %s' % (page, ' '.join(shlex.quote(c) for c in cmd)))
                    continue
                os.makedirs(os.path.join(tmp, 'docs'), exist_ok=True)
                r = run(cmd, tmp)
                ran += 1
                try:
                    check(r.returncode == 0, 'exit %d\n%s%s' % (r.returncode, r.stdout[-2000:], r.stderr[-2000:]))
                    if facts is not None:
                        k = cmd.index(murmur)
                        check_outputs(cmd[k + 1:], facts, tmp, r)
                    shown = cmd[cmd.index(murmur) + 1:] if murmur in cmd else cmd
                    print('ok %s: %s' % (page, ' '.join(shlex.quote(c) for c in shown)))
                except Failure as e:
                    print('FAIL %s: %s\n  %s' % (page, ' '.join(shlex.quote(c) for c in cmd), e))
                    failures += 1
        tmpdir.cleanup()
    if listing:
        return 0
    for cmd, why in SKIP.items():
        if cmd not in seen_skips:
            print('FAIL: %s is no longer in the pages: remove it from SKIP' % cmd)
            failures += 1
        else:
            print('skipped %s: %s' % (cmd, why))
    print('%d commands run, %d failed' % (ran, failures))
    return 1 if failures else 0


if __name__ == '__main__':
    try:
        sys.exit(main())
    except Failure as e:
        print('FAIL: %s' % e)
        sys.exit(1)

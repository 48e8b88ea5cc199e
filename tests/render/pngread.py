"""PNG reading for the render and record tests, by hand (zlib; standard library only), and the tests'
failure: Failure, check, read_png, pixel (render_test.py passes them on)."""
import struct
import zlib


class Failure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Failure(msg)


def read_png(path):
    with open(path, 'rb') as f:
        data = f.read()
    check(data[:8] == b'\x89PNG\r\n\x1a\n', '%s: not a PNG (bad signature)' % path)
    pos, idat, ihdr = 8, b'', None
    while pos < len(data):
        (length,) = struct.unpack('>I', data[pos:pos + 4])
        kind = data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        (crc,) = struct.unpack('>I', data[pos + 8 + length:pos + 12 + length])
        check(zlib.crc32(kind + body) & 0xffffffff == crc, '%s: bad CRC in %r' % (path, kind))
        if kind == b'IHDR':
            ihdr = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        elif kind == b'IEND':
            break
        pos += 12 + length
    check(ihdr is not None, '%s: no IHDR' % path)
    w, h, depth, ctype, _, _, interlace = ihdr
    check(depth == 8 and ctype in (2, 6) and interlace == 0,
          '%s: unexpected format depth=%d type=%d' % (path, depth, ctype))
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = w * bpp
    check(len(raw) == h * (stride + 1), '%s: wrong amount of pixel data' % path)
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ftype = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ftype == 1:
                line[i] = (line[i] + a) & 255
            elif ftype == 2:
                line[i] = (line[i] + b) & 255
            elif ftype == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ftype == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pr = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pr) & 255
            else:
                check(ftype == 0, '%s: bad filter %d' % (path, ftype))
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def pixel(img, x, y):
    w, h, bpp, rows = img
    x, y = int(round(x)), int(round(y))
    x, y = min(max(x, 0), w - 1), min(max(y, 0), h - 1)
    return tuple(rows[y][x * bpp:x * bpp + 3])

#!/usr/bin/env python3
"""Writes the golden files of the matrix layer from the Kaldi format spec.

Run from anywhere: python3 tests/data/matrix/make-golden.py
The files are written next to this script and committed; the unit tests in
tests/unit/matrix/ read them and check that re-writing gives the same bytes.

Everything here is built with struct.pack from the format description
(reference/kaldi-nnet3.md 4.1, 4.2, plus Kaldi's compression arithmetic),
never with our C++ writers, so the tests really test the formats.

Binary files start with the Kaldi binary header "\\0B"; text files have none.
"""

import os
import struct

OUT = os.path.dirname(os.path.abspath(__file__))


def f32(x):
    """x rounded to the nearest float32 (one float operation's rounding)."""
    return struct.unpack('<f', struct.pack('<f', x))[0]


def token(t):
    return t.encode() + b' '


def i32(v):  # WriteBasicType(int32): size byte 4 + little-endian value
    return b'\x04' + struct.pack('<i', v)


def flt(v):  # WriteBasicType(float): size byte 4 + IEEE float
    return b'\x04' + struct.pack('<f', v)


def full_matrix(rows, tok='FM'):
    fmt = '<f' if tok == 'FM' else '<d'
    nc = len(rows[0]) if rows else 0
    out = token(tok) + i32(len(rows)) + i32(nc)
    for row in rows:
        for v in row:
            out += struct.pack(fmt, v)
    return out


def vector(vals, tok='FV'):
    fmt = '<f' if tok == 'FV' else '<d'
    return token(tok) + i32(len(vals)) + b''.join(
        struct.pack(fmt, v) for v in vals)


def write(name, data):
    with open(os.path.join(OUT, name), 'wb') as f:
        f.write(data if isinstance(data, bytes) else data.encode())


# ---------------- Kaldi's compression arithmetic (compressed-matrix.cc) -----
# Each step rounds where Kaldi's does: float ops via f32(), double ops as
# Python floats.

def float_to_code(mn, rng, v, levels):
    f = f32(f32(v - mn) / rng)
    f = min(max(f, 0.0), 1.0)
    return int(f32(f * levels) + 0.499)


def code_to_float(mn, rng, code):  # Uint16ToFloat, all float
    return f32(mn + f32(f32(rng * f32(1.52590218966964e-05)) * code))


def float_to_char(p0, p25, p75, p100, v):
    if v < p25:
        f = f32(f32(v - p0) / f32(p25 - p0))
        return min(max(int(f32(f * 64) + 0.5), 0), 64)
    if v < p75:
        f = f32(f32(v - p25) / f32(p75 - p25))
        return min(max(64 + int(f32(f * 128) + 0.5), 64), 192)
    f = f32(f32(v - p75) / f32(p100 - p75))
    return min(max(192 + int(f32(f * 63) + 0.5), 192), 255)


def char_to_float(p0, p25, p75, p100, b):
    if b <= 64:
        return f32(p0 + f32(f32(p25 - p0) * b) * (1 / 64.0))
    if b <= 192:
        return f32(p25 + f32(f32(p75 - p25) * (b - 64)) * (1 / 128.0))
    return f32(p75 + f32(f32(p100 - p75) * (b - 192)) * (1 / 63.0))


def global_range(rows):
    vals = [v for row in rows for v in row]
    mn, mx = min(vals), max(vals)
    if mx == mn:
        mx = f32(mn + (1.0 + abs(mn)))
    return mn, f32(mx - mn)


def col_header(mn, rng, col):
    s = sorted(col)
    n = len(s)
    code = lambda v: float_to_code(mn, rng, v, 65535)
    if n >= 5:
        q = n // 4
        i25, i75, i100 = q, 3 * q, n - 1
    else:
        i25, i75, i100 = 1, 2, 3
    p0 = min(code(s[0]), 65532)
    p25 = min(max(code(s[i25]), p0 + 1), 65533) if n > i25 else p0 + 1
    p75 = min(max(code(s[i75]), p25 + 1), 65534) if n > i75 else p25 + 1
    p100 = max(code(s[i100]), p75 + 1) if n > i100 else p75 + 1
    return p0, p25, p75, p100


def compress(rows, fmt):
    """Returns (file bytes after the header "\\0B", decoded rows)."""
    nr, nc = len(rows), len(rows[0])
    mn, rng = global_range(rows)
    head = struct.pack('<ffii', mn, rng, nr, nc)
    if fmt == 1:
        headers, data = b'', b''
        decoded = [[0.0] * nc for _ in range(nr)]
        for c in range(nc):
            col = [rows[r][c] for r in range(nr)]
            h = col_header(mn, rng, col)
            headers += struct.pack('<4H', *h)
            p = [code_to_float(mn, rng, x) for x in h]
            for r in range(nr):
                b = float_to_char(*p, col[r])
                data += bytes([b])
                decoded[r][c] = char_to_float(*p, b)
        return token('CM') + head + headers + data, decoded
    levels = 65535 if fmt == 2 else 255
    inc = f32(rng * (1.0 / levels))
    data = b''
    decoded = []
    for row in rows:
        drow = []
        for v in row:
            code = float_to_code(mn, rng, v, levels)
            data += struct.pack('<H' if fmt == 2 else '<B', code)
            drow.append(f32(mn + f32(code * inc)))
        decoded.append(drow)
    return token('CM2' if fmt == 2 else 'CM3') + head + data, decoded


def main():
    B = b'\0B'
    m23 = [[1.0, -2.5, 0.125], [3.75, 0.0, 100.0]]
    write('fm-2x3.bin', B + full_matrix(m23))
    write('dm-2x3.bin', B + full_matrix(m23, 'DM'))
    write('fm-2x3.txt', ' [\n  1 -2.5 0.125 \n  3.75 0 100 ]\n')
    write('fm-empty.bin', B + full_matrix([]))
    write('fm-empty.txt', ' [ ]\n')
    write('fm-infnan.txt', ' [\n  1 inf \n  -inf nan ]\n')

    v4 = [0.5, -1.0, 2.0, f32(1e-05)]
    write('fv-4.bin', B + vector(v4))
    write('dv-4.bin', B + vector(v4, 'DV'))
    write('fv-4.txt', ' [ 0.5 -1 2 1e-05 ]\n')
    write('fv-empty.bin', B + vector([]))
    write('fv-empty.txt', ' [ ]\n')

    # Compression: a 10 x 3 source (so kAutomaticMethod picks CM), a 3 x 2
    # source (the n < 5 percentile case), and a constant 2 x 2 source.
    src = [[f32(((i * 7 + j * 13) % 17) * 0.37 - 2.1 + j * 0.013 + i * 0.001)
            for j in range(3)] for i in range(10)]
    small = [[f32(0.25 * i - 0.5 * j + 0.1) for j in range(2)]
             for i in range(3)]
    const = [[-2.0, -2.0], [-2.0, -2.0]]
    write('cm-source.bin', B + full_matrix(src))
    write('cm-small-source.bin', B + full_matrix(small))
    write('cm-const-source.bin', B + full_matrix(const))
    for name, rows, fmt in [('cm1', src, 1), ('cm2', src, 2), ('cm3', src, 3),
                            ('cm1-small', small, 1), ('cm2-const', const, 2)]:
        data, decoded = compress(rows, fmt)
        write(name + '.bin', B + data)
        write(name + '-decoded.bin', B + full_matrix(decoded))

    # Sparse: SV dim 5 {0: 0.5, 3: 1}; SM with that row and an empty one.
    sv = token('SV') + i32(5) + i32(2) + i32(0) + flt(0.5) + i32(3) + flt(1.0)
    sv_empty = token('SV') + i32(5) + i32(0)
    write('sv.bin', B + sv)
    write('sv.txt', 'dim=5 [ 0 0.5 3 1 ] ')
    write('sm.bin', B + token('SM') + i32(2) + sv + sv_empty)
    write('sm.txt', 'rows=2 dim=5 [ 0 0.5 3 1 ] dim=5 [ ] \n')

    # Posterior: frames [(3, 1)] and [(4, 0.5), (7, 0.5)].
    post = (i32(2) + i32(1) + i32(3) + flt(1.0) +
            i32(2) + i32(4) + flt(0.5) + i32(7) + flt(0.5))
    write('post.bin', B + post)
    write('post.txt', '[ 3 1 ] [ 4 0.5 7 0.5 ] \n')


if __name__ == '__main__':
    main()

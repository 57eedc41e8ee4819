#!/usr/bin/env python3
"""Writes the golden egs archives in this directory, by hand from the format
(reference 4.1, 4.2, 6.1, 6.2), without using the toolkit:

  full-sparse.egs / .egs.txt  one eg: a full-matrix input (t=-2..2) and a
                              sparse output (one empty row)
  ivector.egs / .egs.txt      two egs: input + ivector + output with t
                              stride 3; then a merged eg (n=0,1), a large t
                              and an x != 0, which need the escape code 127
  compressed.egs              one eg whose input is a CM2 compressed matrix
                              (binary only: text would show decoded values)

Run it from anywhere: python3 make-golden-egs.py
"""
import os
import struct

HERE = os.path.dirname(os.path.abspath(__file__))


def tok(s, binary):
    return (s + ' ').encode()


def i32(v, binary):
    return b'\x04' + struct.pack('<i', v) if binary else ('%d ' % v).encode()


def f32(v):
    return b'\x04' + struct.pack('<f', v)


def num(v):
    return '%g' % v


def index_vector(indexes, binary):
    out = tok('<I1V>', binary) + i32(len(indexes), binary)
    prev = (0, 0, 0)
    for (n, t, x) in indexes:
        if not binary:
            out += ('<I1> %d %d %d ' % (n, t, x)).encode()
        elif n == prev[0] and x == prev[2] and abs(t - prev[1]) < 125:
            out += struct.pack('<b', t - prev[1])
        else:
            out += b'\x7f' + i32(n, True) + i32(t, True) + i32(x, True)
        prev = (n, t, x)
    return out


def full_matrix(rows, binary):
    if binary:
        out = b'FM ' + i32(len(rows), True) + i32(len(rows[0]), True)
        for r in rows:
            out += b''.join(struct.pack('<f', v) for v in r)
        return out
    return (' [' + ''.join('\n  ' + ''.join(num(v) + ' ' for v in r)
                           for r in rows) + ']\n').encode()


def sparse_matrix(dim, rows, binary):
    if binary:
        out = b'SM ' + i32(len(rows), True)
        for r in rows:
            out += b'SV ' + i32(dim, True) + i32(len(r), True)
            for (i, v) in r:
                out += i32(i, True) + f32(v)
        return out
    text = 'rows=%d ' % len(rows)
    for r in rows:
        text += 'dim=%d [ ' % dim + ''.join('%d %s ' % (i, num(v))
                                            for (i, v) in r) + '] '
    return (text + '\n').encode()


def cm2_matrix(min_value, value_range, codes):
    out = b'CM2 ' + struct.pack('<ffii', min_value, value_range, len(codes),
                                len(codes[0]))
    for r in codes:
        out += b''.join(struct.pack('<H', u) for u in r)
    return out


def nnet_io(name, indexes, matrix_bytes, binary):
    return (tok('<NnetIo>', binary) + tok(name, binary) +
            index_vector(indexes, binary) + matrix_bytes + tok('</NnetIo>', binary))


def eg(ios, binary):
    return (tok('<Nnet3Eg>', binary) + tok('<NumIo>', binary) +
            i32(len(ios), binary) + b''.join(ios) + tok('</Nnet3Eg>', binary))


def entry(key, eg_bytes, binary):
    return (key + ' ').encode() + (b'\x00B' if binary else b'') + eg_bytes


def t_range(lo, hi, step=1, n=0, x=0):
    return [(n, t, x) for t in range(lo, hi, step)]


def full_sparse(binary):
    feats = [[1, 2, 3], [4, 5, 6], [-0.5, 0.25, 7], [8, 9, 10], [0, 0, 1]]
    labels = [[(1, 1.0)], [(0, 0.5), (3, 0.5)], []]
    return entry('utt1-0', eg([
        nnet_io('input', t_range(-2, 3), full_matrix(feats, binary), binary),
        nnet_io('output', t_range(0, 3), sparse_matrix(4, labels, binary),
                binary)], binary), binary)


def ivector(binary):
    single = eg([
        nnet_io('input', t_range(-1, 3), full_matrix(
            [[1, 2], [3, 4], [5, 6], [7, 8]], binary), binary),
        nnet_io('ivector', [(0, 0, 0)], full_matrix([[0.5, -1, 2]], binary),
                binary),
        nnet_io('output', t_range(0, 6, 3), sparse_matrix(
            3, [[(2, 1.0)], [(0, 0.25), (1, 0.75)]], binary), binary)], binary)
    merged = eg([
        nnet_io('input', [(0, -1, 0), (0, 0, 0), (1, -1, 0), (1, 0, 0)],
                full_matrix([[1, 1], [2, 2], [3, 3], [4, 4]], binary), binary),
        nnet_io('ivector', [(0, 0, 0), (1, 0, 0)],
                full_matrix([[1, 0, 0], [0, 1, 0]], binary), binary),
        nnet_io('output', [(0, 200, 0), (0, 201, 1), (1, 200, 0),
                           (1, -300, 0)], sparse_matrix(
            3, [[(0, 1.0)], [(1, 1.0)], [(2, 1.0)], [(0, 2.0)]], binary),
            binary)], binary)
    return entry('utt2-0', single, binary) + entry('merged-0-2', merged, binary)


def compressed():
    codes = [[0, 65535, 1000], [32768, 7, 65534], [1, 2, 3]]
    return entry('utt3-0', eg([
        nnet_io('input', t_range(-1, 2), cm2_matrix(-1.0, 4.0, codes), True),
        nnet_io('output', t_range(0, 1), sparse_matrix(2, [[(1, 1.0)]], True),
                True)], True), True)


def main():
    files = {
        'full-sparse.egs': full_sparse(True),
        'full-sparse.egs.txt': full_sparse(False),
        'ivector.egs': ivector(True),
        'ivector.egs.txt': ivector(False),
        'compressed.egs': compressed(),
    }
    for name, data in files.items():
        with open(os.path.join(HERE, name), 'wb') as f:
            f.write(data)


if __name__ == '__main__':
    main()

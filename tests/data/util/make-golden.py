#!/usr/bin/env python3
"""Writes the golden Kaldi table files used by tests/unit/util/table-matrix-test.cc.

Written from the format description (reference sections 4.1, 4.2, 5.4), not
from our own writer, so the tests check our code against the spec:

  golden-mat.ark       binary archive of two float matrices (FM)
  golden-mat.scp       its scp: "key golden-mat.ark:OFFSET", OFFSET = the byte
                       right after "key " (where "\\0B" starts)
  golden-mat-text.ark  the same two matrices as a text archive (ark,t)
  golden-ali.ark       binary archive of two int32 vectors in Kaldi's
                       BasicVectorHolder layout (count and values, each with
                       a size byte)
  golden-ali-text.ark  the same as text ("1 2 3 \\n")

Run from this directory: python3 make-golden.py
"""
import struct

MATRICES = [
    ("mat1", [[1.0, -2.5, 0.125], [3.0, 1000.0, -0.5]]),
    ("utt-2", [[0.25], [-8.0], [2.0], [64.0]]),
]
ALIGNMENTS = [("ali1", [5, 6, 6, 7]), ("ali2", [])]


def int32(v):
    """WriteBasicType<int32> in binary: size byte 4, little-endian value."""
    return b"\x04" + struct.pack("<i", v)


def binary_matrix(rows):
    data = b"FM " + int32(len(rows)) + int32(len(rows[0]) if rows else 0)
    for row in rows:
        data += struct.pack("<%df" % len(row), *row)
    return data


def text_number(x):
    """How C++ prints these floats with precision 7 (all exact here)."""
    return ("%.7g" % x)


def text_matrix(rows):
    out = " ["
    for row in rows:
        out += "\n  " + "".join(text_number(x) + " " for x in row)
    return out + "]\n"


def main():
    ark = b""
    scp = ""
    for key, rows in MATRICES:
        ark += key.encode() + b" "
        scp += "%s golden-mat.ark:%d\n" % (key, len(ark))
        ark += b"\0B" + binary_matrix(rows)
    text = "".join(key + " " + text_matrix(rows) for key, rows in MATRICES)
    ali = b""
    ali_text = ""
    for key, values in ALIGNMENTS:
        ali += key.encode() + b" \0B" + int32(len(values))
        ali += b"".join(int32(v) for v in values)
        ali_text += key + " " + "".join("%d " % v for v in values) + "\n"
    files = {
        "golden-mat.ark": ark,
        "golden-mat.scp": scp.encode(),
        "golden-mat-text.ark": text.encode(),
        "golden-ali.ark": ali,
        "golden-ali-text.ark": ali_text.encode(),
    }
    for name, data in files.items():
        with open(name, "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the golden files in this directory by hand from the formats
(reference 4.1, 4.2, 6.1, 6.2 and Kaldi's LdaEstimate / CMVN formats),
without using the toolkit, for tests/cli/recipe-*.sh:

  feats.txt, targets.txt  the inputs: two utterances (4 and 6 frames) of
                          3-dim features, with 3-dim dense targets
  utt2spk                 both utterances belong to speaker spkA
  dense.egs / .egs.txt    what nnet3-get-egs-dense-targets --compress=false
                          --left-context=1 --right-context=1 --num-frames=2
                          writes: chunks of 2 frames (the lengths divide
                          evenly, so every splitting rule agrees), inputs
                          with the edge frames repeated, the target rows
  lda.acc / lda.acc.txt   LDA stats (Kaldi's LdaEstimate::Write) of every
                          frame's features, class weights from the targets
  cmvn.ark                per-speaker CMVN stats (DM, Kaldi's
                          compute-cmvn-stats --spk2utt): float products,
                          double sums, frame by frame
  cmvn-global.mat         global stats as written by Kaldi (FM)
  cmvn-applied.ark        the features after apply-cmvn --utt2spk with
                          mean normalization, in float arithmetic as Kaldi

Run it from anywhere: python3 make-golden.py
"""
import importlib.util
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    "egs", os.path.join(HERE, "..", "train", "make-golden-egs.py"))
egs = importlib.util.module_from_spec(spec)
spec.loader.exec_module(egs)

FEATS = {
    "utt1": [[1.0, 2.0, 0.5], [1.5, -1.0, 2.0], [0.25, 0.0, 1.0],
             [3.0, 1.0, -2.0]],
    "utt2": [[-1.0, 0.5, 0.0], [2.0, 2.0, 2.0], [0.0, -0.5, 1.5],
             [1.0, 1.0, 1.0], [-2.0, 0.75, 0.25], [0.5, 0.5, -1.0]],
}
TARGETS = {
    "utt1": [[1, 0, 0], [0, 1, 0], [0, 0.5, 0.5], [0, 0, 1]],
    "utt2": [[1, 0, 0], [1, 0, 0], [0, 1, 0], [0.25, 0.75, 0], [0, 0, 1],
             [0, 0, 1]],
}


def text_archive(table):
    out = ""
    for key in sorted(table):
        rows = table[key]
        out += key + "  [\n" + "".join(
            "  " + " ".join(egs.num(v) for v in r) +
            (" ]\n" if i == len(rows) - 1 else "\n")
            for i, r in enumerate(rows))
    return out


def dense_egs(binary):
    out = b""
    for utt in sorted(FEATS):
        f, t = FEATS[utt], TARGETS[utt]
        for start in range(0, len(f), 2):
            rows = [f[min(max(i, 0), len(f) - 1)]
                    for i in range(start - 1, start + 3)]
            ios = [egs.nnet_io("input", egs.t_range(-1, 3),
                               egs.full_matrix(rows, binary), binary),
                   egs.nnet_io("output", egs.t_range(0, 2),
                               egs.full_matrix(t[start:start + 2], binary),
                               binary)]
            out += egs.entry("%s-%d" % (utt, start), egs.eg(ios, binary),
                             binary)
    return out


def f32(v):
    return float(np.float32(v))


def lda_stats():
    dim, num_classes = 3, 3
    zero = np.zeros(num_classes)
    first = np.zeros((num_classes, dim))
    second = np.zeros((dim, dim))
    for utt in sorted(FEATS):
        for x, w in zip(FEATS[utt], TARGETS[utt]):
            x = np.array(x)
            for c in range(num_classes):
                if w[c] == 0:
                    continue
                zero[c] += w[c]
                first[c] += w[c] * x
                second += w[c] * np.outer(x, x)
    # Written as second - sum_c s_c s_c^T / n_c (LdaEstimate::Write).
    for c in range(num_classes):
        if zero[c] != 0:
            second -= np.outer(first[c], first[c]) / zero[c]
    return dim, num_classes, zero, first, second


def lda_file(binary):
    dim, num_classes, zero, first, second = lda_stats()
    tok = lambda s: (s + " ").encode()
    i32 = lambda v: egs.i32(v, binary)
    out = tok("<LDAACCS>") + tok("<VECSIZE>") + i32(dim) + tok("<NUMCLASSES>")
    out += i32(num_classes) + tok("<ZERO_ACCS>")
    if binary:
        out += b"FV " + egs.i32(num_classes, True) + b"".join(
            struct.pack("<f", v) for v in zero)
    else:
        out += (" [ " + "".join(egs.num(f32(v)) + " " for v in zero) +
                "]\n").encode()
    out += tok("<FIRST_ACCS>") + egs.full_matrix(
        [[f32(v) for v in r] for r in first], binary)
    out += tok("<SECOND_ACCS>")
    lower = [[f32(second[i][j]) for j in range(i + 1)] for i in range(dim)]
    if binary:
        out += b"FP " + egs.i32(dim, True) + b"".join(
            struct.pack("<f", v) for r in lower for v in r)
    else:
        out += ("[\n" + "".join(
            "".join(egs.num(v) + " " for v in r) +
            ("]\n" if i == dim - 1 else "\n")
            for i, r in enumerate(lower))).encode()
    return out + tok("</LDAACCS>")


def cmvn_stats(utts):
    dim = 3
    stats = [[0.0] * (dim + 1), [0.0] * (dim + 1)]
    for utt in utts:
        for row in FEATS[utt]:
            x = [np.float32(v) for v in row]
            for d in range(dim):
                stats[0][d] += float(x[d] * np.float32(1.0))
                stats[1][d] += float(x[d] * x[d] * np.float32(1.0))
            stats[0][dim] += 1.0
    return stats


def double_matrix(rows):
    out = b"DM " + egs.i32(len(rows), True) + egs.i32(len(rows[0]), True)
    for r in rows:
        out += b"".join(struct.pack("<d", v) for v in r)
    return out


def cmvn_applied():
    stats = cmvn_stats(sorted(FEATS))
    count = stats[0][3]
    # Kaldi's Vector<float>::AddVec(float alpha, Vector<double>): the scale
    # is a float, the product a double, the sum a float.
    offset = [np.float32(float(np.float32(-1.0 / count)) * stats[0][d])
              for d in range(3)]
    out = b""
    for utt in sorted(FEATS):
        rows = [[float(np.float32(v) + offset[d]) for d, v in enumerate(r)]
                for r in FEATS[utt]]
        out += (utt + " ").encode() + b"\x00B" + egs.full_matrix(rows, True)
    return out


def main():
    stats = cmvn_stats(sorted(FEATS))
    files = {
        "feats.txt": text_archive(FEATS).encode(),
        "targets.txt": text_archive(TARGETS).encode(),
        "utt2spk": b"utt1 spkA\nutt2 spkA\n",
        "spk2utt": b"spkA utt1 utt2\n",
        "dense.egs": dense_egs(True),
        "dense.egs.txt": dense_egs(False),
        "lda.acc": b"\x00B" + lda_file(True),
        "lda.acc.txt": lda_file(False),
        "cmvn.ark": b"spkA \x00B" + double_matrix(stats),
        "cmvn-global.mat": b"\x00B" + egs.full_matrix(
            [[f32(v) for v in r] for r in stats], True),
        "cmvn-applied.ark": cmvn_applied(),
    }
    for name, data in files.items():
        with open(os.path.join(HERE, name), "wb") as f:
            f.write(data)


if __name__ == "__main__":
    main()

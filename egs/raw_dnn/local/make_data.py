#!/usr/bin/env python3
"""Writes a small synthetic Kaldi data directory for raw-DNN training with
dense targets: <dir>/feats.txt and <dir>/targets.txt (text archives, which
local/make_data.sh converts to binary archives and scp files), utt2spk,
spk2utt and utt2dur.

Each utterance is a sequence of segments of one of --num-classes classes;
a frame's features are its class's mean plus its speaker's offset plus
noise (--noise), smoothed over time (so context helps); its target row is
the one-hot vector of its class.

Usage: make_data.py [--num-utts N] [--num-speakers S] [--dim D]
                    [--num-classes C] [--min-len A] [--max-len B]
                    [--noise X] [--seed K] <dir>
"""
import argparse
import os
import random


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--num-utts", type=int, default=1300)
    p.add_argument("--num-speakers", type=int, default=100)
    p.add_argument("--dim", type=int, default=13)
    p.add_argument("--num-classes", type=int, default=4)
    p.add_argument("--min-len", type=int, default=20)
    p.add_argument("--max-len", type=int, default=40)
    p.add_argument("--noise", type=float, default=0.7)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("dir")
    a = p.parse_args()
    rng = random.Random(a.seed)
    os.makedirs(a.dir, exist_ok=True)
    means = [[rng.gauss(0, 1) for _ in range(a.dim)]
             for _ in range(a.num_classes)]
    spk_offsets = [[rng.gauss(0, 2) for _ in range(a.dim)]
                   for _ in range(a.num_speakers)]
    utts = []
    for u in range(a.num_utts):
        spk = u % a.num_speakers
        utts.append(("spk%03d-utt%05d" % (spk, u), "spk%03d" % spk, spk))
    utts.sort()
    with open(os.path.join(a.dir, "feats.txt"), "w") as f, \
            open(os.path.join(a.dir, "targets.txt"), "w") as t, \
            open(os.path.join(a.dir, "utt2spk"), "w") as u2s, \
            open(os.path.join(a.dir, "utt2dur"), "w") as u2d:
        for utt, spk_name, spk in utts:
            n = rng.randint(a.min_len, a.max_len)
            labels = []
            while len(labels) < n:
                labels += [rng.randrange(a.num_classes)] * rng.randint(3, 10)
            labels = labels[:n]
            prev = [0.0] * a.dim
            f.write(utt + "  [\n")
            t.write(utt + "  [\n")
            for i, c in enumerate(labels):
                x = [means[c][d] + spk_offsets[spk][d] + rng.gauss(0, a.noise)
                     for d in range(a.dim)]
                x = [0.7 * x[d] + 0.3 * prev[d] for d in range(a.dim)]
                prev = x
                end = " ]\n" if i == n - 1 else "\n"
                f.write("  " + " ".join("%.4f" % v for v in x) + end)
                t.write("  " + " ".join("1" if k == c else "0"
                                        for k in range(a.num_classes)) + end)
            u2s.write("%s %s\n" % (utt, spk_name))
            u2d.write("%s %.2f\n" % (utt, n * 0.01))
    spk2utt = {}
    for utt, spk_name, _ in utts:
        spk2utt.setdefault(spk_name, []).append(utt)
    with open(os.path.join(a.dir, "spk2utt"), "w") as f:
        for spk in sorted(spk2utt):
            f.write(spk + " " + " ".join(spk2utt[spk]) + "\n")


if __name__ == "__main__":
    main()

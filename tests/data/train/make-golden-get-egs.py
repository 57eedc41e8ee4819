#!/usr/bin/env python3
"""Writes what Kaldi's nnet3-get-egs writes, from the format and Kaldi's
splitting rule worked out by hand (no toolkit code), for a case where Kaldi
makes no random choice:

  nnet3-get-egs --num-pdfs=3 --num-frames=8 --left-context=2 \\
    --right-context=1 --compress=false ark:<get-egs-feats.txt as binary> \\
    ark,t:get-egs-post.txt ark:get-egs-kaldi.egs

Utterances: uttA, 20 frames; uttB, 13 frames; uttC, 7 frames (shorter than
8: no egs). Frame r of utterance u is [r, r + 0.5 + u] (u = 0, 1, 2), its
label pdf r % 3.

Kaldi's UtteranceSplitter with --num-frames=8 tabulates lengths up to
2 * 8 + 8 = 24. Costs (duration - length if longer, twice the shortfall if
shorter; candidates within 1.9999 of the best):
  20 frames: {8} 24, {8,8} 8, {8,8,8} 4, {8,8,8,8} 12 -> only {8,8,8}; the
             overlap of 4 is shared 2 / 2 between the two pairs (in
             proportion to the smaller chunk): chunks [0,8) [6,14) [12,20).
  13 frames: {8} 10, {8,8} 3, {8,8,8} 11 -> only {8,8}; overlap 3:
             chunks [0,8) [5,13).
The order of equal sizes is irrelevant, so the random reversal changes
nothing. Each output frame's weight is 1 / (the number of chunks holding
it): 0.5 on the overlapped frames.

Run it from anywhere: python3 make-golden-get-egs.py
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location(
    'golden_egs', os.path.join(HERE, 'make-golden-egs.py'))
g = importlib.util.module_from_spec(spec)
spec.loader.exec_module(g)

LENGTHS = {'uttA': 20, 'uttB': 13, 'uttC': 7}
CHUNKS = {'uttA': [(0, 8), (6, 8), (12, 8)], 'uttB': [(0, 8), (5, 8)],
          'uttC': []}
LEFT, RIGHT, NUM_PDFS = 2, 1, 3


def frame(u, r):
    return [float(r), r + 0.5 + u]


def egs_for(u, name):
    length = LENGTHS[name]
    count = [0] * length
    for (start, size) in CHUNKS[name]:
        for t in range(start, start + size):
            count[t] += 1
    out = b''
    for (start, size) in CHUNKS[name]:
        # Input rows start - LEFT .. start + size + RIGHT - 1, the edge
        # frames repeated beyond the utterance; t from -LEFT.
        rows = [frame(u, min(max(r, 0), length - 1))
                for r in range(start - LEFT, start + size + RIGHT)]
        labels = [[(t % 3, 1.0 / count[t])] for t in range(start, start + size)]
        out += g.entry('%s-%d' % (name, start), g.eg([
            g.nnet_io('input', g.t_range(-LEFT, size + RIGHT),
                      g.full_matrix(rows, True), True),
            g.nnet_io('output', g.t_range(0, size),
                      g.sparse_matrix(NUM_PDFS, labels, True), True)], True),
            True)
    return out


def main():
    with open(os.path.join(HERE, 'get-egs-feats.txt'), 'w') as f:
        for u, name in enumerate(LENGTHS):
            f.write('%s  [' % name)
            for r in range(LENGTHS[name]):
                f.write('\n  ' + ' '.join('%g' % v for v in frame(u, r)) + ' ')
            f.write(']\n')
    with open(os.path.join(HERE, 'get-egs-post.txt'), 'w') as f:
        for name in LENGTHS:
            f.write(name + ' ' + ' '.join('[ %d 1 ]' % (t % 3)
                                          for t in range(LENGTHS[name])) + '\n')
    with open(os.path.join(HERE, 'get-egs-kaldi.egs'), 'wb') as f:
        for u, name in enumerate(LENGTHS):
            f.write(egs_for(u, name))


if __name__ == '__main__':
    main()

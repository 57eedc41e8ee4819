#!/usr/bin/env python3
"""Writes random raw lattices (transition-ids in, words out, as a decoder
writes them) in Kaldi's text archive form, for the golden determinization
tests (make-golden-determinize.sh runs Kaldi on them).

Each lattice is frame-synchronous: `frames` layers of `width` states (the
first has only the start state, 0; the last one's states are final); every
state has 1-3 arcs into the next layer, each with a transition-id of
tests/data/train/hmm.mdl (1..14) and sometimes a word; some states also have
an epsilon-input arc carrying a word to a later state of the same layer.
Graph costs are random; acoustic costs depend only on (frame,
transition-id), as a decoder's do, so alternative paths often tie.
kind "grid": costs are multiples of 1/64 (exact sums: many exact ties);
kind "float": costs are arbitrary floats printed with 9 digits;
kind "tie": graph costs 0, 1/2 or 1 and acoustic costs by frame alone, so
many paths tie exactly and the order on transition-id strings decides;
kind "dead": as "grid", but only some states of the last layer are final, so
some paths lead nowhere (a decoder trims these; determinization must cope).

Usage: make-golden-lattices.py SEED COUNT FRAMES WIDTH KIND > out.txt
"""
import random
import struct
import sys

NUM_TIDS = 14
NUM_WORDS = 6


def as_float(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]


def cost_text(x):
    return '%.9g' % x


def random_cost(rng, kind, top):
    if kind != 'float':
        return rng.randrange(0, int(64 * top)) / 64.0
    return as_float(rng.uniform(0, top))


def lattice(rng, frames, width, kind):
    acoustic = {}
    arcs = []  # (src, dst, tid, word, graph, ac)
    state = lambda t, i: 0 if t == 0 else (t - 1) * width + i + 1
    for t in range(frames):
        for i in range(1 if t == 0 else width):  # one start state
            s = state(t, i)
            for _ in range(rng.randint(1, 3)):
                tid = rng.randint(1, NUM_TIDS)
                word = rng.randint(1, NUM_WORDS) if rng.random() < 0.15 else 0
                key = t if kind == 'tie' else (t, tid)
                if key not in acoustic:
                    acoustic[key] = random_cost(rng, kind, 6.0)
                graph = (rng.randrange(3) / 2.0 if kind == 'tie' else
                         random_cost(rng, kind, 2.0))
                arcs.append((s, state(t + 1, rng.randrange(width)), tid, word,
                             graph, acoustic[key]))
            if t > 0 and i + 1 < width and rng.random() < 0.2:
                arcs.append((s, state(t, rng.randint(i + 1, width - 1)), 0,
                             rng.randint(1, NUM_WORDS),
                             random_cost(rng, kind, 3.0), 0.0))
    finals = [(state(frames, i), random_cost(rng, kind, 2.0))
              for i in range(width)
              if kind != 'dead' or i == 0 or rng.random() < 0.5]
    return arcs, finals


def main():
    seed, count, frames, width = (int(a) for a in sys.argv[1:5])
    kind = sys.argv[5]
    rng = random.Random(seed)
    for n in range(count):
        arcs, finals = lattice(rng, frames, width, kind)
        print('%s-%d ' % (kind, n))
        for (s, d, tid, word, g, a) in sorted(arcs, key=lambda x: x[0]):
            print('%d\t%d\t%d\t%d\t%s,%s' % (s, d, tid, word, cost_text(g),
                                             cost_text(a)))
        for (s, g) in finals:
            print('%d\t%s,0' % (s, cost_text(g)))
        print()


main()

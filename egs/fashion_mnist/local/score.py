#!/usr/bin/env python3
"""Scores classifier outputs against labels.

Usage: local/score.py [--results FILE] [--row only|last] <model-name> <labels>
                      <output.ark>...

<labels>: "<utt> <class>" lines. Each <output.ark> is a text archive from
nnet3-compute with one row (the log-posteriors of the classes) per utterance;
the predicted class is the argmax of that row. With --row last, utterances
may have several rows (one per image row, from a recurrent model) and the
last one, which has seen the whole image, is used. Prints
"<model-name> test-accuracy <value>" and, with --results, writes that line
into FILE, replacing an earlier line for the same model.
"""
import argparse
import os
import sys


def read_rows(path, last=False):
    """Yields (utt, [values]) from a text archive of one-row matrices (with
    last, of any matrices: their last rows)."""
    with open(path) as f:
        key, row = None, []
        for line in f:
            parts = line.split()
            if not parts:
                continue
            if key is None:
                if len(parts) < 2 or parts[1] != '[':
                    sys.exit('score.py: %s: expected "<utt> [", got: %s'
                             % (path, line.strip()))
                key, parts, row = parts[0], parts[2:], []
            end = bool(parts) and parts[-1] == ']'
            if end:
                parts = parts[:-1]
            if parts:
                if row and not last:
                    sys.exit('score.py: %s: utterance %s has more than one '
                             'output row' % (path, key))
                row = [float(x) for x in parts]
            if end:
                yield key, row
                key = None


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--results', help='file of "<model> test-accuracy <v>" lines')
    p.add_argument('--row', choices=['only', 'last'], default='only',
                   help='which output row of an utterance to score')
    p.add_argument('model')
    p.add_argument('labels')
    p.add_argument('outputs', nargs='+')
    a = p.parse_args()
    labels = {}
    with open(a.labels) as f:
        for line in f:
            utt, label = line.split()
            labels[utt] = int(label)
    correct = total = 0
    seen = set()
    for path in a.outputs:
        for utt, row in read_rows(path, a.row == 'last'):
            if utt not in labels:
                sys.exit('score.py: utterance %s (in %s) has no label' % (utt, path))
            seen.add(utt)
            best = max(range(len(row)), key=row.__getitem__)
            correct += best == labels[utt]
            total += 1
    if len(seen) != len(labels):
        sys.exit('score.py: %d of %d labelled utterances have no output'
                 % (len(labels) - len(seen), len(labels)))
    line = '%s test-accuracy %.4f' % (a.model, correct / total)
    print(line)
    if a.results:
        old = []
        if os.path.exists(a.results):
            with open(a.results) as f:
                old = [l for l in f if l.split()[:1] != [a.model]]
        with open(a.results, 'w') as f:
            f.writelines(old + [line + '\n'])


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""Writes per-row posteriors for the row-sequence models (tdnn-lstm).

Usage: local/make_row_posts.py [--num-rows 28] <data-dir>

Reads <data-dir>/labels ("<utt> <class>") and writes
<data-dir>/post_rows.ark, Kaldi text posteriors with one frame per image
row, every row labelled with the image's class:
  "<utt> [ <class> 1 ] [ <class> 1 ] ..." (num-rows frames).
"""
import argparse
import os


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--num-rows', type=int, default=28)
    p.add_argument('data')
    a = p.parse_args()
    out = os.path.join(a.data, 'post_rows.ark')
    with open(os.path.join(a.data, 'labels')) as f, open(out + '.tmp', 'w') as o:
        for line in f:
            utt, label = line.split()
            o.write(utt + ' ' + ('[ %d 1 ] ' % int(label)) * a.num_rows + '\n')
    os.replace(out + '.tmp', out)


if __name__ == '__main__':
    main()

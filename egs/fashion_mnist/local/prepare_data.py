#!/usr/bin/env python3
"""Fashion-MNIST IDX files -> Kaldi data directories.

Usage: local/prepare_data.py [--num-train N] [--num-valid N] [--num-test N]
                             <idx-dir> <data-dir>

Reads {train,t10k}-{images-idx3,labels-idx1}-ubyte[.gz] from <idx-dir> and
writes <data-dir>/{train,valid,test}/ (valid = the last --num-valid training
images, held out), each holding:
  feats.ark, feats.scp        28 frames x 28 dims per image (one row a frame)
  feats_flat.ark, feats_flat.scp   1 frame x 784 dims per image
  labels                      "<utt> <class>" (class 0..9)
  post.ark                    text posteriors, one frame: "<utt> [ <class> 1 ]"
Utterance ids are <set>-<index in the IDX file, 5 digits>, so sorted order is
file order. Feature values are (pixel / 255 - mean) / std with the mean and
std of the training images (written to <data-dir>/norm).

The archives are written directly in Kaldi's binary matrix format (key, space,
"\\0B", "FM ", \\4 rows, \\4 cols, float32 data), which is much faster than
going through text; the scp offsets point just past "key ".
"""
import argparse
import gzip
import os
import struct
import sys

import numpy as np


def open_idx(idx_dir, stem):
    for name in (stem, stem + '.gz'):
        path = os.path.join(idx_dir, name)
        if os.path.exists(path):
            return gzip.open(path, 'rb') if name.endswith('.gz') else open(path, 'rb')
    sys.exit('prepare_data.py: neither %s nor %s.gz in %s' % (stem, stem, idx_dir))


def read_idx(idx_dir, stem):
    """An IDX file as a numpy uint8 array of its declared shape."""
    with open_idx(idx_dir, stem) as f:
        data = f.read()
    zero, dtype, ndim = struct.unpack('>HBB', data[:4])
    if zero != 0 or dtype != 0x08:
        sys.exit('prepare_data.py: %s is not an unsigned-byte IDX file' % stem)
    shape = struct.unpack('>' + 'I' * ndim, data[4:4 + 4 * ndim])
    body = np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim)
    if body.size != int(np.prod(shape)):
        sys.exit('prepare_data.py: %s: %d bytes of data for shape %s'
                 % (stem, body.size, shape))
    return body.reshape(shape)


def write_matrices(ark_path, scp_path, keys, mats):
    """mats: float32 array [num, rows, cols]; one Kaldi binary matrix per key."""
    num, rows, cols = mats.shape
    header = b'\0BFM \x04' + struct.pack('<i', rows) + b'\x04' + struct.pack('<i', cols)
    mats = np.ascontiguousarray(mats, dtype='<f4')
    pos = 0
    with open(ark_path, 'wb') as ark, open(scp_path, 'w') as scp:
        for i, key in enumerate(keys):
            prefix = key.encode() + b' '
            ark.write(prefix)
            pos += len(prefix)
            scp.write('%s %s:%d\n' % (key, ark_path, pos))
            body = header + mats[i].tobytes()
            ark.write(body)
            pos += len(body)


def write_set(out_dir, name, images, labels, mean, std, first_index):
    os.makedirs(out_dir, exist_ok=True)
    keys = ['%s-%05d' % (name, first_index + i) for i in range(len(labels))]
    feats = (images.astype(np.float32) / 255.0 - mean) / std
    write_matrices(os.path.join(out_dir, 'feats.ark'),
                   os.path.join(out_dir, 'feats.scp'), keys, feats)
    write_matrices(os.path.join(out_dir, 'feats_flat.ark'),
                   os.path.join(out_dir, 'feats_flat.scp'), keys,
                   feats.reshape(len(keys), 1, -1))
    with open(os.path.join(out_dir, 'labels'), 'w') as f:
        f.writelines('%s %d\n' % (k, l) for k, l in zip(keys, labels))
    with open(os.path.join(out_dir, 'post.ark'), 'w') as f:
        f.writelines('%s [ %d 1 ] \n' % (k, l) for k, l in zip(keys, labels))
    print('prepare_data.py: %s: %d images of %dx%d' % (out_dir, len(keys),
          images.shape[1], images.shape[2]), file=sys.stderr)


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--num-train', type=int, default=-1,
                   help='use only the first N training images (-1: all)')
    p.add_argument('--num-valid', type=int, default=1000,
                   help='hold out the last N of those as data/valid')
    p.add_argument('--num-test', type=int, default=-1,
                   help='use only the first N test images (-1: all)')
    p.add_argument('idx_dir')
    p.add_argument('data_dir')
    a = p.parse_args()

    tr_x = read_idx(a.idx_dir, 'train-images-idx3-ubyte')
    tr_y = read_idx(a.idx_dir, 'train-labels-idx1-ubyte')
    te_x = read_idx(a.idx_dir, 't10k-images-idx3-ubyte')
    te_y = read_idx(a.idx_dir, 't10k-labels-idx1-ubyte')
    if len(tr_x) != len(tr_y) or len(te_x) != len(te_y):
        sys.exit('prepare_data.py: image and label counts differ')
    if a.num_train >= 0:
        tr_x, tr_y = tr_x[:a.num_train], tr_y[:a.num_train]
    if a.num_test >= 0:
        te_x, te_y = te_x[:a.num_test], te_y[:a.num_test]
    if not 0 <= a.num_valid < len(tr_y):
        sys.exit('prepare_data.py: --num-valid=%d, but only %d training images'
                 % (a.num_valid, len(tr_y)))
    n_train = len(tr_y) - a.num_valid

    pixels = tr_x[:n_train].astype(np.float64) / 255.0
    mean, std = float(pixels.mean()), float(pixels.std())
    os.makedirs(a.data_dir, exist_ok=True)
    with open(os.path.join(a.data_dir, 'norm'), 'w') as f:
        f.write('mean %.6f\nstd %.6f\n' % (mean, std))

    write_set(os.path.join(a.data_dir, 'train'), 'train', tr_x[:n_train],
              tr_y[:n_train], mean, std, 0)
    write_set(os.path.join(a.data_dir, 'valid'), 'train', tr_x[n_train:],
              tr_y[n_train:], mean, std, n_train)
    write_set(os.path.join(a.data_dir, 'test'), 'test', te_x, te_y, mean, std, 0)


if __name__ == '__main__':
    main()

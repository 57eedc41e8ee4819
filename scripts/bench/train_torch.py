#!/usr/bin/python3
"""The PyTorch side of scripts/bench/train.sh: one epoch of plain SGD on the
784-1024-1024-10 ReLU MLP, then the accuracy on the held-out images.

Usage: train_torch.py --threads T --runs R --lr LR --minibatch-size M <data-dir>

<data-dir> is a data directory of egs/fashion_mnist/local/prepare_data.py;
train/ and valid/ are read from their feats_flat.scp and labels, so both
sides train on the very same numbers. The update matches nnet3-train with
AffineComponent: the objective is the SUM of log-probs over the minibatch
(not the mean), so the same learning rate gives the same step; no momentum,
no weight decay, no clipping; partial last minibatches are dropped, as
nnet3-merge-egs --minibatch-size=M does. Initialization matches nnet3-init:
weights ~ N(0, 1/input-dim), hidden biases 0, output layer all 0.

The timed loop is minibatches 2..end (the first is excluded, as train.sh
excludes nnet3-train's first minibatch along with its startup). Prints one
JSON line: {"threads", "minibatches", "timed_egs", "seconds" (one per run),
"valid_accuracy" (after the first run's epoch)}.
"""
import argparse
import json
import os
import struct
import time

import numpy as np
import torch


def read_flat(data_dir, subset):
    """Features [num, 784] float32 and labels [num] int64 of one subset."""
    base = os.path.dirname(os.path.abspath(data_dir))
    labels = {}
    with open(os.path.join(data_dir, subset, 'labels')) as f:
        for line in f:
            key, cls = line.split()
            labels[key] = int(cls)
    feats, ys = [], []
    handles = {}
    with open(os.path.join(data_dir, subset, 'feats_flat.scp')) as f:
        for line in f:
            key, loc = line.split()
            path, offset = loc.rsplit(':', 1)
            if not os.path.isabs(path):
                # prepare_data.py writes paths relative to the recipe dir,
                # i.e. the parent of <data-dir>.
                path = os.path.join(base, path)
            fh = handles.get(path) or handles.setdefault(path, open(path, 'rb'))
            fh.seek(int(offset))
            head = fh.read(15)  # "\0BFM " \4 rows \4 cols
            if head[:5] != b'\0BFM ':
                raise SystemExit('train_torch.py: %s: not a binary float matrix' % key)
            rows, cols = struct.unpack('<i', head[6:10])[0], struct.unpack('<i', head[11:15])[0]
            feats.append(np.frombuffer(fh.read(4 * rows * cols), dtype='<f4').reshape(-1))
            ys.append(labels[key])
    for fh in handles.values():
        fh.close()
    return torch.from_numpy(np.stack(feats)), torch.tensor(ys, dtype=torch.int64)


def make_net():
    net = torch.nn.Sequential(
        torch.nn.Linear(784, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 1024), torch.nn.ReLU(),
        torch.nn.Linear(1024, 10), torch.nn.LogSoftmax(dim=1))
    with torch.no_grad():
        for layer in (net[0], net[2]):
            layer.weight.normal_(0.0, layer.in_features ** -0.5)
            layer.bias.zero_()
        net[4].weight.zero_()
        net[4].bias.zero_()
    return net


def one_epoch(x, y, mb, lr, seed):
    """Trains a fresh net for one epoch; returns (net, seconds, timed egs)."""
    torch.manual_seed(seed)
    net = make_net()
    opt = torch.optim.SGD(net.parameters(), lr=lr, momentum=0.0)
    loss_fn = torch.nn.NLLLoss(reduction='sum')
    order = torch.randperm(len(y))
    n_mb = len(y) // mb
    batches = [(x[order[i * mb:(i + 1) * mb]].contiguous(),
                y[order[i * mb:(i + 1) * mb]].contiguous()) for i in range(n_mb)]
    start = None
    for i, (bx, by) in enumerate(batches):
        if i == 1:
            start = time.perf_counter()
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(net(bx), by)
        loss.backward()
        opt.step()
    seconds = time.perf_counter() - start
    return net, seconds, (n_mb - 1) * mb


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--runs', type=int, default=3)
    p.add_argument('--lr', type=float, default=0.001)
    p.add_argument('--minibatch-size', type=int, default=128)
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('data_dir')
    a = p.parse_args()
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    x, y = read_flat(a.data_dir, 'train')
    vx, vy = read_flat(a.data_dir, 'valid')
    if len(y) < 2 * a.minibatch_size:
        raise SystemExit('train_torch.py: need at least 2 minibatches of data')
    seconds, acc, timed = [], None, 0
    for run in range(a.runs):
        net, s, timed = one_epoch(x, y, a.minibatch_size, a.lr, a.seed)
        seconds.append(s)
        if run == 0:
            with torch.no_grad():
                acc = float((net(vx).argmax(dim=1) == vy).float().mean())
    print(json.dumps({'threads': a.threads, 'torch_version': torch.__version__,
                      'minibatches': len(y) // a.minibatch_size,
                      'timed_egs': timed, 'seconds': seconds,
                      'valid_accuracy': acc}))


if __name__ == '__main__':
    main()

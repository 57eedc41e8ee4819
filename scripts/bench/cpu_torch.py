#!/usr/bin/python3
"""The PyTorch side of scripts/bench/cpu.sh, and the network description both
sides share.

The networks are read from the very nnet3 config file that nnet3-init read
(a chain of component-nodes whose inputs are a node or Append(...) of nodes
and Offset(node, k) terms; components AffineComponent, RectifiedLinear-,
BatchNorm- and LogSoftmaxComponent), and the initial parameters from the
text form of the nnet3 model (binary, as nnet3-init and nnet3-train write it), so both sides
start from the same numbers. Each layer computes exactly the frames the
requested outputs need (what nnet3's compiler computes), by gathering the
spliced input rows and one matrix product ("unfold + Linear"); where every
splice is a symmetric arithmetic progression over contiguous frames, the
Conv1d-with-dilation form is timed too (--conv), and the caller reports the
faster of the two.

  cpu_torch.py train --config C --model M.raw --data D.npz --minibatches K
      --lr LR --momentum MOM --runs R --threads T [--conv]
  cpu_torch.py infer --config C --model M.raw --data D.npz --batches K
      --runs R --threads T [--conv] [--out first-batch.npy]

D.npz holds x [num, frames, dim] (float32), and for training y [num,
output frames] (int64, class per output frame); minibatch b is examples
b*mb .. (b+1)*mb-1 with mb = x.shape[0] // K (train) or // K (infer): the same
examples in the same order as the merged egs / utterances of our side.
Output frames are t = 0 .. y.shape[1]-1 (train) or --out-frames (infer), and
x's first frame is t = --first-input-t. Training is SGD with momentum on the
SUM over frames of the log-probabilities, matching nnet3-train with
AffineComponent (Kaldi's momentum multiplies the learning rate by
1 - momentum, so torch gets lr * (1 - momentum)); batch-norm normalizes with
the minibatch's statistics as Kaldi's BatchNormComponent does in training.
Inference is the model in test mode: batch-norm with the model's stored
statistics, as nnet3-compute uses them.

Minibatch/batch 1 of each run is not timed (as our side's first minibatch,
with start-up, is not); a run times 2..K. Prints one JSON line:
{"wall": [...], "cpu": [...] (seconds per run), "objective": average
objective per frame over all K minibatches of the first run (train),
"variant": "linear" or "conv", and per variant the same as
"by_variant"}.
"""
import argparse
import json
import re
import struct
import sys
import time

import numpy as np

# ---------------------------------------------------------------------------
# The network description (no torch needed): also used by cpu_bench.py for
# FLOP counts.


def parse_term(term):
    """'node' or 'Offset(node, k)' -> (node, k)."""
    term = term.strip()
    m = re.fullmatch(r'Offset\(\s*([\w.-]+)\s*,\s*(-?\d+)\s*\)', term)
    if m:
        return m.group(1), int(m.group(2))
    if re.fullmatch(r'[\w.-]+', term):
        return term, 0
    raise SystemExit('cpu_torch.py: unsupported descriptor term %r' % term)


def parse_descriptor(desc):
    """A node, Offset(node, k) or Append(...) of those -> [(node, k), ...]."""
    desc = desc.strip()
    if desc.startswith('Append(') and desc.endswith(')'):
        inner, terms, depth, cur = desc[len('Append('):-1], [], 0, ''
        for ch in inner:
            if ch == ',' and depth == 0:
                terms.append(cur)
                cur = ''
                continue
            depth += ch == '('
            depth -= ch == ')'
            cur += ch
        terms.append(cur)
        return [parse_term(t) for t in terms]
    return [parse_term(desc)]


def parse_config(path):
    """-> (input (name, dim), [(node, component, type, dims, terms)], output
    (node, offset))."""
    comps, nodes, inp, out = {}, [], None, None
    for line in open(path):
        line = line.split('#')[0].strip()
        if not line:
            continue
        kind, rest = line.split(None, 1)
        kv = dict(re.findall(r'([\w-]+)=(Append\(.*\)|Offset\([^)]*\)|\S+)', rest))
        if kind == 'input-node':
            inp = (kv['name'], int(kv['dim']))
        elif kind == 'component':
            comps[kv['name']] = kv
        elif kind == 'component-node':
            c = comps[kv['component']]
            nodes.append((kv['name'], kv['component'], c['type'], c,
                          parse_descriptor(kv['input'])))
        elif kind == 'output-node':
            (node, off), = parse_descriptor(kv['input'])
            out = (node, off)
    known = ('AffineComponent', 'NaturalGradientAffineComponent',
             'RectifiedLinearComponent', 'BatchNormComponent', 'LogSoftmaxComponent')
    for n in nodes:
        if n[2] not in known:
            raise SystemExit('cpu_torch.py: %s: component type %s not supported' % (path, n[2]))
    return inp, nodes, out


def needed_times(config, out_times):
    """{node: sorted list of t} that the outputs at out_times need."""
    inp, nodes, (out_node, out_off) = config
    need = {out_node: {t + out_off for t in out_times}}
    for name, _, _, _, terms in reversed(nodes):
        ts = need.get(name, set())
        for src, off in terms:
            need.setdefault(src, set()).update(t + off for t in ts)
    return {k: sorted(v) for k, v in need.items()}


def affine_flops(config, out_times, train):
    """GEMM flops per example: forward 2*rows*in*out per affine layer; in
    training also the weight gradient and the input derivative (none for a
    layer that reads the network's input)."""
    inp, nodes, _ = config
    need = needed_times(config, out_times)
    total = 0
    for name, _, ctype, c, terms in nodes:
        if 'Affine' not in ctype:
            continue
        f = 2 * len(need.get(name, [])) * int(c['input-dim']) * int(c['output-dim'])
        reads_input = all(src == inp[0] for src, _ in terms)
        total += f * (1 if not train else (2 if reads_input else 3))
    return total


# ---------------------------------------------------------------------------
# The nnet3 model file (Kaldi's binary format, as nnet3-init writes it).

def _binary_value(data, pos, fmt):
    """A basic type: one size byte, then the little-endian value."""
    size = data[pos]
    return struct.unpack('<' + fmt, data[pos + 1:pos + 1 + size])[0], pos + 1 + size


def _binary_array(data, pos):
    """'FM ' rows cols data or 'FV ' dim data at pos -> numpy array."""
    kind = data[pos:pos + 3]
    if kind == b'FM ':
        rows, pos = _binary_value(data, pos + 3, 'i')
        cols, pos = _binary_value(data, pos, 'i')
        return np.frombuffer(data, '<f4', rows * cols, pos).reshape(rows, cols).copy()
    if kind == b'FV ':
        dim, pos = _binary_value(data, pos + 3, 'i')
        return np.frombuffer(data, '<f4', dim, pos).copy()
    raise SystemExit('cpu_torch.py: expected FM or FV, got %r' % kind)


def read_model(path):
    """{component name: {token: value}}: LinearParams / BiasParams /
    StatsMean / StatsVar as numpy arrays, Epsilon / TargetRms floats, from a
    binary raw nnet3 model."""
    data = open(path, 'rb').read()
    if data[:2] != b'\0B':
        raise SystemExit('cpu_torch.py: %s is not a binary model' % path)
    starts = [m for m in re.finditer(rb'<ComponentName> (\S+) <(\w+)> ', data)]
    out = {}
    for i, m in enumerate(starts):
        end = starts[i + 1].start() if i + 1 < len(starts) else len(data)
        body, d = data[m.end():end], {}
        for tok in ('LinearParams', 'BiasParams', 'StatsMean', 'StatsVar'):
            k = body.find(b'<%s> ' % tok.encode())
            if k >= 0:
                d[tok] = _binary_array(body, k + len(tok) + 3)
        for tok in ('Epsilon', 'TargetRms'):
            k = body.find(b'<%s> ' % tok.encode())
            if k >= 0:
                d[tok] = _binary_value(body, k + len(tok) + 3, 'f')[0]
        out[m.group(1).decode()] = d
    return out


# ---------------------------------------------------------------------------
# The torch networks.

def build(config, params, out_times, first_input_t, num_input_frames, conv):
    import torch

    inp, nodes, (out_node, out_off) = config
    need = needed_times(config, out_times)
    in_times = list(range(first_input_t, first_input_t + num_input_frames))
    if not set(need[inp[0]]) <= set(in_times):
        raise SystemExit('cpu_torch.py: the input frames do not cover the context')
    mods = torch.nn.ModuleDict()
    plan = []  # (node, kind, [(src, index tensor)] or None)
    times = {inp[0]: in_times}
    for name, comp, ctype, c, terms in nodes:
        key = name.replace('.', '_')
        if 'Affine' in ctype:
            W = torch.from_numpy(params[comp]['LinearParams'])
            b = torch.from_numpy(params[comp]['BiasParams'])
            if conv:
                (src, _), offs = terms[0], [o for _, o in terms]
                k, d = len(offs), (offs[1] - offs[0] if len(offs) > 1 else 1)
                ok = (all(s == src for s, _ in terms) and
                      offs == [offs[0] + i * d for i in range(k)] and offs[0] == -offs[-1])
                if not ok:
                    raise SystemExit('cpu_torch.py: --conv needs symmetric uniform splicing')
                in_dim = W.shape[1] // k
                m = torch.nn.Conv1d(in_dim, W.shape[0], k, dilation=d)
                with torch.no_grad():
                    m.weight.copy_(W.reshape(W.shape[0], k, in_dim).permute(0, 2, 1))
                    m.bias.copy_(b)
                # valid convolution: the output frames are the source's
                # frames minus the context on each side.
                times[name] = times[src][-offs[0]:len(times[src]) - offs[-1]]
                plan.append((name, 'conv', src))
            else:
                m = torch.nn.Linear(W.shape[1], W.shape[0])
                with torch.no_grad():
                    m.weight.copy_(W)
                    m.bias.copy_(b)
                times[name] = need[name]
                gathers = []
                for src, off in terms:
                    pos = {t: i for i, t in enumerate(times[src])}
                    gathers.append((src, torch.tensor([pos[t + off] for t in need[name]])))
                plan.append((name, 'linear', gathers))
            mods[key] = m
        else:
            (src, _), = terms
            times[name] = times[src]
            if ctype == 'BatchNormComponent':
                p = params[comp]
                m = torch.nn.BatchNorm1d(int(c['dim']), eps=p.get('Epsilon', 1e-3),
                                         affine=False, momentum=None)
                with torch.no_grad():
                    if 'StatsMean' in p and p['StatsMean'].size:
                        m.running_mean.copy_(torch.from_numpy(p['StatsMean']))
                        m.running_var.copy_(torch.from_numpy(p['StatsVar']))
                m.target_rms = p.get('TargetRms', 1.0)
                mods[key] = m
            plan.append((name, ctype, src))
    pos = {t: i for i, t in enumerate(times[out_node])}
    out_index = torch.tensor([pos[t + out_off] for t in out_times])
    return Net(inp[0], mods, plan, out_node, out_index, conv)


def make_net_class():
    import torch
    import torch.nn.functional as F

    class _Net(torch.nn.Module):
        def __init__(self, input_name, mods, plan, out_node, out_index, conv):
            super().__init__()
            self.input_name, self.mods, self.plan = input_name, mods, plan
            self.out_node, self.out_index, self.conv = out_node, out_index, conv

        def forward(self, x):
            """x [N, frames, dim] -> log-probs [N * out frames, classes]
            (example-major)."""
            # conv: activations are [N, C, T]; linear: [N, T, C].
            acts = {self.input_name: x.transpose(1, 2) if self.conv else x}
            for name, kind, arg in self.plan:
                key = name.replace('.', '_')
                if kind == 'conv':
                    y = self.mods[key](acts[arg])
                elif kind == 'linear':
                    parts = [acts[src].index_select(1, idx) for src, idx in arg]
                    y = self.mods[key](torch.cat(parts, 2) if len(parts) > 1 else parts[0])
                elif kind == 'RectifiedLinearComponent':
                    y = F.relu(acts[arg])
                elif kind == 'BatchNormComponent':
                    a, m = acts[arg], self.mods[key]
                    if self.conv:
                        y = m(a)
                    else:
                        y = m(a.reshape(-1, a.shape[2])).reshape(a.shape)
                    if m.target_rms != 1.0:
                        y = y * m.target_rms
                else:  # LogSoftmaxComponent
                    y = F.log_softmax(acts[arg], dim=1 if self.conv else 2)
                acts[name] = y
            out = acts[self.out_node]
            if self.conv:
                out = out.index_select(2, self.out_index).transpose(1, 2)
            else:
                out = out.index_select(1, self.out_index)
            return out.reshape(-1, out.shape[2])

    return _Net


Net = None


def run_train(a, config, params, data, conv):
    import torch

    x, y = torch.from_numpy(data['x']), torch.from_numpy(data['y'])
    k = a.minibatches
    mb = x.shape[0] // k
    out_times = list(range(y.shape[1]))
    batches = [(x[i * mb:(i + 1) * mb].contiguous(), y[i * mb:(i + 1) * mb].reshape(-1))
               for i in range(k)]
    walls, cpus, objective = [], [], None
    for run in range(a.runs):
        net = build(config, params, out_times, a.first_input_t, x.shape[1], conv)
        net.train()
        opt = torch.optim.SGD(net.parameters(), lr=a.lr * (1.0 - a.momentum),
                              momentum=a.momentum)
        tot = 0.0
        for i, (bx, by) in enumerate(batches):
            if i == 1:
                w0, c0 = time.perf_counter(), time.process_time()
            opt.zero_grad(set_to_none=True)
            logp = net(bx)
            loss = torch.nn.functional.nll_loss(logp, by, reduction='sum')
            loss.backward()
            opt.step()
            tot -= float(loss)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.process_time() - c0)
        if run == 0:
            objective = tot / (k * mb * len(out_times))
    return {'wall': walls, 'cpu': cpus, 'objective': objective}


def run_infer(a, config, params, data, conv):
    import torch

    x = torch.from_numpy(data['x'])
    k = a.batches
    bs = x.shape[0] // k
    out_times = list(range(a.out_frames))
    batches = [x[i * bs:(i + 1) * bs].contiguous() for i in range(k)]
    net = build(config, params, out_times, a.first_input_t, x.shape[1], conv)
    net.eval()
    walls, cpus = [], []
    with torch.inference_mode():
        for run in range(a.runs):
            for i, bx in enumerate(batches):
                if i == 1:
                    w0, c0 = time.perf_counter(), time.process_time()
                out = net(bx)
                if run == 0 and i == 0 and a.out:
                    np.save(a.out, out.numpy())
            walls.append(time.perf_counter() - w0)
            cpus.append(time.process_time() - c0)
    return {'wall': walls, 'cpu': cpus}


def main():
    global Net
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('mode', choices=['train', 'infer'])
    p.add_argument('--config', required=True)
    p.add_argument('--model', required=True, help='binary raw nnet3 model')
    p.add_argument('--data', required=True)
    p.add_argument('--minibatches', type=int, default=0)
    p.add_argument('--batches', type=int, default=0)
    p.add_argument('--out-frames', type=int, default=1)
    p.add_argument('--first-input-t', type=int, default=0)
    p.add_argument('--lr', type=float, default=0.001)
    p.add_argument('--momentum', type=float, default=0.0)
    p.add_argument('--runs', type=int, default=5)
    p.add_argument('--threads', type=int, default=1)
    p.add_argument('--conv', action='store_true', help='also time the Conv1d form')
    p.add_argument('--out', default='', help='infer: save the first batch output (.npy)')
    a = p.parse_args()
    import torch
    torch.set_num_threads(a.threads)
    torch.set_num_interop_threads(1)
    torch.manual_seed(0)
    Net = make_net_class()
    config = parse_config(a.config)
    params = read_model(a.model)
    data = np.load(a.data)
    runner = run_train if a.mode == 'train' else run_infer
    by_variant = {'linear': runner(a, config, params, data, False)}
    if a.conv:
        a.out = ''
        by_variant['conv'] = runner(a, config, params, data, True)
    best = min(by_variant, key=lambda v: sorted(by_variant[v]['wall'])[len(by_variant[v]['wall']) // 2])
    result = dict(by_variant[best])
    result['variant'] = best
    result['by_variant'] = by_variant
    result['torch_version'] = torch.__version__
    print(json.dumps(result))


if __name__ == '__main__':
    sys.exit(main())

#!/usr/bin/python3
"""The driver of scripts/bench/cpu.sh: our programs against PyTorch on CPU,
same networks, same data, same initial weights, one run, pinned.

Usage: cpu_bench.py --root ROOT --bin BIN --work DIR [--runs R]
                    [--threads "1 2"] [--quick]

Figures (each for every thread count; T threads = taskset -c 0 (T=1) or
0,1 (T=2), OPENBLAS_NUM_THREADS / torch.set_num_threads = T):
  train mlp        the recipe's MLP (784-1024-1024-10), nnet3-train on merged
                   egs, minibatch 128, SGD with momentum, natural gradient off
  train tdnn-rows  the recipe's TDNN over image rows, likewise
  train tdnn-full  a Kaldi-style TDNN (40-dim input, 6 x 1024 spliced
                   relu+batch-norm layers, 3000 outputs) on random data,
                   128 x 8-frame minibatches (13 frames of context each side)
  infer ...        nnet3-compute (and nnet3-compute-batch where it exists)
                   at batch 512 on the recipe's networks; the full TDNN on
                   150-frame chunks, one chunk at a time
Each run of ours is one process over K minibatches (batches) minus one
process over the first only (start-up, model I/O, first compilation and the
first minibatch cancel); PyTorch times minibatches 2..K in the process. A
run of ours and a run of PyTorch alternate, and the ratio is taken run by
run (median of the pair ratios), so that drift of a shared machine's speed
cancels. Wall-clock figures are the headline; the CPU-time (user+sys)
ratio is printed beside them for one thread, where it is the more robust
figure on a busy machine.

Per figure also: our GEMM GFLOP/s (affine-layer flops of the frames the
outputs need, as both sides compute them) against the single-core FP32 peak
(scripts/bench/peak_flops.c, at the start and at the end, the higher of
the two: the AVX-512 peak where the processor has AVX-512, which is twice
the AVX2 peak where its FMA units are 512 bits wide; the AVX2 fraction is in
the JSON), which library ran our products (oneDNN or OpenBLAS: ldd of
nnet3-train; NNET3_CPU_GEMM=openblas forces OpenBLAS), and the share of our
samples inside OpenBLAS's sgemm/sgemv or oneDNN (its JIT kernels
included; perf record -e cpu-clock over one extra run of the K-minibatch
process; start-up included). Checks that the two sides did the same
work: the average training objective over the K minibatches of the first
run, and the largest difference of the first batch's outputs in inference.

Cold compilation: nnet3-compile-info's 'total' seconds (the first
compilation in a fresh process: caching compiler, shortcut on, checker on)
of a 64 x 8-frame training request and a 1 x 150-frame inference request
(prepared for test) of a 6 x 512 spliced batch-norm TDNN with 2000 outputs,
median and minimum of R processes (on a loaded machine, quote the minimum).

Prints a table, then one JSON line {"benchmark": "cpu", ...} whose "ratios"
hold every ratio ours / PyTorch (> 1: we are faster).
"""
import argparse
import json
import os
import re
import resource
import shutil
import statistics
import struct
import subprocess
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpu_torch  # noqa: E402  (the shared network description)

PY = '/usr/bin/python3'
TORCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'cpu_torch.py')

# ---------------------------------------------------------------------------
# Kaldi binary archives.


def write_ark(path, items):
    """items: (key, float32 matrix) pairs -> a binary Kaldi matrix archive."""
    with open(path, 'wb') as f:
        for key, m in items:
            m = np.ascontiguousarray(m, dtype='<f4')
            f.write(key.encode() + b' \0BFM \x04' + struct.pack('<i', m.shape[0]) +
                    b'\x04' + struct.pack('<i', m.shape[1]) + m.tobytes())


def read_ark(path):
    """A binary Kaldi float-matrix archive -> [(key, matrix)]."""
    data, pos, out = open(path, 'rb').read(), 0, []
    while pos < len(data):
        sp = data.index(b' ', pos)
        key = data[pos:sp].decode()
        if data[sp + 1:sp + 6] != b'\0BFM ':
            raise SystemExit('cpu_bench.py: %s: %s is not a binary float matrix' % (path, key))
        rows, cols = struct.unpack('<i', data[sp + 7:sp + 11])[0], struct.unpack('<i', data[sp + 12:sp + 16])[0]
        start = sp + 16
        out.append((key, np.frombuffer(data, '<f4', rows * cols, start).reshape(rows, cols)))
        pos = start + 4 * rows * cols
    return out


def write_posts(path, keys, labels):
    """labels [num, frames] -> text posteriors, one [ class 1 ] per frame."""
    with open(path, 'w') as f:
        for key, row in zip(keys, labels):
            f.write(key + ' ' + ' '.join('[ %d 1 ]' % c for c in row) + '\n')


# ---------------------------------------------------------------------------
# Running things.

class Runner:
    def __init__(self, work, log):
        self.work, self.log = work, log

    def run(self, cmd, threads=1, out=None, pin=True, check=True):
        """Runs cmd (a list), pinned; returns (wall s, cpu s)."""
        env = dict(os.environ, OPENBLAS_NUM_THREADS=str(threads),
                   OMP_NUM_THREADS=str(threads))
        if pin:
            cmd = ['taskset', '-c', '0' if threads == 1 else '0,1'] + cmd
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        with open(out or os.devnull, 'w') as so, open(self.log, 'a') as se:
            se.write('+ %s\n' % ' '.join(cmd))
            se.flush()
            p = subprocess.run(cmd, stdout=so, stderr=se, env=env)
        w = time.perf_counter() - w
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if check and p.returncode != 0:
            raise SystemExit('cpu_bench.py: failed (see %s): %s' % (self.log, ' '.join(cmd)))
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return w, cpu

    def sh(self, script):
        with open(self.log, 'a') as se:
            se.write('+ %s\n' % script)
            se.flush()
            if subprocess.run(['bash', '-c', 'set -o pipefail; ' + script],
                              stdout=se, stderr=se).returncode != 0:
                raise SystemExit('cpu_bench.py: failed (see %s): %s' % (self.log, script))


def median(v):
    return statistics.median(v) if v else float('nan')


def load():
    return open('/proc/loadavg').read().split()[0]


# ---------------------------------------------------------------------------
# Networks and data.

def full_tdnn_config(hidden, outputs, bn, affine_type, lr=None):
    """A Kaldi-style TDNN: splices (-2..2), (-1,0,1) x2, (-3,0,3) x3."""
    lines, prev, pdim = ['input-node name=input dim=40'], 'input', 40
    lrs = '' if lr is None else ' learning-rate=%g' % lr
    for i, spl in enumerate([(-2, -1, 0, 1, 2), (-1, 0, 1), (-1, 0, 1),
                             (-3, 0, 3), (-3, 0, 3), (-3, 0, 3)], 1):
        terms = ', '.join(prev if s == 0 else 'Offset(%s, %d)' % (prev, s) for s in spl)
        lines += ['component name=tdnn%d.affine type=%s input-dim=%d output-dim=%d%s'
                  % (i, affine_type, len(spl) * pdim, hidden, lrs),
                  'component-node name=tdnn%d.affine component=tdnn%d.affine input=Append(%s)'
                  % (i, i, terms),
                  'component name=tdnn%d.relu type=RectifiedLinearComponent dim=%d' % (i, hidden),
                  'component-node name=tdnn%d.relu component=tdnn%d.relu input=tdnn%d.affine'
                  % (i, i, i)]
        prev = 'tdnn%d.relu' % i
        if bn:
            lines += ['component name=tdnn%d.batchnorm type=BatchNormComponent dim=%d' % (i, hidden),
                      'component-node name=tdnn%d.batchnorm component=tdnn%d.batchnorm input=%s'
                      % (i, i, prev)]
            prev = 'tdnn%d.batchnorm' % i
        pdim = hidden
    lines += ['component name=output.affine type=%s input-dim=%d output-dim=%d%s'
              % (affine_type, hidden, outputs, lrs),
              'component-node name=output.affine component=output.affine input=' + prev,
              'component name=output.log-softmax type=LogSoftmaxComponent dim=%d' % outputs,
              'component-node name=output.log-softmax component=output.log-softmax '
              'input=output.affine',
              'output-node name=output input=output.log-softmax objective=linear']
    return '\n'.join(lines) + '\n'


def recipe_config(root, name, lr):
    text = open(os.path.join(root, 'egs/fashion_mnist/configs/%s.config' % name)).read()
    text = text.replace('NaturalGradientAffineComponent', 'AffineComponent')
    return re.sub(r'type=AffineComponent', 'type=AffineComponent learning-rate=%g' % lr, text)


class Setup:
    """Writes configs, models, egs and feature archives under work/."""

    def __init__(self, a, r):
        self.a, self.r, self.w = a, r, a.work
        self.bin = lambda p: os.path.join(a.bin, p)

    def path(self, *p):
        return os.path.join(self.w, *p)

    def init_model(self, name, config_text):
        cfg = self.path(name + '.config')
        open(cfg, 'w').write(config_text)
        self.r.run([self.bin('nnet3-init'), cfg, self.path(name + '.raw')], pin=False)

    def egs(self, name, feats_rspec, post, opts, mb):
        g, m, s = self.bin('nnet3-get-egs'), self.bin('nnet3-merge-egs'), self.bin('nnet3-subset-egs')
        self.r.sh('%s --compress=false %s %s ark:%s ark:- | %s --minibatch-size=%d ark:- ark:%s'
                  % (g, opts, feats_rspec, post, m, mb, self.path(name + '.egs')))
        self.r.sh('%s --n=1 --randomize-order=false ark:%s ark:%s'
                  % (s, self.path(name + '.egs'), self.path(name + '.one.egs')))

    def fashion(self, n_images):
        a = self.a
        self.r.sh('%s %s --num-train %d --num-valid 1 --num-test 1 %s %s'
                  % (PY, os.path.join(a.root, 'egs/fashion_mnist/local/prepare_data.py'),
                     n_images + 1, a.idx_dir, self.path('data')))
        keys, rows = zip(*read_ark(self.path('data/train/feats.ark')))
        labels = dict(l.split() for l in open(self.path('data/train/labels')))
        x = np.stack(rows)[:n_images]
        y = np.array([[int(labels[k])] for k in keys[:n_images]], dtype=np.int64)
        return list(keys[:n_images]), x, y

    def all(self):
        a, mb, bs = self.a, 128, 512
        figs = {}
        # The recipe's networks on Fashion-MNIST.
        n = max(a.train_minibatches * mb, a.infer_batches * bs)
        keys, x, y = self.fashion(n)
        flat = x.reshape(len(x), 1, -1)
        for net, xs, dim, fss in (('mlp', flat, 784, 1), ('tdnn-rows', x, 28, 28)):
            self.init_model(net, recipe_config(a.root, 'mlp' if net == 'mlp' else 'tdnn', a.lr))
            nt = a.train_minibatches * mb
            sub = self.path('%s.train.scp' % net)
            scp = 'feats_flat.scp' if net == 'mlp' else 'feats.scp'
            with open(sub, 'w') as f:
                f.writelines(open(self.path('data/train', scp)).readlines()[:nt])
            self.egs(net, 'scp:' + sub, self.path('data/train/post.ark'),
                     '--num-pdfs=10 --num-frames=%d --frame-subsampling-factor=%d' % (fss, fss), mb)
            np.savez(self.path(net + '.train.npz'), x=xs[:nt], y=y[:nt])
            figs['train', net] = dict(units=nt, unit='egs', per=mb, out_times=[0])
            # Inference: one utterance of bs images (frames, for tdnn-rows
            # bs * 28 rows) per batch for nnet3-compute; per-image
            # utterances for nnet3-compute-batch.
            ni = a.infer_batches * bs
            utts = [('b%03d' % b, xs[b * bs:(b + 1) * bs].reshape(-1, dim))
                    for b in range(a.infer_batches)]
            write_ark(self.path(net + '.infer.ark'), utts)
            write_ark(self.path(net + '.infer.one.ark'), utts[:1])
            per_img = [(k, m) for k, m in zip(keys[:ni], xs[:ni])]
            write_ark(self.path(net + '.infer-utt.ark'), per_img)
            write_ark(self.path(net + '.infer-utt.one.ark'), per_img[:bs])
            np.savez(self.path(net + '.infer.npz'), x=xs[:ni])
            figs['infer', net] = dict(units=ni, unit='egs', per=bs, fss=fss,
                                      chunk=bs * fss, out_times=[0])
        # The full-size TDNN on random data.
        rng = np.random.RandomState(0)
        self.init_model('tdnn-full', full_tdnn_config(1024, 3000, True, 'AffineComponent', a.lr_full))
        nt = a.full_minibatches * mb
        feats = rng.randn(nt, 8, 40).astype(np.float32)
        labels = rng.randint(0, 3000, size=(nt, 8))
        keys_f = ['u%05d' % i for i in range(nt)]
        write_ark(self.path('tdnn-full.feats.ark'), zip(keys_f, feats))
        write_posts(self.path('tdnn-full.post.ark'), keys_f, labels)
        self.egs('tdnn-full', 'ark:' + self.path('tdnn-full.feats.ark'),
                 self.path('tdnn-full.post.ark'),
                 '--num-pdfs=3000 --num-frames=8 --left-context=13 --right-context=13', mb)
        padded = np.concatenate([np.repeat(feats[:, :1], 13, 1), feats,
                                 np.repeat(feats[:, -1:], 13, 1)], 1)
        np.savez(self.path('tdnn-full.train.npz'), x=padded, y=labels)
        figs['train', 'tdnn-full'] = dict(units=nt * 8, unit='frames', per=mb * 8,
                                          out_times=list(range(8)), first_t=-13)
        # Inference: utterances of 10 chunks of 150 frames.
        utt_len, chunk = 1500, 150
        utts = rng.randn(a.full_infer_utts, utt_len, 40).astype(np.float32)
        write_ark(self.path('tdnn-full.infer.ark'),
                  [('v%03d' % i, u) for i, u in enumerate(utts)])
        write_ark(self.path('tdnn-full.infer.one.ark'), [('v000', utts[0][:chunk])])
        chunks = []
        for u in utts:
            p = np.concatenate([np.repeat(u[:1], 13, 0), u, np.repeat(u[-1:], 13, 0)])
            chunks += [p[c:c + chunk + 26] for c in range(0, utt_len, chunk)]
        np.savez(self.path('tdnn-full.infer.npz'), x=np.stack(chunks))
        figs['infer', 'tdnn-full'] = dict(units=len(chunks) * chunk, unit='frames', per=chunk,
                                          out_times=list(range(chunk)), first_t=-13)
        # The compile-time network.
        self.init_model('tdnn-compile', full_tdnn_config(512, 2000, True,
                                                         'NaturalGradientAffineComponent'))
        return figs


# ---------------------------------------------------------------------------
# The figures.

def ours_commands(s, kind, net, prog, fig, threads):
    """-> (command over K, command over the first, output file of K)."""
    b, p = s.bin, s.path
    if kind == 'train':
        common = [b('nnet3-train'), '--max-param-change=0', '--momentum=%g' % s.a.momentum,
                  p(net + '.raw')]
        return (common + ['ark:' + p(net + '.egs'), p(net + '.trained.raw')],
                common + ['ark:' + p(net + '.one.egs'), p(net + '.trained1.raw')], None)
    model = p(net + '.trained.raw')
    out = p('%s.%s.out.ark' % (net, prog))
    if prog == 'nnet3-compute':
        opts = ['--frames-per-chunk=%d' % fig['chunk' if 'chunk' in fig else 'per'],
                '--frame-subsampling-factor=%d' % fig.get('fss', 1)]
        src = p(net + '.infer.ark'), p(net + '.infer.one.ark')
    else:
        opts = ['--minibatch-size=%d' % fig['per'], '--edge-minibatch-size=%d' % fig['per'],
                '--frames-per-chunk=%d' % fig['fss'],
                '--frame-subsampling-factor=%d' % fig['fss']]
        src = p(net + '.infer-utt.ark'), p(net + '.infer-utt.one.ark')
    return ([b(prog)] + opts + [model, 'ark:' + src[0], 'ark:' + out],
            [b(prog)] + opts + [model, 'ark:' + src[1], 'ark:' + p('one.out.ark')], out)


def torch_command(s, kind, net, fig, threads, runs, out=None):
    p = s.path
    cmd = [PY, TORCH, kind, '--config', p(net + '.config'), '--threads', str(threads),
           '--runs', str(runs), '--first-input-t', str(fig.get('first_t', 0))]
    if kind == 'train':
        cmd += ['--model', p(net + '.raw'), '--data', p(net + '.train.npz'),
                '--minibatches', str(fig['units'] // fig['per']), '--lr', str(s.lr(net)),
                '--momentum', str(s.a.momentum)]
    else:
        cmd += ['--model', p(net + '.trained.raw'), '--data', p(net + '.infer.npz'),
                '--batches', str(fig['units'] // fig['per']),
                '--out-frames', str(len(fig['out_times']))]
        if out:
            cmd += ['--out', out]
    if net == 'tdnn-full':
        cmd.append('--conv')
    return cmd


def objective_of(log):
    m = re.findall(r"Overall average objective function for 'output' is (\S+) over", log)
    return float(m[-1]) if m else None


def blas_share(s, cmd, threads, tag):
    """Share of perf cpu-clock samples in OpenBLAS sgemm/sgemv (and in
    OpenBLAS at all), or None where perf cannot sample."""
    if not s.a.perf:
        return None, None
    data = s.path('perf.%s.data' % tag)
    try:
        s.r.run(['perf', 'record', '-q', '-e', 'cpu-clock', '-F', '1999', '-o', data, '--'] + cmd,
                threads=threads)
        rep = subprocess.run(['perf', 'report', '-i', data, '--stdio', '-q', '--sort', 'dso,sym'],
                             capture_output=True, text=True).stdout
    except SystemExit:
        return None, None
    gemm = blas = 0.0
    for line in rep.splitlines():
        m = re.match(r'\s*([\d.]+)%\s+(.+?)\s+\[\.\]\s+(\S+)', line)
        if not m:
            continue
        pct, dso, sym = float(m.group(1)), m.group(2), m.group(3)
        if 'openblas' in dso:
            blas += pct
            if re.search(r'sgemm|sgemv|gemm_|gemv_', sym):
                gemm += pct
        elif 'dnnl' in dso or dso.startswith('[JIT]'):
            # oneDNN: its run-time generated sgemm kernels have no symbols.
            blas += pct
            gemm += pct
    return gemm / 100.0, blas / 100.0


def measure(s, figs, threads, peaks):
    a, rows = s.a, []
    plan = [('train', 'mlp', 'nnet3-train'), ('train', 'tdnn-rows', 'nnet3-train'),
            ('train', 'tdnn-full', 'nnet3-train'),
            ('infer', 'mlp', 'nnet3-compute'), ('infer', 'mlp', 'nnet3-compute-batch'),
            ('infer', 'tdnn-rows', 'nnet3-compute'),
            ('infer', 'tdnn-rows', 'nnet3-compute-batch'),
            ('infer', 'tdnn-full', 'nnet3-compute')]
    for kind, net, prog in plan:
        if a.figures and not any(f in ('%s:%s' % (kind, net), '%s:%s:%s' % (kind, net, prog))
                                 for f in a.figures.split(',')):
            continue
        if kind == 'infer' and not os.path.exists(s.path(net + '.trained.raw')):
            # Training was not measured (--figures): train once (the
            # batch-norm statistics come from training).
            s.r.run(ours_commands(s, 'train', net, 'nnet3-train', figs['train', net], 1)[0], 1)
        if not os.path.exists(s.bin(prog)):
            print('cpu_bench.py: %s not built: skipping its figures' % prog, file=sys.stderr)
            continue
        fig = figs[kind, net]
        k = fig['units'] // fig['per']
        full, one, out = ours_commands(s, kind, net, prog, fig, threads)
        tag = '%s.%s.%s.%d' % (kind, net, prog, threads)
        first_out = s.path(tag + '.torch-first.npy')
        ours_w, ours_c, torch_w, torch_c, variants, objective = [], [], [], [], [], None
        for run in range(a.runs):
            w1, c1 = s.r.run(one, threads)
            log = s.path(tag + '.log')
            open(log, 'w').close()
            s.r.log, saved = log, s.r.log
            try:
                wk, ck = s.r.run(full, threads)
            finally:
                s.r.log = saved
            if run == 0 and kind == 'train':
                objective = objective_of(open(log).read())
            ours_w.append(wk - w1)
            ours_c.append(ck - c1)
            tj = s.path(tag + '.torch.json')
            s.r.run(torch_command(s, kind, net, fig, threads, 1,
                                  first_out if run == 0 and kind == 'infer' else None),
                    threads, out=tj)
            t = json.load(open(tj))
            if run == 0:
                variants = t['by_variant']
                torch_objective = t.get('objective')
                torch_version = t['torch_version']
            else:
                for v in variants:
                    for key in ('wall', 'cpu'):
                        variants[v][key] += t['by_variant'][v][key]
        # The faster PyTorch form (median wall) is the yardstick.
        best = min(variants, key=lambda v: median(variants[v]['wall']))
        torch_w, torch_c = variants[best]['wall'], variants[best]['cpu']
        timed = (k - 1) * fig['per']
        check = ''
        if kind == 'train' and objective is not None and torch_objective is not None:
            check = 'objf %.4f/%.4f' % (objective, torch_objective)
        elif kind == 'infer' and out and os.path.exists(first_out):
            ours_first = np.concatenate([m for _, m in read_ark(out)])[:len(np.load(first_out))]
            check = 'maxdiff %.1e' % float(np.abs(ours_first - np.load(first_out)).max())
        # Per example (one output frame) or per output frame.
        flops_per_unit = cpu_torch.affine_flops(
            cpu_torch.parse_config(s.path(net + '.config')), fig['out_times'],
            kind == 'train') / len(fig['out_times'])
        gemm, blas = blas_share(s, full, threads, tag)
        ours_rate = timed / median(ours_w)
        gflops = ours_rate * flops_per_unit / 1e9
        rows.append({
            'figure': '%s %s' % (kind, net), 'program': prog, 'threads': threads,
            'unit': fig['unit'] + '/s', 'timed_units': timed,
            'ours_per_s': ours_rate, 'torch_per_s': timed / median(torch_w),
            'ratio': median([tw / ow for ow, tw in zip(ours_w, torch_w)]),
            'ratio_cpu': median([tc / oc for oc, tc in zip(ours_c, torch_c)]),
            'ours_gflops': gflops, 'peak_fraction': gflops / peaks['peak'],
            'avx2_peak_fraction': gflops / peaks['avx2'],
            'gemm_share': gemm, 'blas_share': blas, 'torch_form': best,
            'check': check, 'ours_wall_runs': ours_w, 'torch_wall_runs': torch_w,
            'torch_version': torch_version})
        r = rows[-1]
        print('  %-16s %-20s T=%d  ours/torch %.3f (cpu %.3f)  [load %s]'
              % (r['figure'], prog, threads, r['ratio'], r['ratio_cpu'], load()),
              file=sys.stderr)
    return rows


def cold_compile(s):
    """Median 'total' seconds of the first compilation, in fresh processes."""
    b, net = s.bin('nnet3-compile-info'), s.path('tdnn-compile.raw')
    reqs = {'train 64x8': ['--num-sequences=64', '--frames=8', '--need-model-derivative',
                           '--output-deriv', '--store-component-stats'],
            'infer 1x150': ['--num-sequences=1', '--frames=150', '--prepare-for-test']}
    out = {}
    for name, opts in reqs.items():
        secs = []
        for _ in range(max(s.a.runs, 5)):
            j = s.path('compile.json')
            s.r.run([b] + opts + ['--show=stats', '--format=json', net], 1, out=j)
            secs.append(json.load(open(j))['seconds']['total'])
        # A few-millisecond wall time on a busy machine: the median is
        # mostly preemption, the minimum is the undisturbed compile.
        out[name] = 1e3 * median(secs)
        out[name + ' min'] = 1e3 * min(secs)
    return out


def gemm_library(s):
    """oneDNN or OpenBLAS: which library our products went to."""
    if os.environ.get('NNET3_CPU_GEMM') == 'openblas':
        return 'openblas'
    libs = subprocess.run(['ldd', s.bin('nnet3-train')], capture_output=True,
                          text=True).stdout
    return 'onednn' if 'libdnnl' in libs else 'openblas'


def peak_probe(s):
    exe = s.path('peak_flops')
    if not os.path.exists(exe):
        src = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'peak_flops.c')
        s.r.sh('cc -O2 -mavx2 -mfma %s -o %s -lopenblas' % (src, exe))
    o = s.path('peak.txt')
    s.r.run([exe, '1'], 1, out=o)
    return {k: float(v) for k, v in (l.split() for l in open(o))}


def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--root', required=True)
    p.add_argument('--bin', required=True)
    p.add_argument('--work', required=True)
    p.add_argument('--runs', type=int, default=5)
    p.add_argument('--threads', default='1 2')
    p.add_argument('--idx-dir', default='/usr/share/datasets/fashion-mnist')
    p.add_argument('--quick', action='store_true', help='small sizes, to test the script')
    p.add_argument('--figures', default='',
                   help='only these figures, e.g. infer:tdnn-full,train:mlp:nnet3-train')
    a = p.parse_args()
    a.lr, a.lr_full, a.momentum = 0.001, 0.0001, 0.9
    a.train_minibatches, a.infer_batches, a.full_minibatches, a.full_infer_utts = 80, 20, 4, 2
    if a.quick:
        a.train_minibatches, a.infer_batches, a.full_minibatches, a.full_infer_utts = 4, 2, 2, 1
    a.perf = shutil.which('perf') is not None and subprocess.run(
        ['perf', 'record', '-q', '-e', 'cpu-clock', '-o', os.path.join(a.work, 'probe.data'),
         'true'], capture_output=True).returncode == 0
    r = Runner(a.work, os.path.join(a.work, 'bench.log'))
    s = Setup(a, r)
    s.lr = lambda net: a.lr_full if net == 'tdnn-full' else a.lr
    load_start = open('/proc/loadavg').read().split()[:3]
    figs = s.all()
    peak_start = peak_probe(s)
    peaks = {'avx2': peak_start['peak_gflops'],
             'peak': max(peak_start['peak_gflops'], peak_start.get('peak512_gflops', 0.0))}
    rows = []
    for t in [int(x) for x in a.threads.split()]:
        # The inference figures use the model the training figure wrote.
        rows += measure(s, figs, t, peaks)
    compile_ms = cold_compile(s)
    peak_end = peak_probe(s)
    # The fractions against the higher of the two probes.
    avx2 = max(peak_start['peak_gflops'], peak_end['peak_gflops'])
    peak = max(avx2, peak_start.get('peak512_gflops', 0.0), peak_end.get('peak512_gflops', 0.0))
    for r in rows:
        r['peak_fraction'] = r['ours_gflops'] / peak
        r['avx2_peak_fraction'] = r['ours_gflops'] / avx2
    gemm = gemm_library(s)
    for r in rows:
        r['gemm'] = gemm
    load_end = open('/proc/loadavg').read().split()[:3]
    report(a, rows, compile_ms, peak_start, peak_end, peak, load_start, load_end)


def report(a, rows, compile_ms, peak_start, peak_end, peak, load_start, load_end):
    print('CPU benchmark: ours (nnet3-*) against PyTorch %s; median of %d paired runs; '
          'load average %s at the start, %s at the end (%d CPUs)'
          % (rows[0]['torch_version'] if rows else '?', a.runs, '/'.join(load_start),
             '/'.join(load_end), os.cpu_count()))
    print('single-core FP32 peak %.1f GFLOP/s (AVX2 FMA %.1f/%.1f, AVX-512 FMA %.1f/%.1f at '
          'start/end); OpenBLAS sgemm 128x1024x1024 %.1f GFLOP/s; OPENBLAS_CORETYPE=%s; '
          'our products: %s'
          % (peak, peak_start['peak_gflops'], peak_end['peak_gflops'],
             peak_start.get('peak512_gflops', 0.0), peak_end.get('peak512_gflops', 0.0),
             max(peak_start['sgemm_gflops'], peak_end['sgemm_gflops']),
             os.environ.get('OPENBLAS_CORETYPE', '(unset)'),
             rows[0]['gemm'] if rows else '?'))
    head = '%-16s %-20s %2s %-9s %11s %11s %7s %7s %7s %6s %6s %6s  %s' % (
        'figure', 'ours', 'T', 'unit', 'ours', 'torch', 'ratio', 'cpu', 'GFLOP/s',
        '%peak', 'sgemm', 'blas', 'check (ours/torch)')
    print(head)
    print('-' * len(head))
    pct = lambda v: '%5.0f%%' % (100 * v) if v is not None else '   n/a'
    for r in rows:
        print('%-16s %-20s %2d %-9s %11.0f %11.0f %7.3f %7s %7.1f %6s %6s %6s  %s' % (
            r['figure'], r['program'], r['threads'], r['unit'], r['ours_per_s'],
            r['torch_per_s'], r['ratio'],
            '%.3f' % r['ratio_cpu'] if r['threads'] == 1 else '-',
            r['ours_gflops'], pct(r['peak_fraction']), pct(r['gemm_share']),
            pct(r['blas_share']), r['check']))
    for name in ('train 64x8', 'infer 1x150'):
        if name in compile_ms:
            print('cold compile %-12s %8.2f ms median, %.2f ms min  (Kaldi, from the issue: %s ms)'
                  % (name, compile_ms[name], compile_ms[name + ' min'],
                     {'train 64x8': '2.2', 'infer 1x150': '3.8'}[name]))
    ratios = {}
    for r in rows:
        key = '%s_%s_%s_t%d' % (r['figure'].replace(' ', '_'), r['program'], 'x', r['threads'])
        ratios[key.replace('_x_', '_')] = round(r['ratio'], 4)
    rnd = lambda v: ([round(x, 4) for x in v] if isinstance(v, list) else
                     round(v, 4) if isinstance(v, float) else v)
    print(json.dumps({'benchmark': 'cpu', 'runs': a.runs, 'load_start': load_start,
                      'load_end': load_end, 'peak_gflops': round(peak, 2),
                      'gemm': rows[0]['gemm'] if rows else None,
                      'compile_ms': {k: round(v, 3) for k, v in compile_ms.items()},
                      'ratios': ratios,
                      'results': [{k: rnd(v) for k, v in r.items()} for r in rows]}))


if __name__ == '__main__':
    main()

#!/usr/bin/env python3
"""An independent re-computation of nnet3-compute / nnet3-compute-batch
outputs for one small i-vector network, for the command-line tests.

  inference-reference.py config > small.config
  inference-reference.py compute MODEL_TXT FEATS_TXT OUT_TXT [options]
  inference-reference.py xvector-config > xvector.config
  inference-reference.py xvector MODEL_TXT FEATS_TXT OUT_TXT [options]

`config` prints the network (3-dim features, a 2-dim i-vector read with
ReplaceIndex(ivector, t, 0), an affine layer over frames t-1..t+1 and the
i-vector, ReLU, an affine layer over frames t-2 and t, log-softmax).
`compute` reads its parameters from the text model (nnet3-copy
--binary=false), the features (a text archive) and the i-vectors, and
writes the expected output as a text archive. Options:
  --ivectors=FILE (text archive of vectors) [--utt2spk=FILE]
  --online-ivectors=FILE (text archive of matrices) --period=N
  --frames-per-chunk=N (default 50) --fss=N (default 1)
  --rule=simple|batch: which chunks get which online i-vector row:
    simple: Kaldi's DecodableNnetSimple: chunks of P output frames start at
      0, P, 2P...; the last is shorter; its row is
      (first + (last - first) // 2) // period (input frames), clamped to the
      last row if at most 50 frames past it, else an error;
    batch: Kaldi's nnet3-compute-batch: a last chunk is moved back to end on
      the last frame (or one chunk of P frames covers a short utterance);
      its row is ((begin + P // 2) * fss) // period, always clamped.
  --exp: apply exp() to the output.
Input frames outside the utterance repeat the edge frames. The network has
no recurrence, so only the i-vector of each output frame's chunk matters.

`xvector-config` prints a segment-level network (its output at t = 0
reads input frames 0..3: Append of four Offsets, ReLU, an affine layer);
`xvector` writes the x-vectors (a text archive of vectors) that Kaldi's
nnet3-xvector-compute rule gives: --chunk-size=N (default -1: the whole
utterance), --min-chunk-size=N (default 100), --pad-input=true|false
(default true): chunks from the start, the last shorter; a chunk shorter
than min-chunk-size padded with (missing // 2) copies of its first frame
and the rest copies of its last if pad-input, else dropped; utterances
shorter than min-chunk-size without pad-input, or with no chunk left, are
skipped; the average of the chunk outputs weighted by real frames.
"""
import math
import sys

CONFIG = """input-node name=input dim=3
input-node name=ivector dim=2
component name=a1 type=AffineComponent input-dim=11 output-dim=4 param-stddev=0.5 bias-stddev=0.5
component-node name=a1 component=a1 input=Append(Offset(input, -1), input, Offset(input, 1), ReplaceIndex(ivector, t, 0))
component name=r1 type=RectifiedLinearComponent dim=4
component-node name=r1 component=r1 input=a1
component name=a2 type=NaturalGradientAffineComponent input-dim=8 output-dim=3 param-stddev=0.5 bias-stddev=0.5
component-node name=a2 component=a2 input=Append(Offset(r1, -2), r1)
component name=sm type=LogSoftmaxComponent dim=3
component-node name=sm component=sm input=a2
output-node name=output input=sm
"""


XVECTOR_CONFIG = """input-node name=input dim=3
component name=a1 type=AffineComponent input-dim=12 output-dim=5 param-stddev=0.5 bias-stddev=0.5
component-node name=a1 component=a1 input=Append(input, Offset(input, 1), Offset(input, 2), Offset(input, 3))
component name=r1 type=RectifiedLinearComponent dim=5
component-node name=r1 component=r1 input=a1
component name=a2 type=AffineComponent input-dim=5 output-dim=4 param-stddev=0.5 bias-stddev=0.5
component-node name=a2 component=a2 input=r1
output-node name=output input=a2
"""


def die(msg):
    sys.stderr.write('inference-reference.py: %s\n' % msg)
    sys.exit(1)


def read_archive(path):
    """Text archive of matrices or vectors: key -> list of rows (a vector
    is one row)."""
    tables, key, rows = {}, None, None
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if key is None:
            key, parts = parts[0], parts[1:]
            assert parts[0] == '['
            parts, rows = parts[1:], []
        end = bool(parts) and parts[-1] == ']'
        vals = [float(x) for x in (parts[:-1] if end else parts)]
        if vals:
            rows.append(vals)
        if end:
            tables[key], key = rows, None
    return tables


def read_model(path):
    """Component name -> (W rows, b) from a text nnet3 model."""
    tokens = open(path).read().split()
    params, i = {}, 0
    name = None
    while i < len(tokens):
        t = tokens[i]
        if t == '<ComponentName>':
            name = tokens[i + 1]
            params[name] = {}
        elif t in ('<LinearParams>', '<BiasParams>'):
            j = i + 2  # skip '['
            rows, row = [], []
            while tokens[j] != ']':
                row.append(float(tokens[j]))
                j += 1
            params[name][t] = row
            i = j
        i += 1
    out = {}
    for name in ('a1', 'a2'):
        b = params[name]['<BiasParams>']
        flat = params[name]['<LinearParams>']
        cols = len(flat) // len(b)
        out[name] = ([flat[r * cols:(r + 1) * cols] for r in range(len(b))], b)
    return out


def affine(wb, x):
    w, b = wb
    return [sum(wi * xi for wi, xi in zip(row, x)) + bi for row, bi in zip(w, b)]


def output_frame(model, feats, t, iv):
    n = len(feats)
    x = lambda s: feats[min(n - 1, max(0, s))]
    h = lambda s: [max(0.0, v) for v in affine(model['a1'], x(s - 1) + x(s) + x(s + 1) + iv)]
    a = affine(model['a2'], h(t - 2) + h(t))
    m = max(a)
    lse = m + math.log(sum(math.exp(v - m) for v in a))
    return [v - lse for v in a]


def chunk_rows(rule, num_out, per_chunk, fss, online, period, key):
    """The online i-vector row of each output frame (subsampled index)."""
    last_row = len(online) - 1
    rows = []
    if rule == 'simple':
        for begin in range(0, num_out, per_chunk):
            end = min(num_out, begin + per_chunk)
            first, last = begin * fss, (end - 1) * fss
            r = (first + (last - first) // 2) // period
            if r > last_row:
                if (r - last_row) * period > 50:
                    die('%s: no online i-vector row %d' % (key, r))
                r = last_row
            rows += [r] * (end - begin)
    else:
        num_chunks = (num_out + per_chunk - 1) // per_chunk
        for c in range(num_chunks):
            begin = c * per_chunk
            used = min(per_chunk, num_out - begin)
            if c == num_chunks - 1 and num_out > per_chunk:
                begin = num_out - per_chunk  # moved back
            r = min(last_row, ((begin + per_chunk // 2) * fss) // period)
            rows += [r] * used
    return rows


def write_matrix(f, key, rows):
    f.write(key + '  [\n')
    for i, r in enumerate(rows):
        f.write('  ' + ' '.join('%.7g' % v for v in r) + (' ]\n' if i == len(rows) - 1 else ' \n'))


def xvector_of_chunk(model, chunk):
    x = chunk[0] + chunk[1] + chunk[2] + chunk[3]
    h = [max(0.0, v) for v in affine(model['a1'], x)]
    return affine(model['a2'], h)


def xvectors(model, feats, opts, out_path):
    chunk_size = int(opts.get('chunk-size', -1))
    min_chunk = int(opts.get('min-chunk-size', 100))
    pad = opts.get('pad-input', 'true') in ('true', '1')
    with open(out_path, 'w') as f:
        for key, x in feats.items():
            n = len(x)
            size = chunk_size
            if not pad and n < min_chunk:
                continue
            if n < chunk_size or chunk_size == -1:
                size = n
            total, acc = 0, None
            for begin in range(0, n, size):
                chunk = x[begin:begin + size]
                if len(chunk) < min_chunk:
                    if not pad:
                        continue
                    missing = min_chunk - len(chunk)
                    chunk = [chunk[0]] * (missing // 2) + chunk + [chunk[-1]] * (missing - missing // 2)
                real = min(size, n - begin)
                v = xvector_of_chunk(model, chunk)
                acc = [real * a for a in v] if acc is None else [s + real * a for s, a in zip(acc, v)]
                total += real
            if acc is None:
                continue
            f.write(key + ' [ ' + ' '.join('%.7g' % (a / total) for a in acc) + ' ]\n')


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == 'config':
        sys.stdout.write(CONFIG)
        return
    if len(sys.argv) >= 2 and sys.argv[1] == 'xvector-config':
        sys.stdout.write(XVECTOR_CONFIG)
        return
    if len(sys.argv) >= 5 and sys.argv[1] == 'xvector':
        opts = dict(a[2:].split('=', 1) for a in sys.argv[5:])
        xvectors(read_model(sys.argv[2]), read_archive(sys.argv[3]), opts, sys.argv[4])
        return
    if len(sys.argv) < 5 or sys.argv[1] != 'compute':
        die('usage: see the file comment')
    model_path, feats_path, out_path = sys.argv[2:5]
    opts = dict(a[2:].split('=', 1) if '=' in a else (a[2:], '1') for a in sys.argv[5:])
    model = read_model(model_path)
    feats = read_archive(feats_path)
    fss = int(opts.get('fss', 1))
    fpc = int(opts.get('frames-per-chunk', 50))
    per_chunk = (fpc + fss - 1) // fss  # rounded up to a multiple of fss
    rule = opts.get('rule', 'simple')
    ivectors = read_archive(opts['ivectors']) if 'ivectors' in opts else None
    utt2spk = dict(l.split() for l in open(opts['utt2spk'])) if 'utt2spk' in opts else {}
    online = read_archive(opts['online-ivectors']) if 'online-ivectors' in opts else None
    period = int(opts.get('period', 0))
    with open(out_path, 'w') as f:
        for key in feats:
            x = feats[key]
            num_out = (len(x) + fss - 1) // fss
            if ivectors is not None:
                ivs = [ivectors[utt2spk.get(key, key)][0]] * num_out
            else:
                rows = chunk_rows(rule, num_out, per_chunk, fss, online[key], period, key)
                ivs = [online[key][r] for r in rows]
            out = [output_frame(model, x, j * fss, ivs[j]) for j in range(num_out)]
            if 'exp' in opts:
                out = [[math.exp(v) for v in r] for r in out]
            write_matrix(f, key, out)


if __name__ == '__main__':
    main()

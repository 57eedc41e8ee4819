#!/usr/bin/env python3
"""Independent re-computations of two components' forward passes, from
their parameters in a text model, for the command-line tests (plain
python, Kaldi's definitions in nnet3/convolution.h and
nnet-general-component.h).

  component-reference.py conv MODEL_TXT COMPONENT IN_TXT OUT_TXT FIRST LAST
  component-reference.py stats-pooling FRAMES_TXT POOLED_TXT SKIP_LEFT SKIP_RIGHT

`conv`: a TimeHeightConvolutionComponent. IN_TXT (a text archive) holds
its input and OUT_TXT what the toolkit computed for its output, for the
same utterances. Rows FIRST..LAST (counted from the end when negative) of
the first utterance are recomputed: output height h, filter f at time t is
  bias[f] + sum over offsets o = (dt, dh), input filters i of
  W[f][o * num_filters_in + i] * in[t + dt][(h * subsample + dh) * num_filters_in + i]
with zero padding on the height axis and the input's edge rows repeated
on the time axis (as nnet3-compute pads its input).

`stats-pooling`: a StatisticsExtractionComponent followed by a
StatisticsPoolingComponent with output-stddevs=true and no log-count
features, pooling over the whole utterance. FRAMES_TXT holds the frames it
pools (a text archive of matrices), POOLED_TXT the toolkit's output (a text
archive of vectors); rows SKIP_LEFT .. T-1-SKIP_RIGHT of each utterance are
pooled: the mean, then sqrt(max(variance, 1e-10)).

Both exit 1 naming the first value off by more than 1e-3 (relative to the
largest value, at least 1), and print the largest difference.
"""
import math
import sys


def die(msg):
    sys.stderr.write('component-reference.py: %s\n' % msg)
    sys.exit(1)


def read_archive(path):
    """Text archive of matrices or vectors: [(key, rows)] in order."""
    tables, key, rows = [], None, None
    for line in open(path):
        parts = line.split()
        if not parts:
            continue
        if key is None:
            key, parts = parts[0], parts[1:]
            if not parts or parts[0] != '[':
                die('%s: no "[" after key %s' % (path, key))
            parts, rows = parts[1:], []
        end = bool(parts) and parts[-1] == ']'
        vals = [float(x) for x in (parts[:-1] if end else parts)]
        if vals:
            rows.append(vals)
        if end:
            tables.append((key, rows))
            key = None
    return tables


def read_conv(path, name):
    """The model and parameters of TimeHeightConvolutionComponent `name`."""
    tokens = open(path).read().split()
    starts = [j + 1 for j, t in enumerate(tokens[:-1])
              if t == '<ComponentName>' and tokens[j + 1] == name]
    if not starts:
        die('%s: no component %s' % (path, name))
    i = starts[0]
    if tokens[i + 1] != '<TimeHeightConvolutionComponent>':
        die('%s: %s is a %s' % (path, name, tokens[i + 1]))

    def value(token):
        return tokens[tokens.index(token, i) + 1]

    def numbers(token):
        j = tokens.index(token, i) + 2  # skip '['
        out = []
        while tokens[j] != ']':
            out.append(tokens[j])
            j += 1
        return out

    m = {k: int(value('<' + k + '>')) for k in
         ('NumFiltersIn', 'NumFiltersOut', 'HeightIn', 'HeightOut', 'HeightSubsampleOut')}
    m['offsets'] = [tuple(int(v) for v in o.split(',')) for o in numbers('<Offsets>')]
    flat = [float(v) for v in numbers('<LinearParams>')]
    cols = m['NumFiltersIn'] * len(m['offsets'])
    if len(flat) != m['NumFiltersOut'] * cols:
        die('%s: %d linear params, expected %d x %d' % (name, len(flat), m['NumFiltersOut'], cols))
    m['W'] = [flat[r * cols:(r + 1) * cols] for r in range(m['NumFiltersOut'])]
    m['b'] = [float(v) for v in numbers('<BiasParams>')]
    return m


def conv_row(m, x, t):
    fi, fo, hin = m['NumFiltersIn'], m['NumFiltersOut'], m['HeightIn']
    n = len(x)
    out = []
    for h in range(m['HeightOut']):
        for f in range(fo):
            w, s = m['W'][f], m['b'][f]
            for o, (dt, dh) in enumerate(m['offsets']):
                hi = h * m['HeightSubsampleOut'] + dh
                if hi < 0 or hi >= hin:
                    continue
                row = x[min(n - 1, max(0, t + dt))]
                base = hi * fi
                s += sum(w[o * fi + i] * row[base + i] for i in range(fi))
            out.append(s)
    return out


def compare(what, got, want):
    scale = max([1.0] + [abs(v) for v in want])
    if len(got) != len(want):
        die('%s: %d values, expected %d' % (what, len(got), len(want)))
    worst = max(abs(a - b) for a, b in zip(got, want))
    if worst > 1e-3 * scale:
        j = max(range(len(got)), key=lambda k: abs(got[k] - want[k]))
        die('%s: value %d is %g, expected %g' % (what, j, got[j], want[j]))
    return worst


def main():
    args = sys.argv[1:]
    worst = 0.0
    if len(args) == 7 and args[0] == 'conv':
        m = read_conv(args[1], args[2])
        (key, x), (key2, y) = read_archive(args[3])[0], read_archive(args[4])[0]
        if key != key2 or len(x) != len(y):
            die('input %s (%d rows) and output %s (%d rows) differ' % (key, len(x), key2, len(y)))
        first, last = int(args[5]) % len(x), int(args[6]) % len(x)
        for t in range(first, last + 1):
            worst = max(worst, compare('%s row %d' % (key, t), y[t], conv_row(m, x, t)))
        print('%s: rows %d..%d of %s within %.2g' % (args[2], first, last, key, worst))
    elif len(args) == 5 and args[0] == 'stats-pooling':
        frames, pooled = read_archive(args[1]), dict(read_archive(args[2]))
        left, right = int(args[3]), int(args[4])
        for key, x in frames:
            if key not in pooled:
                die('no pooled vector for %s' % key)
            rows = x[left:len(x) - right]
            n, dim = len(rows), len(rows[0])
            mean = [sum(r[d] for r in rows) / n for d in range(dim)]
            var = [sum(r[d] * r[d] for r in rows) / n - mean[d] * mean[d] for d in range(dim)]
            want = mean + [math.sqrt(max(v, 1e-10)) for v in var]
            worst = max(worst, compare(key, pooled[key][0], want))
        print('stats-pooling: %d utterances within %.2g' % (len(frames), worst))
    else:
        die('usage: see the file comment')


if __name__ == '__main__':
    main()

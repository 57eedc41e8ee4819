# Helpers for the inference command-line tests (nnet3-compute,
# nnet3-compute-batch, nnet3-xvector-compute); source after lib.sh.
# REF runs inference-reference.py (an independent python re-computation).
REF="python3 $HERE/inference-reference.py"

# gen_feats FILE DIM [utt:frames ...]: a text archive of N(0,1) features
# (fixed seed); with frames "v", a vector instead of a matrix.
gen_feats() {
  python3 - "$@" <<'PY'
import random, sys
random.seed(17)
path, dim = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    for spec in sys.argv[3:]:
        key, n = spec.split(':')
        row = lambda: ' '.join('%.4f' % random.gauss(0, 1) for _ in range(dim))
        if n == 'v':
            f.write(key + ' [ ' + row() + ' ]\n')
        else:
            rows = [row() for _ in range(int(n))]
            f.write(key + '  [\n  ' + '\n  '.join(rows) + ' ]\n')
PY
}
# check_archive NAME FILE REF|-|--sum-to-one TOL SHAPE... : FILE (a text
# archive) holds one matrix per SHAPE ("ROWSxCOLS"), in that order; with a
# REF archive, the same keys, the same shapes and values within TOL; with
# --sum-to-one, every row sums to 1 within TOL.
check_archive() {
  python3 - "$@" <<'PY' || fail "$1: $(cat "$TMP/check.err")"
import sys
name, path, ref, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
want_shapes = sys.argv[5:]
def read(p):
    mats, cur = [], None
    for line in open(p):
        parts = line.split()
        if cur is None:
            if parts: mats.append((parts[0], [])); cur = mats[-1][1]
            continue
        end = parts and parts[-1] == ']'
        vals = [float(x) for x in (parts[:-1] if end else parts)]
        if vals: cur.append(vals)
        if end: cur = None
    return mats
def shape(m):
    cols = set(len(r) for r in m)
    if len(cols) > 1: die('rows of different lengths %s' % sorted(cols))
    return '%dx%d' % (len(m), cols.pop() if cols else 0)
def die(msg):
    sys.stderr.write(msg); sys.exit(1)
got = read(path)
if [shape(m) for _, m in got] != want_shapes:
    die('shapes %s, want %s' % ([shape(m) for _, m in got], want_shapes))
if ref == '--sum-to-one':
    for key, m in got:
        for r in m:
            if abs(sum(r) - 1) > tol: die('%s: a row sums to %g' % (key, sum(r)))
elif ref != '-':
    want = read(ref)
    if [k for k, _ in got] != [k for k, _ in want]:
        die('keys %s, want %s' % ([k for k, _ in got], [k for k, _ in want]))
    for (key, a), (_, b) in zip(got, want):
        if shape(a) != shape(b): die('%s: shape %s, want %s' % (key, shape(a), shape(b)))
        d = max([abs(x - y) for ra, rb in zip(a, b) for x, y in zip(ra, rb)] + [0])
        if d > tol: die('%s: max difference %g > %g' % (key, d, tol))
PY
}
# archives_differ A B TOL: true if some value of A and B (two text archives
# of the same shapes) differs by more than TOL.
archives_differ() {
  python3 - "$@" <<'PY'
import sys
vals = [[float(x) for x in open(p).read().replace('[', ' ').replace(']', ' ').split()[1:]
         if x[0] in '-0123456789'] for p in sys.argv[1:3]]
sys.exit(0 if max(abs(a - b) for a, b in zip(*vals)) > float(sys.argv[3]) else 1)
PY
}

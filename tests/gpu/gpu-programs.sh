#!/usr/bin/env bash
# The programs on the GPU against the CPU: nnet3-compute (and
# nnet3-compute-batch where built) outputs of a TDNN with --use-gpu=yes
# equal those of --use-gpu=no within float tolerance; nnet3-train makes the
# same update on both (what it changed, block by block, within 5% of the
# CPU's change, which must be a sizable part of the parameters; dropout
# included: the masks are counter-based);
# nnet3-compute-prob prints the same objective; nnet3-latgen-faster-batch
# writes the same best paths and the same lattices (costs within 1e-3, issue
# 32) on a TDNN acoustic model; the --use-gpu policy
# (CUDA_VISIBLE_DEVICES hiding the GPU, --gpu-id out of range, optional
# falling back to the CPU); --cuda-memory-cap refusing a large minibatch
# with the size asked for and the advice; and, where the GPU is in
# exclusive-process mode, a second process with --use-gpu=yes failing while
# the first holds the GPU and --use-gpu=wait waiting for it.
# Skips (exit 77) with the reason when this build has no CUDA backend or the
# machine no GPU (NNET3_DEBUG_OPAQUE_DEVICE=1 runs it on the opaque debugging
# device instead, to check this script without a GPU).
BIN=$1 DATA=$2
. "$(dirname "$0")/../cli/lib.sh"

opaque=${NNET3_DEBUG_OPAQUE_DEVICE:-0}
if [ "$opaque" != 1 ] && ! cuda-compiled; then
  echo "SKIP: no GPU: this build has no CUDA backend"; exit 77
fi

# ---- data: a TDNN with batch-norm and dropout, features, labels ----
cat > tdnn.config <<'EOF'
input-node name=input dim=40
component name=tdnn1.affine type=NaturalGradientAffineComponent input-dim=200 output-dim=256 learning-rate=0.002
component-node name=tdnn1.affine component=tdnn1.affine input=Append(Offset(input,-2),Offset(input,-1),input,Offset(input,1),Offset(input,2))
component name=tdnn1.relu type=RectifiedLinearComponent dim=256
component-node name=tdnn1.relu component=tdnn1.relu input=tdnn1.affine
component name=tdnn1.batchnorm type=BatchNormComponent dim=256
component-node name=tdnn1.batchnorm component=tdnn1.batchnorm input=tdnn1.relu
component name=tdnn1.dropout type=DropoutComponent dim=256 dropout-proportion=0.2
component-node name=tdnn1.dropout component=tdnn1.dropout input=tdnn1.batchnorm
component name=tdnn2.affine type=NaturalGradientAffineComponent input-dim=768 output-dim=256 learning-rate=0.002
component-node name=tdnn2.affine component=tdnn2.affine input=Append(Offset(tdnn1.dropout,-3),tdnn1.dropout,Offset(tdnn1.dropout,3))
component name=tdnn2.relu type=RectifiedLinearComponent dim=256
component-node name=tdnn2.relu component=tdnn2.relu input=tdnn2.affine
component name=tdnn2.batchnorm type=BatchNormComponent dim=256
component-node name=tdnn2.batchnorm component=tdnn2.batchnorm input=tdnn2.relu
component name=output.affine type=NaturalGradientAffineComponent input-dim=256 output-dim=50 learning-rate=0.002
component-node name=output.affine component=output.affine input=tdnn2.batchnorm
component name=output.log-softmax type=LogSoftmaxComponent dim=50
component-node name=output.log-softmax component=output.log-softmax input=output.affine
output-node name=output input=output.log-softmax objective=linear
EOF
python3 - <<'PY'
import random
random.seed(17)
with open('feats.txt', 'w') as f, open('post.txt', 'w') as p:
    for u in range(12):
        n = 60 + 7 * u
        rows = [' '.join('%.4f' % random.gauss(0, 1) for _ in range(40)) for _ in range(n)]
        f.write('utt%02d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        p.write('utt%02d %s\n' % (u, ' '.join('[ %d 1 ]' % random.randrange(50) for _ in range(n))))
PY
expect_ok feats "copy-feats ark,t:feats.txt ark:feats.ark"
expect_ok init "nnet3-init --srand=3 tdnn.config 0.raw"

# Is there a GPU? (--use-gpu=yes fails at once without one.)
if ! nnet3-compute --use-gpu=yes 0.raw ark:feats.ark ark:/dev/null 2> probe.log; then
  echo "SKIP: no GPU: $(grep -m1 '^ERROR' probe.log | sed 's/^ERROR ([^ ]*) //')"
  exit 77
fi
grep -q "The active GPU is \[\|opaque debugging device" probe.log ||
  fail "probe: no 'The active GPU is [...]' log line"

# compare_text A B TOL: the numbers of two text files agree within TOL
# relative to the largest magnitude on each line; the words are identical.
compare_text() {
  python3 - "$@" <<'PY'
import sys
a, b, tol = open(sys.argv[1]).read().split('\n'), open(sys.argv[2]).read().split('\n'), float(sys.argv[3])
if len(a) != len(b):
    sys.exit('%d vs %d lines' % (len(a), len(b)))
def num(w):
    try:
        return float(w)
    except ValueError:
        return None
worst = 0.0
for i, (la, lb) in enumerate(zip(a, b)):
    wa, wb = la.split(), lb.split()
    if len(wa) != len(wb):
        sys.exit('line %d: %d vs %d words' % (i + 1, len(wa), len(wb)))
    nums = [abs(num(w)) for w in wa if num(w) is not None]
    scale = max(nums) if nums else 0.0
    for x, y in zip(wa, wb):
        if num(x) is None or num(y) is None:
            if x != y:
                sys.exit('line %d: %r vs %r' % (i + 1, x, y))
        elif abs(num(x) - num(y)) > tol * (scale + 1e-3):
            sys.exit('line %d: %s vs %s' % (i + 1, x, y))
        else:
            worst = max(worst, abs(num(x) - num(y)) / (scale + 1e-3))
print('largest relative difference %.2g' % worst)
PY
}

# compare_updates BEFORE REF TEST TOL: three models as text (nnet3-copy
# --binary=false). What training changed must agree: for each matrix,
# vector and number, ||TEST - REF|| <= TOL ||REF - BEFORE|| + 1e-5 ||BEFORE||
# + 1e-6 (the text's 6 digits round to a few 1e-6 of each value); and the
# parameters (the *Params> blocks) must have moved at least 1e-3 of their
# norm in both runs, so that a run which did not update them fails.
compare_updates() {
  python3 - "$@" <<'PY'
import math, sys
def items(path):
    out, block = [], None
    for w in open(path).read().split():
        if block is not None:
            if w == ']':
                out.append(('[]', block))
                block = None
            else:
                block.append(float(w))
        elif w == '[':
            block = []
        else:
            try:
                out.append(('', [float(w)]))
            except ValueError:
                out.append((w, []))
    return out
def norm(v):
    return math.sqrt(sum(x * x for x in v))
before, ref, test = (items(p) for p in sys.argv[1:4])
tol = float(sys.argv[4])
if not len(before) == len(ref) == len(test):
    sys.exit('the models have %d, %d and %d items' % (len(before), len(ref), len(test)))
component = tag = where = ''
worst = 0.0
moved = {'ref': 0.0, 'test': 0.0, 'norm': 0.0}
for i, (b, r, t) in enumerate(zip(before, ref, test)):
    if i > 0 and ref[i - 1][0] == '<ComponentName>':
        component = r[0]
    if r[0].startswith('<'):
        tag = r[0]
    if b[0] != r[0] or r[0] != t[0] or len(r[1]) != len(t[1]) or (b[1] and len(b[1]) != len(r[1])):
        sys.exit('item %d (%s %s): %r, %r, %r' % (i, component, tag, b[0], r[0], t[0]))
    if not r[1]:
        continue
    x0 = b[1] or [0.0] * len(r[1])  # empty stats before training count as zeros
    d = norm([y - x for x, y in zip(r[1], t[1])])
    u = norm([x - z for x, z in zip(r[1], x0)])
    n0 = norm(x0)
    if tag == '<NumDimsSelfRepaired>':  # a count of threshold decisions
        bound = 0.02 * abs(r[1][0]) + 2
    else:
        bound = tol * u + 1e-5 * n0 + 1e-6
    if d > bound:
        sys.exit('%s %s: the update differs by %g, more than %g (%.2g of the update, %g)'
                 % (component, tag, d, bound, d / u if u else float('inf'), u))
    if d / bound > worst:
        worst, where = d / bound, '%s %s' % (component, tag)
    if tag.endswith('Params>'):
        moved['ref'] += sum((x - z) ** 2 for x, z in zip(r[1], x0))
        moved['test'] += sum((y - z) ** 2 for y, z in zip(t[1], x0))
        moved['norm'] += n0 * n0
ref_moved, test_moved = (math.sqrt(moved[k] / max(moved['norm'], 1e-30)) for k in ('ref', 'test'))
print('the parameters moved %.2g (reference) and %.2g (test) of their norm; '
      'largest update difference %.2g of its bound (%s)' % (ref_moved, test_moved, worst, where or 'all equal'))
if not ref_moved >= 1e-3:
    sys.exit('the reference run moved the parameters only %.2g of their norm' % ref_moved)
if not test_moved >= 1e-3:
    sys.exit('the test run moved the parameters only %.2g of their norm' % test_moved)
PY
}

# ---- inference ----
for v in no yes; do
  expect_ok "compute-$v" "nnet3-compute --use-gpu=$v 0.raw ark:feats.ark ark,t:out.$v.txt 2> compute.$v.log"
done
compare_text out.no.txt out.yes.txt 1e-4 > cmp.log 2>&1 || fail "nnet3-compute: GPU output differs: $(cat cmp.log)"
if [ -x "$BIN/nnet3-compute-batch" ]; then
  for v in no yes; do
    expect_ok "batch-$v" "nnet3-compute-batch --use-gpu=$v --minibatch-size=16 0.raw ark:feats.ark ark,t:batch.$v.txt 2> batch.$v.log"
  done
  compare_text batch.no.txt batch.yes.txt 1e-4 > cmp.log 2>&1 || fail "nnet3-compute-batch: GPU output differs: $(cat cmp.log)"
  compare_text out.no.txt batch.yes.txt 1e-4 > cmp.log 2>&1 || fail "nnet3-compute-batch on the GPU differs from nnet3-compute on the CPU: $(cat cmp.log)"
else
  echo "note: nnet3-compute-batch not built: its GPU check skipped"
fi

# ---- training ----
expect_ok egs "nnet3-get-egs --num-pdfs=50 --left-context=5 --right-context=5 --num-frames=8 ark:feats.ark ark,t:post.txt ark:egs.ark"
expect_ok merge "nnet3-merge-egs --minibatch-size=16 ark:egs.ark ark:merged.ark"
expect_ok text-0 "nnet3-copy --binary=false 0.raw 0.txt"
for v in no yes; do
  expect_ok "train-$v" "nnet3-train --use-gpu=$v --srand=1 --momentum=0.5 0.raw ark:merged.ark 1.$v.raw 2> train.$v.log"
  expect_ok "text-$v" "nnet3-copy --binary=false 1.$v.raw 1.$v.txt"
  expect_ok "prob-$v" "nnet3-compute-prob --use-gpu=$v 1.no.raw ark:merged.ark 2> prob.$v.log"
done
# OpenBLAS against oneDNN products on the CPU: 2e-5 of the update here.
if compare_updates 0.txt 1.no.txt 1.yes.txt 0.05 > cmp.log 2>&1; then
  echo "nnet3-train: $(cat cmp.log)"
else
  fail "nnet3-train: the GPU's update differs from the CPU's: $(cat cmp.log)"
fi
grep -o "Overall log-likelihood.*per frame" prob.no.log > p.no
grep -o "Overall log-likelihood.*per frame" prob.yes.log > p.yes
compare_text p.no p.yes 1e-4 > cmp.log 2>&1 || fail "nnet3-compute-prob differs: $(cat cmp.log)"

# ---- decoding: nnet3-latgen-faster-batch, GPU against CPU lattices ----
# tests/data/train/hmm.mdl's transition model and the three-word graph of
# tests/data/decode, with a TDNN (ReLU, batch norm, 256 wide) as its network
# so that the products are large enough to round differently on the GPU.
# Checks: the same best paths (words and alignments), the lattices arc for
# arc with costs within 1e-3 (relative to the larger of 1 and the cost).
if [ -x "$BIN/nnet3-latgen-faster-batch" ] && command -v fstcompile > /dev/null; then
  cat > am.config <<'EOF'
input-node name=input dim=2
component name=l1 type=AffineComponent input-dim=10 output-dim=256
component-node name=l1 component=l1 input=Append(Offset(input,-2),Offset(input,-1),input,Offset(input,1),Offset(input,2))
component name=r1 type=RectifiedLinearComponent dim=256
component-node name=r1 component=r1 input=l1
component name=b1 type=BatchNormComponent dim=256 test-mode=true
component-node name=b1 component=b1 input=r1
component name=l2 type=AffineComponent input-dim=768 output-dim=256
component-node name=l2 component=l2 input=Append(Offset(b1,-1),b1,Offset(b1,1))
component name=r2 type=RectifiedLinearComponent dim=256
component-node name=r2 component=r2 input=l2
component name=out type=AffineComponent input-dim=256 output-dim=6 param-stddev=0.3
component-node name=out component=out input=r2
component name=sm type=LogSoftmaxComponent dim=6
component-node name=sm component=sm input=out
output-node name=output input=sm objective=linear
EOF
  python3 - > am-feats.txt <<'PY'
import random
random.seed(32)
for i, n in enumerate((130, 5, 77, 1, 23, 130, 9, 40, 51, 2, 77, 130)):
    rows = ["  " + " ".join("%.3f" % random.gauss(0, 1) for _ in range(2)) for _ in range(n)]
    print("u%02d  [\n" % i + "\n".join(rows) + " ]")
PY
  expect_ok am "nnet3-init --srand=5 am.config am.raw && nnet3-am-copy --set-raw-nnet=am.raw $DATA/train/hmm.mdl am.mdl && fstcompile $DATA/decode/graph.txt > HCLG.fst && copy-feats ark,t:am-feats.txt ark:am-feats.ark"
  for v in no yes; do
    expect_ok "latgen-$v" "nnet3-latgen-faster-batch --use-gpu=$v --num-threads=8 --minibatch-size=4 --word-symbol-table=$DATA/decode/words.txt am.mdl HCLG.fst ark:am-feats.ark ark,t:lat.$v.txt ark,t:words.$v.txt ark,t:ali.$v.txt 2> latgen.$v.log"
  done
  same_file latgen-words words.no.txt words.yes.txt
  same_file latgen-ali ali.no.txt ali.yes.txt
  grep -q ' [1-3]' words.no.txt || fail "latgen: no utterance decoded to a word"
  if python3 - lat.no.txt lat.yes.txt > cmp.log 2>&1 <<'PY'
import sys
def arcs(path):
    out = []
    for line in open(path):
        w = line.split()
        if w and ',' in w[-1]:
            g, a, tids = w[-1].split(',')
            out.append((w[:-1], tids, float(g), float(a)))
        else:
            out.append((w, '', 0.0, 0.0))
    return out
a, b = arcs(sys.argv[1]), arcs(sys.argv[2])
if len(a) != len(b):
    sys.exit('%d vs %d lines' % (len(a), len(b)))
worst = 0.0
for i, (x, y) in enumerate(zip(a, b)):
    if x[0] != y[0] or x[1] != y[1]:
        sys.exit('line %d: %s vs %s' % (i + 1, x[:2], y[:2]))
    for u, v in ((x[2], y[2]), (x[3], y[3])):
        d = abs(u - v) / max(1.0, abs(u))
        if d > 1e-3:
            sys.exit('line %d: cost %g vs %g' % (i + 1, u, v))
        worst = max(worst, d)
print('%d lattice lines; largest cost difference %.2g' % (len(a), worst))
PY
  then
    echo "nnet3-latgen-faster-batch: $(cat cmp.log)"
  else
    fail "nnet3-latgen-faster-batch: the GPU's lattices differ from the CPU's: $(cat cmp.log)"
  fi
else
  echo "note: nnet3-latgen-faster-batch or fstcompile missing: the decoding check skipped"
fi

if [ "$opaque" = 1 ]; then finish; fi

# ---- the --use-gpu policy ----
expect_error hidden "--use-gpu=yes: no CUDA GPU detected" \
  "CUDA_VISIBLE_DEVICES= nnet3-compute --use-gpu=yes 0.raw ark:feats.ark ark:/dev/null"
expect_ok hidden-optional "CUDA_VISIBLE_DEVICES= nnet3-compute --use-gpu=optional 0.raw ark:feats.ark ark:/dev/null 2> opt.log"
grep -q "WARNING.*--use-gpu=optional: no CUDA GPU detected.*running on the CPU" opt.log ||
  fail "hidden-optional: no warning about running on the CPU"
expect_error gpu-id "--gpu-id=99: .* visible" \
  "nnet3-compute --use-gpu=yes --gpu-id=99 0.raw ark:feats.ark ark:/dev/null"
expect_error bad-cap "--cuda-memory-cap=lots" \
  "nnet3-compute --use-gpu=yes --cuda-memory-cap=lots 0.raw ark:feats.ark ark:/dev/null"
expect_error cap "Out of GPU memory: could not allocate .* MiB .*--cuda-memory-cap is 1.0 MiB.*smaller minibatch" \
  "nnet3-compute --use-gpu=yes --cuda-memory-cap=1M 0.raw ark:feats.ark ark:/dev/null"
expect_ok tf32 "nnet3-compute --use-gpu=yes --cuda-use-tf32 0.raw ark:feats.ark ark,t:out.tf32.txt 2> tf32.log"
grep -q "TF32 GEMM on" tf32.log || fail "tf32: no 'TF32 GEMM on' in the log"
compare_text out.no.txt out.tf32.txt 2e-2 > cmp.log 2>&1 || fail "TF32 output too far from FP32: $(cat cmp.log)"

# ---- exclusive-process mode: yes fails while another process holds it;
#      wait waits ----
mode=$(nvidia-smi --query-gpu=compute_mode --format=csv,noheader -i "${CUDA_VISIBLE_DEVICES:-0}" 2> /dev/null | head -1)
if [ "$mode" = "Exclusive_Process" ]; then
  mkfifo hold.fifo
  # The holder reads its features from a FIFO that stays open until we
  # close it, so it keeps its GPU context meanwhile.
  (nnet3-compute --use-gpu=yes 0.raw ark:hold.fifo ark:/dev/null 2> hold.log) &
  holder=$!
  exec 7> hold.fifo
  sleep 3
  expect_error busy-yes "--use-gpu=yes: failed to create a CUDA context" \
    "nnet3-compute --use-gpu=yes 0.raw ark:feats.ark ark:/dev/null"
  (nnet3-compute --use-gpu=wait 0.raw ark:feats.ark ark:/dev/null 2> wait.log; echo $? > wait.rc) &
  waiter=$!
  sleep 8
  [ -f wait.rc ] && fail "busy-wait: --use-gpu=wait did not wait"
  grep -q "will try again indefinitely every 5 seconds" wait.log || fail "busy-wait: no waiting message"
  exec 7>&-  # the holder finishes
  wait "$holder"
  wait "$waiter"
  [ "$(cat wait.rc 2> /dev/null)" = 0 ] || fail "busy-wait: --use-gpu=wait did not finish after the GPU was freed"
  grep -q "Waited .* seconds before creating CUDA context" wait.log || fail "busy-wait: no 'Waited' line"
else
  echo "note: the GPU is not in exclusive-process mode (compute mode '${mode:-unknown}'): busy-GPU checks skipped"
fi
finish

#!/usr/bin/env bash
# The TDNN-F, x-vector and CNN-TDNN example configs through the toolkit:
# nnet3-init and nnet3-info (contexts, parameter counts worked out by hand,
# component lines), nnet3-compute, nnet3-get-egs + nnet3-train (the objective
# improves), nnet3-copy (text round trip, edits, --prepare-for-test giving
# the same outputs), nnet3-average and nnet3-show-progress; then bad values
# in the new components' configs, each one ERROR line naming the component
# line and the key.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# gen_data DIM NUM_UTTS NUM_CLASSES PREFIX [utt]: PREFIX.feats.txt (N(0,1))
# and PREFIX.post.txt (labels from a fixed linear map of the frame; with
# "utt", one class per utterance and frames N(class mean, 1), as speaker
# data), seed 3.
gen_data() {
  python3 - "$@" <<'PY'
import random, sys
dim, num_utts, ncls, prefix = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
per_utt = len(sys.argv) > 5
random.seed(3)
w = [[random.gauss(0, 1) for _ in range(dim)] for _ in range(ncls)]
with open(prefix + '.feats.txt', 'w') as feats, open(prefix + '.post.txt', 'w') as post:
    for u in range(num_utts):
        rows, labels = [], []
        for t in range(30 + u % 5):
            if per_utt:
                c = u % 3
                x = [random.gauss(w[c][d], 1) for d in range(dim)]
            else:
                x = [random.gauss(0, 1) for _ in range(dim)]
                s = [sum(a * b for a, b in zip(wr, x)) for wr in w]
                c = max(range(ncls), key=lambda k: s[k])
            labels.append(c)
            rows.append(' '.join('%.4f' % v for v in x))
        feats.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
        post.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % l for l in labels)))
PY
}

# info_has NAME FILE REGEX: a line of nnet3-info output matches.
info_has() { grep -Eq -- "$3" "$2" || fail "$1: no line matching /$3/ in $2"; }

# check_config NAME DIM LEFT RIGHT NUM_PARAMS [EGS_LEFT EGS_RIGHT LR utt]:
# init, info, compute, train (learning rate LR, default 0.002), copy,
# average, show-progress for configs/NAME.config (100 outputs); the egs get
# the model's context or the given one; "utt": one label per utterance.
check_config() {
  local name=$1 dim=$2 left=$3 right=$4 params=$5
  local egs_left=${6:-$3} egs_right=${7:-$4} lr=${8:-0.002} labels=${9:-}
  expect_ok "$name-init" "nnet3-init --srand=1 '$CONFIGS/$name.config' $name.0.raw"
  expect_ok "$name-info" "nnet3-info $name.0.raw > $name.info"
  info_has "$name-info" $name.info "^left-context: $left\$"
  info_has "$name-info" $name.info "^right-context: $right\$"
  info_has "$name-info" $name.info "^num-parameters: $params\$"
  gen_data $dim 6 100 $name $labels
  expect_ok "$name-feats" "copy-feats ark,t:$name.feats.txt ark:$name.feats.ark"
  expect_ok "$name-compute" "nnet3-compute $name.0.raw ark:$name.feats.ark ark,t:$name.out.txt"
  python3 - $name.out.txt <<'PY' || fail "$name-compute: not one 100-dim row per frame"
import sys
rows = [l.replace(']', '').split() for l in open(sys.argv[1])
        if l.strip() and not l.rstrip().endswith('[')]
assert all(len(r) == 100 for r in rows), set(len(r) for r in rows)
assert len(rows) == sum(30 + u % 5 for u in range(6)), len(rows)
PY
  expect_ok "$name-egs" "nnet3-get-egs --num-pdfs=100 --left-context=$egs_left --right-context=$egs_right ark:$name.feats.ark ark,t:$name.post.txt ark:$name.egs"
  expect_ok "$name-valid" "nnet3-merge-egs --minibatch-size=1:512 ark:$name.egs ark:$name.valid"
  local objf0 objf1
  objf0=$(nnet3-compute-prob $name.0.raw ark:$name.valid 2>&1 | sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p")
  expect_ok "$name-train" "nnet3-copy --learning-rate=$lr $name.0.raw $name.lr.raw && nnet3-merge-egs --minibatch-size=16 ark:$name.egs ark:- | nnet3-train --srand=1 $name.lr.raw ark:- $name.1.raw"
  objf1=$(nnet3-compute-prob $name.1.raw ark:$name.valid 2>&1 | sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p")
  echo "$name: valid objf $objf0 -> $objf1"
  python3 -c "import sys; sys.exit(0 if float('$objf1') > float('$objf0') + 0.01 else 1)" ||
    fail "$name-train: objective '$objf1' did not improve on '$objf0'"
  # Text and binary round trips give the same model.
  expect_ok "$name-copy" "nnet3-copy --binary=false $name.1.raw $name.1.txt && nnet3-copy $name.1.txt $name.1b.raw && nnet3-copy --binary=false $name.1b.raw $name.1b.txt"
  same_file "$name-copy" $name.1.txt $name.1b.txt
  expect_ok "$name-average" "nnet3-average $name.0.raw $name.1.raw $name.avg.raw"
  expect_ok "$name-progress" "nnet3-show-progress $name.0.raw $name.1.raw ark:$name.valid 2> $name.progress"
  grep -q "Parameter differences per layer are \[" $name.progress ||
    fail "$name-progress: no parameter differences"
}

# TDNN-F: 30976 + 4 * (64 * 512 + 256 * 128 + 256) + 65792 + 16384 + 6500.
check_config tdnnf 40 9 9 382820
info_has tdnnf-info tdnnf.info "^component name=tdnnf2.linear type=TdnnComponent, input-dim=256, output-dim=64, .*max-change=0.75, .*orthonormal-constraint=-1, time-offsets=-1,0, linear-params-rms=.*has-bias=false"
info_has tdnnf-info tdnnf.info "^component name=tdnnf4.affine type=TdnnComponent, input-dim=64, output-dim=256, .*time-offsets=0,3, .*bias-\{mean,stddev\}="
grep -q "tdnnf4.affine:" tdnnf.progress || fail "tdnnf-progress: no tdnnf4.affine"
# Edits: learning rates and the dropout proportion of the
# GeneralDropoutComponents; --prepare-for-test keeps the outputs.
expect_ok tdnnf-edits "nnet3-copy --binary=false --edits='set-learning-rate name=tdnnf* learning-rate=0.01;set-dropout-proportion name=*dropout proportion=0.25' tdnnf.1.raw tdnnf.e.txt"
[ "$(grep -c '<TdnnComponent> <MaxChange> 0.75 <L2Regularize> 0.01 <LearningRate> 0.01 ' tdnnf.e.txt)" = 8 ] ||
  fail "tdnnf-edits: the 8 TdnnComponents do not have learning rate 0.01"
[ "$(grep -c '<DropoutProportion> 0.25 ' tdnnf.e.txt)" = 4 ] || fail "tdnnf-edits: dropout proportion not set"
expect_ok tdnnf-test "nnet3-copy --prepare-for-test tdnnf.1.raw tdnnf.test.raw && nnet3-info tdnnf.test.raw > tdnnf.test.info"
grep -q "GeneralDropoutComponent" tdnnf.test.info && fail "tdnnf-test: dropout left in the test model"
expect_ok tdnnf-test-compute "nnet3-compute tdnnf.1.raw ark:tdnnf.feats.ark ark,t:a.txt && nnet3-compute tdnnf.test.raw ark:tdnnf.feats.ark ark,t:b.txt"
python3 - <<'PY' || fail "tdnnf --prepare-for-test: outputs differ"
a = open('a.txt').read().replace('[', ' ').replace(']', ' ').split()
b = open('b.txt').read().replace('[', ' ').replace(']', ' ').split()
assert len(a) == len(b) > 0
for x, y in zip(a, b):
    if x.startswith('utt'):
        assert x == y
    else:
        assert abs(float(x) - float(y)) <= 1e-3 * (1 + abs(float(x))), (x, y)
PY

# x-vector: 38656 + 196864 * 2 + 65792 + 192750 + 384256 + 65792 + 25700.
# Its context is 0 / 7 (the pooling needs just one frame of tdnn5 anywhere
# in [t, t+10000]), as in Kaldi; x-vector egs are chunks, so here each eg
# gets frames t-7 .. t+27 (the pooling then sees tdnn5 at t .. t+20). One
# class per utterance, as speakers; a smaller learning rate (the
# segment-level batch-norms see few segments per minibatch).
check_config xvector 30 0 7 1166674 7 27 0.0002 utt
info_has xvector-info xvector.info "^component name=stats-extraction-0-10000 type=StatisticsExtractionComponent, input-dim=750, output-dim=1501$"
info_has xvector-info xvector.info "^component name=stats-pooling-0-10000 type=StatisticsPoolingComponent, input-dim=1501, output-dim=1500$"

# CNN-TDNN: 160 + 4640 + 491776 + 2 * 196864 + 25700.
check_config cnn-tdnn 40 9 9 916004
info_has cnn-tdnn-info cnn-tdnn.info "^component name=cnn2.conv type=TimeHeightConvolutionComponent, input-dim=640, output-dim=640, .*max-change=0.75 num-filters-in=16, num-filters-out=32, height-in=40, height-out=20, height-subsample-out=2, \{time,height\}-offsets=\[-1,-1 -1,0 -1,1 0,-1 0,0 0,1 1,-1 1,0 1,1\], required-time-offsets=\[-1,0,1\], input-dim=640, output-dim=640, filter-params-rms=.*num-params=4640"

# Bad values: one ERROR line naming the config line (name=...) and the key.
bad_config() {  # bad_config NAME DIM COMPONENT-LINE REGEX
  printf 'input-node name=input dim=%s\n%s\ncomponent-node name=c component=c input=input\noutput-node name=output input=c\n' \
    "$2" "$3" > bad.config
  expect_error "$1" "$4" "nnet3-init bad.config bad.raw"
  [ -e bad.raw ] && fail "$1: a model was written"
}
bad_config tdnn-zero-dim 4 "component name=c type=TdnnComponent input-dim=0 output-dim=3 time-offsets=-1,0,1" \
  "bad.config:2: TdnnComponent: input-dim=0 must be > 0 \(config line 'component name=c "
bad_config tdnn-negative-dim 4 "component name=c type=TdnnComponent input-dim=4 output-dim=-3 time-offsets=-1,0,1" \
  "TdnnComponent: output-dim=-3 must be > 0 \(config line 'component name=c "
bad_config tdnn-repeated-offsets 4 "component name=c type=TdnnComponent input-dim=4 output-dim=3 time-offsets=0,0" \
  "TdnnComponent: time-offsets=0,0 must be .*distinct.*name=c "
bad_config conv-heights 4 "component name=c type=TimeHeightConvolutionComponent num-filters-in=1 num-filters-out=2 height-in=4 height-out=6 time-offsets=0 height-offsets=-1,0,1" \
  "TimeHeightConvolutionComponent: height-out=6 is too large.*name=c "
# Heights that do not match the input: num-filters-in x height-in = 8.
bad_config conv-filters 4 "component name=c type=TimeHeightConvolutionComponent num-filters-in=2 num-filters-out=2 height-in=4 height-out=4 time-offsets=0 height-offsets=0" \
  "bad.config:3: component-node 'c': its input input has dim 4 but component 'c' \\(TimeHeightConvolutionComponent\\) has input-dim 8"
bad_config conv-no-output 4 "component name=c type=TimeHeightConvolutionComponent num-filters-in=1 num-filters-out=2 height-in=4 height-out=4 time-offsets=-1,0 height-offsets=0 required-time-offsets=1" \
  "TimeHeightConvolutionComponent: required-time-offsets: 1 is not one of the time offsets.*name=c "
bad_config conv-zero-filters 4 "component name=c type=TimeHeightConvolutionComponent num-filters-in=1 num-filters-out=0 height-in=4 height-out=4 time-offsets=0 height-offsets=0" \
  "TimeHeightConvolutionComponent: num-filters-out=0 must be > 0.*name=c "
bad_config stats-no-window 5 "component name=c type=StatisticsPoolingComponent input-dim=5 left-context=0 right-context=0" \
  "StatisticsPoolingComponent: left-context=0 and right-context=0 must be .*name=c "
bad_config stats-period 4 "component name=c type=StatisticsExtractionComponent input-dim=4 input-period=2 output-period=3" \
  "StatisticsExtractionComponent: output-period=3 must be a positive multiple of input-period=2.*name=c "
bad_config stats-zero-dim 4 "component name=c type=StatisticsExtractionComponent input-dim=0" \
  "StatisticsExtractionComponent: input-dim=0 must be > 0.*name=c "
bad_config maxpool-size 12 "component name=c type=MaxpoolingComponent input-x-dim=2 input-y-dim=2 input-z-dim=3 pool-x-size=3 pool-y-size=1 pool-z-size=1 pool-x-step=1 pool-y-step=1 pool-z-step=1" \
  "MaxpoolingComponent: pool-x-size=3 must be <= input-x-dim=2.*name=c "
bad_config conv3d-filters 12 "component name=c type=ConvolutionComponent input-x-dim=2 input-y-dim=2 input-z-dim=3 filt-x-dim=1 filt-y-dim=1 filt-x-step=1 filt-y-step=1 num-filters=-2" \
  "ConvolutionComponent: num-filters=-2 must be > 0.*name=c "

finish

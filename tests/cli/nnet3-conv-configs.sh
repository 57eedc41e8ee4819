#!/usr/bin/env bash
# The TDNN-F, x-vector and CNN-TDNN example configs through the toolkit:
# nnet3-init and nnet3-info (contexts, parameter counts worked out by hand,
# component lines); nnet3-compute with a random output layer (valid
# log-probabilities that differ between frames, the same for another chunk
# size; the convolutions' and the statistics pooling's outputs against a
# python re-computation, component-reference.py); nnet3-get-egs +
# nnet3-train (the component under test must help, below); nnet3-copy (text
# round trip, edits, --prepare-for-test giving the same outputs),
# nnet3-average and nnet3-show-progress; then bad values in the new
# components' configs, each one ERROR line naming the component line and
# the key.
#
# Training, with the configs' zero output layer made random (the zero one
# passes no derivative back at the first step): one epoch must improve the
# objective on held-out utterances; and (lib.sh step_learns) one step on
# one minibatch in which only the parameters under the component being
# tested may learn must lower that minibatch's objective by a margin. The
# layers above them, output layer included, stay fixed in that step, so
# learning the output bias (which alone could pass the first check) cannot
# help: only correct derivatives through the TdnnComponents, the
# convolutions or the statistics pooling can.
BIN=$1 DATA=$2
HERE=$(cd "$(dirname "$0")" && pwd)
CONFIGS=$(cd "$HERE/../../configs" && pwd)
. "$HERE/lib.sh"
COMPREF="python3 $HERE/component-reference.py"

# gen_data DIM NUM_CLASSES PREFIX [utt]: PREFIX.train.{feats,post}.txt (6
# utterances of 30..34 frames) and PREFIX.valid.{feats,post}.txt (3 more,
# held out); N(0,1) frames labelled by the argmax of NUM_CLASSES fixed
# linear maps; with "utt", one class per utterance (u mod 3) and frames
# N(class mean, 1), as speaker data; seed 3.
gen_data() {
  python3 - "$@" <<'PY'
import random, sys
dim, ncls, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
per_utt = len(sys.argv) > 4
random.seed(3)
w = [[random.gauss(0, 1) for _ in range(dim)] for _ in range(ncls)]
for part, utts in (('train', range(6)), ('valid', range(6, 9))):
    with open(prefix + '.' + part + '.feats.txt', 'w') as feats, \
            open(prefix + '.' + part + '.post.txt', 'w') as post:
        for u in utts:
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

# check_log_probs NAME FILE NUM_ROWS: FILE (a text archive) has NUM_ROWS
# rows of 100 log-probabilities (their exp sums to 1 within 1e-3) and
# they are not all the same (a column's spread over the rows > 0.01).
check_log_probs() {
  python3 - "$@" 2> "$TMP/lp.err" <<'PY' || fail "$1: $(tail -1 "$TMP/lp.err")"
import math, sys
rows = [[float(x) for x in l.replace(']', '').split()] for l in open(sys.argv[2])
        if l.strip() and not l.rstrip().endswith('[')]
assert len(rows) == int(sys.argv[3]), '%d rows' % len(rows)
assert all(len(r) == 100 for r in rows), set(len(r) for r in rows)
bad = [r for r in rows if abs(sum(math.exp(v) for v in r) - 1) > 1e-3]
assert not bad, '%d rows are not log-probabilities' % len(bad)
spread = max(max(c) - min(c) for c in zip(*rows))
assert spread > 0.01, 'every row the same (spread %g)' % spread
PY
}

# objf MODEL EGS: the log-likelihood per frame from nnet3-compute-prob.
objf() {
  nnet3-compute-prob "$1" "$2" 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p"
}

# check_config NAME DIM LEFT RIGHT NUM_PARAMS EGS_LEFT EGS_RIGHT LR LABELS
#   MARGIN PATTERN...: for configs/NAME.config (100 outputs) with a random
# output layer: init, info, compute, egs (the given context; LABELS "utt"
# for one label per utterance, else a number of classes), one epoch of
# training at learning rate LR (NAME.1.raw) that improves the held-out
# objective by 0.1, the step check (learning rate 0.005, only the
# components matching the PATTERNs learning, the objective MARGIN higher),
# copy, average, show-progress.
check_config() {
  local name=$1 dim=$2 left=$3 right=$4 params=$5 egs_left=$6 egs_right=$7 lr=$8
  local labels=$9 margin=${10}
  shift 10
  sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/$name.config" > r-$name.config
  expect_ok "$name-init" "nnet3-init --srand=1 r-$name.config $name.0.raw"
  expect_ok "$name-info" "nnet3-info $name.0.raw > $name.info"
  info_has "$name-info" $name.info "^left-context: $left\$"
  info_has "$name-info" $name.info "^right-context: $right\$"
  info_has "$name-info" $name.info "^num-parameters: $params\$"
  if [ "$labels" = utt ]; then gen_data $dim 3 $name utt; else gen_data $dim $labels $name; fi
  expect_ok "$name-feats" "copy-feats ark,t:$name.train.feats.txt ark:$name.train.ark && copy-feats ark,t:$name.valid.feats.txt ark:$name.valid.ark"
  expect_ok "$name-compute" "nnet3-compute $name.0.raw ark:$name.valid.ark ark,t:$name.out.txt"
  check_log_probs "$name-compute" $name.out.txt 96
  local get="nnet3-get-egs --num-pdfs=100 --left-context=$egs_left --right-context=$egs_right"
  expect_ok "$name-egs" "$get ark:$name.train.ark ark,t:$name.train.post.txt ark:- | nnet3-shuffle-egs --srand=1 ark:- ark:$name.egs"
  expect_ok "$name-valid" "$get ark:$name.valid.ark ark,t:$name.valid.post.txt ark:- | nnet3-merge-egs --minibatch-size=1:512 ark:- ark:$name.valid"
  local objf0 objf1
  expect_ok "$name-train" "nnet3-copy --learning-rate=$lr $name.0.raw $name.lr.raw && nnet3-merge-egs --minibatch-size=16 ark:$name.egs ark:- | nnet3-train --srand=1 $name.lr.raw ark:- $name.1.raw"
  objf0=$(objf $name.0.raw ark:$name.valid) objf1=$(objf $name.1.raw ark:$name.valid)
  echo "$name: held-out objf $objf0 -> $objf1"
  python3 -c "import sys; sys.exit(0 if float('$objf1') > float('$objf0') + 0.1 else 1)" ||
    fail "$name-train: held-out objective '$objf1' did not improve on '$objf0'"
  expect_ok "$name-minibatch" "nnet3-merge-egs --minibatch-size=64 ark:$name.egs ark:- | nnet3-subset-egs --n=1 ark:- ark:$name.one"
  step_learns "$name-backprop" $name.0.raw ark:$name.one 0.005 $margin "$@"
  # Text and binary round trips give the same model.
  expect_ok "$name-copy" "nnet3-copy --binary=false $name.1.raw $name.1.txt && nnet3-copy $name.1.txt $name.1b.raw && nnet3-copy --binary=false $name.1b.raw $name.1b.txt"
  same_file "$name-copy" $name.1.txt $name.1b.txt
  expect_ok "$name-average" "nnet3-average $name.0.raw $name.1.raw $name.avg.raw"
  expect_ok "$name-progress" "nnet3-show-progress $name.0.raw $name.1.raw ark:$name.valid 2> $name.progress"
  grep -q "Parameter differences per layer are \[" $name.progress ||
    fail "$name-progress: no parameter differences"
}

# cut MODEL NODE OUT: MODEL with its output node moved to NODE (and what
# is then unused removed).
cut() {
  echo "output-node name=output input=$2" > cut.config
  expect_ok "cut-$2" "nnet3-copy --nnet-config=cut.config --edits=remove-orphans $1 $3"
}

# same_output NAME OPTS MODEL: nnet3-compute OPTS on the held-out features
# gives NAME.out.txt's output (within 1e-4, relative).
same_output() {
  expect_ok "$1-route" "nnet3-compute $2 $3 ark:$1.valid.ark ark,t:$1.route.txt"
  python3 - $1.out.txt $1.route.txt <<'PY' || fail "$1: nnet3-compute $2 gives other outputs"
import sys
a, b = (open(f).read().replace('[', ' ').replace(']', ' ').split() for f in sys.argv[1:])
assert len(a) == len(b) > 0
for x, y in zip(a, b):
    assert x == y if x.startswith('utt') else abs(float(x) - float(y)) <= 1e-4 * (1 + abs(float(x))), (x, y)
PY
}

# TDNN-F: 30976 + 4 * (64 * 512 + 256 * 128 + 256) + 65792 + 16384 + 6500.
# Step check: only the bottleneck TdnnComponents (tdnnf*.linear) learn, so
# the step needs the TdnnComponents' derivatives for their parameters and,
# through tdnnf*.affine (no bypass inside a layer), for their input.
check_config tdnnf 40 9 9 382820 9 9 0.002 8 0.8 'tdnnf*.linear'
same_output tdnnf --frames-per-chunk=7 tdnnf.0.raw
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
expect_ok tdnnf-test-compute "nnet3-compute tdnnf.1.raw ark:tdnnf.valid.ark ark,t:a.txt && nnet3-compute tdnnf.test.raw ark:tdnnf.valid.ark ark,t:b.txt"
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
# class per utterance, as speakers. Step check: only the frame-level layers
# (tdnn1..5) learn, through the statistics extraction and pooling.
check_config xvector 30 0 7 1166674 7 27 0.002 utt 0.8 'tdnn1.*' 'tdnn2.*' 'tdnn3.*' 'tdnn4.*' 'tdnn5.*'
info_has xvector-info xvector.info "^component name=stats-extraction-0-10000 type=StatisticsExtractionComponent, input-dim=750, output-dim=1501$"
info_has xvector-info xvector.info "^component name=stats-pooling-0-10000 type=StatisticsPoolingComponent, input-dim=1501, output-dim=1500$"
# The pooling's output for a whole utterance (nnet3-xvector-compute, one
# chunk: tdnn5 exists at frames 7 .. T-8 of it) is the mean and standard
# deviation of tdnn5's output there (nnet3-compute, whose rows 7 .. T-8 see
# no padding).
cut xvector.1.raw tdnn5.batchnorm x-tdnn5.raw
cut xvector.1.raw stats-pooling-0-10000 x-pool.raw
awk '{ print } /\]/ { exit }' xvector.valid.feats.txt > x-one.txt
expect_ok xvector-pooling "nnet3-compute x-tdnn5.raw ark,t:x-one.txt ark,t:x-tdnn5.txt && nnet3-xvector-compute --min-chunk-size=25 x-pool.raw ark,t:x-one.txt ark,t:x-pool.txt"
$COMPREF stats-pooling x-tdnn5.txt x-pool.txt 7 7 2> ref.err || fail "xvector-pooling: $(tail -1 ref.err)"

# CNN-TDNN: 160 + 4640 + 491776 + 2 * 196864 + 25700. Step check: only
# cnn1's filters learn, through cnn2 (derivatives of the convolution for its
# parameters and for its input).
check_config cnn-tdnn 40 9 9 916004 9 9 0.002 8 0.1 cnn1.conv
same_output cnn-tdnn --frames-per-chunk=7 cnn-tdnn.0.raw
# The trained convolutions' outputs, from their inputs as nnet3-compute
# gives them: cnn1 (1 x 40 in, 16 x 40 out) on every frame of the first
# held-out utterance, cnn2 (16 x 40 in, 32 x 20 out, height subsampled) on
# 6 frames (its input's edge rows are not padded input rows).
cut cnn-tdnn.1.raw cnn1.conv c-cnn1.raw
cut cnn-tdnn.1.raw cnn1.batchnorm c-bn1.raw
cut cnn-tdnn.1.raw cnn2.conv c-cnn2.raw
expect_ok cnn-tdnn-conv "nnet3-copy --binary=false cnn-tdnn.1.raw c.txt && for m in cnn1 bn1 cnn2; do nnet3-compute c-\$m.raw ark:cnn-tdnn.valid.ark ark,t:c-\$m.txt || exit 1; done"
$COMPREF conv c.txt cnn1.conv cnn-tdnn.valid.feats.txt c-cnn1.txt 0 -1 2> ref.err || fail "cnn-tdnn-conv: $(tail -1 ref.err)"
$COMPREF conv c.txt cnn2.conv c-bn1.txt c-cnn2.txt 1 6 2> ref.err || fail "cnn-tdnn-conv: $(tail -1 ref.err)"
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

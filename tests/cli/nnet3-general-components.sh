#!/usr/bin/env bash
# The components of issue 14 through the programs: configs/attention.config
# (a TDNN with an attention-relu-renorm layer) and a config with the other
# new types (SpecAugmentTimeMask, Distribute with ReplaceIndex over x,
# DropoutMask, Constant, Composite of (natural-gradient) repeated affine
# components, NaturalGradientPerElementScale) go through nnet3-init,
# nnet3-info (context and parameter counts worked out by hand), nnet3-compute,
# nnet3-train (the objective improves), nnet3-copy (text round trip, the
# set-dropout-proportion edit, --prepare-for-test) and nnet3-average; bad
# config values give one ERROR line naming the component and the key.
#
# Training starts from a random output layer (the configs' zero one passes
# no derivative back at the first step): the objective on held-out
# utterances must improve; and (lib.sh step_learns) one step on one
# minibatch in which only the layers under the components being tested may
# learn must lower that minibatch's objective by a margin. The layers above
# them, output layer included, stay fixed in that step, so learning the
# output bias (which alone could pass the first check) cannot help: only
# correct derivatives through the attention or the other new components can.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# gen_data DIM NUM_UTTS PREFIX: PREFIX.feats.txt (N(0,1) features) and
# PREFIX.post.txt (labels 0..4: the argmax of a fixed linear map), and
# PREFIX.valid.feats.txt / .post.txt (NUM_UTTS / 3 more utterances, held
# out), seed 5.
gen_data() {
  python3 - "$@" <<'PY'
import random, sys
dim, num_utts, prefix = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
random.seed(5)
w = [[random.gauss(0, 1) for _ in range(dim)] for _ in range(5)]
for part, utts in (('', range(num_utts)), ('.valid', range(num_utts, num_utts + num_utts // 3))):
    with open(prefix + part + '.feats.txt', 'w') as feats, open(prefix + part + '.post.txt', 'w') as post:
        for u in utts:
            rows, labels = [], []
            for t in range(30 + u % 7):
                x = [random.gauss(0, 1) for _ in range(dim)]
                s = [sum(a * b for a, b in zip(wr, x)) for wr in w]
                labels.append(max(range(5), key=lambda c: s[c]))
                rows.append(' '.join('%.4f' % v for v in x))
            feats.write('utt%d  [\n  %s ]\n' % (u, '\n  '.join(rows)))
            post.write('utt%d %s\n' % (u, ' '.join('[ %d 1 ]' % l for l in labels)))
PY
}

# objf MODEL EGS: the log-likelihood per frame from nnet3-compute-prob.
objf() {
  nnet3-compute-prob "$1" "$2" 2>&1 |
    sed -n "s/.*Overall log-likelihood for 'output' is \([-0-9.e]*\) per frame.*/\1/p"
}

# train_and_check NAME CONFIG NUM_PDFS CTX ITERS: init, egs (and held-out
# egs), ITERS iterations of nnet3-train; the held-out objective must
# improve by 0.1; NAME.one is one minibatch of 64 training egs.
train_and_check() {
  local name=$1 config=$2 pdfs=$3 ctx=$4 iters=$5
  local get="nnet3-get-egs --num-pdfs=$pdfs --left-context=$ctx --right-context=$ctx"
  expect_ok "$name-init" "nnet3-init --srand=1 $config - | nnet3-copy --learning-rate=0.005 - $name.0.raw"
  expect_ok "$name-egs" "$get ark:$name.feats.ark ark,t:$name.post.txt ark:$name.egs"
  expect_ok "$name-valid" "copy-feats ark,t:$name.valid.feats.txt ark:- | $get ark:- ark,t:$name.valid.post.txt ark:- | nnet3-merge-egs --minibatch-size=1:512 ark:- ark:$name.valid"
  expect_ok "$name-minibatch" "nnet3-shuffle-egs --srand=1 ark:$name.egs ark:- | nnet3-merge-egs --minibatch-size=64 ark:- ark:- | nnet3-subset-egs --n=1 ark:- ark:$name.one"
  local prev cur i
  prev=$(objf $name.0.raw ark:$name.valid)
  [ -n "$prev" ] || fail "$name: no objective from nnet3-compute-prob"
  for ((i = 0; i < iters; i++)); do
    expect_ok "$name-train-$i" "nnet3-shuffle-egs --srand=$i ark:$name.egs ark:- | nnet3-merge-egs --minibatch-size=32 ark:- ark:- | nnet3-train --srand=$i $name.$i.raw ark:- $name.$((i + 1)).raw 2> $name.train.$i.log"
  done
  cur=$(objf $name.$iters.raw ark:$name.valid)
  echo "$name: held-out objf $prev -> $cur"
  python3 -c "import sys; sys.exit(0 if float('$cur') > float('$prev') + 0.1 else 1)" ||
    fail "$name: held-out objective $cur did not improve on $prev"
}

# --- the attention config ---------------------------------------------------
gen_data 40 12 att
expect_ok att-data "copy-feats ark,t:att.feats.txt ark:att.feats.ark"
expect_ok att-info "nnet3-init --srand=1 '$CONFIGS/attention.config' - | nnet3-info - > att.info"
# 18 frames of context on the left (2 + 3 * 5 + 1) and 9 on the right
# (2 + 3 * 2 + 1); parameters 200*256+256 + 256*480+480 + 672*256+256 +
# 256*100+100.
for pattern in '^left-context: 18$' '^right-context: 9$' '^num-parameters: 372804$' \
    '^component name=attention1.attention type=RestrictedAttentionComponent, input-dim=480, output-dim=224, num-heads=4, time-stride=3, key-dim=32, value-dim=48, num-left-inputs=5, num-right-inputs=2, context-dim=8, num-left-inputs-required=5, num-right-inputs-required=2, output-context=true, key-scale=0.176777$'; do
  grep -q "$pattern" att.info || fail "nnet3-info on attention.config: no line /$pattern/"
done
sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/attention.config" > r-attention.config
train_and_check att r-attention.config 100 18 2
# Only the layers under the attention learn (tdnn1, the attention's affine
# input): the step needs the attention's derivative for its input (-5.975
# -> -4.189 here).
step_learns att-backprop att.0.raw ark:att.one 0.005 0.5 'tdnn1.*' attention1.affine
# After training, nnet3-info shows the attention weight statistics.
expect_ok att-stats "nnet3-info att.2.raw | grep -q 'type=RestrictedAttentionComponent, .*key-scale=0.176777, entropy=[0-9.e-]*,[0-9.e-]*,[0-9.e-]*,[0-9.e-]*, posterior-stats\[0\]=.* stats-count=[0-9]'"
expect_ok att-compute "nnet3-compute --apply-exp att.2.raw ark:att.feats.ark ark,t:att.out.txt"
python3 - <<'PY' || fail "nnet3-compute on attention.config: bad output"
rows = [l.split() for l in open('att.out.txt') if l.strip() and not l.startswith('utt')]
rows = [[float(x) for x in r if x != ']'] for r in rows]
assert len(rows) == sum(30 + u % 7 for u in range(12)), len(rows)
assert all(len(r) == 100 and abs(sum(r) - 1) < 1e-3 for r in rows)
PY
# Text and binary round trips (text keeps 7 digits, so compare text with
# text).
expect_ok att-text "nnet3-copy --binary=false att.2.raw att.2.txt && nnet3-copy att.2.txt att.2b.raw && nnet3-copy --binary=false att.2b.raw att.2b.txt"
same_file att-text-round-trip att.2.txt att.2b.txt
grep -q '<RestrictedAttentionComponent> <NumHeads> 4 <KeyDim> 32 <ValueDim> 48 <NumLeftInputs> 5 <NumRightInputs> 2 <TimeStride> 3 <NumLeftInputsRequired> 5 <NumRightInputsRequired> 2 <OutputContext> T <KeyScale> 0.1767767 <StatsCount> [0-9]* <EntropyStats>  \[ [0-9.e -]*\]$' att.2.txt ||
  fail "attention component text form: unexpected tokens"
expect_ok att-test-mode "nnet3-copy --prepare-for-test att.2.raw att.test.raw && nnet3-compute att.test.raw ark:att.feats.ark ark:att.test.ark"
expect_ok att-average "nnet3-average att.1.raw att.2.raw att.avg.raw && nnet3-info att.avg.raw | grep -q RestrictedAttentionComponent"

# Bad attention values: one ERROR naming the component and the key.
bad_config() {  # bad_config NAME SED-EXPR REGEX
  sed "$2" "$CONFIGS/attention.config" > bad.config
  expect_error "$1" "$3" "nnet3-init bad.config bad.raw"
  [ -e bad.raw ] && fail "$1: a model was written"
}
bad_config bad-key-dim 's/ key-dim=32/ key-dim=0/' \
  "attention.config|bad.config:[0-9]+: RestrictedAttentionComponent: invalid key-dim=0 .*name=attention1.attention"
bad_config bad-heads 's/ num-heads=4/ num-heads=-1/' \
  "RestrictedAttentionComponent: invalid num-heads=-1 .*name=attention1.attention"
bad_config bad-required 's/num-left-inputs-required=-1/num-left-inputs-required=6/' \
  "invalid num-left-inputs-required=6 .*name=attention1.attention"
bad_config bad-stride 's/ time-stride=3/ time-stride=0/' "invalid time-stride=0 .*name=attention1.attention"
bad_config missing-key 's/ value-dim=48//' "required config key 'value-dim' is missing in 'component name=attention1.attention"
bad_config bad-dims 's/output-dim=480/output-dim=400/' "attention1.attention.*input-dim 480"

# --- the other new types ----------------------------------------------------
cat > general.config <<'EOF'
input-node name=input dim=10
component name=spec type=SpecAugmentTimeMaskComponent dim=10 zeroed-proportion=0.2 time-mask-max-frames=3
component-node name=spec component=spec input=input
component name=distribute type=DistributeComponent input-dim=10 output-dim=5
component-node name=distribute component=distribute input=spec
component name=affine1 type=NaturalGradientAffineComponent input-dim=15 output-dim=16
component-node name=affine1 component=affine1 input=Append(Offset(distribute, -1), distribute, Offset(distribute, 1))
component name=relu1 type=RectifiedLinearComponent dim=16
component-node name=relu1 component=relu1 input=affine1
component name=mask type=DropoutMaskComponent output-dim=32 dropout-proportion=0.1
component-node name=mask component=mask input=mask
component name=prod type=ElementwiseProductComponent input-dim=64 output-dim=32
component-node name=prod component=prod input=Append(ReplaceIndex(relu1, x, 0), ReplaceIndex(relu1, x, 1), mask)
component name=const type=ConstantComponent output-dim=4
component-node name=const component=const input=const
component name=composite type=CompositeComponent max-rows-process=50 num-components=2 component1='type=RepeatedAffineComponent input-dim=36 output-dim=24 num-repeats=12' component2='type=NaturalGradientRepeatedAffineComponent input-dim=24 output-dim=12 num-repeats=2'
component-node name=composite component=composite input=Append(prod, const)
component name=scale type=NaturalGradientPerElementScaleComponent dim=12
component-node name=scale component=scale input=composite
component name=final_affine type=NaturalGradientAffineComponent input-dim=12 output-dim=5
component-node name=final_affine component=final_affine input=scale
component name=final_log_softmax type=LogSoftmaxComponent dim=5
component-node name=final_log_softmax component=final_log_softmax input=final_affine
output-node name=output input=final_log_softmax objective=linear
EOF
gen_data 10 30 gen
expect_ok gen-data "copy-feats ark,t:gen.feats.txt ark:gen.feats.ark"
expect_ok gen-info "nnet3-init --srand=1 general.config - | nnet3-info - > gen.info"
# Parameters: affine1 15*16+16, constant 4, composite blocks 3*2+2 and
# 12*6+6 (Kaldi counts one block), per-element scales 12, final 12*5+5.
for pattern in '^left-context: 1$' '^right-context: 1$' '^num-parameters: 423$' \
    '^component name=distribute type=DistributeComponent, input-dim=10, output-dim=5$' \
    '^component name=mask type=DropoutMaskComponent, output-dim=32, dropout-proportion=0.1$' \
    '^component name=spec type=SpecAugmentTimeMaskComponent, dim=10, zeroed-proportion=0.2, time-mask-max-frames=3$' \
    '^component name=composite type=CompositeComponent sub-component1 = { RepeatedAffineComponent, input-dim=36, output-dim=24, .*num-repeats=12,' \
    '^component name=const type=ConstantComponent, input-dim=4, output-dim=4, learning-rate=0.001, ConstantComponent, output-dim=4, is-updatable=true' \
    '^component name=scale type=NaturalGradientPerElementScaleComponent, input-dim=12, .*rank=8, update-period=10'; do
  grep -q "$pattern" gen.info || fail "nnet3-info on general.config: no line /$pattern/"
done
train_and_check gen general.config 5 1 3
# Only affine1 learns: the step needs the derivatives for their input of
# the product (and ReplaceIndex), the composite's repeated affine
# components and the per-element scales above it (-1.881 -> -1.555 here).
# Only the composite and the per-element scales learn: their parameter
# derivatives (-1.881 -> -1.666; the scales alone give 0.02 of it).
step_learns gen-backprop gen.0.raw ark:gen.one 0.05 0.15 affine1
step_learns gen-update gen.0.raw ark:gen.one 0.01 0.1 composite scale
expect_ok gen-compute "nnet3-compute gen.3.raw ark:gen.feats.ark ark,t:gen.out.txt"
# nnet3-show-progress lists every updatable component, the composite and the
# constant included.
expect_ok gen-progress "nnet3-show-progress gen.2.raw gen.3.raw ark:gen.valid 2> gen.progress.log"
grep -q "Parameter differences per layer are \[ affine1:[0-9.e-]* const:[0-9.e-]* composite:[0-9.e-]* scale:[0-9.e-]* final_affine:[0-9.e-]* \]" gen.progress.log ||
  fail "nnet3-show-progress: no per-component parameter differences"
grep -q "Total objf change per component is \[ affine1:" gen.progress.log ||
  fail "nnet3-show-progress: no objf change per component"
expect_ok gen-edit "nnet3-copy --edits='set-dropout-proportion name=mask proportion=0.3' --binary=false gen.3.raw gen.edit.txt && grep -q '<DropoutMaskComponent> <OutputDim> 32 <DropoutProportion> 0.3 ' gen.edit.txt"
expect_ok gen-test "nnet3-copy --prepare-for-test gen.3.raw gen.test.raw && nnet3-compute gen.test.raw ark:gen.feats.ark ark,t:gen.test.txt"
# The time mask is the identity in test mode and is bypassed; the outputs
# do not change.
nnet3-info gen.test.raw 2> /dev/null | grep -q 'name=spec' && fail "--prepare-for-test kept the SpecAugmentTimeMaskComponent"
expect_ok gen-same "python3 -c \"
a = open('gen.out.txt').read().split(); b = open('gen.test.txt').read().split()
assert len(a) == len(b)
for x, y in zip(a, b):
    if x != y: assert abs(float(x) - float(y)) < 1e-4, (x, y)
\""
sed 's/num-repeats=12/num-repeats=7/' general.config > bad.config
expect_error bad-repeats "CompositeComponent: component1: RepeatedAffineComponent: invalid num-repeats=7 .*name=composite" "nnet3-init bad.config bad.raw"
sed 's/input-dim=10 output-dim=5/input-dim=10 output-dim=3/' general.config > bad.config
expect_error bad-distribute "DistributeComponent: invalid output-dim=3 .*must divide input-dim.*name=distribute" "nnet3-init bad.config bad.raw"
sed 's/output-dim=32 dropout-proportion=0.1/output-dim=32 dropout-proportion=2/' general.config > bad.config
expect_error bad-mask "DropoutMaskComponent: invalid dropout-proportion=2 .*name=mask" "nnet3-init bad.config bad.raw"
sed 's/zeroed-proportion=0.2/zeroed-proportion=1.2/' general.config > bad.config
expect_error bad-spec "SpecAugmentTimeMaskComponent: invalid zeroed-proportion=1.2 .*name=spec" "nnet3-init bad.config bad.raw"
sed "s/component2='type=NaturalGradientRepeatedAffineComponent/component2='type=DropoutComponent dropout-proportion=0.5 dim=24' component3='type=NaturalGradientRepeatedAffineComponent/" general.config > bad.config
expect_error bad-composite "CompositeComponent \\(config line 'component name=composite .*component2 is a DropoutComponent" "nnet3-init bad.config bad.raw"
finish

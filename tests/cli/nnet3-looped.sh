#!/usr/bin/env bash
# Recurrent networks and looped computation end to end: the LSTMP,
# TDNN-LSTM and output-GRU configs load with Kaldi's parameter counts and
# contexts; nnet3-compute --looped=true gives the same output as the whole
# utterance in one non-looped chunk, for several chunk sizes, with and
# without i-vectors; nnet3-compile-info --looped shows the loop; an LSTM
# trains on chunked egs with derivative truncation (which changes the model
# and removes backprop commands); and bad input.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# gen_feats FILE DIM [utt:frames ...]: a text archive of N(0,1) rows
# (fixed seed); with frames "v", a vector.
gen_feats() {
  python3 - "$@" <<'PY'
import random, sys
random.seed(29)
path, dim = sys.argv[1], int(sys.argv[2])
with open(path, 'w') as f:
    for spec in sys.argv[3:]:
        key, n = spec.split(':')
        row = lambda: ' '.join('%.4f' % random.gauss(0, 1) for _ in range(dim))
        if n == 'v':
            f.write(key + ' [ ' + row() + ' ]\n')
        else:
            f.write(key + '  [\n  ' + '\n  '.join(row() for _ in range(int(n)))
                    + ' ]\n')
PY
}
# close NAME A B TOL: two text archives with the same keys and shapes agree
# within TOL.
close() {
  python3 - "$@" 2> "$TMP/close.err" <<'PY' || fail "$1: $(cat "$TMP/close.err")"
import sys
name, a, b, tol = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
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
x, y = read(a), read(b)
def die(msg):
    sys.stderr.write(msg); sys.exit(1)
if [(k, len(m)) for k, m in x] != [(k, len(m)) for k, m in y] or not x:
    die('keys/rows %s vs %s' % ([(k, len(m)) for k, m in x],
                                [(k, len(m)) for k, m in y]))
d = max(abs(p - q) for (_, m), (_, n) in zip(x, y)
        for r, s in zip(m, n) for p, q in zip(r, s))
if d > tol: die('max difference %g > %g' % (d, tol))
PY
}

# The configs: Kaldi's counts and contexts (computed by hand in each
# config's header from Kaldi's component definitions).
for spec in lstmp:0:7:549220 tdnn-lstm:10:20:1946852 output-gru:4:14:1083236; do
  IFS=: read -r name left right params <<< "$spec"
  expect_ok "init-$name" "nnet3-init '$CONFIGS/$name.config' $name.raw"
  expect_ok "info-$name" "nnet3-info $name.raw > $name.info"
  grep -qx "left-context: $left" "$name.info" || fail "$name: $(grep left-context "$name.info")"
  grep -qx "right-context: $right" "$name.info" || fail "$name: $(grep right-context "$name.info")"
  grep -qx "num-parameters: $params" "$name.info" || fail "$name: $(grep num-parameters "$name.info")"
  # A random output layer, so that outputs differ between frames.
  sed 's/ param-stddev=0.0 bias-stddev=0.0//' "$CONFIGS/$name.config" > r-$name.config
  expect_ok "init-r-$name" "nnet3-init --srand=3 r-$name.config r-$name.raw"
done
grep -q 'LstmNonlinearityComponent, input-dim=1280, output-dim=512' lstmp.info ||
  fail "lstmp: no LstmNonlinearityComponent line in nnet3-info"
grep -q 'OutputGruNonlinearityComponent' output-gru.info || fail "output-gru components"
grep -q 'BackpropTruncationComponent, dim=320, scale=0.85' tdnn-lstm.info ||
  fail "tdnn-lstm: truncation scale 0.85 (decay-time=20)"

# Looped equals non-looped (one chunk per utterance), chunk sizes 1..50.
gen_feats feats.txt 40 a:1 b:17 c:64
expect_ok copy "copy-feats ark,t:feats.txt ark:feats.ark"
for name in lstmp output-gru; do
  expect_ok "whole-$name" "nnet3-compute --frames-per-chunk=1000 r-$name.raw ark:feats.ark ark,t:whole-$name.txt"
  for fpc in 1 8 50; do
    expect_ok "looped-$name-$fpc" "nnet3-compute --looped=true --frames-per-chunk=$fpc r-$name.raw ark:feats.ark ark,t:looped-$name-$fpc.txt"
    close "looped-$name-$fpc" "looped-$name-$fpc.txt" "whole-$name.txt" 1e-4
  done
done
# Non-looped chunks of 8 frames see only part of the past: a different
# output (which is why looped computation exists).
expect_ok chunked "nnet3-compute --frames-per-chunk=8 r-lstmp.raw ark:feats.ark ark,t:chunked.txt"
cmp -s chunked.txt whole-lstmp.txt && fail "chunked LSTM output equals the whole-utterance output"
# nnet3-compute-batch on the recurrent networks: one exact chunk per
# utterance is nnet3-compute's whole-utterance computation, bit for bit.
for name in lstmp output-gru; do
  expect_ok "batch-$name" "nnet3-compute-batch --frames-per-chunk=1000 --ensure-exact-final-context=true --minibatch-size=2 r-$name.raw ark:feats.ark ark,t:batch-$name.txt"
  cmp -s "batch-$name.txt" "whole-$name.txt" || fail "batch-$name: not nnet3-compute's output"
done
# I-vectors (one per utterance), extra initial left context.
gen_feats ivec.txt 30 a:v b:v c:v
expect_ok whole-iv "nnet3-compute --frames-per-chunk=1000 --extra-left-context-initial=3 --ivectors=ark,t:ivec.txt r-tdnn-lstm.raw ark:feats.ark ark,t:whole-iv.txt"
expect_ok looped-iv "nnet3-compute --looped=true --frames-per-chunk=10 --extra-left-context-initial=3 --ivectors=ark,t:ivec.txt r-tdnn-lstm.raw ark:feats.ark ark,t:looped-iv.txt 2> looped-iv.log"
close looped-iv looped-iv.txt whole-iv.txt 1e-4
grep -q 'Spent .* seconds in looped compilation' looped-iv.log || fail "no looped compilation log line"
gen_feats online.txt 30 a:1 b:2 c:7
expect_ok looped-online "nnet3-compute --looped=true --online-ivectors=ark,t:online.txt --online-ivector-period=10 r-tdnn-lstm.raw ark:feats.ark ark,t:looped-online.txt"
cmp -s looped-online.txt looped-iv.txt && fail "online i-vectors gave the per-utterance output"

# nnet3-compile-info --looped.
expect_ok compile-info "nnet3-compile-info --looped --frames=20 --show=computation,stats tdnn-lstm.raw > ci.txt"
grep -q '^# loop$' ci.txt || fail "compile-info --looped: no loop section"
grep -q 'goto c' ci.txt || fail "compile-info --looped: no goto in the listing"
grep -Eq '^matrices-carried-over: [1-9]' ci.txt || fail "compile-info --looped: $(grep carried ci.txt)"
grep -q 'kGotoLabel: 1' ci.txt || fail "compile-info --looped: stats"
expect_ok compile-info-help "nnet3-compile-info --help 2>&1 | grep -q -- '--looped'"
expect_ok compute-help "nnet3-compute --help 2>&1 | grep -q 'recurrent models'"

# Training: chunked egs with extra left context for the recurrence, and
# derivative truncation (Kaldi's --optimization.min-deriv-time=0
# --optimization.max-deriv-time-relative=chunk-1).
python3 - <<'PY'
import random
random.seed(5)
with open('post.txt', 'w') as f:
    for key, n in (('a', 1), ('b', 17), ('c', 64)):
        f.write(key + ' ' + ' '.join('[ %d 1 ]' % random.randrange(100)
                                     for _ in range(n)) + '\n')
PY
expect_ok get-egs "nnet3-get-egs --num-pdfs=100 --left-context=10 --right-context=7 --left-context-initial=0 --num-frames=16 ark:feats.ark ark,t:post.txt ark:egs.ark"
# Chunk context on RNN egs: utterance c (64 frames) in chunks of 16; the
# first has no left context (--left-context-initial=0), the others 10;
# nnet3-copy-egs --left-context=3 trims the later ones to 3 and leaves the
# first alone (as Kaldi's nnet3-copy-egs).
first_t() { nnet3-copy-egs ${2:-} ark:egs.ark ark,t:- 2> /dev/null |
  grep -o "$1 <Nnet3Eg> <NumIo> 2 <NnetIo> input <I1V> [0-9]* <I1> 0 [-0-9]*" |
  awk '{ print $NF }'; }
[ "$(first_t c-0)" = 0 ] || fail "first chunk of c starts at t=$(first_t c-0), not 0"
[ "$(first_t c-16)" = -10 ] || fail "chunk c-16 starts at t=$(first_t c-16), not -10"
[ "$(first_t c-16 --left-context=3)" = -3 ] || fail "copy-egs --left-context=3 on c-16: $(first_t c-16 --left-context=3)"
[ "$(first_t c-0 --left-context=3)" = 0 ] || fail "copy-egs --left-context=3 changed the first chunk"
MB="ark:nnet3-merge-egs --minibatch-size=2 ark:egs.ark ark:- |"
expect_ok train "nnet3-train --optimization.min-deriv-time=0 --optimization.max-deriv-time-relative=15 r-lstmp.raw '$MB' trained.raw 2> train.log"
grep -q 'Overall average objective function' train.log || fail "train: $(tail -2 train.log)"
# The truncation bites: training without it gives another model, and so
# does --optimization.max-deriv-time-relative=2 alone (the output is the
# LSTM's at t+5, so derivatives stop before the last 4 of its frames);
# limits outside every t of the egs (the LSTM runs at t = -8 .. 20) give
# the very bytes of no truncation, so the difference is the truncation's.
expect_ok train-plain "nnet3-train r-lstmp.raw '$MB' plain.raw && nnet3-train --optimization.min-deriv-time=-8 --optimization.max-deriv-time=20 r-lstmp.raw '$MB' wide.raw && nnet3-train --optimization.max-deriv-time-relative=2 r-lstmp.raw '$MB' max.raw"
same_file deriv-time-outside plain.raw wide.raw
cmp -s plain.raw trained.raw && fail "train: --optimization.min-deriv-time=0 did not change the training"
cmp -s plain.raw max.raw && fail "train: --optimization.max-deriv-time-relative=2 did not change the training"
# The compiled backward pass shrinks: fewer backprop commands over the two
# minibatches' requests.
backprops() { nnet3-compile-info --show=stats "$@" r-lstmp.raw "$MB" 2> /dev/null |
  awk '/^  kBackprop(NoModelUpdate)?:/ { n += $2 } END { print n + 0 }'; }
b_plain=$(backprops) b_trunc=$(backprops --optimization.min-deriv-time=0 --optimization.max-deriv-time-relative=2)
echo "backprop commands: $b_plain without truncation, $b_trunc with"
[ "$b_trunc" -gt 0 ] && [ "$b_trunc" -lt "$b_plain" ] ||
  fail "compile-info: truncation did not remove backprop commands ($b_plain -> $b_trunc)"
expect_ok trained-looped "nnet3-compute --looped=true trained.raw ark:feats.ark ark,t:trained.txt"
cmp -s trained.txt looped-lstmp-50.txt && fail "training did not change the model"
expect_ok compute-prob "nnet3-compute-prob trained.raw ark:egs.ark 2>&1 | grep -q 'Overall log-likelihood'"

# Bad input.
gen_feats feats13.txt 13 u:9
expect_error looped-dim "u.*13 columns.*input dimension is 40" "nnet3-compute --looped=true lstmp.raw ark,t:feats13.txt ark,t:-"
expect_error looped-no-ivector "'ivector' input.*--ivectors" "nnet3-compute --looped=true tdnn-lstm.raw ark:feats.ark ark,t:-"
expect_error looped-json "--looped supports only --format=text" "nnet3-compile-info --looped --format=json lstmp.raw"
expect_error looped-deriv "--looped compiles one sequence" "nnet3-compile-info --looped --output-deriv lstmp.raw"
expect_error looped-extra "--looped needs --frames > 0 and --extra-left-context >= 0$" "nnet3-compile-info --looped --extra-left-context=-2 lstmp.raw"
printf 'input-node name=input dim=4\ninput-node name=other dim=2\ncomponent name=a type=AffineComponent input-dim=6 output-dim=3\ncomponent-node name=a component=a input=Append(input, other)\noutput-node name=output input=a\n' > two.config
expect_ok two "nnet3-init two.config two.raw"
expect_error not-simple "not a simple network" "nnet3-compute --looped=true two.raw ark:feats.ark ark,t:-"
expect_error bad-lstm-config "LstmNonlinearityComponent: invalid cell-dim=0" "printf 'input-node name=input dim=5\ncomponent name=l type=LstmNonlinearityComponent cell-dim=0\n' > bad.config && nnet3-init bad.config bad.raw"
finish

#!/usr/bin/env bash
# nnet3-info end to end: the Info() format on the hand-written golden model
# (text and binary, from files and pipes), the context lines of simple
# networks, and corrupted model files.
BIN=$1 DATA=$2
MODELS=$DATA/nnet/models
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

expect_ok info-text "nnet3-info $MODELS/example.txt > t.info"
expect_ok info-binary "nnet3-info $MODELS/example.bin > b.info"
same_file text-vs-binary t.info b.info
cat > expected-head.info <<'TXT'
left-context: 1
right-context: 0
num-parameters: 14
modulus: 1
input-node name=input dim=3
component-node name=affine1 component=affine1 input=Append(Offset(input, -1), input) input-dim=6 output-dim=2
component-node name=relu1 component=relu1 input=affine1 input-dim=2 output-dim=2
output-node name=output input=relu1 dim=2 objective=linear
TXT
head -8 t.info > head.info
same_file info-head expected-head.info head.info
grep -q '^component name=affine1 type=NaturalGradientAffineComponent, input-dim=6, output-dim=2, ' t.info ||
  fail "affine1 component line: $(grep affine1 t.info | tail -1)"
grep -q '^component name=relu1 type=RectifiedLinearComponent, ' t.info || fail "no relu1 component line"
[ "$(wc -l < t.info)" -eq 10 ] || fail "expected 10 lines of info, got $(wc -l < t.info)"
expect_ok info-pipe "cat $MODELS/example.bin | nnet3-info - > p.info && nnet3-info 'cat $MODELS/example.txt |' > q.info"
same_file info-stdin t.info p.info
same_file info-pipe t.info q.info
# stdout carries only the info, logs go to stderr.
expect_ok stdout-only "nnet3-info $MODELS/example.txt 2> /dev/null | head -1 | grep -q '^left-context: '"

# The context of configs/tdnn.config: t-6..t+6 (its header comment).
expect_ok tdnn-init "nnet3-init $CONFIGS/tdnn.config tdnn.raw"
expect_ok tdnn-info "nnet3-info tdnn.raw > tdnn.info"
printf 'left-context: 6\nright-context: 6\n' > expected-tdnn.info
head -2 tdnn.info > tdnn-head.info
same_file tdnn-context expected-tdnn.info tdnn-head.info
sed -n 3p tdnn.info | grep -q '^num-parameters: ' || fail "tdnn: line 3 is not num-parameters"
# Not simple (no node called 'output'): no context lines.
sed 's/^output-node name=output /output-node name=out /' $CONFIGS/mlp.config > not-simple.config
expect_ok not-simple "nnet3-init not-simple.config - | nnet3-info - > ns.info"
head -1 ns.info | grep -q '^num-parameters: ' || fail "not simple: got $(head -1 ns.info)"

# Usage.
expect_ok help "nnet3-info --help 2> h.txt; grep -q 'Usage:' h.txt"
nnet3-info > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "no args must exit 1"

# Corrupted models: one ERROR line naming the file (and the token).
size=$(stat -c %s $MODELS/example.bin)
head -c $((size - 30)) $MODELS/example.bin > trunc.bin
expect_error truncated-binary "trunc\.bin.*relu1" "nnet3-info trunc.bin"
head -c 150 $MODELS/example.txt > trunc-config.txt
expect_error truncated-config "trunc-config\.txt.*config section" "nnet3-info trunc-config.txt"
sed 's/<BiasParams>/<BiasParamz>/' $MODELS/example.txt > bad-token.txt
expect_error bad-token "bad-token\.txt.*affine1.*<BiasParamz>" "nnet3-info bad-token.txt"
sed 's/<RectifiedLinearComponent>/<NoSuchComponent>/' $MODELS/example.txt > bad-type.txt
expect_error bad-type "bad-type\.txt.*<NoSuchComponent>" "nnet3-info bad-type.txt"
sed 's/input=relu1 objective/input=relu7 objective/' $MODELS/example.txt > bad-node.txt
expect_error bad-node "bad-node\.txt': line 5: undefined node 'relu7'" "nnet3-info bad-node.txt"
# A .mdl is read for its network (nnet3-am.sh); a truncated one is an error.
printf '<TransitionModel> <Topology> ' > am.mdl
expect_error transition-model "am\.mdl.*in the TransitionModel" "nnet3-info am.mdl"
printf '\0Bgarbage' > garbage.raw
expect_error garbage "garbage\.raw.*<Nnet3>" "nnet3-info garbage.raw"
expect_error missing "no-such\.raw" "nnet3-info no-such.raw"

finish

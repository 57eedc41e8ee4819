#!/usr/bin/env bash
# nnet3-copy end to end: binary <-> text round trips (byte-identical, also
# against the hand-written golden models), every option, and bad input.
BIN=$1 DATA=$2
MODELS=$DATA/nnet/models
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# Round trips, and the golden files converted into each other.
expect_ok to-binary "nnet3-copy $MODELS/example.txt ex.bin"
same_file golden-text-to-binary ex.bin $MODELS/example.bin
expect_ok to-text "nnet3-copy --binary=false $MODELS/example.bin ex.txt"
same_file golden-binary-to-text ex.txt $MODELS/example.txt
expect_ok pipes "nnet3-copy --binary=false - - < $MODELS/example.bin | nnet3-copy - 'ex2.bin'"
same_file pipes ex2.bin $MODELS/example.bin
expect_ok tdnn "nnet3-init '$CONFIGS/tdnn.config' tdnn.raw && nnet3-copy --binary=false tdnn.raw tdnn.txt && nnet3-copy tdnn.raw tdnn2.raw"
same_file binary-copy tdnn.raw tdnn2.raw
expect_ok text-copy "nnet3-copy --binary=false tdnn.txt tdnn2.txt"
same_file text-copy tdnn.txt tdnn2.txt

# --learning-rate and --scale.
expect_ok learning-rate "nnet3-copy --binary=false --learning-rate=0.02 $MODELS/example.txt lr.txt"
grep -q '<MaxChange> 0.75 <LearningRate> 0.02 <LinearParams>' lr.txt || fail "learning rate not set"
expect_ok scale "nnet3-copy --binary=false --scale=2 $MODELS/example.txt s.txt"
grep -q '^  0.2 -0.6 0.4 0.1 0.8 -0.2 $' s.txt || fail "scale: $(grep -A1 LinearParams s.txt)"
grep -q '<BiasParams>  \[ 1 -2.4 \]' s.txt || fail "scale: bias not scaled"

# --nnet-config: add a layer to an existing model.
cat > add.config <<'CFG'
component name=affine2 type=AffineComponent input-dim=2 output-dim=4
component-node name=affine2 component=affine2 input=relu1
output-node name=output input=affine2
CFG
expect_ok nnet-config "nnet3-copy --nnet-config=add.config $MODELS/example.txt add.raw && nnet3-info add.raw > add.info"
grep -q '^output-node name=output input=affine2 dim=4 objective=linear$' add.info || fail "nnet-config not applied"

# --edits-config and --edits (';' is a newline), applied after --scale.
printf 'rename-node old-name=output new-name=out  # comment\nset-learning-rate learning-rate=0.5\n' > e.config
expect_ok edits-config "nnet3-copy --binary=false --edits-config=e.config $MODELS/example.txt e.txt"
grep -q '^output-node name=out input=relu1 objective=linear$' e.txt || fail "edits-config: rename"
grep -q '<LearningRate> 0.5 ' e.txt || fail "edits-config: learning rate"
expect_ok edits "nnet3-copy --binary=false --learning-rate=0.1 --edits='set-learning-rate-factor learning-rate-factor=0.5;set-learning-rate learning-rate=0.4' $MODELS/example.txt e2.txt"
grep -q '<LearningRateFactor> 0.5 <MaxChange> 0.75 <LearningRate> 0.2 ' e2.txt || fail "edits: $(grep -o '<Learning[^<]*<[^<]*<[^<]*' e2.txt)"
expect_ok edits-order "nnet3-copy --binary=false --edits-config=e.config --edits='rename-node old-name=out new-name=out2' $MODELS/example.txt e3.txt"
grep -q 'output-node name=out2 ' e3.txt || fail "--edits must run after --edits-config"
expect_ok remove-output "nnet3-init '$CONFIGS/bottleneck.config' bn.raw && nnet3-copy --edits='remove-output-nodes name=output;remove-orphans;rename-node old-name=output-bottleneck new-name=output' bn.raw bnf.raw && nnet3-info bnf.raw > bnf.info"
grep -q '^output-node name=output input=bottleneck.first dim=32 objective=linear$' bnf.info || fail "bottleneck extraction"
grep -q 'final_affine' bnf.info && fail "remove-orphans left final_affine"
expect_ok fixed-affine "nnet3-copy --binary=false --edits='convert-to-fixed-affine' $MODELS/example.txt fixed.txt"
grep -q '<FixedAffineComponent> <LinearParams>  \[' fixed.txt || fail "convert-to-fixed-affine"
expect_ok dropout-edit "printf 'input-node name=input dim=3\ncomponent name=d type=DropoutComponent dim=3 dropout-proportion=0.5\ncomponent-node name=d component=d input=input\noutput-node name=output input=d\n' > d.config && nnet3-init --binary=false d.config d.txt && nnet3-copy --binary=false --edits='set-dropout-proportion proportion=0.25' d.txt d2.txt"
grep -q '<DropoutProportion> 0.25 ' d2.txt || fail "set-dropout-proportion"

# apply-svd and reduce-rank (Kaldi's edits): the TDNN's three hidden affine
# layers (200x256, 768x256, 768x256) factored through 64 dims; the
# parameter count drops by in*out - 64*(in+out) for each.
expect_ok apply-svd "nnet3-copy --edits='apply-svd name=tdnn*.affine bottleneck-dim=64' tdnn.raw svd.raw && nnet3-info tdnn.raw > tdnn.info && nnet3-info svd.raw > svd.info"
grep -q "Decomposed 3 components with SVD dimension 64" "$TMP/err" || fail "apply-svd: no summary log line"
before=$(sed -n 's/^num-parameters: //p' tdnn.info) after=$(sed -n 's/^num-parameters: //p' svd.info)
[ "$after" = "$((before - 200*256 - 2*768*256 + 64*(456 + 2*1024)))" ] || fail "apply-svd: $before -> $after parameters"
grep -q '^component-node name=tdnn2.affine_b component=tdnn2.affine_b input=tdnn2.affine_a input-dim=64 output-dim=256$' svd.info || fail "apply-svd: no tdnn2.affine_b node"
grep -q '^component-node name=tdnn2.relu component=tdnn2.relu input=tdnn2.affine_b ' svd.info || fail "apply-svd: tdnn2.relu does not read tdnn2.affine_b"
grep -q '^component name=tdnn3.affine_a type=LinearComponent, input-dim=768, output-dim=64,' svd.info || fail "apply-svd: no LinearComponent tdnn3.affine_a"
grep -q 'tdnn1.affine ' svd.info && fail "apply-svd: tdnn1.affine left behind"
expect_ok reduce-rank "nnet3-copy --edits='reduce-rank name=tdnn1.affine rank=10' tdnn.raw rr.raw && nnet3-info rr.raw > rr.info"
grep -q "Reduced rank of parameters of 1 components." "$TMP/err" || fail "reduce-rank: no summary log line"
grep -q "^num-parameters: $before\$" rr.info || fail "reduce-rank changed the parameter count"

# --batchnorm-test-mode and --prepare-for-test.
expect_ok batchnorm-test-mode "nnet3-copy --binary=false --batchnorm-test-mode tdnn.raw bn-test.txt"
[ "$(grep -c '<TestMode> T' bn-test.txt)" -eq 3 ] || fail "batchnorm-test-mode: $(grep -c '<TestMode> T' bn-test.txt) test-mode components"
expect_ok prepare-for-test "nnet3-copy --prepare-for-test tdnn.raw test.raw && nnet3-info test.raw > test.info"
grep -q BatchNormComponent test.info && fail "prepare-for-test left batch-norm components"
grep -q '^component-node name=tdnn2.affine component=tdnn2.affine input=Append(Offset(tdnn1.relu, -1), tdnn1.relu, Offset(tdnn1.relu, 1))' test.info ||
  fail "prepare-for-test: tdnn1.batchnorm not folded into tdnn2.affine"
expect_ok prepare-dropout "nnet3-copy --binary=false --prepare-for-test d.txt d-test.txt"
grep -q '^output-node name=output input=Scale(0.5, input) objective=linear$' d-test.txt || fail "dropout not turned into a scale: $(grep output-node d-test.txt)"

# Usage.
expect_ok help "nnet3-copy --help 2> h.txt; grep -q 'Usage:' h.txt && grep -q -- '--prepare-for-test' h.txt"
nnet3-copy a > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"

# Bad input: one ERROR line naming the file and line (or token); no output.
nocopy() { [ ! -e "$1" ] || fail "$1 left behind"; }
expect_error bad-edit "--edits:2: unknown directive 'remove-orphanz'" "nnet3-copy --edits='remove-orphans;remove-orphanz' $MODELS/example.txt o1.raw"
nocopy o1.raw
printf 'set-learning-rate\n' > bad-e.config
expect_error bad-edits-config "bad-e\.config:1: set-learning-rate needs learning-rate=" "nnet3-copy --edits-config=bad-e.config $MODELS/example.txt o2.raw"
nocopy o2.raw
printf 'output-node name=output input=relu2\n' > bad-n.config
expect_error bad-nnet-config "bad-n\.config:1: undefined node 'relu2'" "nnet3-copy --nnet-config=bad-n.config $MODELS/example.txt o3.raw"
nocopy o3.raw
head -c 400 $MODELS/example.bin > trunc.bin
expect_error truncated "trunc\.bin.*affine1" "nnet3-copy trunc.bin o4.raw"
nocopy o4.raw
sed 's/<Alpha> 4/<Alpha> four/' $MODELS/example.txt > corrupt.txt
expect_error corrupted "corrupt\.txt.*affine1" "nnet3-copy corrupt.txt o5.raw"
nocopy o5.raw
expect_error bad-option-value "Could not convert: --learning-rate = abc" "nnet3-copy --learning-rate=abc $MODELS/example.txt o6.raw"
nocopy o6.raw
expect_error svd-no-dim "--edits:1: apply-svd needs bottleneck-dim=<dim> or energy-threshold" "nnet3-copy --edits='apply-svd name=*' tdnn.raw o-svd.raw"
nocopy o-svd.raw
expect_error svd-bad-key "--edits:2: could not interpret 'rank=3' \\(apply-svd takes" "nnet3-copy --edits='remove-orphans;apply-svd name=* rank=3' tdnn.raw o-svd.raw"
nocopy o-svd.raw
expect_error reduce-rank-zero "--edits:1: rank=0 must be positive" "nnet3-copy --edits='reduce-rank name=* rank=0' tdnn.raw o-rr.raw"
nocopy o-rr.raw
ls ./*.tmp.* > /dev/null 2>&1 && fail "temporary files left behind"

finish

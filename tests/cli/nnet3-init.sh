#!/usr/bin/env bash
# nnet3-init end to end: every example config in configs/, binary and text
# output, --srand, incremental configs, config from stdin, and bad configs
# (one ERROR line naming FILE:LINE, exit 1, no output file left behind).
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

# Every example config initializes and nnet3-info can read the result.
for c in "$CONFIGS"/*.config; do
  name=$(basename "$c" .config)
  expect_ok "init-$name" "nnet3-init '$c' $name.raw"
  expect_ok "info-$name" "nnet3-info $name.raw > $name.info"
  grep -q '^num-parameters: [1-9]' $name.info || fail "info-$name: $(head -1 $name.info)"
done

# Binary by default, text with --binary=false; the same model either way.
expect_ok text "nnet3-init --binary=false '$CONFIGS/mlp.config' mlp.txt"
head -c 2 mlp.raw | od -c | grep -q '\\0   B' || fail "binary model has no \\0B header"
head -1 mlp.txt | grep -qx '<Nnet3> ' || fail "text model: $(head -1 mlp.txt)"
expect_ok text-to-binary "nnet3-copy mlp.txt mlp2.raw"
expect_ok binary-to-text "nnet3-copy --binary=false mlp.raw mlp2.txt"
same_file text-vs-binary mlp.txt mlp2.txt

# --srand: the same seed gives the same model, another seed another one.
expect_ok srand "nnet3-init --srand=3 '$CONFIGS/mlp.config' a.raw && nnet3-init --srand=3 '$CONFIGS/mlp.config' b.raw && nnet3-init --srand=4 '$CONFIGS/mlp.config' c.raw"
same_file srand-same a.raw b.raw
cmp -s a.raw c.raw && fail "srand: seeds 3 and 4 gave the same model"

# Incremental: redefine final_affine and add a layer (the nnet3-init example).
cat > add-layer.config <<'CFG'
component name=affine3 type=NaturalGradientAffineComponent input-dim=256 output-dim=128
component-node name=affine3 component=affine3 input=relu2
component name=relu3 type=RectifiedLinearComponent dim=128
component-node name=relu3 component=relu3 input=affine3
component name=final_affine type=NaturalGradientAffineComponent input-dim=128 output-dim=100
component-node name=final_affine component=final_affine input=relu3
CFG
expect_ok incremental "nnet3-init mlp.raw add-layer.config mlp3.raw && nnet3-info mlp3.raw > mlp3.info"
grep -q '^component-node name=final_affine component=final_affine input=relu3 input-dim=128 output-dim=100$' mlp3.info ||
  fail "incremental: final_affine not redefined"
grep -q '^component name=relu3 type=RectifiedLinearComponent' mlp3.info || fail "incremental: no relu3"
expect_ok stdin-config "nnet3-init - stdin.raw < '$CONFIGS/mlp.config'"
cmp -s stdin.raw mlp.raw || fail "config from stdin gives a different model"

# Usage.
expect_ok help "nnet3-init --help 2> h.txt; grep -q 'Usage:' h.txt && grep -q 'e.g.:' h.txt && grep -q 'See also:' h.txt"
nnet3-init only-one-arg > /dev/null 2> u.txt; [ $? -eq 1 ] || fail "wrong arg count must exit 1"
grep -q 'Usage:' u.txt || fail "wrong arg count must print usage"

# Bad configs: one ERROR line naming the file and line; no output written.
in='input-node name=input dim=4'
out='output-node name=output input=input'
bad() {  # bad NAME REGEX CONFIG-TEXT
  printf '%s\n' "$3" > "$1.config"
  expect_error "$1" "$2" "nnet3-init $1.config $1.raw"
  [ ! -e "$1.raw" ] || fail "$1: output file left behind"
  ls "$1".raw.* > /dev/null 2>&1 && fail "$1: temporary file left behind"
}
bad line-type "line-type\.config:2: invalid line type 'foo-node'" "$in
foo-node name=x"
bad component-type "component-type\.config:2: unknown component type 'FooComponent'" "$in
component name=c type=FooComponent dim=4
$out"
bad misspelled-key "misspelled-key\.config:2: unused value 'learning-rat=0\.1'" "$in
component name=c type=AffineComponent input-dim=4 output-dim=3 learning-rat=0.1
$out"
bad missing-key "missing-key\.config:1: input-node line needs dim=" "input-node name=input
$out"
bad not-numeric "not-numeric\.config:1: Invalid value 'four' for dim" "input-node name=input dim=four
$out"
bad descriptor-syntax "descriptor-syntax\.config:2: In descriptor 'Append\(input, Offset\(input\)\)'" "$in
output-node name=output input=Append(input, Offset(input))"
bad undefined-node "undefined-node\.config:3: undefined node 'relu9'" "$in

output-node name=output input=relu9"
bad dim-mismatch "dim-mismatch\.config:3: component-node 'c': its input input has dim 4 but component 'c' \(AffineComponent\) has input-dim 5" "$in
component name=c type=AffineComponent input-dim=5 output-dim=3
component-node name=c component=c input=input
output-node name=output input=c"
bad duplicate-node "duplicate-node\.config:3: node name 'input' is already defined at line 1" "$in
$out
$in"
bad duplicate-component "duplicate-component\.config:3: component name 'c' is already defined at line 2" "$in
component name=c type=RectifiedLinearComponent dim=4
component name=c type=RectifiedLinearComponent dim=4
$out"
bad no-output "no-output\.config: the network has no output node" "$in"
bad no-input "no-input\.config: the network has no input node" "output-node name=output input=Const(1, 3)"
expect_error missing-config "no-such\.config" "nnet3-init no-such.config x.raw"
[ ! -e x.raw ] || fail "missing config: output file left behind"
expect_error missing-model "no-such\.raw" "nnet3-init no-such.raw add-layer.config x.raw"
expect_error bad-option "Invalid option --no-such" "nnet3-init --no-such=1 '$CONFIGS/mlp.config' x.raw"

finish

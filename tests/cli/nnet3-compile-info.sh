#!/usr/bin/env bash
# nnet3-compile-info end to end: every example config in configs/ compiled
# and shown as text, JSON (validated by python3 -m json.tool) and dot; the
# shortcut gives the same computation as direct compilation (optimized or
# not); before-after (text and JSON) shows fewer commands and no more peak
# memory after optimization; --prepare-for-test, --repeat; bad input
# (missing model, bad --show/--format/--output-range, egs, a request that
# cannot be computed) gives one ERROR line and exit 1.
BIN=$1 DATA=$2
CONFIGS=$(cd "$(dirname "$0")/../../configs" && pwd)
. "$(dirname "$0")/lib.sh"

need python3 "python3 -c 'import json'"
need graphviz 'command -v dot'
BACKWARD="--output-deriv --need-model-derivative --input-deriv --store-component-stats"

for c in "$CONFIGS"/*.config; do
  name=$(basename "$c" .config)
  # The x-vector network's context (Kaldi's ComputeSimpleNnetContext) is
  # left 0, right 7: its stats pooling reads frames t..t+10000, so an output
  # frame is computable from later frames alone; the TDNN layers below it
  # need 7 frames each side, so give it 7 more on the left.
  X=""; [ $name = xvector ] && X="--extra-left-context=7"
  expect_ok "init-$name" "nnet3-init '$c' $name.raw"
  # Text: the default shows the computation and the stats.
  expect_ok "text-$name" "nnet3-compile-info $X --frames=3 $name.raw > $name.txt"
  grep -q '^# computation$' $name.txt || fail "text-$name: no computation"
  grep -q '^c0: ' $name.txt || fail "text-$name: no commands"
  for key in cindexes steps commands matrices submatrices total-memory-bytes \
             peak-memory-bytes seconds-graph seconds-steps seconds-commands; do
    grep -q "^$key: [0-9]" $name.txt || fail "text-$name: no '$key:' line"
  done
  grep -q '^  kPropagate: [1-9]' $name.txt || fail "text-$name: no kPropagate count"
  grep -q '^shortcut: no$' $name.txt || fail "text-$name: shortcut with one sequence"
  grep -q '^optimized: yes$' $name.txt || fail "text-$name: not optimized by default"
  for key in seconds-check seconds-optimize seconds-total; do
    grep -q "^$key: [0-9]" $name.txt || fail "text-$name: no '$key:' line"
  done
  # Everything, as text and as JSON, forward and backward, with the shortcut.
  expect_ok "all-text-$name" "nnet3-compile-info $X --num-sequences=4 --frames=3 $BACKWARD --show=request,graph,steps,computation,stats $name.raw > $name.all.txt"
  grep -q '^shortcut: yes (compiled 2 of 4 sequences' $name.all.txt || fail "all-text-$name: shortcut not used"
  for section in request graph steps computation stats; do
    grep -q "^# $section" $name.all.txt || fail "all-text-$name: no '# $section' section"
  done
  grep -q '^  kBackprop: [1-9]' $name.all.txt || fail "all-text-$name: no kBackprop"
  expect_ok "json-$name" "nnet3-compile-info $X --num-sequences=4 --frames=3 $BACKWARD --show=request,graph,steps,computation,stats --format=json $name.raw > $name.json"
  expect_ok "json-valid-$name" "python3 -m json.tool $name.json > /dev/null"
  expect_ok "json-keys-$name" "python3 -c 'import json,sys; d=json.load(open(\"$name.json\")); [d[k] for k in (\"request\",\"graph\",\"step_list\",\"computation\",\"cindexes\",\"steps\",\"matrices\",\"submatrices\",\"peak_memory_bytes\",\"total_memory_bytes\")]; assert d[\"commands\"][\"total\"] == len(d[\"computation\"]) > 0; assert set(d[\"seconds\"]) >= {\"graph\",\"steps\",\"commands\"}; assert d[\"shortcut\"][\"used\"] and d[\"shortcut\"][\"num_n_values\"] == 4; assert d[\"peak_memory_bytes\"] > 0'"
  # Dot: a digraph with a box per step.
  expect_ok "dot-$name" "nnet3-compile-info $X --frames=2 --format=dot $name.raw > $name.dot"
  head -1 $name.dot | grep -qx 'digraph compilation {' || fail "dot-$name: $(head -1 $name.dot)"
  tail -1 $name.dot | grep -qx '}' || fail "dot-$name: does not end with }"
  steps=$(nnet3-compile-info $X --frames=2 --show=stats $name.raw 2> /dev/null | sed -n 's/^steps: //p')
  [ "$(grep -c 'shape=box' $name.dot)" = "$steps" ] || fail "dot-$name: expected $steps step boxes"
  grep -q '^  m1 -> s' $name.dot || fail "dot-$name: nothing reads m1"
  expect_ok "dot-valid-$name" "dot -Tsvg $name.dot > /dev/null"
  # The shortcut computation is the direct one.
  expect_ok "shortcut-$name" "nnet3-compile-info $X --num-sequences=5 --output-range=-1:2 $BACKWARD --show=computation $name.raw > $name.sc.txt && nnet3-compile-info $X --num-sequences=5 --output-range=-1:2 $BACKWARD --show=computation --compiler.use-shortcut=false $name.raw > $name.direct.txt"
  same_file "shortcut-same-$name" $name.sc.txt $name.direct.txt
  expect_ok "shortcut-unopt-$name" "nnet3-compile-info $X --optimize=false --num-sequences=5 --output-range=-1:2 $BACKWARD --show=computation $name.raw > $name.sc0.txt && nnet3-compile-info $X --optimize=false --num-sequences=5 --output-range=-1:2 $BACKWARD --show=computation --compiler.use-shortcut=false $name.raw > $name.direct0.txt"
  same_file "shortcut-unopt-same-$name" $name.sc0.txt $name.direct0.txt
  cmp -s $name.sc.txt $name.sc0.txt && fail "shortcut-unopt-$name: optimizing changed nothing"
  # Before and after optimization, as JSON: fewer commands, no more memory.
  expect_ok "before-after-$name" "nnet3-compile-info $X --num-sequences=8 --frames=4 $BACKWARD --show=before-after --format=json $name.raw > $name.ba.json"
  expect_ok "before-after-valid-$name" "python3 -m json.tool $name.ba.json > /dev/null"
  expect_ok "before-after-keys-$name" "python3 -c 'import json; d=json.load(open(\"$name.ba.json\")); b, a = d[\"before\"], d[\"after\"]; [s[k] for s in (b, a) for k in (\"commands\", \"matrices\", \"submatrices\", \"peak_memory_bytes\", \"seconds\")]; assert a[\"commands\"] < b[\"commands\"], (a[\"commands\"], b[\"commands\"]); assert a[\"peak_memory_bytes\"] <= b[\"peak_memory_bytes\"]; assert a[\"seconds\"] > 0 and b[\"seconds\"] > 0'"
done

# before-after on a training-shaped request: text and JSON.
TRAIN="--num-sequences=128 --frames=8 --need-model-derivative"
expect_ok before-after-text "nnet3-compile-info $TRAIN --show=before-after tdnn.raw > ba.txt"
grep -q '^# before-after (unoptimized, optimized)$' ba.txt || fail "before-after-text: no heading"
for key in commands matrices submatrices peak-memory-bytes seconds; do
  grep -Eq "^$key: +[0-9.]+ +[0-9.]+$" ba.txt || fail "before-after-text: no '$key:' row"
done
grep -q '^# optimized computation$' ba.txt || fail "before-after-text: no optimized listing"
grep -q '^c0: ' ba.txt || fail "before-after-text: no commands listed"
awk '$1 == "commands:" { exit !($3 < $2) }' ba.txt || fail "before-after-text: $(grep '^commands:' ba.txt)"
expect_ok before-after-json "nnet3-compile-info $TRAIN --show=before-after --format=json tdnn.raw > ba.json"
expect_ok before-after-json-valid "python3 -m json.tool ba.json > /dev/null"
expect_ok before-after-json-fewer "python3 -c 'import json; d=json.load(open(\"ba.json\")); assert set(d) == {\"before\", \"after\"}, set(d); assert d[\"after\"][\"commands\"] < d[\"before\"][\"commands\"]; assert d[\"after\"][\"peak_memory_bytes\"] < d[\"before\"][\"peak_memory_bytes\"]'"
expect_ok optimized-no "nnet3-compile-info --optimize=false tdnn.raw > unopt.txt"
grep -q '^optimized: no$' unopt.txt || fail "optimized-no: $(grep optimized unopt.txt)"
expect_ok optimization-option "nnet3-compile-info --optimization.snip-row-ops=false --optimization.memory-compression-level=0 $TRAIN --show=stats tdnn.raw > /dev/null"
# --prepare-for-test folds batch-norm into the affine layers (fewer
# propagates).
expect_ok prepare-for-test "nnet3-compile-info --prepare-for-test --show=stats tdnn.raw > pft.txt"
[ "$(sed -n 's/^  kPropagate: //p' pft.txt)" -lt "$(sed -n 's/^  kPropagate: //p' tdnn.txt)" ] || fail "prepare-for-test: kPropagate $(sed -n 's/^  kPropagate: //p' pft.txt) not below $(sed -n 's/^  kPropagate: //p' tdnn.txt)"
# --repeat: one miss (two with the shortcut: the mini request), then hits.
expect_ok repeat "nnet3-compile-info --repeat=3 --show=stats tdnn.raw > rep.txt"
grep -Eq '^repeat-seconds: [0-9.e-]+ [0-9.e-]+ [0-9.e-]+$' rep.txt || fail "repeat: $(grep repeat-seconds rep.txt)"
grep -q '^repeat-hits: 2$' rep.txt || fail "repeat: $(grep repeat-hits rep.txt)"
expect_ok repeat-shortcut "nnet3-compile-info $TRAIN --repeat=4 --show=stats --format=json tdnn.raw > rep.json"
expect_ok repeat-json "python3 -c 'import json; r=json.load(open(\"rep.json\"))[\"repeat\"]; assert len(r[\"seconds\"]) == 4 and r[\"misses\"] == 2 and r[\"hits\"] == 3, r'"

# The request: n-major sequences, input widened by the context (6 + 1 left,
# 6 - 0 right for tdnn.config) and derivative flags.
expect_ok request "nnet3-compile-info --num-sequences=2 --output-range=3:5 --extra-left-context=1 --input-deriv --show=request tdnn.raw > req.txt"
grep -q 'name=input, has-deriv=true, indexes=\[ (0, -4:11) (1, -4:11) \]' req.txt || fail "request input: $(grep input req.txt)"
grep -q 'name=output, has-deriv=false, indexes=\[ (0, 3:5) (1, 3:5) \]' req.txt || fail "request output: $(grep output- req.txt)"
expect_ok ivector "nnet3-compile-info --num-sequences=3 --show=request ivector.raw > iv.txt"
grep -q 'name=ivector, has-deriv=false, indexes=\[ (0, 0) (1, 0) (2, 0) \]' iv.txt || fail "ivector request: $(grep ivector iv.txt)"

# Usage and bad input.
expect_ok help "nnet3-compile-info --help 2> h.txt; grep -q 'Usage:' h.txt"
nnet3-compile-info > /dev/null 2>&1; [ $? -eq 1 ] || fail "no args must exit 1"
expect_error missing-model "no-such\.raw" "nnet3-compile-info no-such.raw"
expect_error bad-show "--show: unknown item 'graf'" "nnet3-compile-info --show=stats,graf tdnn.raw"
expect_error bad-format "--format: unknown format 'xml'" "nnet3-compile-info --format=xml tdnn.raw"
expect_error before-after-unoptimized "before-after.*--optimize=false" "nnet3-compile-info --optimize=false --show=before-after tdnn.raw"
expect_error bad-repeat "--repeat must be >= 0" "nnet3-compile-info --repeat=-1 tdnn.raw"
expect_error bad-range "--output-range: expected a:b" "nnet3-compile-info --output-range=5:3 tdnn.raw"
expect_error svg-nothing "--format=svg draws one picture" "nnet3-compile-info --format=svg tdnn.raw"
expect_error svg-both "--format=svg draws one picture" "nnet3-compile-info --format=svg --show=memory,steps tdnn.raw"
expect_error bad-layout "--steps-layout: unknown layout 'fancy'" "nnet3-compile-info --format=html --steps-layout=fancy tdnn.raw"
expect_error max-requests-no-egs "--max-requests applies to egs input only" "nnet3-compile-info --max-requests=2 tdnn.raw"
expect_error compute-prob-no-egs "--for-compute-prob applies to egs input only" "nnet3-compile-info --for-compute-prob tdnn.raw"
expect_error no-input "Cannot compute output 'output'.*Supply frames t=-6\.\.6 of 'input'" "nnet3-compile-info --extra-left-context=-100 tdnn.raw"
expect_error short-window "Cannot compute output 'output' at t=0.*needs input 'input' at t=-6\b" "nnet3-compile-info --extra-left-context=-1 tdnn.raw"
expect_error short-window-shortcut "Cannot compute output 'output' at t=1\.\.2" "nnet3-compile-info --num-sequences=4 --frames=3 --extra-right-context=-2 tdnn.raw"
sed 's/^output-node name=output /output-node name=out /' "$CONFIGS/mlp.config" > not-simple.config
expect_ok not-simple-init "nnet3-init not-simple.config not-simple.raw"
expect_error not-simple "not simple" "nnet3-compile-info not-simple.raw"

finish

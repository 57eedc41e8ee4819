#!/usr/bin/env bash
# Writes the golden files of tests/unit/hmm (trees, transition models) and
# tests/cli/graph-hmm.sh with Kaldi's own programs (the tests do not need
# Kaldi). Run from this directory with Kaldi's programs on PATH
# (for d in /opt/kaldi/src/*bin; do PATH=$d:$PATH; done) and the reference
# system of Kaldi's wsj-style recipe at $S (default /work/refsys/s5):
#
#   topo            $S/data/lang/topo (262 phones: 10 silence phones with 5
#                   emitting states, 252 with 3)
#   mono.tree       the monophone tree gmm-init-mono built for it
#                   (exp/mono/tree), rewritten by copy-tree; mono.tree.txt
#                   the same with copy-tree --binary=false
#   tri.tree        a small triphone tree (144 pdfs, from --max-leaves=150; questions on
#                   the left and right phones and the pdf-class) that
#                   build-tree made from the tree statistics of the first half
#                   of the training data; tri.tree.txt its text form
#   mono-0.trans.txt the transition model of exp/mono/0.mdl (gmm-init-mono's
#                   TransitionModel(tree, topo)), by copy-transition-model
#   tiny.raw        a raw nnet (4 inputs, 144 outputs) from nnet3-init
#   tri.mdl         nnet3-am-init tri.tree topo tiny.raw tri.mdl
#
# Our programs against Kaldi's on the reference system (the steps of Kaldi's
# mkgraph.sh by hand; LG.fst from $S/data/lang_test_small/tmp, the steps
# between ours with Kaldi's fsttablecompose, fstdeterminizestar --use-log=true,
# fstrmsymbols, fstrmepslocal, fstminimizeencoded), all byte-identical (cmp):
#   copy-tree [--binary=false] on exp/mono/tree and exp/tri1/tree
#   nnet3-am-init [--binary=false] exp/{mono,tri1}/tree data/lang/topo R.raw
#   fstcomposecontext --context-size=N --central-position=P
#     --read-disambig-syms=phones/disambig.int --write-disambig-syms=d.int
#     ilabels LG.fst CLG.fst                (N,P = 1,0 and 3,1; CLG, ilabels,
#                                             d.int; CLG after fstarcsort and
#                                             ilabels = those of the refsys)
#   make-h-transducer --disambig-syms-out=tid.int --transition-scale=1.0
#     ilabels exp/{mono,tri1}/tree exp/{mono,tri1}/final.mdl > Ha.fst
#   add-self-loops --self-loop-scale=0.1 --reorder={true,false}
#     exp/{mono,tri1}/final.mdl HCLGa.fst HCLG.fst  (with --reorder=true
#     and fstconvert --fst_type=const: exp/{mono,tri1}/graph_small/HCLG.fst)
# and the same on data/lang_test_big with exp/tri1 (graph_big).
set -euo pipefail
S=${S:-/work/refsys/s5}
cp "$S/data/lang/topo" topo
copy-tree "$S/exp/mono/tree" mono.tree
copy-tree --binary=false "$S/exp/mono/tree" mono.tree.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$S" && acc-tree-stats --ci-phones=1:2:3:4:5:6:7:8:9:10 \
  exp/mono_ali/final.mdl \
  "ark,s,cs:apply-cmvn --utt2spk=ark:data/train/split2/1/utt2spk scp:data/train/split2/1/cmvn.scp scp:data/train/split2/1/feats.scp ark:- | add-deltas ark:- ark:- |" \
  "ark:gunzip -c exp/mono_ali/ali.1.gz|" "$tmp/treeacc")
build-tree --max-leaves=150 --cluster-thresh=-1 "$tmp/treeacc" \
  "$S/data/lang/phones/roots.int" "$S/exp/tri1/questions.qst" topo tri.tree
copy-tree --binary=false tri.tree tri.tree.txt
copy-transition-model --binary=false "$S/exp/mono/0.mdl" mono-0.trans.txt
printf '%s\n' 'input-node name=input dim=4' \
  'component name=affine type=NaturalGradientAffineComponent input-dim=4 output-dim=144' \
  'component-node name=affine component=affine input=input' \
  'output-node name=output input=affine objective=linear' > "$tmp/tiny.config"
nnet3-init "$tmp/tiny.config" tiny.raw
nnet3-am-init tri.tree topo tiny.raw tri.mdl

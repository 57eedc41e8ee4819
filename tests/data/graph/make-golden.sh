#!/usr/bin/env bash
# Writes the golden files of tests/cli/graph-scripts.sh with Kaldi's own
# scripts and programs (the test does not need Kaldi). Run from this
# directory with /opt/kaldi built:
#
#   dict/, bigram.arpa.gz written by hand (gzip -n): a two-word lexicon (yes, no; <unk>
#                        for the OOV word), phones sil spn eh n ow s y, a
#                        bigram LM over yes/no
#   kaldi/lang           Kaldi's utils/prepare_lang.sh dict '<unk>' tmp lang
#   kaldi/lang_test      Kaldi's utils/format_lm.sh lang bigram.arpa.gz
#                        dict/lexicon.txt lang_test (G.fst; tmp/LG.fst,
#                        tmp/CLG_1_0.fst, tmp/ilabels_1_0 from mkgraph.sh)
#   mono/tree, mono/final.mdl
#                        gmm-init-mono --shared-phones=lang/phones/sets.int
#                        lang/topo 13 0.mdl tree (a monophone tree, 25 pdfs);
#                        final.mdl = nnet3-am-init tree lang/topo tiny.raw
#                        (tiny.raw: nnet3-init, 4 inputs, 25 outputs)
#   kaldi/graph          Kaldi's utils/mkgraph.sh lang_test mono graph:
#                        HCLG.fst, and Ha.fst and HCLGa.fst, which mkgraph.sh
#                        deletes at its end (kept by an "rm" on PATH that
#                        copies them aside first)
set -euo pipefail
K=/opt/kaldi
for d in "$K"/src/*bin; do PATH=$d:$PATH; done
export PATH LC_ALL=C
here=$(pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ln -s "$K/egs/wsj/s5/utils" "$tmp/utils"
mkdir -p "$tmp/shim"
cat > "$tmp/shim/rm" <<'SHIM'
#!/bin/bash
for f in "$@"; do
  case "$f" in */Ha.fst|*/HCLGa.fst) [ -f "$f" ] && cp "$f" "$f.kept" ;; esac
done
exec /bin/rm "$@"
SHIM
chmod +x "$tmp/shim/rm"
rm -rf kaldi mono
cp -r dict "$tmp/dict"
cd "$tmp"
: > path.sh  # Kaldi's scripts source it; PATH is set above
utils/prepare_lang.sh dict '<unk>' tmp lang > /dev/null
utils/format_lm.sh lang "$here/bigram.arpa.gz" dict/lexicon.txt lang_test 2> /dev/null
mkdir -p mono
gmm-init-mono --shared-phones=lang/phones/sets.int lang/topo 13 mono/0.mdl \
  mono/tree 2> /dev/null
pdfs=$(tree-info mono/tree 2> /dev/null | awk '$1 == "num-pdfs" { print $2 }')
printf '%s\n' 'input-node name=input dim=4' \
  "component name=affine type=NaturalGradientAffineComponent input-dim=4 output-dim=$pdfs" \
  'component-node name=affine component=affine input=input' \
  'output-node name=output input=affine objective=linear' > tiny.config
nnet3-init --srand=1 tiny.config tiny.raw 2> /dev/null
nnet3-am-init mono/tree lang/topo tiny.raw mono/final.mdl 2> /dev/null
PATH=$tmp/shim:$PATH utils/mkgraph.sh lang_test mono graph > /dev/null
mv graph/Ha.fst.kept graph/Ha.fst
mv graph/HCLGa.fst.kept graph/HCLGa.fst
mkdir -p "$here/kaldi" "$here/mono"
cp mono/tree mono/final.mdl "$here/mono/"
cp -r lang "$here/kaldi/"
mkdir -p "$here/kaldi/lang_test/tmp"
cp lang_test/G.fst "$here/kaldi/lang_test/"
cp lang_test/tmp/LG.fst lang_test/tmp/CLG_1_0.fst lang_test/tmp/ilabels_1_0 \
  lang_test/tmp/disambig_ilabels_1_0.int "$here/kaldi/lang_test/tmp/"
mkdir -p "$here/kaldi/graph"
cp graph/HCLG.fst graph/Ha.fst graph/HCLGa.fst graph/disambig_tid.int \
  graph/num_pdfs "$here/kaldi/graph/"

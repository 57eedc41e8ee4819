#!/usr/bin/env bash
# mkgraph.sh: the decoding graph HCLG.fst (transition-ids in, words out)
# from a lang directory with G.fst and a model directory (tree, final.mdl),
# as Kaldi's utils/mkgraph.sh does, with the same arguments, options,
# intermediate files and program calls:
#   LG    = fsttablecompose L_disambig G | fstdeterminizestar --use-log=true
#           | fstminimizeencoded | fstpushspecial      (lang/tmp/LG.fst)
#   CLG   = fstcomposecontext (the tree's context) LG | fstarcsort
#                                                  (lang/tmp/CLG_N_P.fst)
#   Ha    = make-h-transducer                      (graph/Ha.fst)
#   HCLGa = fsttablecompose Ha CLG | fstdeterminizestar --use-log=true
#           | fstrmsymbols (disambiguation ids) | fstrmepslocal
#           | fstminimizeencoded                    (graph/HCLGa.fst)
#   HCLG  = add-self-loops HCLGa | fstconvert --fst_type=const
# Each file is remade only when older than what it is made from; lang/tmp
# is shared by every model with the same context. Then the graph directory
# gets words.txt, phones.txt, phones/ and num_pdfs, so that decoding needs
# nothing else.
help_message="Usage: mkgraph.sh [options] <lang-dir> <model-dir> <graph-dir>
e.g.: utils/mkgraph.sh data/lang_test exp/tri1 exp/tri1/graph
Options:
  --transition-scale S   # default 1.0: scale on transition probabilities
  --self-loop-scale S    # default 0.1: scale on self-loop probabilities
                         # (chain models: 1.0)
  --remove-oov           # remove paths through the OOV word (oov.int)
  --mono, --left-biphone, --quinphone   # accepted and ignored (the tree
                         # says the context)"
set -o pipefail
export LC_ALL=C
tscale=1.0
loopscale=0.1
remove_oov=false
while [ $# -gt 0 ]; do
  case "$1" in
    --mono|--left-biphone|--quinphone)
      echo "mkgraph.sh: WARNING: $1 is ignored (the tree gives the context)"; shift ;;
    --remove-oov) remove_oov=true; shift ;;
    --transition-scale) tscale=$2; shift 2 ;;
    --transition-scale=*) tscale=${1#*=}; shift ;;
    --self-loop-scale) loopscale=$2; shift 2 ;;
    --self-loop-scale=*) loopscale=${1#*=}; shift ;;
    --help|-h) printf "%s\n" "$help_message" >&2; exit 0 ;;
    --*) echo "mkgraph.sh: unknown option $1" >&2; exit 1 ;;
    *) break ;;
  esac
done
if [ $# -ne 3 ]; then
  printf "%s\n" "$help_message" >&2
  exit 1
fi
lang=$1 model_dir=$2 dir=$3
tree=$model_dir/tree model=$model_dir/final.mdl
die() { echo "mkgraph.sh: $*" >&2; exit 1; }

inputs="$lang/L_disambig.fst $lang/G.fst $lang/phones.txt $lang/words.txt
        $lang/phones/silence.csl $lang/phones/disambig.int $model $tree"
for f in $inputs; do
  [ -f "$f" ] || die "expected $f to exist"
done
mkdir -p "$dir" "$lang/tmp" || exit 1
if [ -f "$dir/HCLG.fst" ]; then
  stale=false
  for f in $inputs; do [ "$f" -nt "$dir/HCLG.fst" ] && stale=true; done
  if ! $stale; then echo "mkgraph.sh: $dir/HCLG.fst is up to date."; exit 0; fi
fi

# needs_update TARGET SOURCE...: TARGET is missing, empty or older.
needs_update() {
  local target=$1 source; shift
  [ -s "$target" ] || return 0
  for source in "$@"; do [ "$target" -ot "$source" ] && return 0; done
  return 1
}

N=$(tree-info "$tree" | awk '$1 == "context-width" { print $2 }') &&
  [ -n "$N" ] || die "cannot get the context width of $tree"
P=$(tree-info "$tree" | awk '$1 == "central-position" { print $2 }') &&
  [ -n "$P" ] || die "cannot get the central position of $tree"
if [ -f "$model_dir/frame_subsampling_factor" ] && [ "$loopscale" = 0.1 ]; then
  echo "mkgraph.sh: WARNING: chain models need --self-loop-scale 1.0"
fi
[ -f "$lang/phones/nonterm_phones_offset.int" ] &&
  die "grammar (nonterminal) lang directories are not supported"

lg=$lang/tmp/LG.fst
if needs_update "$lg" "$lang/G.fst" "$lang/L_disambig.fst"; then
  trap 'rm -f "$lg.$$"' EXIT
  fsttablecompose "$lang/L_disambig.fst" "$lang/G.fst" |
    fstdeterminizestar --use-log=true | fstminimizeencoded |
    fstpushspecial > "$lg.$$" || exit 1
  mv "$lg.$$" "$lg"
  fstisstochastic "$lg" || echo "[info]: LG not stochastic."
fi

clg=$lang/tmp/CLG_${N}_${P}.fst
ilabels=$lang/tmp/ilabels_${N}_${P}
if needs_update "$clg" "$lg" || needs_update "$ilabels" "$lg"; then
  trap 'rm -f "$clg.$$" "$ilabels.$$"' EXIT
  fstcomposecontext --context-size=$N --central-position=$P \
      --read-disambig-syms="$lang/phones/disambig.int" \
      --write-disambig-syms="$lang/tmp/disambig_ilabels_${N}_${P}.int" \
      "$ilabels.$$" "$lg" |
    fstarcsort --sort_type=ilabel > "$clg.$$" || exit 1
  mv "$clg.$$" "$clg"
  mv "$ilabels.$$" "$ilabels"
  fstisstochastic "$clg" || echo "[info]: CLG not stochastic."
fi

ha=$dir/Ha.fst
if needs_update "$ha" "$model" "$ilabels"; then
  trap 'rm -f "$ha.$$"' EXIT
  make-h-transducer --disambig-syms-out="$dir/disambig_tid.int" \
    --transition-scale=$tscale "$ilabels" "$tree" "$model" > "$ha.$$" || exit 1
  mv "$ha.$$" "$ha"
fi

hclga=$dir/HCLGa.fst
if needs_update "$hclga" "$ha" "$clg"; then
  trap 'rm -f "$hclga.$$"' EXIT
  clg_in=$clg
  if $remove_oov; then
    [ -f "$lang/oov.int" ] || die "--remove-oov: no file $lang/oov.int"
    clg_in="fstrmsymbols --remove-arcs=true --apply-to-output=true $lang/oov.int $clg|"
  fi
  fsttablecompose "$ha" "$clg_in" | fstdeterminizestar --use-log=true |
    fstrmsymbols "$dir/disambig_tid.int" | fstrmepslocal |
    fstminimizeencoded > "$hclga.$$" || exit 1
  mv "$hclga.$$" "$hclga"
  fstisstochastic "$hclga" || echo "HCLGa is not stochastic"
fi

hclg=$dir/HCLG.fst
if needs_update "$hclg" "$hclga"; then
  trap 'rm -f "$hclg.$$"' EXIT
  add-self-loops --self-loop-scale=$loopscale --reorder=true "$model" "$hclga" |
    fstconvert --fst_type=const > "$hclg.$$" || exit 1
  mv "$hclg.$$" "$hclg"
  if [ "$tscale" = 1.0 ] && [ "$loopscale" = 1.0 ]; then
    fstisstochastic "$hclg" || echo "[info]: final HCLG is not stochastic."
  fi
fi
trap - EXIT
# An FST file with no states is 66 bytes.
[ "$(head -c 67 "$hclg" | wc -c)" -eq 67 ] || die "$hclg is empty"
rm -f "$ha" "$hclga"

cp "$lang/words.txt" "$dir/" || exit 1
mkdir -p "$dir/phones"
for f in word_boundary.txt word_boundary.int align_lexicon.txt align_lexicon.int \
         optional_silence.txt optional_silence.int optional_silence.csl \
         disambig.txt disambig.int; do
  [ -f "$lang/phones/$f" ] && cp "$lang/phones/$f" "$dir/phones/"
done
cp "$lang/phones/silence.csl" "$dir/phones/" || exit 1
cp "$lang/phones.txt" "$dir/" 2> /dev/null
am-info --print-args=false "$model" | awk '/pdfs/ { print $NF }' > "$dir/num_pdfs"
echo "mkgraph.sh: made $hclg"

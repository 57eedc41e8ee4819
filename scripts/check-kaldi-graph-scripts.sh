#!/usr/bin/env bash
# Not part of the suite (needs Kaldi's scripts and a Kaldi-built system):
# runs Kaldi's own utils/prepare_lang.sh, format_lm.sh and mkgraph.sh,
# unchanged, with our programs first on PATH and no Kaldi program on it
# (OpenFst's Debian tools from /usr/bin), on the inputs of a Kaldi-built
# reference system, and compares every file they write with Kaldi's:
# byte for byte (cmp), else fstequivalent with state and arc counts.
#
#   scripts/check-kaldi-graph-scripts.sh [BIN [REFSYS [KALDI]]]
#   defaults: build/bin, /work/refsys/s5, /opt/kaldi
#
# Ha.fst and HCLGa.fst, which mkgraph.sh deletes at its end, are kept by an
# "rm" on PATH that copies them aside first; Kaldi's are remade from the
# reference CLG with Kaldi's programs (by absolute path). Prints one line
# per comparison; exits 1 if any differs.
set -uo pipefail
BIN=$(cd "${1:-build/bin}" && pwd)
S=${2:-/work/refsys/s5}
KALDI=${3:-/opt/kaldi}
KU=$KALDI/egs/wsj/s5/utils
work=$(mktemp -d /tmp/check-graph.XXXXXX)
trap 'rm -rf "$work"' EXIT
export LC_ALL=C
export PATH=$work/shim:$BIN:/usr/local/bin:/usr/bin:/bin
bad=0

programs="arpa2fst fstaddselfloops fsttablecompose fstdeterminizestar
  fstminimizeencoded fstpushspecial fstrmsymbols fstrmepslocal fstisstochastic
  fstcomposecontext make-h-transducer add-self-loops tree-info am-info
  fstcompile fstarcsort fstconvert fstinfo fstcompose fstprint"
for p in $programs; do
  where=$(type -a -P "$p" | head -1)
  case "$where" in
    "$BIN"/*|/usr/bin/*) echo "program $p: $where" ;;
    *) echo "program $p: '$where' is neither ours nor Debian's"; bad=1 ;;
  esac
  case "$(type -a -P "$p" | tr '\n' ' ')" in
    *"$KALDI"*|*refsys*) echo "program $p: a Kaldi copy is on PATH"; bad=1 ;;
  esac
done
[ $bad = 0 ] || { echo "PATH is not clean"; exit 1; }

mkdir -p "$work/shim" "$work/s5"
cat > "$work/shim/rm" <<'SHIM'
#!/bin/bash
for f in "$@"; do
  case "$f" in */Ha.fst|*/HCLGa.fst) [ -f "$f" ] && cp "$f" "$f.kept" ;; esac
done
exec /bin/rm "$@"
SHIM
chmod +x "$work/shim/rm"
cd "$work/s5" || exit 1
ln -s "$KU" utils
: > path.sh  # Kaldi's scripts source it; PATH is set above
mkdir -p data/local exp
cp -r "$S/data/local/dict" data/local/dict

# same NAME OURS KALDIS: cmp, else fstequivalent (after the same
# determinizing encode) and the counts.
same() {
  if cmp -s "$2" "$3"; then echo "identical: $1"; return; fi
  local info_ours info_kaldi
  info_ours=$(fstinfo "$2" | awk '/^# of (states|arcs)/ { printf "%s ", $NF }')
  info_kaldi=$(fstinfo "$3" | awk '/^# of (states|arcs)/ { printf "%s ", $NF }')
  if [ "$info_ours" = "$info_kaldi" ] && fstequivalent --random --npath=200 "$2" "$3"; then
    echo "equivalent (random paths), same states/arcs ($info_ours): $1"
  else
    echo "DIFFERENT: $1 (states/arcs ours: $info_ours; Kaldi's: $info_kaldi)"; bad=1
  fi
}
run() {  # run NAME CMD...: logged to $work/NAME.log, time and peak RSS printed
  local name=$1; shift
  /usr/bin/time -f "%e s, %M kB" -o "$work/$name.time" "$@" > "$work/$name.log" 2>&1
  local status=$?
  echo "$name: exit $status, $(cat "$work/$name.time" | tail -1)"
  [ $status = 0 ] || { tail -5 "$work/$name.log"; bad=1; }
}

run prepare_lang utils/prepare_lang.sh data/local/dict "<unk>" data/local/lang data/lang
for f in L.fst L_disambig.fst phones.txt words.txt topo phones/disambig.int \
  phones/roots.int phones/sets.int phones/silence.csl phones/word_boundary.int \
  phones/align_lexicon.int phones/extra_questions.int; do
  same "lang/$f" "data/lang/$f" "$S/data/lang/$f"
done
for lm in small big; do
  run format_lm_$lm utils/format_lm.sh data/lang "$S/data/local/lm/$lm.arpa.gz" \
    data/local/dict/lexicon.txt data/lang_test_$lm
  same "lang_test_$lm/G.fst" data/lang_test_$lm/G.fst "$S/data/lang_test_$lm/G.fst"
done

# Kaldi's Ha.fst and HCLGa.fst from the reference CLG, with Kaldi's programs.
kaldi_ha_hclga() {  # MODEL LANG N P OUTDIR
  local kb=$KALDI/src/bin kf=$KALDI/src/fstbin
  mkdir -p "$5"

  "$kb/make-h-transducer" --disambig-syms-out="$5/tid.int" --transition-scale=1.0 \
    "$S/data/$2/tmp/ilabels_$3_$4" "$S/exp/$1/tree" "$S/exp/$1/final.mdl" \
    > "$5/Ha.fst" 2> /dev/null &&
  bash -c "
    '$kf/fsttablecompose' '$5/Ha.fst' '$S/data/$2/tmp/CLG_$3_$4.fst' |
    '$kf/fstdeterminizestar' --use-log=true | '$kf/fstrmsymbols' '$5/tid.int' |
    '$kf/fstrmepslocal' | '$kf/fstminimizeencoded' > '$5/HCLGa.fst'" 2> /dev/null
}
for case in "mono small 1 0" "tri1 small 3 1" "tri1 big 3 1"; do
  set -- $case
  m=$1 lm=$2 N=$3 P=$4
  mkdir -p exp/$m
  cp "$S/exp/$m/tree" "$S/exp/$m/final.mdl" exp/$m/
  run mkgraph_${m}_$lm utils/mkgraph.sh data/lang_test_$lm exp/$m exp/$m/graph_$lm
  for f in LG.fst CLG_${N}_${P}.fst ilabels_${N}_${P} disambig_ilabels_${N}_${P}.int; do
    same "$m $lm tmp/$f" data/lang_test_$lm/tmp/$f "$S/data/lang_test_$lm/tmp/$f"
  done
  same "$m $lm HCLG.fst" exp/$m/graph_$lm/HCLG.fst "$S/exp/$m/graph_$lm/HCLG.fst"
  same "$m $lm disambig_tid.int" exp/$m/graph_$lm/disambig_tid.int "$S/exp/$m/graph_$lm/disambig_tid.int"
  same "$m $lm num_pdfs" exp/$m/graph_$lm/num_pdfs "$S/exp/$m/graph_$lm/num_pdfs"
  kaldi_ha_hclga $m lang_test_$lm $N $P "$work/kaldi_${m}_${lm}"
  same "$m $lm Ha.fst" exp/$m/graph_$lm/Ha.fst.kept "$work/kaldi_${m}_${lm}/Ha.fst"
  same "$m $lm HCLGa.fst" exp/$m/graph_$lm/HCLGa.fst.kept "$work/kaldi_${m}_${lm}/HCLGa.fst"
done
[ $bad = 0 ] && echo "check-kaldi-graph-scripts: all equal" ||
  echo "check-kaldi-graph-scripts: DIFFERENCES (see above)"
exit $bad

#!/usr/bin/env bash
# Writes the golden files of tests/cli/lattice-mbr.sh and
# tests/unit/lat/word-align-lattice-test.cc with Kaldi's own programs (the
# tests do not need Kaldi). Run from this directory with Kaldi's bin/ and
# latbin/ on PATH (e.g. `. /work/refsys/env.sh`) and REFSYS=/work/refsys
# (the Kaldi-built reference system: its decode lattices and model).
#
# Inputs made here:
#   model.txt        copy-transition-model --binary=false model-in.txt model.txt
#                    (hand-written: phone 1 = SIL, 5-9 one emitting state,
#                    2-4 two; transition-ids: phone 1: 1 loop, 2 final;
#                    2: 3 loop, 4 forward, 5 loop, 6 final; 3: 7-10;
#                    4: 11-14; 5: 15 loop, 16 final; 6: 17-18; 7: 19-20;
#                    8: 21-22; 9: 23-24)
#   word_boundary.int  1 nonword, 2 begin, 3 internal, 4 end, 5-8 singleton
#                    (phone 9 is in the model but not in the file)
#   hand-lat.txt     three CompactLattices written by hand (words: a=1 is
#                    phones 2 3 4, b=2 is 5, c=3 is 6, d=4 is 7, e=5 is 2 4):
#     utt-linear     SIL a SIL b c e SIL, words put on arcs away from their
#                    phones, the last frame on the final weight
#     utt-mbr        b c (p 0.4), b d (0.3), e d (0.3) at acoustic scale
#                    0.1: best path "b c", MBR "b d"
#     utt-partial    SIL then a word cut before its end phone (forced out)
#   refsys-lat.txt   3 lattices of $REFSYS/ref (small graph te01-0024 and
#                    te01-0010, big graph te01-0043: their MBR output
#                    differs from their best path at acoustic scale 0.05,
#                    0.2, 0.05)
#   refsys-trans.txt.gz  the transition model of $REFSYS's final.mdl
#                    (copy-transition-model --binary=false, gzip -n)
#   refsys-1best.ark lattice-1best --acoustic-scale=0.1 of refsys-lat.txt
#   refsys-1best-words.txt  lattice-best-path --acoustic-scale=0.1 words
#   refsys-word_boundary.int  $REFSYS's phones/word_boundary.int
# The goldens are the commands below, one file each.
set -euo pipefail
: "${REFSYS:?set REFSYS to the Kaldi-built reference system}"
copy-transition-model --binary=false model-in.txt model.txt
printf '1 nonword\n2 begin\n3 internal\n4 end\n5 singleton\n6 singleton\n7 singleton\n8 singleton\n' > word_boundary.int
printf '%s' 'utt-linear
0	1	1	1.5,10.25,2_1_4_3
1	2	0	0.5,7.5,6_8_10_12_14_13_2_16
2	3	2	0,3.25,15_15
3	4	3	1,2,18_4_6
4	5	5	0.25,4,12_14_2_1
5	0,1,1

utt-mbr
0	1	2	0.2,1.56675,2_1_16_15_15_15
0	2	5	1,2.03973,2_1_4_6_12_14
1	3	3	0.5,0.59616,18_17
1	3	4	0.8,0.47298,20_19
2	3	4	0,0,20_19
3	0,0,2

utt-partial
0	1	1	0.5,3,2_1_4_3_6_8
1	0,0.5,

' > hand-lat.txt
S=$REFSYS/s5
lattice-copy "ark:$REFSYS/ref/small/lat.ark" ark,t:- |
  awk '/^te01-0010 |^te01-0024 /{p=1} p{print} p&&NF==0{p=0}' > refsys-lat.txt
lattice-copy "ark:$REFSYS/ref/big/lat.ark" ark,t:- |
  awk '/^te01-0043 /{p=1} p{print} p&&NF==0{p=0}' >> refsys-lat.txt
copy-transition-model --binary=false $S/exp/nnet3/tdnn/final.mdl - | gzip -n > refsys-trans.txt.gz
cp $S/exp/tri1/graph_big/phones/word_boundary.int refsys-word_boundary.int
lattice-1best --acoustic-scale=0.1 ark,t:refsys-lat.txt ark:refsys-1best.ark
lattice-best-path --acoustic-scale=0.1 ark,t:refsys-lat.txt ark,t:refsys-1best-words.txt

# Word alignment (exit 0: 2 of 3 aligned; utt-partial is written with errors).
lattice-align-words word_boundary.int model.txt ark,t:hand-lat.txt ark,t:hand-aligned.txt
lattice-align-words --silence-label=9 --partial-word-label=10 word_boundary.int model.txt ark,t:hand-lat.txt ark,t:hand-aligned-labels.txt
lattice-align-words --output-error-lats=false word_boundary.int model.txt ark,t:hand-lat.txt ark,t:hand-aligned-noerr.txt
lattice-align-words "refsys-word_boundary.int" "gunzip -c refsys-trans.txt.gz |" ark,t:refsys-lat.txt ark:refsys-aligned.ark
# CTMs: frame subsampling 3 (one transition-id per 30 ms), and Kaldi's pipeline.
lattice-align-words word_boundary.int model.txt ark,t:hand-lat.txt ark:- | nbest-to-ctm --frame-shift=0.03 ark:- hand-fs003.ctm || true
lattice-align-words word_boundary.int model.txt ark,t:hand-lat.txt ark:- | nbest-to-ctm --frame-shift=0.03 --print-silence=true --precision=3 ark:- hand-fs003-sil.ctm || true
lattice-align-words "refsys-word_boundary.int" "gunzip -c refsys-trans.txt.gz |" ark:refsys-1best.ark ark:- | nbest-to-ctm ark:- refsys-1best.ctm
# Posteriors.
lattice-to-post --acoustic-scale=0.1 ark,t:hand-lat.txt ark,t:hand-post.txt ark,t:hand-loglikes.txt
lattice-to-post --acoustic-scale=0.1 ark,t:refsys-lat.txt ark,t:refsys-post.txt ark,t:refsys-loglikes.txt
# MBR.
lattice-mbr-decode --acoustic-scale=0.1 ark,t:hand-aligned.txt ark,t:hand-mbr-words.txt ark,t:hand-mbr-risk.txt ark,t:hand-mbr-sausage.txt ark,t:hand-mbr-times.txt
lattice-mbr-decode --acoustic-scale=0.1 --one-best-times=true ark,t:hand-aligned.txt ark:/dev/null ark:/dev/null ark:/dev/null ark,t:hand-mbr-1best-times.txt
for a in 0.05 0.1 0.2; do
  lattice-mbr-decode --acoustic-scale=$a ark:refsys-aligned.ark ark,t:refsys-mbr-words-$a.txt ark,t:refsys-mbr-risk-$a.txt ark,t:refsys-mbr-sausage-$a.txt ark,t:refsys-mbr-times-$a.txt
done
lattice-to-ctm-conf --acoustic-scale=0.1 ark,t:hand-aligned.txt hand-conf.ctm
lattice-to-ctm-conf --acoustic-scale=0.1 --decode-mbr=false --print-silence=true --confidence-digits=4 ark,t:hand-aligned.txt hand-conf-map.ctm
lattice-to-ctm-conf --inv-acoustic-scale=12 ark:refsys-aligned.ark refsys-conf.ctm
lattice-to-ctm-conf --acoustic-scale=0.1 --frame-shift=0.03 ark:refsys-aligned.ark ark,t:refsys-1best-words.txt refsys-conf-1best.ctm
# Depth.
lattice-depth-per-frame ark,t:hand-lat.txt ark,t:hand-depth.txt
lattice-depth-per-frame ark,t:refsys-lat.txt ark,t:refsys-depth.txt ark,t:refsys-depth-lat.txt

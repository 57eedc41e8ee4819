#!/usr/bin/env bash
# Remakes the golden lattice files of this folder with Kaldi's programs; the
# unit tests (tests/unit/lat/determinize-lattice-kaldi-test.cc) compare our
# determinization with them and do not need Kaldi.
#
# Usage: make-golden.sh KALDI_LATBIN_DIR
#   (the folder holding Kaldi's lattice-determinize-pruned and
#   lattice-determinize-phone-pruned, e.g. /opt/kaldi/src/latbin)
#
# raw-grid.txt, raw-float.txt, raw-tie.txt
#                               random raw lattices (make-golden-lattices.py)
# raw-dead.txt                 lattices with dead ends (not trimmed)
# raw-maxmem.txt                one larger lattice, for the --max-mem case
# det-*.txt                     Kaldi's determinized lattices (text archives)
# det-phone-maxmem*.log         Kaldi's log for the --max-mem cases
set -euo pipefail
bin=$1
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
mdl=../train/hmm.mdl
python3 make-golden-lattices.py 1 12 8 3 grid > raw-grid.txt
python3 make-golden-lattices.py 2 12 8 3 float > raw-float.txt
python3 make-golden-lattices.py 5 12 8 3 tie > raw-tie.txt
python3 make-golden-lattices.py 3 4 8 3 dead > raw-dead.txt
python3 make-golden-lattices.py 4 1 40 6 float > raw-maxmem.txt
"$bin/lattice-determinize-phone-pruned" $mdl ark,t:raw-dead.txt \
  ark,t:det-phone-dead.txt
for kind in grid float tie; do
  "$bin/lattice-determinize-phone-pruned" $mdl ark,t:raw-$kind.txt \
    ark,t:det-phone-$kind.txt
  "$bin/lattice-determinize-phone-pruned" --beam=3 --minimize=true $mdl \
    ark,t:raw-$kind.txt ark,t:det-phone-b3-min-$kind.txt
  "$bin/lattice-determinize-phone-pruned" --phone-determinize=false $mdl \
    ark,t:raw-$kind.txt ark,t:det-phone-noph-$kind.txt
  "$bin/lattice-determinize-pruned" --beam=4 ark,t:raw-$kind.txt \
    ark,t:det-word-b4-$kind.txt
  "$bin/lattice-determinize-pruned" --minimize=true ark,t:raw-$kind.txt \
    ark,t:det-word-min-$kind.txt
done
for mem in 60000 150000; do
  "$bin/lattice-determinize-phone-pruned" --max-mem=$mem $mdl \
    ark,t:raw-maxmem.txt ark,t:det-phone-maxmem$mem.txt \
    2> det-phone-maxmem$mem.log
done

# The lattice I/O goldens (tests/unit/lat/kaldi-lattice-test.cc), made with
# Kaldi's lattice-copy:
# Writes the golden lattice archives used by tests/unit/lat/kaldi-lattice-test.cc
# with Kaldi's own lattice-copy (the tests do not need Kaldi):
#
#   lat-in.txt   written by hand in Kaldi's text form: utt1 a Lattice
#                (transducer lines "s d tid word graph,acoustic", chains of
#                transition-ids, an epsilon arc, more digits than Kaldi
#                prints), utt2 a CompactLattice (acceptor lines "s d word
#                graph,acoustic,tid_tid", a final weight with a string, an
#                empty string), utt3 a one-state lattice
#   clat.ark     lattice-copy ark,t:lat-in.txt ark:clat.ark
#                (read as CompactLattice: utt1 converted; compactlattice44)
#   clat.txt     lattice-copy ark:clat.ark ark,t:clat.txt
#   lat.ark      lattice-copy --write-compact=false ark,t:lat-in.txt ark:lat.ark
#                (read as Lattice: utt2 expanded; lattice4)
#   lat.txt      lattice-copy --write-compact=false ark:lat.ark ark,t:lat.txt
lattice-copy ark,t:clat.txt ark:clat-from-text.ark
#   clat-from-text.ark  lattice-copy ark,t:clat.txt ark:clat-from-text.ark
#                (Kaldi's text back to binary: the weights have 6 digits now)
#
# lattice-copy was linked from Kaldi's build (/opt/kaldi/src/latbin/
# lattice-copy.o and Kaldi's libraries, with Kaldi's OpenFst) when these were
# made; the archives are the bytes it wrote.
PATH=$bin:$PATH
printf '%s' 'utt1 
0	1	1	0	0.5,1.25
1	2	2	0	0,0.75
2	3	3	10	1.5,2.71828183
2	4	4	11	2,1
3	5	5	0
4	5	6	12	0.25,0.5
5	6	0	13	1,0
6	0,0.125

utt2 
0	1	10	1.5,3.25,1_2_3
1	2	11	0,0.5,4
1	2	12	0.25,0.75,5_6
2	3	0	0.1,0.2,
2	0,0,7_8
3	1,2,

utt3 
0

' > lat-in.txt
lattice-copy ark,t:lat-in.txt ark:clat.ark
lattice-copy ark:clat.ark ark,t:clat.txt
lattice-copy --write-compact=false ark,t:lat-in.txt ark:lat.ark
lattice-copy --write-compact=false ark:lat.ark ark,t:lat.txt
lattice-copy ark,t:clat.txt ark:clat-from-text.ark

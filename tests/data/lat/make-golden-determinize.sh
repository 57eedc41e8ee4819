#!/usr/bin/env bash
# Remakes the golden lattice files of this folder with Kaldi's programs; the
# unit tests (tests/unit/lat/determinize-lattice-kaldi-test.cc) compare our
# determinization with them and do not need Kaldi.
#
# Usage: make-golden-determinize.sh KALDI_LATBIN_DIR
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
  "$bin/lattice-determinize-phone-pruned" --word-determinize=false $mdl \
    ark,t:raw-$kind.txt ark,t:det-phone-noword-$kind.txt
  "$bin/lattice-determinize-pruned" --beam=4 ark,t:raw-$kind.txt \
    ark,t:det-word-b4-$kind.txt
  "$bin/lattice-determinize-pruned" --minimize=true ark,t:raw-$kind.txt \
    ark,t:det-word-min-$kind.txt
done
"$bin/lattice-determinize-phone-pruned" --phone-determinize=false \
  --word-determinize=false $mdl ark,t:raw-grid.txt ark,t:det-phone-none-grid.txt
for mem in 60000 150000; do
  "$bin/lattice-determinize-phone-pruned" --max-mem=$mem $mdl \
    ark,t:raw-maxmem.txt ark,t:det-phone-maxmem$mem.txt \
    2> det-phone-maxmem$mem.log
done

#!/usr/bin/env bash
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
# Run from this directory with Kaldi's latbin on PATH
# (PATH=/opt/kaldi/src/latbin:$PATH).
set -euo pipefail
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

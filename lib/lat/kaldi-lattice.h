// Kaldi's lattice types: a Lattice is an OpenFst VectorFst whose arcs carry
// transition-ids (input labels), words (output labels) and a LatticeWeight
// (graph cost, acoustic cost); a CompactLattice is an acceptor on words
// whose weights also carry the transition-id strings. The decoder produces
// Lattices; determinization turns them into CompactLattices, the form
// lattice archives (lat.N.gz) normally hold.
//
//   Lattice lat;
//   lat.AddState(); lat.SetStart(0);
//   lat.AddArc(0, LatticeArc(tid, word, LatticeWeight(graph, ac), 1));
//
// The names and types are Kaldi's (the two VectorFst classes are compiled
// once, in kaldi-lattice.cc), so the arc types are "lattice4" and
// "compactlattice44" in OpenFst's binary files, as Kaldi writes them.
#ifndef NNET3_LAT_KALDI_LATTICE_H_
#define NNET3_LAT_KALDI_LATTICE_H_

#include <fst/arc.h>
#include <fst/vector-fst.h>

#include <cstdint>

#include "fstext/lattice-weight.h"

namespace nnet3 {

using LatticeWeight = LatticeWeightTpl<float>;
using CompactLatticeWeight = CompactLatticeWeightTpl<LatticeWeight, int32_t>;
using CompactLatticeWeightCommonDivisor =
    CompactLatticeWeightCommonDivisorTpl<LatticeWeight, int32_t>;

using LatticeArc = fst::ArcTpl<LatticeWeight>;
using CompactLatticeArc = fst::ArcTpl<CompactLatticeWeight>;

using Lattice = fst::VectorFst<LatticeArc>;
using CompactLattice = fst::VectorFst<CompactLatticeArc>;

}  // namespace nnet3

// Compiled once, in kaldi-lattice.cc.
extern template class fst::VectorFst<nnet3::LatticeArc>;
extern template class fst::VectorFst<nnet3::CompactLatticeArc>;

namespace nnet3 {}  // namespace nnet3

#endif  // NNET3_LAT_KALDI_LATTICE_H_

#include "lat/kaldi-lattice.h"

template class fst::VectorFst<nnet3::LatticeArc>;
template class fst::VectorFst<nnet3::CompactLatticeArc>;

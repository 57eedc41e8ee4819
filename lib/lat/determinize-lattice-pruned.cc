#include "lat/determinize-lattice-pruned.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "base/error.h"
#include "base/log.h"
#include "lat/lattice-determinizer-pruned.h"
#include "lat/prune-lattice.h"

namespace nnet3 {

namespace {

constexpr int kMaxTries = 10;

// The beam of the next try: shrunk by the square root of the fraction
// reached (effective_beam >= 0), but at most halved.
double RetryBeam(double beam, double effective_beam) {
  return std::max(beam * std::sqrt(effective_beam / beam), 0.5 * beam);
}

// Determinizes with retries, writing a CompactLattice or a Lattice.
template <class OutputArc>
bool DeterminizeWithRetries(const fst::ExpandedFst<LatticeArc> &ifst,
                            double beam, fst::MutableFst<OutputArc> *ofst,
                            const DeterminizeLatticePrunedOptions &opts) {
  constexpr bool compact = std::is_same<OutputArc, CompactLatticeArc>::value;
  if (ifst.NumStates() == 0) {
    ofst->DeleteStates();
    return true;
  }
  if (!(opts.retry_cutoff >= 0.0 && opts.retry_cutoff < 1.0))
    NNET3_ERR << "--retry-cutoff=" << opts.retry_cutoff
              << " is out of range: use a value in [0, 1)";
  Lattice pruned;
  for (int iter = 0; iter < kMaxTries; iter++) {
    LatticeDeterminizerPruned det(iter == 0 ? ifst : pruned, beam, opts);
    double effective_beam;
    const bool complete = det.Determinize(&effective_beam);
    // An infinite beam is never narrowed (CompactLattice form only, as in
    // Kaldi).
    if (effective_beam >= beam * opts.retry_cutoff ||
        (compact && beam == std::numeric_limits<double>::infinity()) ||
        iter + 1 == kMaxTries) {
      det.Output(ofst);
      return complete;
    }
    effective_beam = std::max(effective_beam, 0.0);
    const double new_beam = RetryBeam(beam, effective_beam);
    if (!compact)
      NNET3_WARN << "Effective beam " << effective_beam
                 << " was less than beam " << beam << " * cutoff "
                 << opts.retry_cutoff << ", pruning raw "
                 << "lattice with new beam " << new_beam << " and retrying.";
    beam = new_beam;
    if (iter == 0) pruned = Lattice(ifst);
    PruneLattice(static_cast<float>(beam), &pruned);
    if (compact)
      NNET3_LOG << "Pruned state-level lattice with beam " << beam
                << " and retrying determinization with that beam.";
  }
  return false;
}

}  // namespace

bool DeterminizeLatticePruned(const fst::ExpandedFst<LatticeArc> &ifst,
                              double beam,
                              fst::MutableFst<CompactLatticeArc> *ofst,
                              const DeterminizeLatticePrunedOptions &opts) {
  return DeterminizeWithRetries(ifst, beam, ofst, opts);
}

bool DeterminizeLatticePruned(const fst::ExpandedFst<LatticeArc> &ifst,
                              double beam, fst::MutableFst<LatticeArc> *ofst,
                              const DeterminizeLatticePrunedOptions &opts) {
  return DeterminizeWithRetries(ifst, beam, ofst, opts);
}

}  // namespace nnet3

#include "lat/determinize-lattice-archive.h"

#include <fst/arcsort.h>
#include <fst/connect.h>
#include <fst/invert.h>
#include <fst/topsort.h>

#include "base/error.h"
#include "base/log.h"
#include "fstext/lattice-convert.h"
#include "fstext/lattice-scale.h"
#include "lat/determinize-lattice-pruned.h"
#include "lat/lattice-acoustic-scores.h"
#include "lat/lattice-depth.h"
#include "lat/lattice-state-times.h"
#include "lat/minimize-lattice.h"
#include "lat/push-lattice.h"

namespace nnet3 {

void ArchiveDeterminizerOptions::Register(OptionsRegistry *po) {
  po->Register("write-compact", &write_compact,
               "If true, write in normal (compact) form. --write-compact=false "
               "allows you to retain frame-level acoustic score information, "
               "but this requires the input to be in non-compact form e.g. "
               "undeterminized lattice straight from decoding.");
  po->Register("acoustic-scale", &acoustic_scale,
               "Scaling factor for acoustic likelihoods");
  po->Register("beam", &beam, "Pruning beam [applied after acoustic scaling].");
  po->Register("minimize", &minimize,
               "If true, push and minimize after determinization");
  det.Register(po);
}

ArchiveDeterminizer::ArchiveDeterminizer(const ArchiveDeterminizerOptions &opts)
    : opts_(opts) {
  if (opts_.acoustic_scale == 0.0f)
    NNET3_ERR << "Do not use a zero acoustic scale (cannot be inverted)";
}

void ArchiveDeterminizer::DeterminizeScaled(const std::string &key,
                                            Lattice *lat, CompactLattice *det) {
  NNET3_VLOG(2) << "Processing lattice " << key;
  fst::Invert(lat);  // words on the input side
  ScaleLattice(AcousticLatticeScale(opts_.acoustic_scale), lat);
  if (!fst::TopSort(lat))
    NNET3_WARN << "Could not topologically sort lattice: this probably means "
                  "it has bad properties e.g. epsilon cycles.  Your LM or "
                  "lexicon might be broken, e.g. LM with epsilon cycles or "
                  "lexicon with empty words.";
  fst::ArcSort(lat, fst::ILabelCompare<LatticeArc>());
  if (!DeterminizeLatticePruned(*lat, opts_.beam, det, opts_.det)) {
    NNET3_WARN << "For key " << key << ", determinization did not succeed"
               << "(partial output will be pruned tighter than the specified "
                  "beam.)";
    ++n_warn_;
  }
  fst::Connect(det);
  if (det->NumStates() == 0) {
    NNET3_WARN << "For key " << key << ", determinized and trimmed lattice "
               << "was empty.";
    ++n_warn_;
  }
  if (opts_.minimize) {
    PushCompactLatticeStrings(det);
    PushCompactLatticeWeights(det);
    MinimizeCompactLattice(det);
  }
  TopSortCompactLatticeIfNeeded(det);
  int32_t num_frames = 0;
  const float depth = CompactLatticeDepth(*det, &num_frames);
  depth_in_ += lat->NumStates();
  depth_out_ += depth * num_frames;
  frames_ += num_frames;
  ++n_done_;
}

void ArchiveDeterminizer::Determinize(const std::string &key, Lattice *lat,
                                      CompactLattice *out) {
  DeterminizeScaled(key, lat, out);
  ScaleLattice(AcousticLatticeScale(1.0 / opts_.acoustic_scale), out);
}

void ArchiveDeterminizer::Determinize(const std::string &key, Lattice *lat,
                                      Lattice *out) {
  AcousticScoresMap scores;
  ComputeAcousticScoresMap(*lat, &scores);
  CompactLattice det;
  DeterminizeScaled(key, lat, &det);
  ConvertLattice(det, out);
  ReplaceAcousticScoresFromMap(scores, out);
}

void ArchiveDeterminizer::LogSummary() const {
  if (frames_ != 0.0)
    NNET3_LOG << "Average input-lattice depth (measured at at state level) "
              << "is " << (depth_in_ / frames_) << ", output depth is "
              << (depth_out_ / frames_) << ", over " << frames_ << " frames "
              << " (average num-frames = " << (frames_ / n_done_) << ").";
  NNET3_LOG << "Done " << n_done_ << " lattices, determinization finished "
            << "earlier than specified by the beam (or output was empty) on "
            << n_warn_ << " of these.";
}

}  // namespace nnet3

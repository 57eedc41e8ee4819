// What lattice-determinize-pruned does to each lattice of an archive: the
// state-level lattice (transition-ids in, words out) is inverted, its
// acoustic costs scaled, sorted and determinized with pruning
// (DeterminizeLatticePruned), trimmed, optionally pushed and minimized, and
// given back either as a compact lattice at the input's scale or, with
// write_compact false, as a state-level lattice whose acoustic costs are the
// input's own per frame (lattice-acoustic-scores.h). It also keeps Kaldi's
// running totals (lattices done, lattices cut short, depths) for the
// program's summary lines.
//
//   ArchiveDeterminizerOptions opts;    // Kaldi's defaults: beam 10,
//   opts.Register(&po);                 // max-mem 50000000, max-loop 0
//   ArchiveDeterminizer det(opts);
//   for (each key, lat) {
//     CompactLattice clat;  Lattice out;
//     det.Determinize(key, &lat, &clat);     // or (key, &lat, &out)
//   }
//   det.LogSummary();
//
// Output is Kaldi's byte for byte (the same operations in the same order);
// warnings name the key of a lattice whose determinization stopped at a
// limit or came out empty.
#ifndef NNET3_LAT_DETERMINIZE_LATTICE_ARCHIVE_H_
#define NNET3_LAT_DETERMINIZE_LATTICE_ARCHIVE_H_

#include <cstdint>
#include <string>

#include "base/options.h"
#include "lat/determinize-lattice-options.h"
#include "lat/kaldi-lattice.h"

namespace nnet3 {

struct ArchiveDeterminizerOptions {
  bool write_compact = true;
  float acoustic_scale = 1.0f;
  float beam = 10.0f;
  bool minimize = false;
  DeterminizeLatticePrunedOptions det;

  ArchiveDeterminizerOptions() {
    det.max_mem = 50000000;
    det.max_loop = 0;
  }
  void Register(OptionsRegistry *po);
};

class ArchiveDeterminizer {
 public:
  // UserError for a zero acoustic scale.
  explicit ArchiveDeterminizer(const ArchiveDeterminizerOptions &opts);

  // *lat is used up. The compact result has the input's acoustic scale.
  void Determinize(const std::string &key, Lattice *lat, CompactLattice *out);
  // The state-level result (write_compact false): acoustic costs from the
  // input, per (frame, transition-id).
  void Determinize(const std::string &key, Lattice *lat, Lattice *out);

  // Kaldi's two summary lines (the depth line only if there were frames).
  void LogSummary() const;
  int64_t NumDone() const { return n_done_; }

 private:
  // Determinizes *lat (inverted and scaled in place) into *det, trimmed,
  // topologically sorted, acoustically scaled; updates the totals.
  void DeterminizeScaled(const std::string &key, Lattice *lat,
                         CompactLattice *det);

  ArchiveDeterminizerOptions opts_;
  int64_t n_done_ = 0, n_warn_ = 0;
  double depth_in_ = 0.0, depth_out_ = 0.0, frames_ = 0.0;
};

}  // namespace nnet3

#endif  // NNET3_LAT_DETERMINIZE_LATTICE_ARCHIVE_H_

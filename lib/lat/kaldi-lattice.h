// Kaldi's lattice types and their I/O. A Lattice is an OpenFst VectorFst
// whose arcs carry transition-ids (input labels), words (output labels) and
// a LatticeWeight (graph cost, acoustic cost); a CompactLattice is an
// acceptor on words whose weights also carry the transition-id strings.
// The decoder produces Lattices; determinization turns them into
// CompactLattices, the form lattice archives (lat.N.gz) normally hold.
//
//   Lattice lat;
//   lat.AddState(); lat.SetStart(0);
//   lat.AddArc(0, LatticeArc(tid, word, LatticeWeight(graph, ac), 1));
//   SequentialCompactLatticeReader reader("ark:gunzip -c lat.1.gz|");
//   CompactLatticeWriter writer("ark:|gzip -c >lat.2.gz");
//
// Forms, byte for byte as Kaldi writes them (the arc types are "lattice4"
// and "compactlattice44", the two VectorFst classes compiled once, in
// kaldi-lattice.cc):
//   binary  OpenFst's VectorFst file (header and body); in tables no "\0B"
//           precedes it, the magic number tells it apart.
//   text    '\n', OpenFst's AT&T lines (fst-text-io.h) with weights
//           "graph,acoustic" (Lattice: "s d tid word w"; CompactLattice:
//           "s d word graph,acoustic,tid1_tid2"), then a blank line.
// Reading accepts either type in either form (and the double-precision arc
// types "lattice8", "compactlattice84") and converts (fstext/lattice-
// convert.h), as Kaldi does. Errors are one-line UserErrors.
#ifndef NNET3_LAT_KALDI_LATTICE_H_
#define NNET3_LAT_KALDI_LATTICE_H_

#include <fst/arc.h>
#include <fst/vector-fst.h>

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>

#include "fstext/lattice-weight.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

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

namespace nnet3 {

// Write in the binary or text form above (text at the stream's precision).
// UserError on a stream failure.
void WriteLattice(std::ostream &os, bool binary, const Lattice &lat);
void WriteCompactLattice(std::ostream &os, bool binary,
                         const CompactLattice &clat);

// Read a lattice of either type in the given form, converting if needed.
// Text reading consumes through the blank line that ends the lattice.
void ReadLattice(std::istream &is, bool binary, Lattice *lat);
void ReadCompactLattice(std::istream &is, bool binary, CompactLattice *clat);

// Whether the object starting at the stream's position is binary: true for
// OpenFst's magic number, false for white space; UserError otherwise (and
// at the end of the stream).
bool LatticeIsBinary(std::istream &is);

// Table holders (Kaldi's LatticeHolder, CompactLatticeHolder): no "\0B"
// header; text is written at 6 significant digits, the precision of
// Kaldi's lattice tables.
template <class Lat, void (*WriteFn)(std::ostream &, bool, const Lat &),
          void (*ReadFn)(std::istream &, bool, Lat *)>
class LatticeHolderTpl {
 public:
  using T = Lat;
  static constexpr bool kBinaryHeader = false;

  static void Write(std::ostream &os, bool binary, const T &t) {
    const std::streamsize precision = os.precision(6);
    WriteFn(os, binary, t);
    os.precision(precision);
  }
  void Read(std::istream &is, bool /*binary: decided here*/) {
    Clear();
    ReadFn(is, LatticeIsBinary(is), &t_);
  }
  T &Value() { return t_; }
  void Clear() { t_ = T(); }
  void Swap(LatticeHolderTpl *other) { std::swap(t_, other->t_); }
  void ExtractRange(const std::string &range) {
    NNET3_ERR << "A range [" << range << "] was given, but lattices have none";
  }

 private:
  T t_;
};

using LatticeHolder = LatticeHolderTpl<Lattice, WriteLattice, ReadLattice>;
using CompactLatticeHolder =
    LatticeHolderTpl<CompactLattice, WriteCompactLattice, ReadCompactLattice>;

using LatticeWriter = TableWriter<LatticeHolder>;
using SequentialLatticeReader = SequentialTableReader<LatticeHolder>;
using RandomAccessLatticeReader = RandomAccessTableReader<LatticeHolder>;
using CompactLatticeWriter = TableWriter<CompactLatticeHolder>;
using SequentialCompactLatticeReader =
    SequentialTableReader<CompactLatticeHolder>;
using RandomAccessCompactLatticeReader =
    RandomAccessTableReader<CompactLatticeHolder>;

}  // namespace nnet3

#endif  // NNET3_LAT_KALDI_LATTICE_H_

// NnetIo and NnetExample: Kaldi's nnet3 training examples ("egs").
//
// An NnetExample is a list of NnetIo, each the rows for one input or output
// node of the network: a name ("input", "ivector", "output", ...), one Index
// (n, t, x) per row, and the rows themselves as a GeneralMatrix (full,
// compressed or sparse).
//
//   NnetExample eg;
//   eg.io.emplace_back("input", -left_context, feats_chunk);   // t from -lc
//   eg.io.emplace_back("output", num_pdfs, 0, labels, fss);    // sparse rows
//   eg.Compress();                                   // full -> compressed
//   NnetExampleWriter writer("ark:egs.ark");
//   writer.Write("utt1-0", eg);
//   ComputationRequest request;
//   GetComputationRequest(nnet, eg, true, false, &request);
//
// Format (reference 6.1/6.2), identical in both modes except for the
// encodings of the pieces:
//   <Nnet3Eg> <NumIo> i ( <NnetIo> name <I1V> ... GeneralMatrix </NnetIo> )*
//   </Nnet3Eg>
// NumIo must be in [1, 1e6]. Reading then writing a binary eg reproduces it
// byte for byte. Readers throw UserError on malformed input.
#ifndef NNET3_TRAIN_NNET_EXAMPLE_H_
#define NNET3_TRAIN_NNET_EXAMPLE_H_

#include <cstddef>
#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "compile/computation-request.h"
#include "matrix/general-matrix.h"
#include "matrix/posterior.h"
#include "nnet/nnet-common.h"
#include "nnet/nnet.h"
#include "util/table-holders.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

namespace nnet3 {

struct NnetIo {
  std::string name;
  // One per row of `features`; n=0 and x=0 for a fresh (unmerged) eg.
  std::vector<Index> indexes;
  GeneralMatrix features;

  NnetIo() = default;
  // Rows of feats get indexes (0, t_begin + i * t_stride, 0).
  NnetIo(const std::string &name, int32_t t_begin, const MatrixView &feats,
         int32_t t_stride = 1);
  NnetIo(const std::string &name, int32_t t_begin, const GeneralMatrix &feats,
         int32_t t_stride = 1);
  // Sparse targets: row i holds labels[i] as a SparseVector of dimension
  // num_pdfs (pairs sorted by pdf, duplicates summed, zeros dropped), with
  // index (0, t_begin + i * t_stride, 0). A pdf outside [0, num_pdfs) is a
  // UserError.
  NnetIo(const std::string &name, int32_t num_pdfs, int32_t t_begin,
         const Posterior &labels, int32_t t_stride = 1);

  void Swap(NnetIo *other);
  // Same name, indexes and feature values (compared densely, exactly).
  bool operator==(const NnetIo &other) const;

  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

struct NnetExample {
  std::vector<NnetIo> io;

  void Swap(NnetExample *other) { io.swap(other->io); }
  // Compresses every full-matrix NnetIo (sparse ones stay sparse).
  void Compress();
  bool operator==(const NnetExample &other) const { return io == other.io; }

  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

// Egs with the same structure (the same sequence of name, indexes, number of
// rows and columns) can be merged into one minibatch and compile to the same
// computation.
bool SameStructure(const NnetIo &a, const NnetIo &b);
bool SameStructure(const NnetExample &a, const NnetExample &b);
struct NnetExampleStructureHasher {
  size_t operator()(const NnetExample &eg) const noexcept;
};

// The largest number of Indexes in any NnetIo (what --minibatch-size rules
// with an eg size refer to).
int32_t GetNnetExampleSize(const NnetExample &eg);

// The request that trains or evaluates on `eg` (reference 6.6): each NnetIo
// becomes an input (for an input node, has_deriv=false) or an output (for an
// output node, has_deriv = need_model_derivative). A name that is neither is
// a UserError naming the io and the network's inputs and outputs.
void GetComputationRequest(const Nnet &nnet, const NnetExample &eg,
                           bool need_model_derivative,
                           bool store_component_stats,
                           ComputationRequest *request);

using NnetExampleHolder = KaldiObjectHolder<NnetExample>;
using SequentialNnetExampleReader = SequentialTableReader<NnetExampleHolder>;
using RandomAccessNnetExampleReader =
    RandomAccessTableReader<NnetExampleHolder>;
using NnetExampleWriter = TableWriter<NnetExampleHolder>;

}  // namespace nnet3

#endif  // NNET3_TRAIN_NNET_EXAMPLE_H_

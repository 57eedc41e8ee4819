// Scope: the named matrices a Net reads and writes (the seed's "hierarchy of
// Scope objects", flattened to one level: nnet3's networks name their
// inputs and outputs, so one namespace is enough).
//
//   Scope scope;
//   scope.Set("image", images);               // 128 rows: 128 sequences, 1 frame
//   scope.Set("feats", frames, /*num_sequences=*/8);  // 8 sequences of rows/8
//   scope.Set("label", one_hot);
//   net->Run(&scope);
//   const Matrix &probs = scope.Get("output");
//
// A variable is a matrix (host or device) plus the number of sequences its
// rows hold: rows = num_sequences x frames, sequence-major (all frames of
// sequence 0, then of sequence 1, ...), the order of merged egs. Net::Run
// reads the network's inputs and the losses' labels from the scope and
// writes the outputs, the loss values ("<loss>", 1 x 1) and, on request,
// parameters ("param:<component>") and gradients ("grad:<component>"), each
// a 1 x N matrix of the component's vectorized parameters.
#ifndef NNET3_BUILDER_SCOPE_H_
#define NNET3_BUILDER_SCOPE_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "matrix/matrix.h"

namespace nnet3 {
namespace builder {

class Scope {
 public:
  // Stores `value` (by move) under `name`, replacing what was there.
  // num_sequences -1 means one sequence per row. UserError if the rows are
  // not a multiple of num_sequences.
  void Set(const std::string &name, Matrix value, int32_t num_sequences = -1);
  bool Has(const std::string &name) const { return vars_.count(name) != 0; }
  // UserError naming the variable (and what the scope holds) if absent.
  const Matrix &Get(const std::string &name) const;
  Matrix *GetMutable(const std::string &name);
  int32_t NumSequences(const std::string &name) const;
  // Rows per sequence.
  int32_t NumFrames(const std::string &name) const;
  void Erase(const std::string &name) { vars_.erase(name); }
  std::vector<std::string> Names() const;

 private:
  struct Entry {
    Matrix value;
    int32_t num_sequences = 0;
  };
  const Entry &Find(const std::string &name) const;
  std::map<std::string, Entry> vars_;
};

}  // namespace builder
}  // namespace nnet3

#endif  // NNET3_BUILDER_SCOPE_H_

// ReferenceEvaluator: the test oracle for compiled computations. It computes
// the value of any Cindex (node, Index) of a network straight from the
// network's definition, one row at a time, with no compiler involved:
//
//   ReferenceEvaluator ref(nnet);
//   ref.SetInput("input", input_indexes, input_matrix);   // row i = index i
//   if (ref.IsComputable(Cindex(out_node, Index(0, 5, 0))))
//     const std::vector<float> &row = ref.Value(...);
//   Matrix out;
//   bool ok = ref.ComputeRows("output", output_indexes, &out);
//
// Semantics (reference 2, written from the descriptor definitions, not from
// the compiler's code): an input Cindex is computable iff it was supplied;
// a dim-range node's row is its source's row, column range; a component
// node's row is Propagate() on a 1-row matrix holding its input node's row
// at the same Index (simple components only); a descriptor node's row is
// its Append parts side by side, each part evaluated by walking the
// SumDescriptor tree: Sum(A, B) needs both and adds them, Failover(A, B) is
// A if computable else B, IfDefined(A) is A if computable else zeros,
// Const(v, d) is v everywhere, and a leaf maps the Index through its
// Offset / Switch / Round / ReplaceIndex chain to one (node, Index) and
// scales that row by the node's Scale(). Computability is decided
// recursively with memoization; a Cindex more than kTimeMargin frames
// outside the supplied inputs' t range is not computable (this ends
// recurrences that never reach an input). A dependency cycle between
// Cindexes (impossible in a valid network) is an InternalError.
//
// The leaf mapping is computed independently and compared with
// ForwardingDescriptor::MapToInput (InternalError on a mismatch), so a bug
// in the descriptor code is caught too.
//
// Rows are only meaningful for networks whose components act row by row:
// simple components (the LSTM and GRU cells included),
// BackpropTruncationComponent (a scale forward), with BatchNorm and dropout
// in test mode, and the non-simple components that reference-components.h
// defines row by row (UserError otherwise, naming the component).
#ifndef NNET3_TESTS_UNIT_COMPUTE_REFERENCE_EVALUATOR_H_
#define NNET3_TESTS_UNIT_COMPUTE_REFERENCE_EVALUATOR_H_

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "matrix/matrix.h"
#include "nnet/descriptor.h"
#include "nnet/nnet-common.h"
#include "nnet/nnet.h"

namespace nnet3 {

class ReferenceEvaluator {
 public:
  // How far outside the supplied inputs' t range a Cindex may lie and still
  // be considered (generated networks look at most 12 frames away).
  static constexpr int32_t kTimeMargin = 100;

  // `nnet` must outlive the evaluator. UserError if a component cannot be
  // evaluated row by row.
  explicit ReferenceEvaluator(const Nnet &nnet);

  // Supplies input node `name`: row i of `values` is the value at
  // indexes[i]. Call before any evaluation (UserError afterwards, or for an
  // unknown node, a shape mismatch or a repeated Index).
  void SetInput(const std::string &name, const std::vector<Index> &indexes,
                const MatrixView &values);

  bool IsComputable(const Cindex &cindex);
  // The row of `cindex`; InternalError if it is not computable. The
  // reference stays valid while the evaluator lives.
  const std::vector<float> &Value(const Cindex &cindex);
  // Fills *out with the rows of node `name` at `indexes`; returns false
  // (leaving *out unspecified) if any of them is not computable.
  bool ComputeRows(const std::string &name, const std::vector<Index> &indexes,
                   Matrix *out);
  // Every value computed so far, by Cindex (for tests that inspect hidden
  // nodes, e.g. which side of 0 a ReLU's input lies).
  const std::unordered_map<Cindex, std::vector<float>, CindexHasher> &Values()
      const {
    return values_;
  }

 private:
  enum class State { kInProgress, kComputable, kNotComputable };

  bool ComputeIsComputable(const Cindex &cindex);
  bool PartIsComputable(const SumDescriptor &part, const Index &index);
  void ComputeValue(const Cindex &cindex, std::vector<float> *value);
  bool ComponentIsComputable(const Cindex &cindex);
  void ComputeComponentValue(const Cindex &cindex, std::vector<float> *value);
  // Adds the value of `part` at `index` to *value (of the part's dim).
  void AddPartValue(const SumDescriptor &part, const Index &index,
                    std::vector<float> *value);
  // The (node, Index) that leaf `fd` reads for `index`, and its scale.
  Cindex MapLeaf(const ForwardingDescriptor &fd, const Index &index,
                 float *scale) const;
  int32_t PartDim(const SumDescriptor &part) const;
  void CheckRowWise() const;

  const Nnet &nnet_;
  std::unordered_map<Cindex, std::vector<float>, CindexHasher> inputs_;
  std::unordered_map<Cindex, State, CindexHasher> state_;
  std::unordered_map<Cindex, std::vector<float>, CindexHasher> values_;
  bool have_inputs_ = false;
  int32_t min_t_ = 0, max_t_ = 0;  // over the supplied inputs
};

}  // namespace nnet3

#endif  // NNET3_TESTS_UNIT_COMPUTE_REFERENCE_EVALUATOR_H_

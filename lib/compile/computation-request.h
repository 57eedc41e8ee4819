// ComputationRequest: what a computation must do — which Indexes of which
// inputs will be supplied, which Indexes of which outputs are wanted, and
// which derivatives (seed nnet3-compilation; reference 6.6 and 8.2).
//
//   ComputationRequest request;
//   request.inputs.push_back(IoSpecification("input", input_indexes));
//   request.outputs.push_back(IoSpecification("output", output_indexes,
//                                             /*has_deriv=*/true));
//   request.need_model_derivative = true;
//
// An input's has_deriv asks for the derivative w.r.t. that input; an
// output's has_deriv says the user will supply the derivative w.r.t. that
// output (the objective's gradient) for the backward pass. Requests hash
// and compare equal exactly when they would compile to the same
// computation (the cache key).
#ifndef NNET3_COMPILE_COMPUTATION_REQUEST_H_
#define NNET3_COMPILE_COMPUTATION_REQUEST_H_

#include <cstdint>
#include <istream>
#include <ostream>
#include <string>
#include <vector>

#include "nnet/component-itf.h"
#include "nnet/nnet-common.h"

namespace nnet3 {

struct IoSpecification {
  std::string name;
  std::vector<Index> indexes;
  bool has_deriv = false;

  IoSpecification() = default;
  IoSpecification(const std::string &name_in,
                  const std::vector<Index> &indexes_in,
                  bool has_deriv_in = false)
      : name(name_in), indexes(indexes_in), has_deriv(has_deriv_in) {}
  // Indexes (0, t, 0) for t in [t_start, t_end).
  IoSpecification(const std::string &name_in, int32_t t_start, int32_t t_end);

  bool operator==(const IoSpecification &other) const;
  void Print(std::ostream &os) const;
  // <IoSpecification> <Name> s <NumIndexes> i <Indexes> <I1V>... <HasDeriv> b
  // </IoSpecification>
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

struct IoSpecificationHasher {
  size_t operator()(const IoSpecification &io) const noexcept;
};

struct ComputationRequest {
  std::vector<IoSpecification> inputs;
  std::vector<IoSpecification> outputs;
  // Whether backprop will update the model (updatable components' deriv).
  bool need_model_derivative = false;
  // Whether StoreStats commands are wanted (training diagnostics).
  bool store_component_stats = false;
  MiscComputationInfo misc_info;

  // -1 if there is no input/output with that name.
  int32_t IndexForInput(const std::string &node_name) const;
  int32_t IndexForOutput(const std::string &node_name) const;
  // Whether any input or output has has_deriv, or need_model_derivative.
  bool NeedDerivatives() const;

  bool operator==(const ComputationRequest &other) const;
  void Print(std::ostream &os) const;
  void Write(std::ostream &os, bool binary) const;
  void Read(std::istream &is, bool binary);
};

struct ComputationRequestHasher {
  size_t operator()(const ComputationRequest *request) const noexcept;
};

// Equality of requests through pointers (for hash maps keyed by pointer).
struct ComputationRequestPtrEqual {
  bool operator()(const ComputationRequest *a,
                  const ComputationRequest *b) const {
    return *a == *b;
  }
};

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPUTATION_REQUEST_H_

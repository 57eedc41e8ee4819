#include "train/non-finite-guard.h"

#include <cmath>
#include <sstream>

#include "base/error.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "train/example-computation.h"
#include "train/objective-function.h"

namespace nnet3 {

void NonFiniteGuard::SaveStats(const Nnet &nnet) {
  saved_.resize(nnet.NumComponents());
  for (int32_t c = 0; c < nnet.NumComponents(); ++c) {
    const Component *comp = nnet.GetComponent(c);
    saved_[c] = (comp->Properties() & kStoresStats) ? comp->Copy() : nullptr;
  }
}

void NonFiniteGuard::RestoreStats(Nnet *nnet) {
  NNET3_ASSERT(static_cast<int32_t>(saved_.size()) == nnet->NumComponents());
  for (int32_t c = 0; c < nnet->NumComponents(); ++c)
    if (saved_[c] != nullptr) nnet->SetComponent(c, std::move(saved_[c]));
}

namespace {

std::string DescribeComponent(const Nnet &nnet, int32_t c) {
  return "component '" + nnet.GetComponentName(c) + "' (" +
         nnet.GetComponent(c)->Type() + ")";
}

// The first input NnetIo of `eg` with inf or NaN, or "".
std::string NonFiniteInput(const Nnet &nnet, const NnetExample &eg) {
  for (const NnetIo &io : eg.io) {
    const int32_t node = nnet.GetNodeIndex(io.name);
    if (node < 0 || !nnet.IsInputNode(node)) continue;
    Matrix m;
    io.features.GetMatrix(&m);
    if (!m.IsFinite()) return "the minibatch's input '" + io.name + "'";
  }
  return "";
}

// Runs `computation` on a copy of the model (so that nothing of the real
// one changes) with check_finite; the first non-finite component or -1.
int32_t FirstNonFiniteOutput(const Nnet &nnet, const NnetExample &eg,
                             const NnetComputation &computation,
                             const NnetComputeOptions &options) {
  Nnet scratch(nnet);
  NnetComputeOptions check = options;
  check.check_finite = true;
  NnetComputer computer(check, computation, nnet, &scratch);
  RunExampleComputation(
      nnet, computation, eg,
      [&](const NnetIo &io, const MatrixView &output, Matrix *deriv) {
        double weight = 0.0, objf = 0.0;
        ComputeObjectiveFromOutput(
            io.features,
            nnet.GetNode(nnet.GetNodeIndex(io.name)).objective_type, io.name,
            output, &weight, &objf, deriv);
      },
      &computer);
  return computer.FirstNonFiniteComponent();
}

}  // namespace

std::string ExplainNonFiniteStep(const Nnet &nnet, const NnetExample &eg,
                                 const NnetComputation &computation,
                                 const NnetComputeOptions &options,
                                 const Nnet &delta_nnet) {
  std::string input = NonFiniteInput(nnet, eg);
  if (!input.empty()) return input + " holds inf or NaN";
  int32_t c = -1;
  try {
    c = FirstNonFiniteOutput(nnet, eg, computation, options);
  } catch (const UserError &) {
    c = -1;  // the explanation is best effort
  }
  if (c >= 0)
    return DescribeComponent(nnet, c) +
           " is the first whose output is not "
           "finite";
  for (int32_t k = delta_nnet.NumComponents() - 1; k >= 0; --k) {
    const auto *u =
        dynamic_cast<const UpdatableComponent *>(delta_nnet.GetComponent(k));
    if (u != nullptr && !std::isfinite(u->DotProduct(*u)))
      return "the parameter change of " + DescribeComponent(nnet, k) +
             " is not finite (the backward pass went non-finite there)";
  }
  return "no single component could be named";
}

}  // namespace nnet3

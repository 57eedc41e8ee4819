#include "compile/nnet-context.h"

#include <algorithm>
#include <vector>

#include "base/error.h"
#include "compile/computation-graph.h"
#include "compile/computation-request.h"
#include "nnet/nnet-utils.h"

namespace nnet3 {

bool IsSimpleNnet(const Nnet &nnet) {
  int32_t output = nnet.GetNodeIndex("output");
  int32_t input = nnet.GetNodeIndex("input");
  if (output == -1 || !nnet.IsOutputNode(output)) return false;
  if (input == -1 || !nnet.IsInputNode(input)) return false;
  int32_t num_inputs = NumInputNodes(nnet);
  if (num_inputs == 1) return true;
  int32_t ivector = nnet.GetNodeIndex("ivector");
  return num_inputs == 2 && ivector != -1 && nnet.IsInputNode(ivector);
}

namespace {

// Supplies input frames [input_start, input_start + window) and asks for
// the same output frames; returns false if no output frame is computable,
// else the context on each side (from the first computable frame and the
// first non-computable one after it).
bool ComputeContextForShift(const Nnet &nnet, int32_t input_start,
                            int32_t window, int32_t *left, int32_t *right) {
  const int32_t input_end = input_start + window;
  ComputationRequest request;
  request.inputs.emplace_back("input", input_start, input_end);
  request.outputs.emplace_back("output", input_start, input_end);
  if (nnet.GetNodeIndex("ivector") != -1)
    // Possibly read through Round(), so from as early as one modulus before.
    request.inputs.emplace_back("ivector", input_start - nnet.Modulus(),
                                input_end);
  ComputationGraph graph;
  ComputationGraphBuilder builder(nnet, request, &graph);
  builder.Compute();
  std::vector<std::vector<bool>> computable;
  builder.GetComputableInfo(&computable);
  const std::vector<bool> &ok = computable.at(0);
  auto first_ok = std::find(ok.begin(), ok.end(), true);
  auto first_not_ok = std::find(first_ok, ok.end(), false);
  if (first_ok == ok.end()) return false;
  *left = static_cast<int32_t>(first_ok - ok.begin());
  *right = static_cast<int32_t>(ok.end() - first_not_ok);
  return true;
}

}  // namespace

void ComputeSimpleNnetContext(const Nnet &nnet, int32_t *left_context,
                              int32_t *right_context) {
  if (!IsSimpleNnet(nnet))
    NNET3_ERR << "Cannot compute the context of this network: it is not a "
                 "simple network (one output 'output', an input 'input' and "
                 "at most an input 'ivector' besides)";
  const int32_t modulus = nnet.Modulus();
  // One more shift than needed (0..modulus): shift `modulus` must agree
  // with shift 0, a sanity check of the modulus.
  std::vector<int32_t> lefts(modulus + 1), rights(modulus + 1);
  for (int32_t window = 40; window <= 800; window *= 2) {
    int32_t shift = 0;
    for (; shift <= modulus; shift++)
      if (!ComputeContextForShift(nnet, shift, window, &lefts[shift],
                                  &rights[shift]))
        break;
    if (shift <= modulus) continue;  // window too small: try a larger one
    NNET3_ASSERT(lefts[0] == lefts[modulus] && rights[0] == rights[modulus]);
    *left_context = *std::max_element(lefts.begin(), lefts.end());
    *right_context = *std::max_element(rights.begin(), rights.end());
    return;
  }
  NNET3_ERR << "Cannot compute the context of this network: no output frame "
               "is computable from 640 frames of input (does the output need "
               "unbounded context?)";
}

}  // namespace nnet3

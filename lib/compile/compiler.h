// The Compiler: turns a network and a ComputationRequest into an
// NnetComputation (seed nnet3-compilation, "Class Compiler"; the command
// set is current Kaldi's, reference 9.2).
//
//   Compiler compiler(request, nnet);
//   NnetComputation computation;
//   compiler.CreateComputation(CompilerOptions(), &computation);
//
// CreateComputation builds the computation graph (throwing UserError with
// ComputationGraphBuilder::ExplainNotComputable's one-line message when a
// requested output cannot be computed from the supplied inputs), orders it
// into steps, gives every step a value matrix (and a derivative matrix
// where the backward pass needs one; dim-range steps get column ranges of
// their source's matrices, Append parts column ranges of their step's), and
// emits, in order:
//   1. kAllocMatrix + kSetConst(0) for every matrix except the supplied
//      inputs and output derivatives (the optimizer removes needless
//      zeroing);
//   2. the forward pass, step by step: kAcceptInput for each input;
//      kPropagate for components (memo index = the step when the component
//      has kUsesMemo and a backward pass, arg6 = 1 for StoreStats when
//      request.store_component_stats and kStoresStats); for descriptors,
//      per Append part: kSetConst for a Const() term, then the summed
//      terms (scaled as written, descriptor-terms.h) as kMatrixCopy/kMatrixAdd
//      when rows map one-to-one, else kCopyRows/kAddRows (one source), else
//      kCopyRowsMulti/kAddRowsMulti (the first term copies, later ones
//      add); kProvideOutput after each output;
//   3. kNoOperationMarker;
//   4. the backward pass over steps with a derivative, in reverse:
//      kAcceptInput of each output derivative; for descriptors the
//      transposed row operations (kMatrixAdd / kAddRows / kAddRowRanges /
//      kAddToRowsMulti, via SplitLocationsBackward); for components
//      kBackprop when request.need_model_derivative (the executor updates
//      updatable components and gives others their backprop stats), else
//      kBackpropNoModelUpdate, with in_deriv 0 when the input needs no
//      derivative; kProvideOutput of each requested input derivative;
//   5. kDeallocMatrix for every matrix except output values and requested
//      input derivatives (which the user takes).
// A step needs a derivative (ComputeDerivNeeded) if a step it depends on
// does, if it is an input whose derivative is requested, or an updatable
// component with a non-zero learning rate when need_model_derivative is
// set; an output step exactly when its derivative will be supplied
// (has_deriv; Kaldi also gives one to outputs without has_deriv whose
// inputs need derivatives, and then waits for a derivative nobody sends).
// With output_debug_info, matrix_debug_info gives each matrix's cindexes
// (one per row) and whether it holds derivatives.
//
// Multi-segment computations (the raw material of looped computations,
// optimize/compile-looped.h): given several requests, the graph is built
// segment by segment (computation-graph.h) and the forward commands of
// each segment follow those of the one before, separated by
// kNoOperationMarker; each segment's forward pass starts with its
// kAcceptInput commands followed by a kNoOperationPermanent (Kaldi's
// splice point for the looped optimization). Matrices of earlier segments
// stay allocated until the end. Multi-segment requests may not ask for
// model derivatives (as in Kaldi).
//
// Every computation has that kNoOperationPermanent after its inputs, and
// one in the backward pass after the derivatives of the inputs, as Kaldi's:
// a pass is never empty, even when an output node reads an input node
// directly (NnetComputer::Run() then has a command to run between
// AcceptInput and GetOutput).
#ifndef NNET3_COMPILE_COMPILER_H_
#define NNET3_COMPILE_COMPILER_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "compile/compile-utils.h"
#include "compile/computation-graph.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "nnet/nnet.h"

namespace nnet3 {

struct CompilerOptions {
  bool output_debug_info = true;
};

class Compiler {
 public:
  // Keeps a copy of the request; nnet must outlive the Compiler.
  Compiler(const ComputationRequest &request, const Nnet &nnet);
  // Several segments (copies are kept). InternalError if any asks for
  // model derivatives or they disagree on store_component_stats.
  Compiler(const std::vector<const ComputationRequest *> &requests,
           const Nnet &nnet);

  // Fills *computation (which is overwritten). UserError if the outputs are
  // not computable or the request is malformed (see computation-graph.h).
  // Call once per Compiler.
  void CreateComputation(const CompilerOptions &opts,
                         NnetComputation *computation);

  // The graph, after CreateComputation (for diagnostics and tests).
  const ComputationGraph &Graph() const { return graph_; }

 private:
  // (step, row) locations, as in the seed.
  using Location = std::pair<int32_t, int32_t>;

  struct StepInfo {
    int32_t node_index = -1;
    int32_t segment = 0;    // which request
    bool is_input = false;  // a supplied input of the request
    int32_t value = 0;      // submatrix of the values (0 for an empty step)
    int32_t deriv = 0;      // submatrix of the derivatives, or 0
    int32_t precomputed_indexes_index = 0;
    std::vector<Index> output_indexes;
    std::vector<int32_t> output_cindex_ids;
    // Descriptor steps: one submatrix per Append part (== value if one).
    std::vector<int32_t> value_parts, deriv_parts;
    // Descriptor steps: [part][row] -> the (step, row) locations summed,
    // and the scale of each term (descriptor-terms.h).
    std::vector<std::vector<std::vector<Location>>> input_locations_list;
    std::vector<std::vector<std::vector<float>>> input_scales_list;
  };

  void CreateLocationInfo(const std::vector<std::vector<int32_t>> &steps);
  void ComputeStepDependencies(const std::vector<int32_t> &this_step,
                               int32_t step_index,
                               std::vector<int32_t> *dep_steps) const;
  void ComputeDerivNeeded(const std::vector<std::vector<int32_t>> &steps,
                          std::vector<bool> *deriv_needed) const;
  void CreateStepInfo(const std::vector<bool> &deriv_needed,
                      std::vector<std::vector<int32_t>> *steps,
                      NnetComputation *computation);
  void SetUpDescriptorParts(int32_t step, bool deriv_needed,
                            NnetComputation *computation);
  MatrixStrideType GetStrideType(int32_t node_index) const;
  void ComputeInputLocationsList(
      int32_t step, int32_t part,
      std::vector<std::vector<Location>> *input_locations_list,
      std::vector<std::vector<float>> *input_scales_list) const;
  void SetUpPrecomputedIndexes(NnetComputation *computation);

  // compiler-commands.cc
  void AddCommands(const std::vector<bool> &deriv_needed,
                   NnetComputation *computation);
  void AllocateMatrices(NnetComputation *computation) const;
  void CompileForward(int32_t step, NnetComputation *computation) const;
  void AddPropagateStep(int32_t step, NnetComputation *computation) const;
  void CompileForwardSumDescriptor(int32_t step, int32_t part,
                                   NnetComputation *computation) const;
  void CompileForwardFromSubmatLocations(
      int32_t value_submatrix, float alpha, bool is_first_term,
      const std::vector<SubmatLocation> &submat_locations,
      NnetComputation *computation) const;
  void CompileBackward(int32_t step, NnetComputation *computation) const;
  void AddBackpropStep(int32_t step, NnetComputation *computation) const;
  void CompileBackwardSumDescriptor(int32_t step, int32_t part,
                                    NnetComputation *computation) const;
  void CompileBackwardFromSubmatLocations(
      int32_t deriv_submatrix, float alpha,
      const std::vector<SubmatLocation> &submat_locations,
      NnetComputation *computation) const;
  void CompileBackwardFromIndexes(int32_t deriv_submatrix,
                                  int32_t input_deriv_submatrix, float alpha,
                                  const std::vector<int32_t> &indexes,
                                  NnetComputation *computation) const;
  // Turns one part's (step, row) lists into (submatrix, row) lists of
  // values (or of derivatives, dropping steps without one), grouped by the
  // terms' scales.
  void GetSubmatLocationsByScale(
      int32_t step, int32_t part, bool deriv,
      std::vector<std::pair<float, std::vector<std::vector<SubmatLocation>>>>
          *by_scale) const;
  void DeallocateMatrices(NnetComputation *computation) const;
  void OutputDebugInfo(NnetComputation *computation) const;

  // The request of a step's segment.
  const ComputationRequest &RequestOf(int32_t step) const {
    return requests_[steps_[step].segment];
  }
  bool IsInputNodeStep(int32_t step) const;

  const std::vector<ComputationRequest> requests_;
  const Nnet &nnet_;
  ComputationGraph graph_;
  std::vector<StepInfo> steps_;
  // cindex_id -> (step, row); for component-input cindexes of non-simple
  // components (which may be in several steps) the last one.
  std::vector<Location> cindex_id_to_location_;
  // matrix index -> a submatrix covering it.
  std::vector<int32_t> whole_submatrices_;
};

}  // namespace nnet3

#endif  // NNET3_COMPILE_COMPILER_H_

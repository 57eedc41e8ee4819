#include "train/nnet-compute-from-eg.h"

#include "base/error.h"
#include "base/log.h"
#include "compute/nnet-computer.h"
#include "train/example-computation.h"

namespace nnet3 {

NnetComputerFromEg::NnetComputerFromEg(const Nnet &nnet)
    : nnet_(nnet), compiler_(nnet, TrainingCompilerOptions()) {}

void NnetComputerFromEg::Compute(const NnetExample &eg,
                                 const std::string &output_name,
                                 Matrix *output) {
  const int32_t node = nnet_.GetNodeIndex(output_name);
  if (node < 0 || !nnet_.IsOutputNode(node))
    NNET3_ERR << "The network has no output node named '" << output_name
              << "' (see --output-name)";
  bool found = false;
  for (const NnetIo &io : eg.io) found = found || io.name == output_name;
  if (!found)
    NNET3_ERR << "The example has no io named '" << output_name
              << "': it cannot say which rows of that output to compute";
  CheckExampleInputDims(nnet_, eg);
  ComputationRequest request;
  GetComputationRequest(nnet_, eg, /*need_model_derivative=*/false,
                        /*store_component_stats=*/false, &request);
  std::shared_ptr<const NnetComputation> computation =
      compiler_.Compile(request);
  NnetComputeOptions options;
  if (VerboseLevel() >= 3) options.debug = true;
  NnetComputer computer(options, *computation, nnet_, nullptr);
  RunExampleComputation(
      nnet_, *computation, eg,
      [&](const NnetIo &io, const MatrixView &out, Matrix *deriv) {
        (void)deriv;
        if (io.name == output_name) {
          output->Resize(out.NumRows(), out.NumCols(), ResizeType::kUndefined);
          output->CopyFromMat(out);
        }
      },
      &computer);
}

}  // namespace nnet3

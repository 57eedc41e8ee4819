#include "train/example-computation.h"

#include <map>
#include <string>
#include <vector>

#include "base/error.h"

namespace nnet3 {
namespace {

const NnetIo *FindIo(const NnetExample &eg, const std::string &name) {
  for (const NnetIo &io : eg.io)
    if (io.name == name) return &io;
  return nullptr;
}

// The io that the I/O command `c` refers to, or an InternalError (the
// computation was not compiled for this example).
const NnetIo &IoForCommand(const Nnet &nnet, const NnetExample &eg,
                           const NnetComputation::Command &c) {
  const std::string &name = nnet.GetNodeName(c.arg2);
  const NnetIo *io = FindIo(eg, name);
  if (io == nullptr)
    NNET3_INTERNAL_ERR << "The computation does I/O for node '" << name
                       << "', which the example does not have";
  return *io;
}

}  // namespace

void RunExampleComputation(const Nnet &nnet, const NnetComputation &computation,
                           const NnetExample &eg,
                           const OutputCallback &on_output,
                           NnetComputer *computer) {
  // Walk the commands in order, running the computer up to each I/O command
  // that has work before it (see the file comment of nnet-computer.h: Run()
  // stops at each I/O boundary; kNoOperationMarker is skipped by the I/O
  // calls themselves).
  std::vector<bool> takes_deriv(nnet.NumNodes(), false);
  for (const NnetComputation::Command &c : computation.commands)
    if (c.command_type == kAcceptInput && nnet.IsOutputNode(c.arg2))
      takes_deriv[c.arg2] = true;
  std::map<std::string, Matrix> derivs;
  bool work_pending = false;
  for (const NnetComputation::Command &c : computation.commands) {
    const CommandType type = c.command_type;
    if (type != kAcceptInput && type != kProvideOutput) {
      if (type != kNoOperationMarker) work_pending = true;
      continue;
    }
    if (work_pending) computer->Run();
    work_pending = false;
    const bool is_output_node = nnet.IsOutputNode(c.arg2);
    if (type == kProvideOutput && !is_output_node)
      continue;  // an input derivative nobody asked us for
    const NnetIo &io = IoForCommand(nnet, eg, c);
    if (type == kAcceptInput && !is_output_node) {
      Matrix input;
      io.features.GetMatrix(&input);
      computer->AcceptInput(io.name, &input);
    } else if (type == kProvideOutput) {
      Matrix *deriv = takes_deriv[c.arg2] ? &derivs[io.name] : nullptr;
      on_output(io, computer->GetOutput(io.name), deriv);
    } else {  // the derivative w.r.t. an output
      auto it = derivs.find(io.name);
      if (it == derivs.end() || it->second.NumRows() == 0)
        NNET3_INTERNAL_ERR << "No derivative was computed for output '"
                           << io.name << "'";
      computer->AcceptInput(io.name, &it->second);
    }
  }
  if (work_pending) computer->Run();
}

void CheckExampleInputDims(const Nnet &nnet, const NnetExample &eg) {
  for (const NnetIo &io : eg.io) {
    const int32_t node = nnet.GetNodeIndex(io.name);
    if (node < 0 || !nnet.IsInputNode(node)) continue;
    const int32_t dim = nnet.InputDim(io.name);
    if (io.features.NumCols() != dim)
      NNET3_ERR << "The example's input '" << io.name << "' has dimension "
                << io.features.NumCols() << " but the network's input node '"
                << io.name << "' has dimension " << dim
                << " (were the egs made from other features than the ones "
                << "this model was built for?)";
  }
}

int32_t GetNumNvalues(const NnetExample &eg) {
  int32_t num_n_values = -1;
  for (const NnetIo &io : eg.io) {
    if (io.indexes.empty())
      NNET3_ERR << "The example's io '" << io.name << "' has no rows";
    const int32_t this_num = io.indexes.back().n + 1;
    if (num_n_values != -1 && this_num != num_n_values)
      NNET3_ERR << "The example's ios have different numbers of sequences ("
                << num_n_values << " vs. " << this_num << " for '" << io.name
                << "')";
    num_n_values = this_num;
  }
  if (num_n_values == -1) NNET3_ERR << "The example has no inputs or outputs";
  return num_n_values;
}

}  // namespace nnet3

#include "random-computation-utils.h"

#include <sstream>

#include "base/error.h"
#include "compile/compiler.h"
#include "compile/computation-checker.h"
#include "compute/nnet-computer.h"
#include "nnet/nnet-utils.h"
#include "nnet/components/normalize-components.h"
#include "optimize/nnet-optimize.h"

namespace nnet3 {

void PrepareNnetForTest(uint64_t seed, Nnet *nnet) {
  for (int32_t c = 0; c < nnet->NumComponents(); c++) {
    auto *bn = dynamic_cast<BatchNormComponent *>(nnet->GetComponent(c));
    if (bn == nullptr || bn->TestMode()) continue;
    // Stats from 20 rows of N(0.5, 2^2) data, so that test mode has a
    // mean and variance that are not 0 and 1.
    Matrix in(20, bn->InputDim()), out(20, bn->OutputDim());
    in.SetRandn(seed + c);
    in.Scale(2.0f);
    in.Add(0.5f);
    void *memo = bn->Propagate(nullptr, in, &out);
    bn->StoreStats(in, out, memo);
    bn->DeleteMemo(memo);
  }
  SetBatchnormTestMode(true, nnet);
  SetDropoutTestMode(true, nnet);
}

NnetComputation CompileAndCheck(const Nnet &nnet,
                                const ComputationRequest &request,
                                bool optimize) {
  NnetComputation computation;
  Compiler compiler(request, nnet);
  compiler.CreateComputation(CompilerOptions(), &computation);
  CheckComputation(nnet, computation, /*check_rewrite=*/true);
  if (optimize) {
    Optimize(NnetOptimizeOptions(), nnet, MaxOutputTimeInRequest(request),
             &computation);
    CheckComputation(nnet, computation, /*check_rewrite=*/false);
  }
  return computation;
}

namespace {

bool IsIo(const NnetComputation::Command &c) {
  return c.command_type == kAcceptInput || c.command_type == kProvideOutput;
}

// Handles one kAcceptInput / kProvideOutput command at an I/O boundary.
void DoIo(const ComputationRequest &request, const Nnet &nnet,
          const NnetComputation::Command &c, NnetComputer *computer,
          ComputationIo *io) {
  const std::string &name = nnet.GetNodeName(c.arg2);
  const bool is_input_node = nnet.IsInputNode(c.arg2);
  const int32_t i = is_input_node ? request.IndexForInput(name)
                                  : request.IndexForOutput(name);
  NNET3_ASSERT(i >= 0);
  if (c.command_type == kAcceptInput) {
    const std::vector<Matrix> &given =
        is_input_node ? io->inputs : io->output_derivs;
    NNET3_ASSERT(i < static_cast<int32_t>(given.size()));
    Matrix m(given[i]);  // AcceptInput takes it by swap
    computer->AcceptInput(name, &m);
  } else {
    std::vector<Matrix> *taken =
        is_input_node ? &io->input_derivs : &io->outputs;
    taken->resize(is_input_node ? request.inputs.size()
                                : request.outputs.size());
    (*taken)[i] = Matrix(computer->GetOutput(name));
  }
}

}  // namespace

void RunComputationIo(const ComputationRequest &request,
                      const NnetComputation &computation, const Nnet &nnet,
                      Nnet *nnet_to_update, ComputationIo *io) {
  NnetComputer computer(NnetComputeOptions(), computation, nnet,
                        nnet_to_update);
  io->outputs.assign(request.outputs.size(), Matrix());
  io->input_derivs.assign(request.inputs.size(), Matrix());
  const auto &commands = computation.commands;
  const size_t num_commands = commands.size();
  // Mirrors the computer's program counter: Run() stops at each I/O
  // command; the I/O calls then move past the whole group of I/O (and
  // marker) commands there.
  size_t pc = 0;
  while (pc < num_commands) {
    if (!IsIo(commands[pc])) {
      computer.Run();
      while (pc < num_commands && !IsIo(commands[pc])) pc++;
      continue;
    }
    while (pc < num_commands &&
           (IsIo(commands[pc]) ||
            commands[pc].command_type == kNoOperationMarker)) {
      if (IsIo(commands[pc])) DoIo(request, nnet, commands[pc], &computer, io);
      pc++;
    }
  }
}

std::string ConfigsToString(const std::vector<std::string> &configs) {
  std::string ans;
  for (const std::string &c : configs) ans += c + "---\n";
  return ans;
}

std::string RequestToString(const ComputationRequest &request) {
  std::ostringstream os;
  request.Print(os);
  return os.str();
}

}  // namespace nnet3

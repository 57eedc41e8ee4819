#include "optimize/looped-compile-info.h"

#include "base/error.h"
#include "base/timer.h"
#include "compile/nnet-context.h"
#include "optimize/compile-looped.h"

namespace nnet3 {

namespace {

void CheckSupported(const CompileInfoOptions &opts,
                    const CompileInfoShow &show) {
  if (show.format != CompileInfoShow::kText)
    NNET3_ERR << "--looped supports only --format=text";
  if (show.graph || show.steps || show.before_after)
    NNET3_ERR << "--looped shows request, computation and stats only (the "
                 "graph and steps are those of many chunks); change --show";
  if (opts.num_sequences != 1 || !opts.output_range.empty() ||
      opts.extra_right_context != 0 || opts.need_model_derivative ||
      opts.input_deriv || opts.output_deriv || opts.repeat != 0 ||
      !opts.optimize)
    NNET3_ERR << "--looped compiles one sequence, chunk by chunk, for "
                 "inference: --frames (the chunk size) and "
                 "--extra-left-context (at the start) are the options that "
                 "apply; leave --num-sequences, --output-range, "
                 "--extra-right-context, the derivative options, --repeat "
                 "and --optimize at their defaults";
  if (opts.frames <= 0 || opts.extra_left_context < 0)
    NNET3_ERR << "--looped needs --frames > 0 and --extra-left-context >= 0";
}

void PrintLoop(const NnetComputation &computation, std::ostream &os) {
  const auto &commands = computation.commands;
  const int32_t go = static_cast<int32_t>(commands.size()) - 1;
  const int32_t label = commands[go].arg1;
  int32_t swaps = 0;
  for (int32_t c = go - 1; c >= 0 && commands[c].command_type == kSwapMatrix;
       c--)
    swaps++;
  os << "# loop\n"
     << "label: c" << label << "\n"
     << "goto: c" << go << "\n"
     << "commands-per-chunk: " << go - label << "\n"
     << "matrices-carried-over: " << swaps << "\n";
}

}  // namespace

void PrintLoopedCompileInfo(const Nnet &nnet_in, const CompileInfoOptions &opts,
                            const NnetOptimizeOptions &optimize_opts,
                            const CompileInfoShow &show, std::ostream &os) {
  CheckSupported(opts, show);
  if (!IsSimpleNnet(nnet_in))
    NNET3_ERR << "--looped needs a simple network (input 'input', output "
                 "'output', optionally 'ivector')";
  Nnet nnet(nnet_in);
  int32_t left = 0, right = 0;
  ComputeSimpleNnetContext(nnet, &left, &right);
  const int32_t chunk = GetChunkSize(nnet, 1, opts.frames);
  if (nnet.InputDim("ivector") > 0) ModifyNnetIvectorPeriod(chunk, &nnet);
  ComputationRequest r1, r2, r3;
  CreateLoopedComputationRequest(nnet, chunk, 1, chunk,
                                 left + opts.extra_left_context, right, 1, &r1,
                                 &r2, &r3);
  Timer timer;
  NnetComputation computation;
  CompileLooped(nnet, optimize_opts, r1, r2, r3, &computation);
  const double seconds = timer.Elapsed();
  if (show.request) {
    os << "# requests (chunk " << chunk << " frames, left context " << left
       << " + " << opts.extra_left_context << " at the start, right context "
       << right << ")\n";
    for (const ComputationRequest *r : {&r1, &r2, &r3}) r->Print(os);
  }
  if (show.computation) {
    os << "# computation\n";
    computation.Print(os, nnet);
  }
  if (show.computation || show.stats) PrintLoop(computation, os);
  if (!show.stats) return;
  CompileInfoStats stats;
  CollectComputationStats(computation, &stats);
  os << "# stats\ncommands: " << stats.num_commands << "\n";
  for (int32_t t = 0; t < kNumCommandTypes; t++)
    if (stats.commands_by_type[t] > 0)
      os << "  " << CommandTypeName(static_cast<CommandType>(t)) << ": "
         << stats.commands_by_type[t] << "\n";
  os << "matrices: " << stats.num_matrices << "\n"
     << "submatrices: " << stats.num_submatrices << "\n"
     << "total-memory-bytes: " << stats.total_memory_bytes << "\n"
     << "seconds-compile-looped: " << seconds << "\n";
}

}  // namespace nnet3

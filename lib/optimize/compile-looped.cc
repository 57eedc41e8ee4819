#include "optimize/compile-looped.h"

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/timer.h"
#include "compile/compiler.h"
#include "compile/nnet-context.h"
#include "optimize/nnet-optimize.h"
#include "util/config-line.h"

namespace nnet3 {

namespace {

// The mathematical m mod n (n > 0): in [0, n).
int32_t Mod(int32_t m, int32_t n) {
  int32_t r = m % n;
  return r < 0 ? r + n : r;
}

void AddTimeOffset(int32_t t_offset, ComputationRequest *request) {
  for (auto *ios : {&request->inputs, &request->outputs})
    for (IoSpecification &io : *ios)
      for (Index &index : io.indexes) index.t += t_offset;
}

// The request after `request2` in the sequence request1, request2, ...,
// where each is the one before shifted in time; UserError if request2 is
// not request1 shifted.
ComputationRequest Extrapolate(const ComputationRequest &request1,
                               const ComputationRequest &request2) {
  if (request1.inputs.empty() || request1.inputs[0].indexes.empty() ||
      request2.inputs.empty() || request2.inputs[0].indexes.empty())
    NNET3_ERR << "Looped compilation: the chunk requests need inputs";
  const int32_t shift =
      request2.inputs[0].indexes[0].t - request1.inputs[0].indexes[0].t;
  ComputationRequest next = request2;
  AddTimeOffset(-shift, &next);
  if (!(next == request1)) {
    std::ostringstream os;
    request1.Print(os);
    os << " vs. ";
    request2.Print(os);
    NNET3_ERR << "Looped compilation: the second and third chunk requests "
              << "must be the same apart from a time shift: " << os.str();
  }
  AddTimeOffset(2 * shift, &next);
  return next;
}

// Compiles num_requests chunks; true if the optimizer closed the loop.
bool CompileLoopedInternal(const Nnet &nnet, NnetOptimizeOptions opts,
                           const ComputationRequest &request1,
                           const ComputationRequest &request2,
                           const ComputationRequest &request3,
                           int32_t num_requests, NnetComputation *computation) {
  NNET3_ASSERT(num_requests >= 3);
  std::vector<ComputationRequest> extra;
  extra.reserve(num_requests - 3);
  const ComputationRequest *prev = &request2, *cur = &request3;
  for (int32_t i = 3; i < num_requests; i++) {
    extra.push_back(Extrapolate(*prev, *cur));
    prev = cur;
    cur = &extra.back();
  }
  std::vector<const ComputationRequest *> requests = {&request1, &request2,
                                                      &request3};
  for (const ComputationRequest &r : extra) requests.push_back(&r);
  Compiler compiler(requests, nnet);
  CompilerOptions compiler_opts;
  compiler_opts.output_debug_info = true;
  compiler.CreateComputation(compiler_opts, computation);
  opts.optimize_looped_computation = true;
  Optimize(opts, nnet, MaxOutputTimeInRequest(request3), computation);
  return !computation->commands.empty() &&
         computation->commands.back().command_type == kGotoLabel;
}

// One request of CreateLoopedComputationRequest.
void MakeChunkRequest(int32_t begin_input_t, int32_t end_input_t,
                      int32_t begin_output_t, int32_t end_output_t,
                      int32_t num_sequences, int32_t frame_subsampling_factor,
                      const std::set<int32_t> &ivector_times,
                      ComputationRequest *request) {
  *request = ComputationRequest();
  request->inputs.resize(ivector_times.empty() ? 1 : 2);
  request->inputs[0].name = "input";
  request->outputs.resize(1);
  request->outputs[0].name = "output";
  for (int32_t n = 0; n < num_sequences; n++) {
    for (int32_t t = begin_input_t; t < end_input_t; t++)
      request->inputs[0].indexes.emplace_back(n, t, 0);
    for (int32_t t = begin_output_t; t < end_output_t;
         t += frame_subsampling_factor)
      request->outputs[0].indexes.emplace_back(n, t, 0);
  }
  if (ivector_times.empty()) return;
  request->inputs[1].name = "ivector";
  for (int32_t n = 0; n < num_sequences; n++)
    for (int32_t t : ivector_times)
      request->inputs[1].indexes.emplace_back(n, t, 0);
}

}  // namespace

void CompileLooped(const Nnet &nnet, const NnetOptimizeOptions &optimize_opts,
                   const ComputationRequest &request1,
                   const ComputationRequest &request2,
                   const ComputationRequest &request3,
                   NnetComputation *computation) {
  Timer timer;
  const int32_t first = 5, factor = 2, max_requests = 100;
  for (int32_t n = first; n <= max_requests; n *= factor) {
    if (CompileLoopedInternal(nnet, optimize_opts, request1, request2, request3,
                              n, computation)) {
      NNET3_LOG << "Spent " << timer.Elapsed()
                << " seconds in looped compilation.";
      return;
    }
    NNET3_VLOG(2) << "Looped compilation failed with " << n
                  << " requests, trying " << n * factor;
  }
  NNET3_INTERNAL_ERR << "Looped compilation found no loop even with "
                     << max_requests << " chunks";
}

int32_t GetChunkSize(const Nnet &nnet, int32_t frame_subsampling_factor,
                     int32_t advised_chunk_size) {
  const int32_t modulus = nnet.Modulus();
  NNET3_ASSERT(modulus > 0 && frame_subsampling_factor > 0 &&
               advised_chunk_size > 0);
  int32_t chunk_size = advised_chunk_size;
  while (chunk_size % modulus != 0 ||
         chunk_size % frame_subsampling_factor != 0)
    chunk_size++;
  return chunk_size;
}

void ModifyNnetIvectorPeriod(int32_t ivector_period, Nnet *nnet) {
  NNET3_ASSERT(ivector_period > 0);
  std::vector<std::string> lines;
  nnet->GetConfigLines(false, &lines);
  std::ostringstream config;
  const std::string open = "ReplaceIndex(", close = ", t, 0)";
  for (const std::string &line : lines) {
    ConfigLine cfl;
    if (!cfl.ParseLine(line) || cfl.FirstToken() != "component-node") continue;
    std::string modified = line;
    size_t pos;
    while ((pos = modified.find(open)) != std::string::npos) {
      size_t end = modified.find(close, pos);
      if (end == std::string::npos)
        NNET3_ERR << "Could not rewrite the ReplaceIndex expression (only "
                  << "ReplaceIndex(X, t, 0) can read several i-vectors) in: "
                  << line;
      const std::string inner =
          modified.substr(pos + open.size(), end - pos - open.size());
      modified.replace(
          pos, end + close.size() - pos,
          "Round(" + inner + ", " + std::to_string(ivector_period) + ")");
    }
    if (modified != line) config << modified << "\n";
  }
  if (config.str().empty()) return;
  std::istringstream is(config.str());
  nnet->ReadConfig(is, "(i-vector period rewrite)");
}

void CreateLoopedComputationRequest(
    const Nnet &nnet, int32_t chunk_size, int32_t frame_subsampling_factor,
    int32_t ivector_period, int32_t left_context_begin, int32_t right_context,
    int32_t num_sequences, ComputationRequest *request1,
    ComputationRequest *request2, ComputationRequest *request3) {
  const bool has_ivector = nnet.InputDim("ivector") > 0;
  NNET3_ASSERT(chunk_size % frame_subsampling_factor == 0 &&
               chunk_size % nnet.Modulus() == 0 &&
               chunk_size % ivector_period == 0);
  NNET3_ASSERT(left_context_begin >= 0 && right_context >= 0 &&
               num_sequences > 0);
  // Input frames [begin, end) of the three chunks.
  const int32_t begin[3] = {-left_context_begin, chunk_size + right_context,
                            2 * chunk_size + right_context};
  const int32_t end[3] = {chunk_size + right_context,
                          2 * chunk_size + right_context,
                          3 * chunk_size + right_context};
  std::set<int32_t> ivector_times[3], seen;
  if (has_ivector) {
    for (int32_t k = 0; k < 3; k++)
      for (int32_t t = begin[k]; t < end[k]; t++) {
        const int32_t ivector_t = t - Mod(t, ivector_period);
        if (seen.insert(ivector_t).second) ivector_times[k].insert(ivector_t);
      }
  }
  ComputationRequest *requests[3] = {request1, request2, request3};
  for (int32_t k = 0; k < 3; k++)
    MakeChunkRequest(begin[k], end[k], k * chunk_size, (k + 1) * chunk_size,
                     num_sequences, frame_subsampling_factor, ivector_times[k],
                     requests[k]);
}

void CreateLoopedComputationRequestSimple(
    const Nnet &nnet, int32_t chunk_size, int32_t frame_subsampling_factor,
    int32_t ivector_period, int32_t extra_left_context_begin,
    int32_t extra_right_context, int32_t num_sequences,
    ComputationRequest *request1, ComputationRequest *request2,
    ComputationRequest *request3) {
  int32_t left_context = 0, right_context = 0;
  ComputeSimpleNnetContext(nnet, &left_context, &right_context);
  CreateLoopedComputationRequest(nnet, chunk_size, frame_subsampling_factor,
                                 ivector_period,
                                 extra_left_context_begin + left_context,
                                 extra_right_context + right_context,
                                 num_sequences, request1, request2, request3);
}

}  // namespace nnet3

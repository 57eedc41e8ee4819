#include "compute/nnet-simple-computation.h"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <utility>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "compile/nnet-context.h"
#include "device/cpu-threads.h"
#include "device/device.h"
#include "nnet/component-itf.h"

namespace nnet3 {

void NnetSimpleComputationOptions::Register(OptionsRegistry *opts) {
  opts->Register("extra-left-context", &extra_left_context,
                 "Number of frames of additional left-context to add on top "
                 "of the neural net's inherent left context (may be useful "
                 "in recurrent setups)");
  opts->Register("extra-right-context", &extra_right_context,
                 "Number of frames of additional right-context to add on top "
                 "of the neural net's inherent right context (may be useful "
                 "in recurrent setups)");
  opts->Register("extra-left-context-initial", &extra_left_context_initial,
                 "If >= 0, overrides the --extra-left-context value at the "
                 "start of an utterance.");
  opts->Register("extra-right-context-final", &extra_right_context_final,
                 "If >= 0, overrides the --extra-right-context value at the "
                 "end of an utterance.");
  opts->Register("frame-subsampling-factor", &frame_subsampling_factor,
                 "Required if the frame-rate of the output (e.g. in 'chain' "
                 "models) is less than the frame-rate of the original "
                 "alignment.");
  opts->Register("acoustic-scale", &acoustic_scale,
                 "Scaling factor for acoustic log-likelihoods (nnet3-compute "
                 "sets it to 1.0 by default)");
  opts->Register("frames-per-chunk", &frames_per_chunk,
                 "Number of frames in each chunk that is separately evaluated "
                 "by the neural net.  Measured before any subsampling, if the "
                 "--frame-subsampling-factor option is used (i.e. counts "
                 "input frames).  This is only advisory (may be rounded up "
                 "if needed).");
  opts->Register("debug-computation", &debug_computation,
                 "If true, turn on debug for the actual computation (very "
                 "verbose!)");
  OptionsRegistry compute_opts("computation", opts);
  compute_config.Register(&compute_opts);
  OptionsRegistry optimize_opts("optimization", opts);
  optimize_config.Register(&optimize_opts);
  OptionsRegistry compiler_opts("compiler", opts);
  compiler_config.Register(&compiler_opts);
}

NnetSimpleComputer::NnetSimpleComputer(const NnetSimpleComputationOptions &opts,
                                       const Nnet &nnet)
    : opts_(opts),
      nnet_(nnet),
      compiler_(nnet, opts.optimize_config, opts.compiler_config) {
  if (opts_.frame_subsampling_factor < 1 || opts_.frames_per_chunk < 1)
    NNET3_ERR << "--frame-subsampling-factor ("
              << opts_.frame_subsampling_factor << ") and --frames-per-chunk ("
              << opts_.frames_per_chunk << ") must be > 0";
  if (opts_.extra_left_context < 0 || opts_.extra_right_context < 0)
    NNET3_ERR << "--extra-left-context (" << opts_.extra_left_context
              << ") and --extra-right-context (" << opts_.extra_right_context
              << ") must be >= 0";
  if (!IsSimpleNnet(nnet))
    NNET3_ERR << "This network is not a simple network (it needs an input "
                 "node 'input', an output node 'output', and at most one "
                 "more input, 'ivector'), so it cannot be used here";
  if (opts_.chunk_threads < 0)
    NNET3_ERR << "chunk_threads (" << opts_.chunk_threads << ") must be >= 0";
  ComputeSimpleNnetContext(nnet, &left_context_, &right_context_);
  ChooseThreads();
  thread_outputs_.resize(chunk_threads_);
  if (opts_.debug_computation) opts_.compute_config.debug = true;
  const int32_t n = std::lcm(opts_.frame_subsampling_factor, nnet.Modulus());
  frames_per_chunk_ = n * ((opts_.frames_per_chunk + n - 1) / n);
  // Logged once per process, as Kaldi does: programs make many computers.
  static std::atomic<bool> logged_rounding(false);
  if (frames_per_chunk_ != opts_.frames_per_chunk &&
      !logged_rounding.exchange(true))
    NNET3_LOG << "Increasing --frames-per-chunk from " << opts_.frames_per_chunk
              << " to " << frames_per_chunk_ << " to make it a multiple of "
              << "lcm(--frame-subsampling-factor="
              << opts_.frame_subsampling_factor
              << ", nnet modulus=" << nnet.Modulus() << ")";
}

NnetSimpleComputer::~NnetSimpleComputer() = default;

void NnetSimpleComputer::ChooseThreads() {
  chunk_threads_ = product_threads_ = 1;
  if (ActiveDevice().IsGpu()) return;
  for (int32_t c = 0; c < nnet_.NumComponents(); ++c)
    if (nnet_.GetComponent(c)->Properties() & kRandomComponent) return;
  product_threads_ = CpuProductThreads();
  if (opts_.chunk_threads > 0)
    chunk_threads_ = opts_.chunk_threads;
  else if (CpuPerThreadProductThreads())
    chunk_threads_ = product_threads_;
  NNET3_VLOG(1) << "Chunks computed " << chunk_threads_
                << " at a time; products on " << product_threads_
                << " thread(s) in all";
}

int32_t NnetSimpleComputer::InputDim() const { return nnet_.InputDim("input"); }

int32_t NnetSimpleComputer::IvectorDim() const {
  return std::max<int32_t>(0, nnet_.InputDim("ivector"));
}

int32_t NnetSimpleComputer::OutputDim() const {
  return nnet_.OutputDim("output");
}

void NnetSimpleComputer::CheckInputs(const std::string &utterance,
                                     const MatrixView &features,
                                     const VectorView *ivector,
                                     const MatrixView *online_ivectors,
                                     int32_t online_ivector_period) const {
  if (features.NumRows() == 0)
    NNET3_ERR << "Utterance '" << utterance << "' is too short: it has 0 "
              << "frames, and at least 1 is needed";
  if (features.NumCols() != InputDim())
    NNET3_ERR << "Utterance '" << utterance << "': the features have dimension "
              << features.NumCols() << " but the network's 'input' needs "
              << "dimension " << InputDim();
  if (ivector != nullptr && online_ivectors != nullptr)
    NNET3_ERR << "Utterance '" << utterance << "': both a per-utterance "
              << "i-vector and online i-vectors were given; give one of them";
  const bool has_ivector = ivector != nullptr || online_ivectors != nullptr;
  if (IvectorDim() == 0) {
    if (has_ivector)
      NNET3_ERR << "Utterance '" << utterance << "': i-vectors were given but "
                << "the network has no 'ivector' input";
    return;
  }
  if (!has_ivector)
    NNET3_ERR << "Utterance '" << utterance << "': the network has an "
              << "'ivector' input (dimension " << IvectorDim()
              << ") but no i-vector was given for it";
  const int32_t dim =
      ivector != nullptr ? ivector->Dim() : online_ivectors->NumCols();
  if (dim != IvectorDim())
    NNET3_ERR << "Utterance '" << utterance << "': the i-vectors have "
              << "dimension " << dim << " but the network's 'ivector' needs "
              << "dimension " << IvectorDim();
  if (online_ivectors == nullptr) return;
  if (online_ivector_period <= 0)
    NNET3_ERR << "Online i-vectors need --online-ivector-period > 0 (got "
              << online_ivector_period << ")";
  if (online_ivectors->NumRows() == 0)
    NNET3_ERR << "Utterance '" << utterance << "': the online i-vector "
              << "matrix is empty";
}

void NnetSimpleComputer::PlanChunks(int32_t num_output_frames,
                                    std::vector<Chunk> *chunks) const {
  const int32_t per_chunk = frames_per_chunk_ / opts_.frame_subsampling_factor;
  chunks->clear();
  for (int32_t begin = 0; begin < num_output_frames; begin += per_chunk)
    chunks->push_back({begin, std::min(begin + per_chunk, num_output_frames)});
}

void NnetSimpleComputer::GetChunkInput(const MatrixView &features,
                                       const Chunk &chunk,
                                       int32_t num_output_frames, Matrix *input,
                                       ComputationRequest *request) const {
  const int32_t fss = opts_.frame_subsampling_factor;
  int32_t extra_left = opts_.extra_left_context,
          extra_right = opts_.extra_right_context;
  if (chunk.begin == 0 && opts_.extra_left_context_initial >= 0)
    extra_left = opts_.extra_left_context_initial;
  if (chunk.end == num_output_frames && opts_.extra_right_context_final >= 0)
    extra_right = opts_.extra_right_context_final;
  const int32_t first_output = chunk.begin * fss,
                last_output = (chunk.end - 1) * fss;
  const int32_t first_input = first_output - left_context_ - extra_left,
                last_input = last_output + right_context_ + extra_right;
  const int32_t num_input = last_input + 1 - first_input,
                num_frames = features.NumRows();
  input->Resize(num_input, features.NumCols(), ResizeType::kUndefined);
  // Rows [lo, hi) of `input` are inside the utterance; the rest repeat the
  // first or the last frame.
  const int32_t lo = std::min(num_input, std::max(0, -first_input)),
                hi =
                    std::max(lo, std::min(num_input, num_frames - first_input));
  if (hi > lo)
    input->RowRange(lo, hi - lo)
        .CopyFromMat(features.RowRange(first_input + lo, hi - lo));
  for (int32_t r = 0; r < lo; ++r)
    input->RowRange(r, 1).CopyFromMat(features.RowRange(0, 1));
  for (int32_t r = hi; r < num_input; ++r)
    input->RowRange(r, 1).CopyFromMat(features.RowRange(num_frames - 1, 1));

  // Shifted so that the first output frame is t = 0.
  *request = ComputationRequest();
  request->inputs.emplace_back("input", first_input - first_output,
                               last_input + 1 - first_output);
  if (IvectorDim() > 0)
    request->inputs.emplace_back("ivector", std::vector<Index>{Index(0, 0, 0)});
  std::vector<Index> outputs(chunk.end - chunk.begin);
  for (size_t i = 0; i < outputs.size(); ++i)
    outputs[i].t = static_cast<int32_t>(i) * fss;
  request->outputs.emplace_back("output", outputs);
}

void NnetSimpleComputer::GetChunkIvector(const std::string &utterance,
                                         const Chunk &chunk,
                                         const VectorView *ivector,
                                         const MatrixView *online_ivectors,
                                         int32_t online_ivector_period,
                                         Matrix *row) const {
  row->Resize(1, IvectorDim(), ResizeType::kUndefined);
  if (ivector != nullptr) {
    row->CopyFromMat(ivector->AsRowMatrix());
    return;
  }
  const int32_t fss = opts_.frame_subsampling_factor;
  // Kaldi's rule: first and last output frames in input-frame units.
  const int32_t first = chunk.begin * fss, last = (chunk.end - 1) * fss;
  const int32_t frame = first + (last - first) / 2;
  int32_t index = frame / online_ivector_period;
  const int32_t last_row = online_ivectors->NumRows() - 1;
  if (index > last_row) {
    // Kaldi tolerates half a second of edge effects.
    if ((index - last_row) * online_ivector_period > 50)
      NNET3_ERR << "Utterance '" << utterance << "': no online i-vector for "
                << "frame " << frame << ": there are only " << last_row + 1
                << " rows at --online-ivector-period=" << online_ivector_period
                << " (mismatched --online-ivector-period?)";
    index = last_row;
  }
  row->CopyFromMat(online_ivectors->RowRange(index, 1));
}

void NnetSimpleComputer::RunChunk(const NnetComputation &computation,
                                  Matrix *input, Matrix *ivector,
                                  Matrix *output) const {
  NnetComputer computer(opts_.compute_config, computation, nnet_, nullptr);
  // An optimized computation accepts its inputs first; an unoptimized one
  // may have commands before (or between) them: run up to each input.
  bool work_pending = false;
  for (const NnetComputation::Command &c : computation.commands) {
    if (c.command_type == kProvideOutput) break;
    if (c.command_type != kAcceptInput) {
      work_pending = true;
      continue;
    }
    if (work_pending) computer.Run();
    work_pending = false;
    const std::string &name = nnet_.GetNodeName(c.arg2);
    computer.AcceptInput(name, name == "ivector" ? ivector : input);
  }
  computer.Run();
  computer.GetOutputDestructive("output", output);
}

void NnetSimpleComputer::ComputeUtterance(const std::string &utterance,
                                          const MatrixView &features,
                                          const VectorView *ivector,
                                          const MatrixView *online_ivectors,
                                          int32_t online_ivector_period,
                                          Matrix *output) {
  CheckInputs(utterance, features, ivector, online_ivectors,
              online_ivector_period);
  const int32_t fss = opts_.frame_subsampling_factor;
  const int32_t num_output_frames = (features.NumRows() + fss - 1) / fss;
  std::vector<Chunk> chunks;
  PlanChunks(num_output_frames, &chunks);
  output->Resize(num_output_frames, OutputDim(), ResizeType::kUndefined);
  const int32_t num_chunks = static_cast<int32_t>(chunks.size());
  if (work_.size() < chunks.size()) work_.resize(chunks.size());
  ComputationRequest request;
  // Inputs and computations in order, in this thread (the compiler is not
  // thread-safe); then the chunks, side by side where allowed.
  for (int32_t c = 0; c < num_chunks; ++c) {
    ChunkWork &w = work_[c];
    w.chunk = chunks[c];
    GetChunkInput(features, w.chunk, num_output_frames, &w.input, &request);
    if (IvectorDim() > 0)
      GetChunkIvector(utterance, w.chunk, ivector, online_ivectors,
                      online_ivector_period, &w.ivector_row);
    // Held here: the cache may drop it while it runs.
    w.computation = compiler_.Compile(request);
    NNET3_VLOG(3) << "Computation for a chunk with "
                  << request.inputs[0].indexes.size() << " input frames and "
                  << request.outputs[0].indexes.size() << " output frames";
  }
  if (chunk_threads_ > 1 && num_chunks > 1) {
    RunChunksInParallel(num_chunks, output);
  } else {
    for (int32_t c = 0; c < num_chunks; ++c)
      ComputeChunk(&work_[c], &thread_outputs_[0], output);
  }
  for (int32_t c = 0; c < num_chunks; ++c) work_[c].computation.reset();
  if (opts_.acoustic_scale != 1.0f) output->Scale(opts_.acoustic_scale);
}

void NnetSimpleComputer::RunChunksInParallel(int32_t num_chunks,
                                             Matrix *output) {
  if (pool_ == nullptr) pool_ = std::make_unique<ThreadPool>(chunk_threads_);
  const int32_t threads = std::min(chunk_threads_, num_chunks);
  // The products' threads shared out among the chunks that run at once.
  const int32_t per_chunk = std::max(1, product_threads_ / threads);
  pool_->ParallelFor(num_chunks, [&](int32_t thread, int32_t c) {
    ProductThreadsInThisThread product_threads(per_chunk);
    ComputeChunk(&work_[c], &thread_outputs_[thread], output);
  });
}

void NnetSimpleComputer::ComputeChunk(ChunkWork *work, Matrix *chunk_output,
                                      Matrix *output) const {
  RunChunk(*work->computation, &work->input, &work->ivector_row, chunk_output);
  output->RowRange(work->chunk.begin, work->chunk.end - work->chunk.begin)
      .CopyFromMat(*chunk_output);
}

}  // namespace nnet3

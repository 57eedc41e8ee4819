// Whole-utterance inference with a simple network, in chunks (the idea of
// Kaldi's DecodableNnetSimple and NnetSimpleComputationOptions; what
// nnet3-compute does for each utterance).
//
//   NnetSimpleComputationOptions opts;  opts.Register(&po);
//   NnetSimpleComputer computer(opts, nnet);   // nnet must be simple
//   Matrix output;
//   computer.ComputeUtterance("utt1", features, &ivector_or_null,
//                             online_ivectors_or_null, period, &output);
//
// The network must be simple (compile/nnet-context.h: input "input",
// output "output", maybe an input "ivector"). Its output is computed for
// frames 0, fss, 2·fss, ... (fss = --frame-subsampling-factor), i.e.
// ceil(num_frames / fss) rows, in chunks exactly as Kaldi's
// DecodableNnetSimple makes them: --frames-per-chunk is rounded up to a
// multiple of lcm(fss, nnet modulus) and divided by fss, giving P output
// frames per chunk; the chunks start at output frames 0, P, 2P, ... and the
// last one is simply shorter (it is not moved back). A chunk whose output
// frames are a..b (input-frame units) asks for input frames a − left
// context − extra-left-context .. b + right context + extra-right-context,
// where --extra-left-context-initial (when >= 0) replaces
// --extra-left-context for the chunk that starts at output frame 0, and
// --extra-right-context-final (when >= 0) replaces --extra-right-context
// for the chunk that holds the last output frame; input frames outside the
// utterance repeat the first or last frame. For recurrent networks this
// fixes which frames each chunk's recurrence starts from, so the output
// equals Kaldi's; for feed-forward networks any chunking gives the same
// output. Every request is shifted in time so that its first output frame
// is t = 0 (a multiple of the modulus, so the shift keeps its meaning);
// each distinct request (a whole chunk, a shorter last chunk, an initial or
// final chunk with other context) is compiled and optimized once by the
// computer's CachingOptimizingCompiler (--optimization.*, --compiler.*; its
// cache holds 64 + frames-per-chunk computations by default, as Kaldi's,
// room for every length of last chunk), so later utterances only look them
// up.
//
// I-vectors: a network with an "ivector" input gets one i-vector row per
// chunk, as the Index (n=0, t=0, x=0) (the chunk's first output frame after
// the time shift), which is what `ReplaceIndex(ivector, t, 0)` in the
// network's descriptors reads for every frame. It is the per-utterance
// vector, or Kaldi's choice of online i-vector row: with `first` and
// `last` the chunk's first and last output frames in input-frame units,
// row (first + (last − first) / 2) / period (integer divisions), clamped to
// the last row when that lies at most 50 input frames past it (more is a
// UserError: a mismatched --online-ivector-period).
//
// Threads: on the CPU, the chunks of an utterance are computed side by side,
// one chunk per thread with products on fewer threads each
// (device/cpu-threads.h: a product of one chunk's rows does not keep two
// cores busy, two chunks do), using as many threads as the products were
// given (OMP_NUM_THREADS); with more threads than chunks each chunk's
// products get the threads left over. The requests are still compiled in
// order, in the calling thread, and each chunk's output is the same as
// when computed alone. One thread (and today's behaviour) on a GPU, with
// OpenBLAS products (whose thread count is process-wide), and for networks
// with random components (dropout outside test mode), whose output would
// depend on the order the chunks ran in.
//
// For networks without recurrence or batch statistics (batch-norm in
// test mode), the output does not depend on the chunking. Errors (bad
// dimensions, missing i-vectors, an empty utterance) are UserErrors naming
// the utterance. Not thread-safe; use one computer per thread.
#ifndef NNET3_COMPUTE_NNET_SIMPLE_COMPUTATION_H_
#define NNET3_COMPUTE_NNET_SIMPLE_COMPUTATION_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "base/thread-pool.h"
#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "compute/nnet-computer.h"
#include "compute/utterance-computer.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"
#include "optimize/caching-compiler.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetSimpleComputationOptions {
  int32_t extra_left_context = 0;
  int32_t extra_right_context = 0;
  int32_t extra_left_context_initial = -1;
  int32_t extra_right_context_final = -1;
  int32_t frame_subsampling_factor = 1;
  int32_t frames_per_chunk = 50;
  // Scales the output (log-likelihoods); nnet3-compute sets it to 1.0.
  float acoustic_scale = 0.1f;
  // Turns on compute_config.debug.
  bool debug_computation = false;
  // Registered as --computation.*.
  NnetComputeOptions compute_config;
  // Registered as --optimization.*.
  NnetOptimizeOptions optimize_config;
  // How many chunks may be computed at once (see above): 0 = as many as
  // the threads the CPU's products were given. Kaldi has no such option,
  // so it is not registered (set OMP_NUM_THREADS=1 for one thread).
  int32_t chunk_threads = 0;
  // Registered as --compiler.*; the default capacity is 64 + the default
  // frames-per-chunk (as Kaldi, which makes room for the shorter chunks at
  // utterance ends).
  CachingOptimizingCompilerOptions compiler_config;

  NnetSimpleComputationOptions() {
    compiler_config.cache_capacity += frames_per_chunk;
  }
  // Kaldi's option names; compute_config, optimize_config and
  // compiler_config under the prefixes "computation", "optimization" and
  // "compiler".
  void Register(OptionsRegistry *opts);
};

class NnetSimpleComputer : public UtteranceComputer {
 public:
  // `nnet` must outlive the computer. UserError if the network is not
  // simple or an option is out of range. Logs when --frames-per-chunk is
  // rounded up.
  NnetSimpleComputer(const NnetSimpleComputationOptions &opts,
                     const Nnet &nnet);
  NnetSimpleComputer(const NnetSimpleComputer &) = delete;
  NnetSimpleComputer &operator=(const NnetSimpleComputer &) = delete;
  ~NnetSimpleComputer() override;

  // Computes the (scaled) output for `features` (num_frames x input dim)
  // into *output (ceil(num_frames / fss) x output dim, on ActiveDevice()).
  // At most one of `ivector` (per utterance) and `online_ivectors` (one row
  // every `online_ivector_period` frames) may be given; one is required if
  // the network has an "ivector" input. `utterance` names it in errors.
  void ComputeUtterance(const std::string &utterance,
                        const MatrixView &features, const VectorView *ivector,
                        const MatrixView *online_ivectors,
                        int32_t online_ivector_period, Matrix *output) override;

  int32_t LeftContext() const { return left_context_; }
  int32_t RightContext() const { return right_context_; }
  // After rounding up.
  int32_t FramesPerChunk() const { return frames_per_chunk_; }
  int32_t InputDim() const;
  // 0 if the network has no "ivector" input.
  int32_t IvectorDim() const override;
  int32_t OutputDim() const;
  // How many distinct requests have been compiled (for tests).
  int32_t NumCompilations() const {
    return static_cast<int32_t>(compiler_.Stats().misses);
  }
  // How many chunks may run at once (1: in the calling thread).
  int32_t ChunkThreads() const { return chunk_threads_; }

 private:
  // Output frames [begin, end) in subsampled frames.
  struct Chunk {
    int32_t begin, end;
  };
  void CheckInputs(const std::string &utterance, const MatrixView &features,
                   const VectorView *ivector, const MatrixView *online_ivectors,
                   int32_t online_ivector_period) const;
  void PlanChunks(int32_t num_output_frames, std::vector<Chunk> *chunks) const;
  // Fills the chunk's input rows (edge frames repeated) and its request.
  void GetChunkInput(const MatrixView &features, const Chunk &chunk,
                     int32_t num_output_frames, Matrix *input,
                     ComputationRequest *request) const;
  void GetChunkIvector(const std::string &utterance, const Chunk &chunk,
                       const VectorView *ivector,
                       const MatrixView *online_ivectors,
                       int32_t online_ivector_period, Matrix *row) const;
  // Sets chunk_threads_ and product_threads_ (see the options' comment).
  void ChooseThreads();
  // What one chunk of the utterance being computed needs.
  struct ChunkWork {
    Chunk chunk;
    Matrix input, ivector_row;
    std::shared_ptr<const NnetComputation> computation;
  };
  // Computes `work_[0 .. num_chunks)` on the pool's threads into *output.
  void RunChunksInParallel(int32_t num_chunks, Matrix *output);
  // Runs one chunk (in *chunk_output, the running thread's scratch) and
  // writes its rows of *output.
  void ComputeChunk(ChunkWork *work, Matrix *chunk_output,
                    Matrix *output) const;
  // Runs `computation`, giving each input when it is asked for (before
  // any other command for an optimized computation; spread over the
  // forward pass for an unoptimized one).
  void RunChunk(const NnetComputation &computation, Matrix *input,
                Matrix *ivector, Matrix *output) const;

  NnetSimpleComputationOptions opts_;
  const Nnet &nnet_;
  int32_t left_context_ = 0, right_context_ = 0;
  int32_t frames_per_chunk_ = 0;
  CachingOptimizingCompiler compiler_;
  int32_t chunk_threads_ = 1;
  int32_t product_threads_ = 1;  // the products' threads, in all
  // Created at the first utterance with more than one chunk.
  std::unique_ptr<ThreadPool> pool_;
  std::vector<ChunkWork> work_;
  std::vector<Matrix> thread_outputs_;  // chunk_threads_ of them
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_NNET_SIMPLE_COMPUTATION_H_

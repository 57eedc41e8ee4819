// Looped inference with a simple network (Kaldi's DecodableNnetSimpleLooped
// and DecodableNnetLoopedInfo, decodable-simple-looped.h): the utterance is
// processed in chunks by one looped computation (optimize/compile-looped.h)
// that keeps its activations from chunk to chunk, so that each input frame
// is seen once and a recurrent network's state carries over the whole
// utterance. This is how Kaldi runs recurrent models (LSTM, GRU) on long
// utterances and online; unlike the chunked non-looped computation
// (nnet-simple-computation.h) its output does not depend on the chunk size
// and needs no extra left context.
//
//   NnetSimpleLoopedComputationOptions opts;   opts.Register(&po);
//   DecodableNnetSimpleLoopedInfo info(opts, &nnet);  // compiles once
//   DecodableNnetSimpleLooped decodable(info, features, &ivector_or_null,
//                                       online_ivectors_or_null, period);
//   Matrix output;
//   decodable.GetAllOutput(&output);   // or GetOutputForFrame(f, &row)
//
//   NnetSimpleLoopedComputer computer(info);   // the same, as an
//   computer.ComputeUtterance(...);            // UtteranceComputer
//
// The info object holds the compiled computation and may be shared by many
// decodables (one per utterance; not thread-safe each). The network must be
// simple (compile/nnet-context.h); if it has an "ivector" input, the info
// rewrites its ReplaceIndex(ivector, t, 0) expressions as
// Round(ivector, frames-per-chunk) (ModifyNnetIvectorPeriod), so the network
// reads one i-vector per chunk: the per-utterance vector, or the online
// i-vector row of the chunk's last input frame (row = frame / period,
// clamped to the last row). The first chunk has input frames
// [-left context - extra-left-context-initial, chunk + right context);
// frames outside the utterance repeat the first or last frame. Outputs
// are for frames 0, fss, 2 fss, ... (fss = frame-subsampling-factor),
// ceil(num_frames / fss) rows, times acoustic-scale. Errors (dimensions,
// missing i-vectors, empty utterances) are UserErrors naming the utterance.
#ifndef NNET3_COMPUTE_DECODABLE_SIMPLE_LOOPED_H_
#define NNET3_COMPUTE_DECODABLE_SIMPLE_LOOPED_H_

#include <cstdint>
#include <string>

#include "compile/computation-request.h"
#include "compile/nnet-computation.h"
#include "compute/nnet-computer.h"
#include "compute/utterance-computer.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"
#include "nnet/nnet.h"
#include "optimize/nnet-optimize-options.h"

namespace nnet3 {

class OptionsRegistry;

struct NnetSimpleLoopedComputationOptions {
  int32_t extra_left_context_initial = 0;
  int32_t frame_subsampling_factor = 1;
  int32_t frames_per_chunk = 24;  // Kaldi's default for looped decoding
  float acoustic_scale = 0.1f;
  bool debug_computation = false;
  NnetOptimizeOptions optimize_config;  // --optimization.*
  NnetComputeOptions compute_config;    // --computation.*
  // Kaldi's option names and help texts.
  void Register(OptionsRegistry *opts);
  // UserError naming the option when a value is out of range.
  void Check() const;
};

class DecodableNnetSimpleLoopedInfo {
 public:
  // Compiles the looped computation for `nnet` (which it may modify, see
  // the file comment, and which must outlive this object).
  DecodableNnetSimpleLoopedInfo(const NnetSimpleLoopedComputationOptions &opts,
                                Nnet *nnet);

  const NnetSimpleLoopedComputationOptions &Options() const { return opts_; }
  const Nnet &GetNnet() const { return nnet_; }
  // Left context of the first chunk (the network's plus
  // extra-left-context-initial) and right context.
  int32_t FramesLeftContext() const { return frames_left_context_; }
  int32_t FramesRightContext() const { return frames_right_context_; }
  // After rounding up to a multiple of the modulus and fss.
  int32_t FramesPerChunk() const { return frames_per_chunk_; }
  int32_t InputDim() const;
  int32_t IvectorDim() const;  // 0 without an "ivector" input
  int32_t OutputDim() const { return output_dim_; }
  bool HasIvectors() const { return has_ivectors_; }
  const ComputationRequest &Request(int32_t k) const;  // k = 1, 2, 3
  const NnetComputation &Computation() const { return computation_; }

 private:
  NnetSimpleLoopedComputationOptions opts_;
  const Nnet &nnet_;
  int32_t frames_left_context_ = 0, frames_right_context_ = 0;
  int32_t frames_per_chunk_ = 0, output_dim_ = 0;
  bool has_ivectors_ = false;
  ComputationRequest request1_, request2_, request3_;
  NnetComputation computation_;
};

class DecodableNnetSimpleLooped {
 public:
  // At most one of `ivector` and `online_ivectors` (one row every
  // `online_ivector_period` frames); one is required if the network reads
  // i-vectors. The matrices must outlive this object. UserError (naming
  // `utterance`) for bad inputs.
  DecodableNnetSimpleLooped(const DecodableNnetSimpleLoopedInfo &info,
                            const std::string &utterance,
                            const MatrixView &features,
                            const VectorView *ivector,
                            const MatrixView *online_ivectors,
                            int32_t online_ivector_period);

  // Output frames (after subsampling).
  int32_t NumFrames() const { return num_subsampled_frames_; }
  int32_t OutputDim() const { return info_.OutputDim(); }
  // Frames must be asked for in non-decreasing order (as in Kaldi).
  void GetOutputForFrame(int32_t subsampled_frame, VectorView *output);
  // All NumFrames() rows at once, into *output (resized), by running the
  // remaining chunks.
  void GetAllOutput(Matrix *output);
  int32_t NumChunksComputed() const { return num_chunks_computed_; }

 private:
  void AdvanceChunk();
  // The chunk's input rows, edge frames repeated.
  void GetChunkFeatures(int32_t begin_frame, int32_t end_frame, Matrix *chunk);
  Vector GetCurrentIvector(int32_t input_frame) const;

  const DecodableNnetSimpleLoopedInfo &info_;
  std::string utterance_;
  NnetComputer computer_;
  const MatrixView features_;  // a view of the caller's matrix
  const VectorView *ivector_;
  const MatrixView *online_ivectors_;
  int32_t online_ivector_period_;
  int32_t num_subsampled_frames_;
  int32_t num_chunks_computed_ = 0;
  // The output of the last chunk, and the subsampled frame of its row 0.
  Matrix current_output_;
  int32_t current_output_offset_ = -1;
};

// The looped computation behind the UtteranceComputer interface (what
// nnet3-compute --looped=true and nnet3-latgen-faster-looped run): one
// DecodableNnetSimpleLooped per utterance, all of its output at once. It
// only reads the info, so threads may share one computer.
class NnetSimpleLoopedComputer : public UtteranceComputer {
 public:
  // `info` must outlive the computer.
  explicit NnetSimpleLoopedComputer(const DecodableNnetSimpleLoopedInfo &info)
      : info_(info) {}
  int32_t IvectorDim() const override { return info_.IvectorDim(); }
  void ComputeUtterance(const std::string &utterance,
                        const MatrixView &features, const VectorView *ivector,
                        const MatrixView *online_ivectors,
                        int32_t online_ivector_period, Matrix *output) override;

 private:
  const DecodableNnetSimpleLoopedInfo &info_;
};

}  // namespace nnet3

#endif  // NNET3_COMPUTE_DECODABLE_SIMPLE_LOOPED_H_

#include "compute/decodable-simple-looped.h"

#include <algorithm>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "compile/nnet-context.h"
#include "matrix/device-array.h"
#include "optimize/compile-looped.h"

namespace nnet3 {

void NnetSimpleLoopedComputationOptions::Register(OptionsRegistry *opts) {
  opts->Register("extra-left-context-initial", &extra_left_context_initial,
                 "Extra left context to use at the first frame of an "
                 "utterance (note: this will just consist of repeats of the "
                 "first frame, and should not usually be necessary.");
  opts->Register("frame-subsampling-factor", &frame_subsampling_factor,
                 "Required if the frame-rate of the output (e.g. in 'chain' "
                 "models) is less than the frame-rate of the original "
                 "alignment.");
  opts->Register("acoustic-scale", &acoustic_scale,
                 "Scaling factor for acoustic log-likelihoods");
  opts->Register("frames-per-chunk", &frames_per_chunk,
                 "Number of frames in each chunk that is separately evaluated "
                 "by the neural net.  Measured before any subsampling, if the "
                 "--frame-subsampling-factor options is used (i.e. counts "
                 "input frames.  This is only advisory (may be rounded up if "
                 "needed.");
  opts->Register("debug-computation", &debug_computation,
                 "If true, turn on debug for the actual computation (very "
                 "verbose!)");
  OptionsRegistry optimize_opts("optimization", opts);
  optimize_config.Register(&optimize_opts);
  OptionsRegistry compute_opts("computation", opts);
  compute_config.Register(&compute_opts);
}

void NnetSimpleLoopedComputationOptions::Check() const {
  if (extra_left_context_initial < 0)
    NNET3_ERR << "--extra-left-context-initial must be >= 0 for looped "
              << "computation (got " << extra_left_context_initial << ")";
  if (frame_subsampling_factor <= 0 || frames_per_chunk <= 0)
    NNET3_ERR << "--frame-subsampling-factor (" << frame_subsampling_factor
              << ") and --frames-per-chunk (" << frames_per_chunk
              << ") must be > 0";
  if (!(acoustic_scale > 0.0f))
    NNET3_ERR << "--acoustic-scale must be > 0 (got " << acoustic_scale << ")";
}

// ---------------------------------------------------------------------------
// DecodableNnetSimpleLoopedInfo

DecodableNnetSimpleLoopedInfo::DecodableNnetSimpleLoopedInfo(
    const NnetSimpleLoopedComputationOptions &opts, Nnet *nnet)
    : opts_(opts), nnet_(*nnet) {
  opts_.Check();
  if (opts_.debug_computation) opts_.compute_config.debug = true;
  if (!IsSimpleNnet(*nnet))
    NNET3_ERR << "This network is not a simple network (it needs an input "
                 "node 'input', an output node 'output', and at most one "
                 "more input, 'ivector'), so it cannot be used for looped "
                 "computation";
  has_ivectors_ = nnet->InputDim("ivector") > 0;
  int32_t left_context = 0, right_context = 0;
  ComputeSimpleNnetContext(*nnet, &left_context, &right_context);
  frames_left_context_ = left_context + opts_.extra_left_context_initial;
  frames_right_context_ = right_context;
  frames_per_chunk_ = GetChunkSize(*nnet, opts_.frame_subsampling_factor,
                                   opts_.frames_per_chunk);
  if (frames_per_chunk_ != opts_.frames_per_chunk)
    NNET3_LOG << "Increasing --frames-per-chunk from " << opts_.frames_per_chunk
              << " to " << frames_per_chunk_ << " (a multiple of the "
              << "frame-subsampling factor and the network's modulus)";
  output_dim_ = nnet->OutputDim("output");
  // One i-vector per chunk.
  const int32_t ivector_period = frames_per_chunk_;
  if (has_ivectors_) ModifyNnetIvectorPeriod(ivector_period, nnet);
  CreateLoopedComputationRequest(*nnet, frames_per_chunk_,
                                 opts_.frame_subsampling_factor, ivector_period,
                                 frames_left_context_, frames_right_context_, 1,
                                 &request1_, &request2_, &request3_);
  CompileLooped(*nnet, opts_.optimize_config, request1_, request2_, request3_,
                &computation_);
}

int32_t DecodableNnetSimpleLoopedInfo::InputDim() const {
  return nnet_.InputDim("input");
}

int32_t DecodableNnetSimpleLoopedInfo::IvectorDim() const {
  return has_ivectors_ ? nnet_.InputDim("ivector") : 0;
}

const ComputationRequest &DecodableNnetSimpleLoopedInfo::Request(
    int32_t k) const {
  NNET3_ASSERT(k >= 1 && k <= 3);
  return k == 1 ? request1_ : (k == 2 ? request2_ : request3_);
}

// ---------------------------------------------------------------------------
// DecodableNnetSimpleLooped

DecodableNnetSimpleLooped::DecodableNnetSimpleLooped(
    const DecodableNnetSimpleLoopedInfo &info, const std::string &utterance,
    const MatrixView &features, const VectorView *ivector,
    const MatrixView *online_ivectors, int32_t online_ivector_period)
    : info_(info),
      utterance_(utterance),
      computer_(info.Options().compute_config, info.Computation(),
                info.GetNnet(), nullptr),
      features_(features),
      ivector_(ivector),
      online_ivectors_(online_ivectors),
      online_ivector_period_(online_ivector_period) {
  const int32_t fss = info_.Options().frame_subsampling_factor;
  num_subsampled_frames_ = (features.NumRows() + fss - 1) / fss;
  if (features.NumRows() == 0)
    NNET3_ERR << "Utterance '" << utterance << "' has no frames";
  if (features.NumCols() != info_.InputDim())
    NNET3_ERR << "Utterance '" << utterance << "': the features have "
              << features.NumCols() << " columns but the network's input "
              << "dimension is " << info_.InputDim();
  if (ivector != nullptr && online_ivectors != nullptr)
    NNET3_ERR << "Utterance '" << utterance << "': give either an i-vector "
              << "or online i-vectors, not both";
  if (!info_.HasIvectors()) return;
  if (ivector == nullptr && online_ivectors == nullptr)
    NNET3_ERR << "Utterance '" << utterance << "': the network reads "
              << "i-vectors but none were given (use --ivectors or "
              << "--online-ivectors)";
  const int32_t dim = ivector ? ivector->Dim() : online_ivectors->NumCols();
  if (dim != info_.IvectorDim())
    NNET3_ERR << "Utterance '" << utterance << "': i-vector dimension " << dim
              << " does not match the network's " << info_.IvectorDim();
  if (online_ivectors != nullptr &&
      (online_ivector_period <= 0 || online_ivectors->NumRows() == 0))
    NNET3_ERR << "Utterance '" << utterance << "': online i-vectors need "
              << "--online-ivector-period > 0 and at least one row";
}

void DecodableNnetSimpleLooped::GetChunkFeatures(int32_t begin_frame,
                                                 int32_t end_frame,
                                                 Matrix *chunk) {
  const int32_t num_frames = features_.NumRows();
  *chunk = Matrix(end_frame - begin_frame, features_.NumCols(),
                  ResizeType::kUndefined, features_.device());
  if (begin_frame >= 0 && end_frame <= num_frames) {
    chunk->CopyFromMat(
        features_.RowRange(begin_frame, end_frame - begin_frame));
    return;
  }
  std::vector<int32_t> rows;
  for (int32_t t = begin_frame; t < end_frame; t++)
    rows.push_back(std::min(std::max(t, 0), num_frames - 1));
  chunk->CopyRows(features_, IndexVector(rows, features_.device()));
}

Vector DecodableNnetSimpleLooped::GetCurrentIvector(int32_t input_frame) const {
  if (ivector_ != nullptr) return Vector(*ivector_);
  // The i-vector of the chunk's last input frame, as Kaldi (the later the
  // better); rows may end early.
  int32_t row = std::max(input_frame, 0) / online_ivector_period_;
  row = std::min(row, online_ivectors_->NumRows() - 1);
  return Vector(online_ivectors_->Row(row));
}

void DecodableNnetSimpleLooped::AdvanceChunk() {
  const int32_t chunk = info_.FramesPerChunk();
  int32_t begin, end;
  if (num_chunks_computed_ == 0) {
    begin = -info_.FramesLeftContext();
    end = chunk + info_.FramesRightContext();
  } else {
    begin = num_chunks_computed_ * chunk + info_.FramesRightContext();
    end = begin + chunk;
  }
  Matrix features;
  GetChunkFeatures(begin, end, &features);
  computer_.AcceptInput("input", &features);
  if (info_.HasIvectors()) {
    const ComputationRequest &request =
        info_.Request(num_chunks_computed_ == 0 ? 1 : 2);
    const int32_t num_ivectors =
        static_cast<int32_t>(request.inputs.at(1).indexes.size());
    NNET3_ASSERT(num_ivectors > 0);
    Vector ivector = GetCurrentIvector(end);
    Matrix ivectors(num_ivectors, ivector.Dim(), ResizeType::kUndefined,
                    features_.device());
    ivectors.CopyRowsFromVec(ivector);
    computer_.AcceptInput("ivector", &ivectors);
  }
  computer_.Run();
  computer_.GetOutputDestructive("output", &current_output_);
  const float scale = info_.Options().acoustic_scale;
  if (scale != 1.0f) current_output_.Scale(scale);
  const int32_t fss = info_.Options().frame_subsampling_factor;
  NNET3_ASSERT(current_output_.NumRows() == chunk / fss &&
               current_output_.NumCols() == info_.OutputDim());
  current_output_offset_ = num_chunks_computed_ * (chunk / fss);
  num_chunks_computed_++;
}

void DecodableNnetSimpleLooped::GetOutputForFrame(int32_t subsampled_frame,
                                                  VectorView *output) {
  NNET3_ASSERT(subsampled_frame >= 0 &&
               subsampled_frame < num_subsampled_frames_ &&
               subsampled_frame >= current_output_offset_ &&
               "frames must be asked for in order");
  while (subsampled_frame >= current_output_offset_ + current_output_.NumRows())
    AdvanceChunk();
  output->CopyFromVec(
      current_output_.Row(subsampled_frame - current_output_offset_));
}

void DecodableNnetSimpleLooped::GetAllOutput(Matrix *output) {
  NNET3_ASSERT(num_chunks_computed_ == 0 && "GetAllOutput() starts afresh");
  *output = Matrix(num_subsampled_frames_, info_.OutputDim(),
                   ResizeType::kUndefined, features_.device());
  for (int32_t done = 0; done < num_subsampled_frames_;) {
    AdvanceChunk();
    const int32_t n =
        std::min(current_output_.NumRows(), num_subsampled_frames_ - done);
    output->RowRange(done, n).CopyFromMat(current_output_.RowRange(0, n));
    done += n;
  }
}

// ---------------------------------------------------------------------------
// NnetSimpleLoopedComputer

void NnetSimpleLoopedComputer::ComputeUtterance(
    const std::string &utterance, const MatrixView &features,
    const VectorView *ivector, const MatrixView *online_ivectors,
    int32_t online_ivector_period, Matrix *output) {
  DecodableNnetSimpleLooped decodable(info_, utterance, features, ivector,
                                      online_ivectors, online_ivector_period);
  decodable.GetAllOutput(output);
}

}  // namespace nnet3

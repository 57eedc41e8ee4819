#include "train/example-generation.h"

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <sstream>

#include "base/error.h"
#include "base/log.h"
#include "base/text-utils.h"

namespace nnet3 {

void ExampleGenerationConfig::Register(OptionsRegistry *po) {
  po->Register("left-context", &left_context,
               "Number of frames of left context of input features that are "
               "added to each example");
  po->Register("right-context", &right_context,
               "Number of frames of right context of input features that are "
               "added to each example");
  po->Register("left-context-initial", &left_context_initial,
               "Number of frames of left context of input features that are "
               "added to each example at the start of the utterance (if <0, "
               "this defaults to the same as --left-context)");
  po->Register("right-context-final", &right_context_final,
               "Number of frames of right context of input features that are "
               "added to each example at the end of the utterance (if <0, "
               "this defaults to the same as --right-context)");
  po->Register("num-frames", &num_frames_str,
               "Number of frames with labels that each example contains "
               "(i.e. the left and right context are to be added to this). "
               "May just be an integer (e.g. --num-frames=8), or a principal "
               "value followed by alternative values used to cover the end of "
               "each utterance, e.g. --num-frames=40,25,50. All these values "
               "will be rounded up to the closest multiple of "
               "--frame-subsampling-factor. As a special case, "
               "--num-frames=-1 means 'don't do any splitting'.");
  po->Register("num-frames-overlap", &num_frames_overlap,
               "Number of frames of overlap between adjacent examples of the "
               "principal size (the chunk that covers the end of an "
               "utterance may overlap more)");
  po->Register("frame-subsampling-factor", &frame_subsampling_factor,
               "Used if the frame-rate of the output labels in the generated "
               "examples will be less than the frame-rate at the input");
}

void ExampleGenerationConfig::ComputeDerived() {
  const int32_t f = frame_subsampling_factor;
  if (f < 1)
    NNET3_ERR << "Invalid value --frame-subsampling-factor=" << f
              << " (must be >= 1)";
  if (left_context < 0 || right_context < 0)
    NNET3_ERR << "Invalid --left-context=" << left_context
              << " / --right-context=" << right_context << " (must be >= 0)";
  if (num_frames_overlap < 0)
    NNET3_ERR << "Invalid --num-frames-overlap=" << num_frames_overlap
              << " (must be >= 0)";
  num_frames.clear();
  if (Trim(num_frames_str) == "-1") return;
  for (const std::string &piece : SplitString(num_frames_str, ",", false)) {
    int32_t value;
    if (!ConvertStringToInteger(piece, &value) || value <= 0)
      NNET3_ERR << "Invalid option --num-frames=" << num_frames_str
                << " (expected -1 or a comma-separated list of positive "
                << "integers)";
    num_frames.push_back((value + f - 1) / f * f);
  }
  if (num_frames.empty())
    NNET3_ERR << "Invalid option --num-frames=" << num_frames_str;
  std::ostringstream rounded;
  for (size_t i = 0; i < num_frames.size(); i++)
    rounded << (i ? "," : "") << num_frames[i];
  if (rounded.str() != Trim(num_frames_str))
    NNET3_LOG << "Rounding up --num-frames=" << num_frames_str
              << " to multiples of --frame-subsampling-factor=" << f
              << ", to: " << rounded.str();
}

UtteranceSplitter::UtteranceSplitter(const ExampleGenerationConfig &config)
    : config_(config) {
  NNET3_ASSERT(config_.frame_subsampling_factor >= 1);
}

bool UtteranceSplitter::LengthsMatch(const std::string &utt,
                                     int32_t utterance_length,
                                     int32_t supervision_length,
                                     int32_t length_tolerance) const {
  const int32_t f = config_.frame_subsampling_factor;
  int32_t expected = (utterance_length + f - 1) / f;
  if (std::abs(supervision_length - expected) <= length_tolerance) return true;
  NNET3_WARN << "Supervision does not have expected length for utterance "
             << utt << ": expected length = " << expected
             << (f > 1 ? " (after --frame-subsampling-factor)" : "") << ", got "
             << supervision_length << " (tolerance " << length_tolerance
             << "); skipping it";
  return false;
}

void UtteranceSplitter::SplitOutputFrames(
    int32_t n, std::vector<std::pair<int32_t, int32_t>> *chunks) const {
  chunks->clear();
  const int32_t f = config_.frame_subsampling_factor;
  if (config_.num_frames.empty()) {
    chunks->emplace_back(0, n);
    return;
  }
  std::vector<int32_t> usable;  // sizes in output frames that fit
  for (int32_t size : config_.num_frames)
    if (size / f <= n) usable.push_back(size / f);
  if (usable.empty()) return;
  int32_t p = config_.num_frames[0] / f;
  if (p > n) p = *std::max_element(usable.begin(), usable.end());
  const int32_t step = p - std::min(config_.num_frames_overlap / f, p - 1);
  int32_t end = 0;
  for (int32_t start = 0; start + p <= n; start += step) {
    chunks->emplace_back(start, p);
    end = start + p;
  }
  if (end < n) {
    int32_t c = p;  // p >= n - end, so it qualifies
    for (int32_t size : usable)
      if (size >= n - end) c = std::min(c, size);
    chunks->emplace_back(n - c, c);
  }
}

void UtteranceSplitter::GetChunksForUtterance(
    int32_t utterance_length, std::vector<ChunkTimeInfo> *chunks) {
  const int32_t f = config_.frame_subsampling_factor;
  const int32_t n = (utterance_length + f - 1) / f;
  std::vector<std::pair<int32_t, int32_t>> split;
  SplitOutputFrames(n, &split);
  std::vector<int32_t> count(n, 0);
  for (const auto &s : split)
    for (int32_t t = s.first; t < s.first + s.second; t++) count[t]++;
  chunks->clear();
  for (const auto &s : split) {
    ChunkTimeInfo chunk;
    chunk.first_frame = s.first * f;
    chunk.num_frames = s.second * f;
    chunk.left_context = (s.first == 0 && config_.left_context_initial >= 0)
                             ? config_.left_context_initial
                             : config_.left_context;
    chunk.right_context =
        (s.first + s.second == n && config_.right_context_final >= 0)
            ? config_.right_context_final
            : config_.right_context;
    for (int32_t t = s.first; t < s.first + s.second; t++)
      chunk.output_weights.push_back(1.0f / count[t]);
    total_frames_in_chunks_ += chunk.num_frames;
    total_frames_overlap_ += chunk.num_frames;
    chunks->push_back(std::move(chunk));
  }
  total_num_utterances_++;
  total_input_frames_ += utterance_length;
  total_num_chunks_ += static_cast<int64_t>(split.size());
  if (!split.empty()) total_frames_overlap_ -= static_cast<int64_t>(n) * f;
}

void UtteranceSplitter::LogStats() const {
  NNET3_LOG << "Split " << total_num_utterances_ << " utts, with total length "
            << total_input_frames_ << " frames ("
            << total_input_frames_ / 360000.0
            << " hours assuming 100 frames per second)";
  if (total_num_chunks_ == 0 || total_input_frames_ == 0) return;
  double output_percent = total_frames_in_chunks_ * 100.0 / total_input_frames_,
         overlap_percent = total_frames_overlap_ * 100.0 / total_input_frames_;
  std::ostringstream os;
  os << std::setprecision(4) << "Average chunk length was "
     << total_frames_in_chunks_ * 1.0 / total_num_chunks_
     << " frames; overlap between adjacent chunks was " << overlap_percent
     << "% of input length; length of output was " << output_percent
     << "% of input length (minus overlap = "
     << output_percent - overlap_percent << "%).";
  NNET3_LOG << os.str();
}

void GetEgsOptions::Register(OptionsRegistry *po) {
  po->Register("compress", &compress,
               "If true, write egs with input features in compressed format "
               "(recommended). This is only relevant if the features being "
               "read are un-compressed; if already compressed, we keep the "
               "same compressed format when dumping egs.");
  po->Register("num-pdfs", &num_pdfs, "Number of pdfs in the acoustic model");
  po->Register("online-ivector-period", &online_ivector_period,
               "Number of frames between iVectors in matrices supplied to the "
               "--online-ivectors option");
  po->Register("length-tolerance", &length_tolerance,
               "Tolerance for difference in num-frames between feat and "
               "ivector matrices");
  po->Register("targets-length-tolerance", &targets_length_tolerance,
               "Tolerance for difference in num-frames (after subsampling) "
               "between feature matrix and posterior");
}

void GetEgsOptions::Check() const {
  if (num_pdfs <= 0)
    NNET3_ERR << "--num-pdfs option is required (the number of pdfs in the "
              << "acoustic model, > 0)";
  if (online_ivector_period <= 0)
    NNET3_ERR << "Invalid --online-ivector-period=" << online_ivector_period
              << " (must be > 0)";
}

namespace {

// UserError if any pdf in `post` is outside [0, num_pdfs).
void CheckPdfs(const std::string &utt, const Posterior &post,
               int32_t num_pdfs) {
  for (size_t t = 0; t < post.size(); t++)
    for (const auto &p : post[t])
      if (p.first < 0 || p.first >= num_pdfs)
        NNET3_ERR << "Utterance '" << utt << "': the posterior at frame " << t
                  << " has pdf index " << p.first
                  << ", which is not in [0, --num-pdfs=" << num_pdfs
                  << "); check --num-pdfs against the model";
}

bool IvectorLengthOk(const std::string &utt, int32_t num_frames,
                     const MatrixView &ivectors, const GetEgsOptions &opts) {
  int32_t rows = ivectors.NumRows();
  if (rows != 0 && std::abs(num_frames - rows * opts.online_ivector_period) <=
                       opts.length_tolerance)
    return true;
  NNET3_WARN << "Utterance " << utt << ": length difference between feats "
             << num_frames << " and iVectors " << rows
             << " (times --online-ivector-period=" << opts.online_ivector_period
             << ") exceeds --length-tolerance=" << opts.length_tolerance
             << "; skipping it";
  return false;
}

}  // namespace

bool GetEgsForUtterance(const std::string &utt, const GeneralMatrix &feats,
                        const MatrixView *ivectors, const Posterior &pdf_post,
                        const GetEgsOptions &opts, UtteranceSplitter *splitter,
                        RandomState *rng,
                        std::vector<std::pair<std::string, NnetExample>> *egs) {
  const int32_t num_frames = feats.NumRows();
  const int32_t f = splitter->Config().frame_subsampling_factor;
  if (ivectors != nullptr && !IvectorLengthOk(utt, num_frames, *ivectors, opts))
    return false;
  if (!splitter->LengthsMatch(utt, num_frames,
                              static_cast<int32_t>(pdf_post.size()),
                              opts.targets_length_tolerance))
    return false;
  CheckPdfs(utt, pdf_post, opts.num_pdfs);
  std::vector<ChunkTimeInfo> chunks;
  splitter->GetChunksForUtterance(num_frames, &chunks);
  if (chunks.empty()) {
    NNET3_WARN << "Not producing egs for utterance " << utt
               << " because it is too short: " << num_frames << " frames";
    return false;
  }
  for (const ChunkTimeInfo &chunk : chunks) {
    int32_t start_frame = chunk.first_frame - chunk.left_context;
    GeneralMatrix input;
    ExtractRowRangeWithPadding(
        feats, start_frame,
        chunk.left_context + chunk.num_frames + chunk.right_context, &input);
    NnetExample eg;
    eg.io.emplace_back("input", -chunk.left_context, input);
    if (ivectors != nullptr) {
      // As Kaldi: a random frame from start_frame over the *utterance*
      // length, mapped to its iVector row and clamped.
      int32_t frame = rng->Int(start_frame, start_frame + num_frames - 1);
      int32_t row = std::min(std::max(frame / opts.online_ivector_period, 0),
                             ivectors->NumRows() - 1);
      eg.io.emplace_back("ivector", 0, ivectors->RowRange(row, 1));
    }
    const int32_t first_output = chunk.first_frame / f;
    Posterior labels(chunk.num_frames / f);
    for (size_t i = 0; i < labels.size(); i++) {
      size_t t = first_output + i;
      if (t < pdf_post.size()) labels[i] = pdf_post[t];
      for (auto &p : labels[i]) p.second *= chunk.output_weights[i];
    }
    eg.io.emplace_back("output", opts.num_pdfs, 0, labels, f);
    if (opts.compress) eg.Compress();
    egs->emplace_back(utt + "-" + std::to_string(chunk.first_frame),
                      std::move(eg));
  }
  return true;
}

}  // namespace nnet3

#include "train/example-generation.h"

#include <algorithm>
#include <cstdlib>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

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
  NNET3_WARN << "Length difference between feats " << num_frames
             << " and iVectors " << rows << " exceeds tolerance "
             << opts.length_tolerance << " (utterance " << utt
             << ", --online-ivector-period=" << opts.online_ivector_period
             << "); skipping it";
  return false;
}

// Kaldi's rule for the iVector of a chunk whose input starts at
// start_frame: the row of a random frame in [start_frame, start_frame +
// utterance_length - 1], clamped to the matrix.
int32_t RandomIvectorRow(int32_t start_frame, int32_t utterance_length,
                         const MatrixView &ivectors, int32_t period,
                         RandomState *rng) {
  const int32_t frame =
      rng->Int(start_frame, start_frame + utterance_length - 1);
  return std::min(std::max(frame / period, 0), ivectors.NumRows() - 1);
}

// The output rows of `chunk`: the posteriors of its output frames times
// the chunk's weights.
Posterior ChunkLabels(const ChunkTimeInfo &chunk, const Posterior &pdf_post,
                      int32_t f) {
  const int32_t first_output = chunk.first_frame / f;
  Posterior labels(chunk.num_frames / f);
  for (size_t i = 0; i < labels.size(); i++) {
    size_t t = first_output + i;
    if (t < pdf_post.size()) labels[i] = pdf_post[t];
    for (auto &p : labels[i]) p.second *= chunk.output_weights[i];
  }
  return labels;
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
  splitter->GetChunksForUtterance(num_frames, rng, &chunks);
  if (chunks.empty())
    NNET3_WARN << "Not producing egs for utterance " << utt
               << " because it is too short: " << num_frames << " frames.";
  for (const ChunkTimeInfo &chunk : chunks) {
    const int32_t start_frame = chunk.first_frame - chunk.left_context;
    GeneralMatrix input;
    ExtractRowRangeWithPadding(
        feats, start_frame,
        chunk.left_context + chunk.num_frames + chunk.right_context, &input);
    NnetExample eg;
    eg.io.emplace_back("input", -chunk.left_context, input);
    if (ivectors != nullptr) {
      int32_t row = RandomIvectorRow(start_frame, num_frames, *ivectors,
                                     opts.online_ivector_period, rng);
      eg.io.emplace_back("ivector", 0, ivectors->RowRange(row, 1));
    }
    eg.io.emplace_back("output", opts.num_pdfs, 0,
                       ChunkLabels(chunk, pdf_post, f), f);
    if (opts.compress) eg.Compress();
    egs->emplace_back(utt + "-" + std::to_string(chunk.first_frame),
                      std::move(eg));
  }
  return true;
}

}  // namespace nnet3

#include "train/example-generation-dense.h"

#include <algorithm>
#include <cstdlib>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

void GetEgsDenseOptions::Register(OptionsRegistry *po) {
  po->Register("compress", &compress,
               "If true, write egs with input features in compressed format "
               "(recommended).  This is only relevant if the features being "
               "read are un-compressed; if already compressed, we keep the "
               "same compressed format when dumping egs.");
  po->Register("num-targets", &num_targets,
               "Output dimension in egs, only used to check targets have "
               "correct dim if supplied.");
  po->Register("online-ivector-period", &online_ivector_period,
               "Number of frames between iVectors in matrices supplied to the "
               "--online-ivectors option");
  po->Register("length-tolerance", &length_tolerance,
               "Tolerance for difference in num-frames between feat and "
               "ivector matrices");
  po->Register("targets-length-tolerance", &targets_length_tolerance,
               "Tolerance for difference in num-frames (after subsampling) "
               "between feature and target matrices");
}

void GetEgsDenseOptions::Check() const {
  if (online_ivector_period <= 0)
    NNET3_ERR << "Invalid --online-ivector-period=" << online_ivector_period
              << " (must be > 0)";
}

namespace {

// Rows first .. first + num - 1 of targets, the last row repeated where they
// run past its end.
Matrix TargetRows(const MatrixView &targets, int32_t first, int32_t num) {
  Matrix part(num, targets.NumCols(), ResizeType::kUndefined, targets.device());
  const int32_t last = targets.NumRows() - 1;
  const int32_t in_range = std::max(0, std::min(num, last + 1 - first));
  if (in_range > 0)
    part.RowRange(0, in_range).CopyFromMat(targets.RowRange(first, in_range));
  for (int32_t i = in_range; i < num; i++)
    part.Row(i).CopyFromVec(targets.Row(std::min(first + i, last)));
  return part;
}

}  // namespace

bool GetDenseEgsForUtterance(
    const std::string &utt, const GeneralMatrix &feats,
    const MatrixView *ivectors, const MatrixView &targets,
    const GetEgsDenseOptions &opts, UtteranceSplitter *splitter,
    RandomState *rng, std::vector<std::pair<std::string, NnetExample>> *egs) {
  const int32_t num_frames = feats.NumRows();
  if (ivectors != nullptr &&
      (ivectors->NumRows() == 0 ||
       std::abs(num_frames - ivectors->NumRows() * opts.online_ivector_period) >
           opts.length_tolerance)) {
    NNET3_WARN << "Utterance " << utt << ": length difference between feats "
               << num_frames << " and iVectors " << ivectors->NumRows()
               << " exceeds tolerance " << opts.length_tolerance;
    return false;
  }
  if (!splitter->LengthsMatch(utt, num_frames, targets.NumRows(),
                              opts.targets_length_tolerance))
    return false;
  if (targets.NumRows() == 0) {
    NNET3_WARN << "Utterance " << utt << " has an empty target matrix";
    return false;
  }
  if (opts.num_targets >= 0 && targets.NumCols() != opts.num_targets)
    NNET3_ERR << "Utterance '" << utt << "': the target matrix has "
              << targets.NumCols()
              << " columns but --num-targets=" << opts.num_targets;
  std::vector<ChunkTimeInfo> chunks;
  splitter->GetChunksForUtterance(num_frames, rng, &chunks);
  if (chunks.empty()) {
    NNET3_WARN << "Not producing egs for utterance " << utt
               << " because it is too short: " << num_frames << " frames.";
    return false;
  }
  const int32_t f = splitter->Config().frame_subsampling_factor;
  for (const ChunkTimeInfo &chunk : chunks) {
    const int32_t start_frame = chunk.first_frame - chunk.left_context;
    GeneralMatrix input;
    ExtractRowRangeWithPadding(
        feats, start_frame,
        chunk.left_context + chunk.num_frames + chunk.right_context, &input);
    NnetExample eg;
    eg.io.emplace_back("input", -chunk.left_context, input);
    if (ivectors != nullptr) {
      // As Kaldi: a random frame from start_frame over the utterance's
      // length, mapped to its iVector row and clamped.
      int32_t frame = rng->Int(start_frame, start_frame + num_frames - 1);
      int32_t row = std::min(std::max(frame / opts.online_ivector_period, 0),
                             ivectors->NumRows() - 1);
      eg.io.emplace_back("ivector", 0, ivectors->RowRange(row, 1));
    }
    Matrix rows =
        TargetRows(targets, chunk.first_frame / f, chunk.num_frames / f);
    eg.io.emplace_back("output", 0, rows, f);
    if (opts.compress) eg.Compress();
    egs->emplace_back(utt + "-" + std::to_string(chunk.first_frame),
                      std::move(eg));
  }
  return true;
}

}  // namespace nnet3

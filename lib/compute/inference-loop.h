// The utterance loop of the inference programs (nnet3-compute and, on its
// threads, nnet3-compute-batch): read features and i-vectors from tables,
// compute, apply --apply-exp, write one matrix per utterance, count, and
// report in Kaldi's log lines.
//
//   InferenceOutputOptions out_opts;  out_opts.Register(&po);   // --apply-exp
//   IvectorTables ivectors;           ivectors.Register(&po);
//   po.Read(argc, argv);
//   NnetSimpleComputer computer(opts, nnet);     // any UtteranceComputer
//   ComputeUtterances(&computer, &ivectors, out_opts, rspecifier, wspecifier);
//
// The parts, for loops of other shapes (the batch pipeline reads on one
// thread and writes on another):
//   InferenceReader reader(rspecifier, &ivectors, ivector_dim);
//   while (reader.Next()) use(reader.Key(), reader.Features(), ...);
//   InferenceWriter writer(wspecifier, out_opts);
//   writer.Write(key, num_input_frames, &output);
//   ReportInference(seconds, succeeded, failed, frames, rspecifier);
//
// Failures: a zero-length utterance, or one that the i-vector tables lack,
// is skipped with a WARNING and counted as failed (Kaldi's behaviour);
// ComputeUtterances lets the computer's UserErrors (bad dimensions) end the
// program, as Kaldi's nnet3-compute does. ReportInference logs
//   Time taken 1.2s: real-time factor assuming 100 frames/sec is 0.01
//   Done 3 utterances, failed for 0
// and throws UserError "No utterance succeeded ..." when nothing was
// written, so that the program exits with status 1, as Kaldi's does.
#ifndef NNET3_COMPUTE_INFERENCE_LOOP_H_
#define NNET3_COMPUTE_INFERENCE_LOOP_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "compute/ivector-tables.h"
#include "compute/utterance-computer.h"
#include "matrix/matrix.h"
#include "matrix/vector.h"

namespace nnet3 {

class OptionsRegistry;

struct InferenceOutputOptions {
  bool apply_exp = false;
  // Registers --apply-exp.
  void Register(OptionsRegistry *po);
};

// Features with their i-vectors, one utterance at a time.
class InferenceReader {
 public:
  // Opens the features and the i-vector tables (IvectorTables::Open with
  // `network_ivector_dim`).
  InferenceReader(const std::string &feature_rspecifier,
                  IvectorTables *ivectors, int32_t network_ivector_dim);
  ~InferenceReader();
  InferenceReader(const InferenceReader &) = delete;
  InferenceReader &operator=(const InferenceReader &) = delete;

  // Moves to the next utterance that has frames and i-vectors (the first
  // call moves to the first); the others are warned about and counted in
  // NumFailed(). False at the end of the features.
  bool Next();
  // The current utterance; valid until the next Next().
  const std::string &Key() const;
  const Matrix &Features() const;
  const Vector *Ivector() const { return ivector_; }
  const Matrix *OnlineIvectors() const { return online_ivectors_; }
  int32_t OnlineIvectorPeriod() const;
  int64_t NumFailed() const { return num_failed_; }
  // Closes the features (UserError if, e.g., an input pipe failed).
  void Close();

 private:
  struct Tables;
  std::unique_ptr<Tables> tables_;
  IvectorTables *ivectors_;
  bool started_ = false;
  const Vector *ivector_ = nullptr;
  const Matrix *online_ivectors_ = nullptr;
  int64_t num_failed_ = 0;
};

// The matrix writer, with --apply-exp and the counts. Write and the counts
// may be used from different threads (one writer thread at a time).
class InferenceWriter {
 public:
  InferenceWriter(const std::string &matrix_wspecifier,
                  const InferenceOutputOptions &opts);
  ~InferenceWriter();
  InferenceWriter(const InferenceWriter &) = delete;
  InferenceWriter &operator=(const InferenceWriter &) = delete;

  // Applies exp() if asked (in place) and writes `output` as `key`;
  // `num_input_frames` counts towards the real-time factor.
  void Write(const std::string &key, int64_t num_input_frames, Matrix *output);
  int64_t NumWritten() const { return num_written_; }
  int64_t NumFrames() const { return num_frames_; }
  // Flushes and closes (UserError on a write or pipe failure).
  void Close();

 private:
  struct Table;
  std::unique_ptr<Table> table_;
  InferenceOutputOptions opts_;
  std::atomic<int64_t> num_written_{0}, num_frames_{0};
};

// Kaldi's two end-of-run log lines (see the file comment); UserError naming
// `feature_rspecifier` if num_success is 0.
void ReportInference(double seconds, int64_t num_success, int64_t num_fail,
                     int64_t num_frames, const std::string &feature_rspecifier);

// nnet3-compute's loop: every utterance of `feature_rspecifier` through
// `computer`, written to `matrix_wspecifier`, then ReportInference. With
// `log_priors` (for --use-priors; null or empty: none), every output row
// gets acoustic_scale · log_priors subtracted before --apply-exp: the
// computer's output is acoustic_scale · log-probabilities, so this gives
// Kaldi's (log-prob − log-prior) · acoustic_scale. UserError if the
// priors' dimension is not the output's.
void ComputeUtterances(UtteranceComputer *computer, IvectorTables *ivectors,
                       const InferenceOutputOptions &opts,
                       const std::string &feature_rspecifier,
                       const std::string &matrix_wspecifier,
                       const VectorView *log_priors = nullptr,
                       float acoustic_scale = 1.0f);

}  // namespace nnet3

#endif  // NNET3_COMPUTE_INFERENCE_LOOP_H_

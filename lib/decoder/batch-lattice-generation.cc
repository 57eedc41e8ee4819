#include "decoder/batch-lattice-generation.h"

#include <fst/fst.h>
#include <fst/vector-fst.h>

#include <algorithm>
#include <deque>
#include <memory>
#include <mutex>
#include <sstream>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/task-sequencer.h"
#include "base/timer.h"
#include "compute/batch-inference-loop.h"
#include "compute/inference-loop.h"
#include "compute/nnet-batch-inference.h"
#include "decoder/decodable-score-matrix.h"
#include "decoder/lattice-faster-decoder.h"
#include "device/device.h"
#include "fstext/graph-checks.h"
#include "fstext/kaldi-fst-io.h"
#include "util/table-specifier.h"

namespace nnet3 {

void BatchLatgenOptions::Register(OptionsRegistry *po) {
  decode.Register(po);
  compute.Register(po);
  po->Register("num-threads", &num_threads,
               "Number of decoder (i.e. graph-search) threads.  The number "
               "of model-evaluation threads is always 1; this is optimized "
               "for use with the GPU.");
  po->Register("max-lattices-waiting", &max_lattices_waiting,
               "Most utterances being searched or waiting to be written "
               "(bounds memory); 0 means --num-threads plus 20.");
  po->Register("log-interval", &log_interval,
               "Seconds between progress lines (utterances written, frames "
               "per second, acoustic model busy share); 0: none.");
}

namespace {

using StdFst = fst::Fst<fst::StdArc>;
using StdVectorFst = fst::VectorFst<fst::StdArc>;

// The decoding graph of each utterance: one shared graph, or a table of
// graphs looked up by key.
class GraphSource {
 public:
  GraphSource(const std::string &fst_in, const BatchLatgenModel &model)
      : name_(fst_in),
        model_name_(model.model_rxfilename),
        num_transition_ids_(model.trans_model.NumTransitionIds()) {
    if (ClassifyRspecifier(fst_in, nullptr, nullptr) !=
        RspecifierType::kNoRspecifier) {
      table_ = std::make_unique<RandomAccessFstReader>(fst_in);
      return;
    }
    shared_.reset(ReadFstKaldiGeneric(fst_in));
    CheckGraphInputLabels(*shared_, num_transition_ids_, name_, model_name_);
  }

  // The utterance's graph; null (after a warning) if the table lacks it.
  std::shared_ptr<const StdFst> Lookup(const std::string &utt) {
    if (table_ == nullptr) return shared_;
    if (!table_->HasKey(utt)) {
      NNET3_WARN << "Not decoding utterance " << utt << " because no "
                 << "decoding graph is available for it in " << name_;
      return nullptr;
    }
    auto graph = std::make_shared<StdVectorFst>(table_->Value(utt));
    CheckGraphInputLabels(*graph, num_transition_ids_,
                          name_ + " (key " + utt + ")", model_name_);
    return graph;
  }

 private:
  std::string name_, model_name_;
  int32_t num_transition_ids_;
  std::shared_ptr<const StdFst> shared_;
  std::unique_ptr<RandomAccessFstReader> table_;
};

// The graphs of the utterances given to the model, in the same order: the
// reader pushes, the dispatcher pops as their scores come out.
class PendingGraphs {
 public:
  void Push(const std::string &utt, std::shared_ptr<const StdFst> graph) {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.emplace_back(utt, std::move(graph));
  }
  std::shared_ptr<const StdFst> Pop(const std::string &utt) {
    std::lock_guard<std::mutex> lock(mutex_);
    NNET3_ASSERT(!queue_.empty() && queue_.front().first == utt);
    std::shared_ptr<const StdFst> graph = std::move(queue_.front().second);
    queue_.pop_front();
    return graph;
  }

 private:
  std::mutex mutex_;
  std::deque<std::pair<std::string, std::shared_ptr<const StdFst>>> queue_;
};

// One utterance on its way through the search threads.
struct SearchJob {
  std::shared_ptr<const StdFst> graph;
  std::unique_ptr<DecodableScoreMatrix> decodable;
  DecodedUtterance result;
};

// The search threads: each decodes the next utterance given to it; the
// results are written in the order given, on the thread that gives them.
class SearchThreads {
 public:
  SearchThreads(const BatchLatgenOptions &opts,
                const TransitionModel &trans_model, LatticeWriters *writers)
      : opts_(opts),
        trans_model_(trans_model),
        writers_(writers),
        threads_(std::max(opts.num_threads, 1)) {
    const int32_t num_threads = static_cast<int32_t>(threads_.size());
    const int32_t max_waiting = opts.max_lattices_waiting > 0
                                    ? opts.max_lattices_waiting
                                    : num_threads + 20;
    if (max_waiting < num_threads)
      NNET3_ERR << "--max-lattices-waiting (" << max_waiting
                << ") must be >= --num-threads (" << num_threads << ")";
    sequencer_ = std::make_unique<TaskSequencer>(num_threads, max_waiting);
  }

  void Decode(const std::string &utt, std::shared_ptr<SearchJob> job) {
    job->result.utt = utt;
    sequencer_->Run([this, job](int32_t thread) { Search(thread, job.get()); },
                    [this, job]() { Output(job.get()); });
  }
  // Every utterance searched and written.
  void Wait() { sequencer_->Wait(); }

  int32_t NumThreads() const { return static_cast<int32_t>(threads_.size()); }
  double BusySeconds(int32_t thread) const { return threads_[thread].busy; }
  double OutputSeconds() const { return output_seconds_; }
  int64_t NumPartial() const { return num_partial_; }

 private:
  // Each thread keeps its decoder while the graph stays the same.
  struct PerThread {
    std::shared_ptr<const StdFst> graph;  // the decoder's
    std::unique_ptr<LatticeFasterDecoder> decoder;
    double busy = 0.0;  // seconds
  };

  void Search(int32_t thread, SearchJob *job) {
    Timer timer;
    PerThread &t = threads_[thread];
    if (t.graph != job->graph) {
      t.decoder = nullptr;
      t.graph = job->graph;
      t.decoder = std::make_unique<LatticeFasterDecoder>(*t.graph,
                                                         opts_.decode.decoder);
    }
    DecodeUtteranceLatticeFaster(opts_.decode, trans_model_, job->result.utt,
                                 t.decoder.get(), job->decodable.get(),
                                 &job->result);
    job->decodable = nullptr;
    t.busy += timer.Elapsed();
  }
  void Output(SearchJob *job) {
    Timer timer;
    if (job->result.success && job->result.partial) num_partial_++;
    writers_->Write(&job->result);
    output_seconds_ += timer.Elapsed();
  }

  const BatchLatgenOptions &opts_;
  const TransitionModel &trans_model_;
  LatticeWriters *writers_;
  std::vector<PerThread> threads_;  // each entry touched by its thread only
  double output_seconds_ = 0.0;     // the writing thread's
  int64_t num_partial_ = 0;
  // Last: destroyed first, so no task outlives the rest.
  std::unique_ptr<TaskSequencer> sequencer_;
};

// The reader's loop: hands each utterance that has a graph and fits the
// network to the model; returns how many failed here (each warned about).
int64_t ReadUtterances(InferenceReader *reader, GraphSource *graphs,
                       NnetBatchInference *inference, PendingGraphs *pending,
                       double *input_seconds) {
  int64_t num_fail = 0;
  std::vector<NnetInferenceTask> tasks;
  const int32_t f = inference->Computer().Options().frame_subsampling_factor;
  Timer timer;
  while (reader->Next()) {
    const std::string &key = reader->Key();
    std::shared_ptr<const StdFst> graph = graphs->Lookup(key);
    if (graph == nullptr) {
      num_fail++;
      continue;
    }
    const Matrix &features = reader->Features();
    try {
      inference->Computer().SplitUtteranceIntoTasks(
          key, features, reader->Ivector(), reader->OnlineIvectors(),
          reader->OnlineIvectorPeriod(), &tasks);
    } catch (const UserError &e) {
      NNET3_WARN << e.what() << "; not decoding utterance " << key;
      num_fail++;
      continue;
    }
    *input_seconds += timer.Elapsed();
    pending->Push(key, std::move(graph));
    inference->AcceptTasks(key, std::move(tasks),
                           (features.NumRows() + f - 1) / f,
                           features.NumRows());
    tasks.clear();
    timer.Reset();
  }
  *input_seconds += timer.Elapsed();
  return num_fail;
}

// Where the time went, as shares of the wall time.
struct TimeShares {
  double wall = 0.0, model = 0.0, input = 0.0, wait_scores = 0.0;
};

std::string Percent(double seconds, double wall) {
  std::ostringstream s;
  s.precision(3);
  s << (wall > 0.0 ? 100.0 * seconds / wall : 0.0) << '%';
  return s.str();
}

void LogSummary(const LatticeWriters &writers, const SearchThreads &search,
                int32_t frame_subsampling_factor, const TimeShares &t) {
  const int64_t frames = writers.NumFrames();
  const int64_t input_frames = frames * frame_subsampling_factor;
  const int32_t n = search.NumThreads();
  NNET3_LOG << "Overall likelihood per frame was "
            << writers.TotalLikelihood() / std::max<int64_t>(1, frames)
            << " over " << frames << " frames.";
  NNET3_LOG << "Time taken " << t.wall
            << "s: real-time factor assuming 100 frames/sec is "
            << (n * t.wall * 100.0 / std::max<int64_t>(input_frames, 1))
            << " (per thread; with " << n << " threads).";
  NNET3_LOG << "Done " << writers.NumSuccess() << " utterances ("
            << search.NumPartial() << " forced out); failed for "
            << writers.NumFailed();
  std::ostringstream line;
  line << "Time shares of " << t.wall << "s: acoustic model ("
       << ActiveDevice().Name() << ") busy " << Percent(t.model, t.wall)
       << "; search threads busy";
  double search_busy = 0.0;
  for (int32_t i = 0; i < n; i++) {
    line << ' ' << Percent(search.BusySeconds(i), t.wall);
    search_busy += search.BusySeconds(i);
  }
  line << "; reading input " << Percent(t.input, t.wall)
       << "; search waiting for scores " << Percent(t.wait_scores, t.wall)
       << "; writing output " << Percent(search.OutputSeconds(), t.wall);
  if (t.model > 0.9 * t.wall)
    line << " (the acoustic model is the bottleneck)";
  else if (search_busy > 0.9 * n * t.wall)
    line << " (the search is the bottleneck: try more --num-threads)";
  NNET3_LOG << line.str();
}

// Every --log-interval seconds, on the writing thread: how far it got.
class ProgressLog {
 public:
  explicit ProgressLog(float interval) : interval_(interval), next_(interval) {}
  void Maybe(const LatticeWriters &writers, const NnetBatchInference &model,
             const Timer &since_start) {
    const double now = since_start.Elapsed();
    if (interval_ <= 0.0f || now < next_) return;
    next_ = now + interval_;
    NNET3_LOG << "After " << now << "s: " << writers.NumSuccess()
              << " utterances written (" << writers.NumFailed() << " failed), "
              << writers.NumFrames() << " frames, " << writers.NumFrames() / now
              << " frames per second; acoustic "
              << "model busy " << Percent(model.ComputeSeconds(), now);
  }

 private:
  float interval_;
  double next_;  // seconds since the start
};

}  // namespace

int64_t GenerateLatticesBatched(const BatchLatgenOptions &opts,
                                const BatchLatgenModel &model,
                                IvectorTables *ivectors,
                                const std::string &fst_in,
                                const std::string &feature_rspecifier,
                                const std::string &lattice_wspecifier,
                                const std::string &words_wspecifier,
                                const std::string &alignments_wspecifier) {
  LatticeWriters writers(opts.decode, lattice_wspecifier, words_wspecifier,
                         alignments_wspecifier);
  NnetBatchInference inference(opts.compute, model.nnet, model.log_priors);
  if (inference.Computer().OutputDim() != model.trans_model.NumPdfs())
    NNET3_ERR << model.model_rxfilename << ": the network's output has "
              << "dimension " << inference.Computer().OutputDim()
              << " but the transition model has " << model.trans_model.NumPdfs()
              << " pdfs";
  GraphSource graphs(fst_in, model);
  Timer timer;
  InferenceReader reader(feature_rspecifier, ivectors,
                         inference.Computer().IvectorDim());
  SearchThreads search(opts, model.trans_model, &writers);
  PendingGraphs pending;
  TimeShares shares;
  int64_t num_fail = 0;
  Timer since_scores;
  ProgressLog progress(opts.log_interval);
  RunBatchPipeline(
      &inference,
      [&] {
        num_fail = ReadUtterances(&reader, &graphs, &inference, &pending,
                                  &shares.input);
        reader.Close();
      },
      [&](const std::string &utt, Matrix *scores, int64_t) {
        shares.wait_scores += since_scores.Elapsed();
        auto job = std::make_shared<SearchJob>();
        job->graph = pending.Pop(utt);
        job->decodable = std::make_unique<DecodableScoreMatrix>(
            utt, model.trans_model, *scores);
        *scores = Matrix();
        search.Decode(utt, std::move(job));
        progress.Maybe(writers, inference, timer);
        since_scores.Reset();
      });
  search.Wait();
  for (int64_t i = 0; i < num_fail + reader.NumFailed(); i++)
    writers.CountFailure();
  writers.Close();
  shares.wall = timer.Elapsed();
  shares.model = inference.ComputeSeconds();
  LogSummary(writers, search, opts.compute.frame_subsampling_factor, shares);
  if (writers.NumSuccess() == 0)
    NNET3_ERR << "No utterance of " << feature_rspecifier << " was decoded "
              << "(see the warnings above)";
  return writers.NumSuccess();
}

}  // namespace nnet3

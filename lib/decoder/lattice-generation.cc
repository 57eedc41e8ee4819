#include "decoder/lattice-generation.h"

#include <fst/fst.h>
#include <fst/vector-fst.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "base/options.h"
#include "base/task-sequencer.h"
#include "base/timer.h"
#include "compute/inference-loop.h"
#include "decoder/decodable-am-nnet-simple.h"
#include "device/cpu-threads.h"
#include "fstext/graph-checks.h"
#include "fstext/kaldi-fst-io.h"
#include "util/table-specifier.h"
#include "util/table-types.h"

namespace nnet3 {

void LatgenOptions::Register(OptionsRegistry *po) { decode.Register(po); }

void LatgenOptions::RegisterThreads(OptionsRegistry *po) {
  po->Register("num-threads", &num_threads,
               "Number of actively processing threads to run in parallel");
  po->Register("num-threads-total", &num_threads_total,
               "Total number of threads, including those that are waiting "
               "on other threads to produce their output.  Controls memory "
               "use.  If <= 0, defaults to --num-threads plus 20.  "
               "Otherwise, must be >= num-threads.");
}

namespace {

using StdFst = fst::Fst<fst::StdArc>;
using StdVectorFst = fst::VectorFst<fst::StdArc>;

// One utterance to decode, with copies of its inputs (a task owns them).
struct Job {
  std::string utt;
  Matrix features;
  std::unique_ptr<Vector> ivector;
  std::unique_ptr<Matrix> online_ivectors;
  int32_t online_ivector_period = 0;
  std::unique_ptr<StdVectorFst> graph;  // a graph of its own, if any
  DecodedUtterance result;
  double network_seconds = 0.0, search_seconds = 0.0;
};

// What one decoding thread keeps: its network computer, and a decoder for
// the shared graph (serial decoding keeps it, as Kaldi does).
class Worker {
 public:
  Worker(const LatgenOptions &opts, const LatgenModel &model)
      : opts_(opts), model_(model), computer_(model.new_computer()) {}
  int32_t IvectorDim() const { return computer_->IvectorDim(); }

  // Decodes `job` against `graph`, with a new decoder unless
  // `keep_decoder` (and the graph is the last one's).
  void Decode(const StdFst &graph, bool keep_decoder, Job *job) {
    DecodableAmNnetSimple decodable(
        job->utt, model_.trans_model, model_.log_priors, model_.acoustic_scale,
        computer_.get(), job->features, job->ivector.get(),
        job->online_ivectors.get(), job->online_ivector_period);
    job->network_seconds = decodable.NetworkSeconds();
    Timer timer;
    if (!keep_decoder || decoder_graph_ != &graph) {
      decoder_ =
          std::make_unique<LatticeFasterDecoder>(graph, opts_.decode.decoder);
      decoder_graph_ = &graph;
    }
    DecodeUtteranceLatticeFaster(opts_.decode, model_.trans_model, job->utt,
                                 decoder_.get(), &decodable, &job->result);
    job->search_seconds = timer.Elapsed();
  }

 private:
  const LatgenOptions &opts_;
  const LatgenModel &model_;
  std::unique_ptr<UtteranceComputer> computer_;
  std::unique_ptr<LatticeFasterDecoder> decoder_;
  const StdFst *decoder_graph_ = nullptr;
};

// Serial or parallel decoding of jobs, written in order, with totals.
class JobRunner {
 public:
  JobRunner(const LatgenOptions &opts, const LatgenModel &model,
            LatticeWriters *writers)
      : writers_(writers),
        num_transition_ids_(model.trans_model.NumTransitionIds()),
        model_name_(model.model_rxfilename) {
    const int32_t num_threads = std::max(opts.num_threads, 1);
    for (int32_t t = 0; t < num_threads; t++)
      workers_.push_back(std::make_unique<Worker>(opts, model));
    if (num_threads > 1) {
      const int32_t total = opts.num_threads_total > 0 ? opts.num_threads_total
                                                       : num_threads + 20;
      if (total < num_threads)
        NNET3_ERR << "--num-threads-total (" << total
                  << ") must be >= --num-threads (" << num_threads << ")";
      sequencer_ = std::make_unique<TaskSequencer>(num_threads, total);
    }
  }
  int32_t IvectorDim() const { return workers_[0]->IvectorDim(); }
  // UserError unless the graph's input labels are the model's
  // transition-ids.
  void CheckGraph(const StdFst &graph, const std::string &graph_name) const {
    CheckGraphInputLabels(graph, num_transition_ids_, graph_name, model_name_);
  }

  void Run(std::shared_ptr<Job> job, const StdFst *graph) {
    if (sequencer_ == nullptr) {
      workers_[0]->Decode(*graph, true, job.get());
      Output(job.get());
      return;
    }
    sequencer_->Run(
        [this, job, graph](int32_t thread) {
          // The threads share the cores: one each for the products too.
          ProductThreadsInThisThread one_thread(1);
          workers_[thread]->Decode(*graph, false, job.get());
        },
        [this, job]() { Output(job.get()); });
  }
  void Wait() {
    if (sequencer_ != nullptr) sequencer_->Wait();
  }
  void LogTimes() const {
    NNET3_VLOG(1) << "Network computation took " << network_seconds_
                  << "s, search and lattice " << search_seconds_ << "s";
  }

 private:
  void Output(Job *job) {
    NNET3_VLOG(1) << "Utterance " << job->utt << ": network "
                  << job->network_seconds << "s, search and lattice "
                  << job->search_seconds << "s";
    network_seconds_ += job->network_seconds;
    search_seconds_ += job->search_seconds;
    writers_->Write(&job->result);
  }

  LatticeWriters *writers_;
  int32_t num_transition_ids_;
  std::string model_name_;
  std::vector<std::unique_ptr<Worker>> workers_;
  double network_seconds_ = 0.0, search_seconds_ = 0.0;
  // Last: destroyed first, so no task outlives the workers.
  std::unique_ptr<TaskSequencer> sequencer_;
};

// Copies an utterance's i-vectors into the job; false (warned and to be
// counted as failed) if the tables lack them.
bool AddIvectors(IvectorTables *ivectors, Job *job) {
  const Vector *ivector = nullptr;
  const Matrix *online = nullptr;
  if (!ivectors->Lookup(job->utt, &ivector, &online)) return false;
  if (ivector != nullptr) job->ivector = std::make_unique<Vector>(*ivector);
  if (online != nullptr)
    job->online_ivectors = std::make_unique<Matrix>(*online);
  job->online_ivector_period = ivectors->OnlinePeriod();
  return true;
}

void DecodeWithOneGraph(const std::string &fst_in,
                        const std::string &feature_rspecifier,
                        IvectorTables *ivectors, JobRunner *runner,
                        LatticeWriters *writers, Timer *timer) {
  std::unique_ptr<StdFst> graph(ReadFstKaldiGeneric(fst_in));
  runner->CheckGraph(*graph, fst_in);
  timer->Reset();
  InferenceReader reader(feature_rspecifier, ivectors, runner->IvectorDim());
  while (reader.Next()) {
    auto job = std::make_shared<Job>();
    job->utt = reader.Key();
    job->features = Matrix(reader.Features());
    if (reader.Ivector() != nullptr)
      job->ivector = std::make_unique<Vector>(*reader.Ivector());
    if (reader.OnlineIvectors() != nullptr)
      job->online_ivectors = std::make_unique<Matrix>(*reader.OnlineIvectors());
    job->online_ivector_period = reader.OnlineIvectorPeriod();
    runner->Run(std::move(job), graph.get());
  }
  runner->Wait();
  for (int64_t i = 0; i < reader.NumFailed(); i++) writers->CountFailure();
  reader.Close();
}

void DecodeWithGraphTable(const std::string &fst_rspecifier,
                          const std::string &feature_rspecifier,
                          IvectorTables *ivectors, JobRunner *runner,
                          LatticeWriters *writers) {
  SequentialTableReader<VectorFstHolder> fst_reader(fst_rspecifier);
  RandomAccessBaseFloatMatrixReader feature_reader(feature_rspecifier);
  ivectors->Open(runner->IvectorDim());
  for (; !fst_reader.Done(); fst_reader.Next()) {
    auto job = std::make_shared<Job>();
    job->utt = fst_reader.Key();
    if (!feature_reader.HasKey(job->utt)) {
      NNET3_WARN << "Not decoding utterance " << job->utt
                 << " because no features available.";
      writers->CountFailure();
      continue;
    }
    job->features = Matrix(feature_reader.Value(job->utt));
    if (job->features.NumRows() == 0) {
      NNET3_WARN << "Zero-length utterance: " << job->utt;
      writers->CountFailure();
      continue;
    }
    if (!AddIvectors(ivectors, job.get())) {
      writers->CountFailure();
      continue;
    }
    job->graph = std::make_unique<StdVectorFst>(fst_reader.Value());
    runner->CheckGraph(*job->graph, fst_rspecifier + " (key " + job->utt + ")");
    const StdFst *graph = job->graph.get();
    runner->Run(std::move(job), graph);
  }
  runner->Wait();
}

}  // namespace

int64_t GenerateLattices(const LatgenOptions &opts, const LatgenModel &model,
                         IvectorTables *ivectors, const std::string &fst_in,
                         const std::string &feature_rspecifier,
                         const std::string &lattice_wspecifier,
                         const std::string &words_wspecifier,
                         const std::string &alignments_wspecifier) {
  Timer timer;
  LatticeWriters writers(opts.decode, lattice_wspecifier, words_wspecifier,
                         alignments_wspecifier);
  JobRunner runner(opts, model, &writers);
  if (ClassifyRspecifier(fst_in, nullptr, nullptr) ==
      RspecifierType::kNoRspecifier)
    DecodeWithOneGraph(fst_in, feature_rspecifier, ivectors, &runner, &writers,
                       &timer);
  else
    DecodeWithGraphTable(fst_in, feature_rspecifier, ivectors, &runner,
                         &writers);
  writers.Close();
  writers.LogSummary(timer.Elapsed(), model.frame_subsampling_factor);
  runner.LogTimes();
  // Kaldi's programs exit with status 1 then; ours also say why, once.
  if (writers.NumSuccess() == 0)
    NNET3_ERR << "No utterance of " << feature_rspecifier << " was decoded "
              << "(see the warnings above)";
  return writers.NumSuccess();
}

}  // namespace nnet3

// Objectives of nnet3 training and diagnostics (reference 10.3, 10.4):
// the objective of an output given its supervision, its derivative, the
// classification accuracy, and the per-output statistics the trainer logs.
//
//   double weight, objf;
//   ComputeObjectiveFunction(io.features, kLinear, "output",
//                            /*supply_deriv=*/true, &computer, &weight, &objf);
//   ObjectiveFunctionInfo info;
//   info.UpdateStats("output", print_interval, minibatch, weight, objf, 0.0,
//                    ReportSink());               // empty: NNET3_LOG
//   info.PrintTotalStats("output", ReportSink());
//
// Objectives (y the network's output, s the supervision, both R x C):
//   linear (the net ends in a log-softmax, s holds posteriors):
//     objf = Σ y ⊙ s, weight = Σ s, d objf / d y = s;
//   quadratic: objf = -½ ‖y − s‖², weight = R, d objf / d y = s − y.
// The supervision may be sparse, full or compressed. A column count that
// differs from the output's is a UserError ("Nnet versus example output
// dimension (num-classes) mismatch for 'output': 10 (nnet) vs. 12 (egs)").
//
// Report lines go through a ReportSink so tests can collect them; an empty
// sink means NNET3_LOG at the reporting function (so that the log line
// names it, as Kaldi's do).
#ifndef NNET3_TRAIN_OBJECTIVE_FUNCTION_H_
#define NNET3_TRAIN_OBJECTIVE_FUNCTION_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "base/log.h"
#include "compute/nnet-computer.h"
#include "matrix/general-matrix.h"
#include "matrix/matrix.h"
#include "nnet/nnet.h"

namespace nnet3 {

// Receives one report line (no trailing newline); empty: NNET3_LOG.
using ReportSink = std::function<void(const std::string &line)>;

// The objective of `output` (the value of output node `output_name`) given
// `supervision` (see the file comment). If `deriv` is non-null it is set to
// d objf / d output, on the output's device.
void ComputeObjectiveFromOutput(const GeneralMatrix &supervision,
                                ObjectiveType objective_type,
                                const std::string &output_name,
                                const MatrixView &output, double *tot_weight,
                                double *tot_objf, Matrix *deriv);

// Kaldi's signature: takes the output from computer->GetOutput(output_name)
// and, if supply_deriv, gives the derivative back with
// computer->AcceptInput(output_name, ...). Needs a computation whose output
// and derivative I/O are adjacent (an optimized one); for any computation
// use RunExampleComputation with ComputeObjectiveFromOutput.
void ComputeObjectiveFunction(const GeneralMatrix &supervision,
                              ObjectiveType objective_type,
                              const std::string &output_name, bool supply_deriv,
                              NnetComputer *computer, double *tot_weight,
                              double *tot_objf);

// Kaldi's ComputeAccuracy: for each row r, the supervision's best class
// (its row argmax) is compared with the output's row argmax; the row counts
// with weight Σ_c s(r, c) (the row sum, as Kaldi weighs it; 1 for a
// one-hot row), into *tot_weight and, when they agree, *tot_accuracy.
// Per-dim totals (indexed by the supervision's best class) are added when
// the vectors are non-null (they are resized to C if empty). Ties go to the
// lowest index.
void ComputeAccuracy(const GeneralMatrix &supervision, const MatrixView &output,
                     double *tot_weight, double *tot_accuracy,
                     std::vector<double> *tot_weight_vec = nullptr,
                     std::vector<double> *tot_accuracy_vec = nullptr);

// Kaldi's ObjectiveFunctionInfo: totals over the whole run and over the
// current "phase" of minibatches_per_phase (--print-interval) minibatches.
struct ObjectiveFunctionInfo {
  int32_t current_phase = 0;
  int32_t minibatches_this_phase = 0;
  double tot_weight = 0.0;
  double tot_objf = 0.0;
  double tot_aux_objf = 0.0;
  double tot_weight_this_phase = 0.0;
  double tot_objf_this_phase = 0.0;
  double tot_aux_objf_this_phase = 0.0;

  // Adds one minibatch's totals. When `minibatch_counter` (0-based) starts a
  // new phase, first reports the finished phase:
  //   Average objective function for 'output' for minibatches 0-99 is
  //   -2.3 over 12800 frames.
  // (or "... for 'output' using K minibatches in minibatch range A-B is
  // ..." when the phase had K != minibatches_per_phase minibatches, or
  // "... is X + Y = Z over ..." with an auxiliary objective).
  void UpdateStats(const std::string &output_name,
                   int32_t minibatches_per_phase, int32_t minibatch_counter,
                   double this_minibatch_weight, double this_minibatch_tot_objf,
                   double this_minibatch_tot_aux_objf,
                   const ReportSink &report);
  void PrintStatsForThisPhase(const std::string &output_name,
                              int32_t minibatches_per_phase, int32_t phase,
                              const ReportSink &report) const;
  // Reports
  //   Overall average objective function for 'output' is X over W frames.
  //   [this line is to be parsed by a script:] log-prob-per-frame=X
  // and returns whether any weight was seen.
  bool PrintTotalStats(const std::string &output_name,
                       const ReportSink &report) const;
};

}  // namespace nnet3

// Sends `line` (a std::string) to `sink`, or logs it here if the sink is
// empty.
#define NNET3_REPORT(sink, line) \
  do {                           \
    if (sink)                    \
      (sink)(line);              \
    else                         \
      NNET3_LOG << (line);       \
  } while (0)

#endif  // NNET3_TRAIN_OBJECTIVE_FUNCTION_H_

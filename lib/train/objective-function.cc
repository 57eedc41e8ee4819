#include "train/objective-function.h"

#include <sstream>

#include "base/error.h"
#include "base/log.h"

namespace nnet3 {

void ComputeObjectiveFromOutput(const GeneralMatrix &supervision,
                                ObjectiveType objective_type,
                                const std::string &output_name,
                                const MatrixView &output, double *tot_weight,
                                double *tot_objf, Matrix *deriv) {
  if (output.NumCols() != supervision.NumCols())
    NNET3_ERR << "Nnet versus example output dimension (num-classes) "
              << "mismatch for '" << output_name << "': " << output.NumCols()
              << " (nnet) vs. " << supervision.NumCols() << " (egs)";
  if (output.NumRows() != supervision.NumRows())
    NNET3_ERR << "The network's output '" << output_name << "' has "
              << output.NumRows() << " rows but the example's supervision has "
              << supervision.NumRows();
  // The supervision, densely, on the output's device.
  Matrix s(output.NumRows(), output.NumCols(), ResizeType::kUndefined,
           output.device());
  supervision.CopyToMatrix(&s);
  switch (objective_type) {
    case kLinear:
      // objf = Σ y ⊙ s; d objf / d y = s.
      *tot_weight = supervision.Type() == GeneralMatrixType::kSparseMatrix
                        ? supervision.GetSparseMatrix().Sum()
                        : s.Sum();
      *tot_objf = DotProduct(output, s);
      break;
    case kQuadratic:
      // objf = -½ ‖y − s‖²; d objf / d y = s − y.
      s.AddMat(-1.0f, output);
      *tot_weight = output.NumRows();
      *tot_objf = -0.5 * DotProduct(s, s);
      break;
    default:
      NNET3_INTERNAL_ERR << "Unknown objective type " << objective_type;
  }
  if (deriv != nullptr) deriv->Swap(&s);
}

void ComputeObjectiveFunction(const GeneralMatrix &supervision,
                              ObjectiveType objective_type,
                              const std::string &output_name, bool supply_deriv,
                              NnetComputer *computer, double *tot_weight,
                              double *tot_objf) {
  Matrix deriv;
  ComputeObjectiveFromOutput(supervision, objective_type, output_name,
                             computer->GetOutput(output_name), tot_weight,
                             tot_objf, supply_deriv ? &deriv : nullptr);
  if (supply_deriv) computer->AcceptInput(output_name, &deriv);
}

namespace {

// Index of the first largest of n values.
int32_t ArgMax(const float *row, int32_t n) {
  int32_t best = 0;
  for (int32_t c = 1; c < n; ++c)
    if (row[c] > row[best]) best = c;
  return best;
}

}  // namespace

void ComputeAccuracy(const GeneralMatrix &supervision, const MatrixView &output,
                     double *tot_weight, double *tot_accuracy,
                     std::vector<double> *tot_weight_vec,
                     std::vector<double> *tot_accuracy_vec) {
  const int32_t num_rows = output.NumRows(), num_cols = output.NumCols();
  if (supervision.NumRows() != num_rows || supervision.NumCols() != num_cols)
    NNET3_ERR << "ComputeAccuracy: the supervision is " << supervision.NumRows()
              << " x " << supervision.NumCols() << " but the output is "
              << num_rows << " x " << num_cols;
  for (std::vector<double> *v : {tot_weight_vec, tot_accuracy_vec})
    if (v != nullptr && v->empty()) v->assign(num_cols, 0.0);
  const std::vector<float> out = output.ToHost();
  // Dense supervision rows are only materialized for non-sparse types.
  std::vector<float> dense;
  const bool sparse = supervision.Type() == GeneralMatrixType::kSparseMatrix;
  if (!sparse) {
    Matrix s(num_rows, num_cols, ResizeType::kUndefined, CpuDevice());
    supervision.CopyToMatrix(&s);
    dense = s.ToHost();
  }
  double weight = 0.0, accuracy = 0.0;
  for (int32_t r = 0; r < num_rows; ++r) {
    double row_sum = 0.0;
    int32_t best = -1;
    if (sparse) {
      const SparseVector &row = supervision.GetSparseMatrix().Row(r);
      float best_value = 0.0f;
      for (const auto &p : row.Pairs()) {
        row_sum += p.second;
        if (best < 0 || p.second > best_value) {
          best = p.first;
          best_value = p.second;
        }
      }
      if (best < 0) continue;  // an empty row has no weight
    } else {
      const float *row = dense.data() + static_cast<size_t>(r) * num_cols;
      for (int32_t c = 0; c < num_cols; ++c) row_sum += row[c];
      best = ArgMax(row, num_cols);
    }
    weight += row_sum;
    if (tot_weight_vec != nullptr) (*tot_weight_vec)[best] += row_sum;
    const int32_t guess =
        ArgMax(out.data() + static_cast<size_t>(r) * num_cols, num_cols);
    if (guess == best) {
      accuracy += row_sum;
      if (tot_accuracy_vec != nullptr) (*tot_accuracy_vec)[best] += row_sum;
    }
  }
  *tot_weight = weight;
  *tot_accuracy = accuracy;
}

void ObjectiveFunctionInfo::UpdateStats(const std::string &output_name,
                                        int32_t minibatches_per_phase,
                                        int32_t minibatch_counter,
                                        double this_minibatch_weight,
                                        double this_minibatch_tot_objf,
                                        double this_minibatch_tot_aux_objf,
                                        const ReportSink &report) {
  NNET3_ASSERT(minibatches_per_phase > 0);
  const int32_t phase = minibatch_counter / minibatches_per_phase;
  if (phase != current_phase) {
    NNET3_ASSERT(phase > current_phase);
    PrintStatsForThisPhase(output_name, minibatches_per_phase, phase, report);
    current_phase = phase;
    tot_weight_this_phase = 0.0;
    tot_objf_this_phase = 0.0;
    tot_aux_objf_this_phase = 0.0;
    minibatches_this_phase = 0;
  }
  minibatches_this_phase++;
  tot_weight_this_phase += this_minibatch_weight;
  tot_objf_this_phase += this_minibatch_tot_objf;
  tot_aux_objf_this_phase += this_minibatch_tot_aux_objf;
  tot_weight += this_minibatch_weight;
  tot_objf += this_minibatch_tot_objf;
  tot_aux_objf += this_minibatch_tot_aux_objf;
}

void ObjectiveFunctionInfo::PrintStatsForThisPhase(
    const std::string &output_name, int32_t minibatches_per_phase,
    int32_t phase, const ReportSink &report) const {
  const int32_t start_minibatch = current_phase * minibatches_per_phase,
                end_minibatch = phase * minibatches_per_phase - 1;
  std::ostringstream os;
  os << "Average objective function for '" << output_name << "'";
  if (minibatches_this_phase == minibatches_per_phase)
    os << " for minibatches " << start_minibatch << '-' << end_minibatch;
  else
    os << " using " << minibatches_this_phase
       << " minibatches in minibatch range " << start_minibatch << '-'
       << end_minibatch;
  const double objf = tot_objf_this_phase / tot_weight_this_phase;
  os << " is " << objf;
  if (tot_aux_objf_this_phase != 0.0) {
    const double aux_objf = tot_aux_objf_this_phase / tot_weight_this_phase;
    os << " + " << aux_objf << " = " << objf + aux_objf;
  }
  os << " over " << tot_weight_this_phase << " frames.";
  NNET3_REPORT(report, os.str());
}

bool ObjectiveFunctionInfo::PrintTotalStats(const std::string &output_name,
                                            const ReportSink &report) const {
  const double objf = tot_objf / tot_weight,
               aux_objf = tot_aux_objf / tot_weight;
  std::ostringstream os;
  os << "Overall average objective function for '" << output_name << "' is "
     << objf;
  if (tot_aux_objf != 0.0) os << " + " << aux_objf << " = " << objf + aux_objf;
  os << " over " << tot_weight << " frames.";
  NNET3_REPORT(report, os.str());
  std::ostringstream parsed;
  parsed << "[this line is to be parsed by a script:] log-prob-per-frame="
         << objf;
  NNET3_REPORT(report, parsed.str());
  return tot_weight != 0.0;
}

}  // namespace nnet3

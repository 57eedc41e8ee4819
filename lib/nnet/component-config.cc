#include "nnet/component-config.h"

#include <algorithm>
#include <sstream>

#include "base/error.h"
#include "util/kaldi-io.h"

namespace nnet3 {

void ThrowConfigError(const ConfigLine &cfl, const std::string &type,
                      const std::string &what) {
  NNET3_ERR << type << ": " << what << " (config line '" << cfl.WholeLine()
            << "')";
}

int32_t GetPositiveInt(ConfigLine *cfl, const std::string &type,
                       const std::string &key) {
  int32_t value = 0;
  if (!cfl->GetValue(key, &value))
    ThrowConfigError(*cfl, type, "missing required key " + key + "=");
  if (value <= 0)
    ThrowConfigError(*cfl, type,
                     key + "=" + std::to_string(value) + " must be > 0");
  return value;
}

float GetNonNegativeFloat(ConfigLine *cfl, const std::string &type,
                          const std::string &key, float default_value) {
  float value = default_value;
  cfl->GetValue(key, &value);
  if (!(value >= 0.0f)) {
    std::ostringstream os;
    os << key << "=" << value << " must be >= 0";
    ThrowConfigError(*cfl, type, os.str());
  }
  return value;
}

bool GetMatrixFromConfig(ConfigLine *cfl, const std::string &type,
                         const std::string &key, Matrix *mat) {
  std::string filename;
  if (!cfl->GetValue(key, &filename)) return false;
  try {
    ReadKaldiObject(filename, mat);
  } catch (const UserError &e) {
    ThrowConfigError(*cfl, type,
                     "cannot read " + key + "=" + filename + ": " + e.what());
  }
  return true;
}

void CheckOptionalDim(ConfigLine *cfl, const std::string &type,
                      const std::string &key, int32_t expected) {
  int32_t value = 0;
  if (cfl->GetValue(key, &value) && value != expected)
    ThrowConfigError(*cfl, type,
                     key + "=" + std::to_string(value) +
                         " does not match the matrix, which implies " +
                         std::to_string(expected));
}

void NaturalGradientConfig::ReadFromConfig(ConfigLine *cfl,
                                           const std::string &type) {
  cfl->GetValue("num-samples-history", &num_samples_history);
  cfl->GetValue("alpha", &alpha);
  cfl->GetValue("rank-in", &rank_in);
  cfl->GetValue("rank-out", &rank_out);
  cfl->GetValue("update-period", &update_period);
  std::ostringstream os;
  if (!(num_samples_history > 0.0f && num_samples_history < 1e6f))
    os << "num-samples-history=" << num_samples_history
       << " must be in (0, 1e6)";
  else if (!(alpha >= 0.0f))
    os << "alpha=" << alpha << " must be >= 0";
  else if (rank_in == 0 || rank_in < -1)
    os << "rank-in=" << rank_in << " must be > 0 (or -1 for the default)";
  else if (rank_out == 0 || rank_out < -1)
    os << "rank-out=" << rank_out << " must be > 0 (or -1 for the default)";
  else if (update_period <= 0)
    os << "update-period=" << update_period << " must be > 0";
  if (!os.str().empty()) ThrowConfigError(*cfl, type, os.str());
}

void NaturalGradientConfig::Apply(int32_t input_dim, int32_t output_dim,
                                  OnlineNaturalGradient *in,
                                  OnlineNaturalGradient *out) const {
  int32_t r_in = rank_in > 0 ? rank_in : std::min(20, (input_dim + 1) / 2);
  int32_t r_out = rank_out > 0 ? rank_out : std::min(80, (output_dim + 1) / 2);
  for (OnlineNaturalGradient *p : {in, out}) {
    p->SetNumSamplesHistory(num_samples_history);
    p->SetAlpha(alpha);
    p->SetUpdatePeriod(update_period);
  }
  in->SetRank(std::max(r_in, 1));
  out->SetRank(std::max(r_out, 1));
}

}  // namespace nnet3

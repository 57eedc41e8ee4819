// Helpers for Component::InitFromConfig: typed getters that check ranges and
// throw one-line UserErrors naming the component type, the key and the
// value; reading a matrix=<rxfilename> key; and the natural-gradient keys
// shared by NaturalGradientAffineComponent and LinearComponent.
//
//   GetRequiredKey(Type(), "dim", cfl, &dim);                    // any type
//   int32_t dim = GetPositiveInt(cfl, Type(), "input-dim");     // required
//   float stddev = GetNonNegativeFloat(cfl, Type(), "param-stddev", 1.0f);
//   Matrix mat;
//   if (GetMatrixFromConfig(cfl, Type(), "matrix", &mat)) ...
//   NaturalGradientConfig ng;
//   ng.ReadFromConfig(cfl, Type());
//   ng.Apply(input_dim, output_dim, &preconditioner_in_, &preconditioner_out_);
//
// Errors look like
//   AffineComponent: input-dim=0 must be > 0 (config line
//   'type=AffineComponent input-dim=0 output-dim=3')
// all on one line.
#ifndef NNET3_NNET_COMPONENT_CONFIG_H_
#define NNET3_NNET_COMPONENT_CONFIG_H_

#include <cstdint>
#include <string>

#include "base/error.h"
#include "matrix/matrix.h"
#include "nnet/natural-gradient-online.h"
#include "util/config-line.h"

namespace nnet3 {

// Throws UserError "<type>: <what> (config line '<line>')".
void ThrowConfigError(const ConfigLine &cfl, const std::string &type,
                      const std::string &what);

// Reads a required key; UserError "<type>: required config key '<key>' is
// missing in '<line>'" if absent.
template <class T>
void GetRequiredKey(const std::string &type, const std::string &key,
                    ConfigLine *cfl, T *value) {
  if (!cfl->GetValue(key, value))
    NNET3_ERR << type << ": required config key '" << key << "' is missing in '"
              << cfl->WholeLine() << "'";
}

// A required integer key that must be > 0.
int32_t GetPositiveInt(ConfigLine *cfl, const std::string &type,
                       const std::string &key);
// An optional float key (default if absent) that must be >= 0.
float GetNonNegativeFloat(ConfigLine *cfl, const std::string &type,
                          const std::string &key, float default_value);
// If `key` is present, reads the matrix it names (any rxfilename) into *mat
// and returns true; read errors name the key and the file.
bool GetMatrixFromConfig(ConfigLine *cfl, const std::string &type,
                         const std::string &key, Matrix *mat);
// If `key` is present it must equal `expected` (e.g. input-dim given along
// with matrix=).
void CheckOptionalDim(ConfigLine *cfl, const std::string &type,
                      const std::string &key, int32_t expected);

// Kaldi's natural-gradient keys (reference 3.3): num-samples-history=2000,
// alpha=4, rank-in=-1 (→ min(20, (input-dim+1)/2)), rank-out=-1
// (→ min(80, (output-dim+1)/2)), update-period=4.
struct NaturalGradientConfig {
  float num_samples_history = 2000.0f;
  float alpha = 4.0f;
  int32_t rank_in = -1;
  int32_t rank_out = -1;
  int32_t update_period = 4;

  void ReadFromConfig(ConfigLine *cfl, const std::string &type);
  // Sets both preconditioners (rank defaults resolved from the dims).
  void Apply(int32_t input_dim, int32_t output_dim, OnlineNaturalGradient *in,
             OnlineNaturalGradient *out) const;
};

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENT_CONFIG_H_

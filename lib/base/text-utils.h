// Small string helpers shared by option parsing, config lines, descriptors
// and table specifiers: Kaldi's IsToken / IsValidName rules, trimming,
// splitting and strict number conversion (the whole string must convert).
#ifndef NNET3_BASE_TEXT_UTILS_H_
#define NNET3_BASE_TEXT_UTILS_H_

#include <cstdint>
#include <string>
#include <vector>

namespace nnet3 {

// Non-empty and no whitespace (archive keys, component names).
bool IsToken(const std::string &s);
// Non-empty; first char [A-Za-z_]; the rest [A-Za-z0-9_.-] (reference 1.5).
bool IsValidName(const std::string &s);
// Removes leading and trailing spaces, tabs, '\r' and '\n'.
std::string Trim(const std::string &s);
// Splits on any character in `delims`; drops empty pieces if omit_empty.
std::vector<std::string> SplitString(const std::string &s,
                                     const std::string &delims,
                                     bool omit_empty);
// Strict conversions: false unless the whole string (trimmed) is a number.
// Reals accept inf, -inf and nan.
bool ConvertStringToInteger(const std::string &s, int32_t *out);
bool ConvertStringToInteger(const std::string &s, int64_t *out);
bool ConvertStringToReal(const std::string &s, double *out);
bool ConvertStringToReal(const std::string &s, float *out);
// "1,2,3" or "1:2:3" (empty pieces dropped); false on any bad piece.
bool SplitStringToIntegers(const std::string &s, const std::string &delims,
                           std::vector<int32_t> *out);

}  // namespace nnet3

#endif  // NNET3_BASE_TEXT_UTILS_H_

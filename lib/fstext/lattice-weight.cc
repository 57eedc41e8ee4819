#include "fstext/lattice-weight.h"

#include <cmath>
#include <cstdlib>

namespace nnet3 {

void WriteLatticeCost(std::ostream &os, double cost) {
  if (std::isnan(cost))
    os << "BadNumber";
  else if (std::isinf(cost))
    os << (cost > 0 ? "Infinity" : "-Infinity");
  else
    os << cost;
}

bool ParseLatticeCost(const std::string &token, double *cost) {
  if (token == "Infinity") {
    *cost = std::numeric_limits<double>::infinity();
  } else if (token == "-Infinity") {
    *cost = -std::numeric_limits<double>::infinity();
  } else if (token == "BadNumber") {
    *cost = std::numeric_limits<double>::quiet_NaN();
  } else {
    char *end = nullptr;
    *cost = std::strtod(token.c_str(), &end);
    if (end != token.c_str() + token.size()) return false;
  }
  return true;
}

}  // namespace nnet3

#include "base/error.h"

#include <cstring>

namespace nnet3 {

const char *BaseName(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash == nullptr ? path : slash + 1;
}

}  // namespace nnet3

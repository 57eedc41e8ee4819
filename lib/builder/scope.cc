#include "builder/scope.h"

#include <utility>

#include "base/error.h"

namespace nnet3 {
namespace builder {

void Scope::Set(const std::string &name, Matrix value, int32_t num_sequences) {
  if (num_sequences < 0) num_sequences = value.NumRows();
  if (num_sequences == 0 ? value.NumRows() != 0
                         : value.NumRows() % num_sequences != 0)
    NNET3_ERR << "Scope variable '" << name << "': " << value.NumRows()
              << " rows cannot be " << num_sequences
              << " sequences of equal length";
  Entry &e = vars_[name];
  e.value = std::move(value);
  e.num_sequences = num_sequences;
}

const Scope::Entry &Scope::Find(const std::string &name) const {
  auto it = vars_.find(name);
  if (it == vars_.end()) {
    std::string have;
    for (const auto &kv : vars_) have += (have.empty() ? "" : ", ") + kv.first;
    NNET3_ERR << "Scope has no variable '" << name << "' (it has: "
              << (have.empty() ? "nothing" : have) << ")";
  }
  return it->second;
}

const Matrix &Scope::Get(const std::string &name) const {
  return Find(name).value;
}

Matrix *Scope::GetMutable(const std::string &name) {
  Find(name);
  return &vars_[name].value;
}

int32_t Scope::NumSequences(const std::string &name) const {
  return Find(name).num_sequences;
}

int32_t Scope::NumFrames(const std::string &name) const {
  const Entry &e = Find(name);
  return e.num_sequences == 0 ? 0 : e.value.NumRows() / e.num_sequences;
}

std::vector<std::string> Scope::Names() const {
  std::vector<std::string> names;
  for (const auto &kv : vars_) names.push_back(kv.first);
  return names;
}

}  // namespace builder
}  // namespace nnet3

#include "builder/op-args.h"

#include "base/error.h"

namespace nnet3 {
namespace builder {
namespace {

const char *TypeName(ArgValue::Type t) {
  switch (t) {
    case ArgValue::kVariable: return "a variable";
    case ArgValue::kInt: return "an integer";
    case ArgValue::kReal: return "a number";
    case ArgValue::kString: return "a string";
    case ArgValue::kIntList: return "a list of integers";
  }
  return "?";
}

}  // namespace

void OpArgs::Set(const NamedArg &arg) {
  if (!args_.emplace(arg.key, arg.value).second)
    NNET3_ERR << "op '" << op_ << "': argument '" << arg.key
              << "' given twice";
}

const ArgValue &OpArgs::Get(const std::string &key) const {
  auto it = args_.find(key);
  if (it == args_.end())
    NNET3_ERR << "op '" << op_ << "' needs the argument '" << key << "'";
  used_.insert(key);
  return it->second;
}

namespace {

void CheckType(const std::string &op, const std::string &key,
               const ArgValue &v, ArgValue::Type want) {
  // Integers are numbers too.
  if (v.type == want || (want == ArgValue::kReal && v.type == ArgValue::kInt))
    return;
  NNET3_ERR << "op '" << op << "': argument '" << key << "' must be "
            << TypeName(want) << ", got " << TypeName(v.type);
}

}  // namespace

const Variable *OpArgs::GetVariable(const std::string &key) const {
  const ArgValue &v = Get(key);
  CheckType(op_, key, v, ArgValue::kVariable);
  if (v.variable == nullptr)
    NNET3_ERR << "op '" << op_ << "': argument '" << key << "' is null";
  return v.variable;
}

int64_t OpArgs::GetInt(const std::string &key) const {
  const ArgValue &v = Get(key);
  CheckType(op_, key, v, ArgValue::kInt);
  return v.int_value;
}

int64_t OpArgs::GetInt(const std::string &key, int64_t default_value) const {
  return Has(key) ? GetInt(key) : default_value;
}

double OpArgs::GetReal(const std::string &key, double default_value) const {
  if (!Has(key)) return default_value;
  const ArgValue &v = Get(key);
  CheckType(op_, key, v, ArgValue::kReal);
  return v.type == ArgValue::kInt ? static_cast<double>(v.int_value)
                                  : v.real_value;
}

std::string OpArgs::GetString(const std::string &key,
                              const std::string &default_value) const {
  if (!Has(key)) return default_value;
  const ArgValue &v = Get(key);
  CheckType(op_, key, v, ArgValue::kString);
  return v.string_value;
}

std::vector<int32_t> OpArgs::GetIntList(
    const std::string &key, const std::vector<int32_t> &def) const {
  if (!Has(key)) return def;
  const ArgValue &v = Get(key);
  CheckType(op_, key, v, ArgValue::kIntList);
  return v.int_list;
}

void OpArgs::CheckAllUsed() const {
  for (const auto &kv : args_)
    if (!used_.count(kv.first))
      NNET3_ERR << "op '" << op_ << "' has no argument '" << kv.first << "'";
}

}  // namespace builder
}  // namespace nnet3

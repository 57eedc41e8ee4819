// Random-access implementations behind util/table-reader.h (include that
// header, not this one): an scp file held as a map and loaded on demand, and
// an archive read forward as far as the requested keys need.
#ifndef NNET3_UTIL_TABLE_RANDOM_IMPL_H_
#define NNET3_UTIL_TABLE_RANDOM_IMPL_H_

#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "base/error.h"
#include "base/log.h"
#include "util/kaldi-io.h"
#include "util/table-common.h"
#include "util/table-specifier.h"

namespace nnet3 {
namespace table_internal {

template <class Holder>
class RandomAccessImpl {
 public:
  virtual ~RandomAccessImpl() = default;
  virtual bool HasKey(const std::string &key) = 0;
  virtual const typename Holder::T &Value(const std::string &key) = 0;
  // Never throws: false with *error set on failure.
  virtual bool Close(std::string *error) = 0;
};

inline std::string MissingKeyMessage(const std::string &key,
                                     const std::string &rspecifier) {
  return "Key '" + key + "' is not in the table '" + rspecifier +
         "' (check HasKey() first, or fix the list of keys)";
}

template <class Holder>
class ScriptRandomImpl : public RandomAccessImpl<Holder> {
 public:
  ScriptRandomImpl(const std::string &rspecifier, const std::string &scp,
                   const RspecifierOptions &opts)
      : rspecifier_(rspecifier), scp_(scp), permissive_(opts.permissive) {
    lines_ = ReadScriptFile(scp, /*split_range=*/true);
    index_.reserve(lines_.size());
    for (size_t i = 0; i < lines_.size(); i++) {
      auto ins = index_.emplace(lines_[i].key, i);
      if (!ins.second)
        NNET3_ERR << EntryContext(scp, lines_[i].key) << ": duplicate key "
                  << "on lines " << lines_[ins.first->second].line_number
                  << " and " << lines_[i].line_number;
    }
  }
  bool HasKey(const std::string &key) override {
    if (index_.count(key) == 0) return false;
    if (!permissive_) return true;
    return Load(key);
  }
  const typename Holder::T &Value(const std::string &key) override {
    if (index_.count(key) == 0)
      NNET3_ERR << MissingKeyMessage(key, rspecifier_);
    if (!Load(key)) NNET3_ERR << load_error_;
    return holder_.Value();
  }
  bool Close(std::string *error) override {
    std::string message;
    if (data_.Close(&message)) return true;
    *error = message;
    return false;
  }

 private:
  // Loads `key` (cached); false with load_error_ set if it cannot be read.
  bool Load(const std::string &key) {
    if (loaded_ && key == loaded_key_) return load_error_.empty();
    const ScriptLine &line = lines_[index_.at(key)];
    loaded_ = true;
    loaded_key_ = key;
    load_error_.clear();
    std::string full = line.rxfilename;
    if (!line.range.empty()) full += "[" + line.range + "]";
    std::string context = EntryContext(scp_, key) + " ('" + full + "', line " +
                          std::to_string(line.line_number) + ")";
    try {
      try {
        data_.Open(line.rxfilename);
      } catch (const UserError &e) {
        RethrowWithContext(e, context);
      }
      ReadObject(data_.Stream(), context, line.range, &holder_);
      if (ClassifyRxfilename(line.rxfilename) != InputType::kOffsetFileInput) {
        std::string message;
        if (!data_.Close(&message)) NNET3_ERR << context << ": " << message;
      }
      return true;
    } catch (const UserError &e) {
      holder_.Clear();
      std::string ignored;
      data_.Close(&ignored);
      load_error_ = e.what();
      if (!permissive_) throw;
      NNET3_WARN << load_error_ << " (permissive: treating the key as absent)";
      return false;
    }
  }

  std::string rspecifier_;
  std::string scp_;
  bool permissive_;
  std::vector<ScriptLine> lines_;
  std::unordered_map<std::string, size_t> index_;
  Input data_;
  bool loaded_ = false;
  std::string loaded_key_;
  std::string load_error_;
  Holder holder_;
};

template <class Holder>
class ArchiveRandomImpl : public RandomAccessImpl<Holder> {
 public:
  ArchiveRandomImpl(const std::string &rspecifier, const std::string &archive,
                    const RspecifierOptions &opts)
      : rspecifier_(rspecifier), archive_(archive), opts_(opts) {
    input_.Open(archive);
  }
  bool HasKey(const std::string &key) override { return Find(key) != nullptr; }
  const typename Holder::T &Value(const std::string &key) override {
    Holder *holder = Find(key);
    if (!holder) NNET3_ERR << MissingKeyMessage(key, rspecifier_);
    if (opts_.once) to_forget_ = key;
    return holder->Value();
  }
  bool Close(std::string *error) override {
    seen_.clear();
    std::string message;
    if (input_.Close(&message)) return true;
    *error = "file '" + PrintableRxfilename(archive_) + "': " + message;
    return false;
  }

 private:
  Holder *Find(const std::string &key) {
    ForgetBefore(key);
    auto it = seen_.find(key);
    if (it != seen_.end()) return it->second.get();
    // With "s", a key before the last one read would have been seen.
    if (opts_.sorted && any_read_ && key < last_read_) return nullptr;
    while (!eof_) {
      std::string read_key;
      auto holder = std::make_unique<Holder>();
      if (!ReadNext(&read_key, holder.get())) break;
      bool past = opts_.sorted && key < read_key;
      // With "cs", keys before the requested one will never be asked for.
      if (opts_.called_sorted && read_key < key) continue;
      Holder *ptr = holder.get();
      if (!seen_.emplace(read_key, std::move(holder)).second)
        NNET3_ERR << EntryContext(archive_, read_key)
                  << ": the key appears twice in the archive";
      if (read_key == key) return ptr;
      if (past) return nullptr;
    }
    return nullptr;
  }

  // Drops what can no longer be asked for ("o": the last value used; "cs":
  // everything before `key`), and checks the "cs" promise.
  void ForgetBefore(const std::string &key) {
    if (!to_forget_.empty() && to_forget_ != key) {
      seen_.erase(to_forget_);
      to_forget_.clear();
    }
    if (!opts_.called_sorted) return;
    if (any_requested_ && key < last_requested_)
      NNET3_ERR << "Key '" << key << "' was requested after '"
                << last_requested_ << "' from '" << rspecifier_
                << "', but 'cs' promises sorted requests";
    seen_.erase(seen_.begin(), seen_.lower_bound(key));
    last_requested_ = key;
    any_requested_ = true;
  }

  // Reads the next entry; false at the end (or, permissive, at an error).
  bool ReadNext(std::string *key, Holder *holder) {
    try {
      if (!ReadArchiveKey(input_.Stream(), archive_, key)) {
        eof_ = true;
        std::string message;
        if (!input_.Close(&message))
          NNET3_ERR << "file '" << PrintableRxfilename(archive_)
                    << "': " << message;
        return false;
      }
      if (opts_.sorted && any_read_ && !(last_read_ < *key))
        NNET3_ERR << EntryContext(archive_, *key) << ": the archive is not "
                  << "sorted (this key follows '" << last_read_
                  << "') but the rspecifier '" << rspecifier_ << "' has 's'";
      last_read_ = *key;
      any_read_ = true;
      ReadObject(input_.Stream(), EntryContext(archive_, *key), "", holder);
      return true;
    } catch (const UserError &e) {
      eof_ = true;
      if (!opts_.permissive) RethrowAfterClosing(e, &input_);
      NNET3_WARN << e.what()
                 << " (permissive: treating this as the end of the archive)";
      std::string ignored;
      input_.Close(&ignored);
      return false;
    }
  }

  std::string rspecifier_;
  std::string archive_;
  RspecifierOptions opts_;
  Input input_;
  bool eof_ = false;
  std::map<std::string, std::unique_ptr<Holder>> seen_;
  bool any_read_ = false;
  std::string last_read_;
  bool any_requested_ = false;
  std::string last_requested_;
  std::string to_forget_;
};

template <class Holder>
std::unique_ptr<RandomAccessImpl<Holder>> NewRandomAccessImpl(
    const std::string &rspecifier) {
  std::string rxfilename;
  RspecifierOptions opts;
  RspecifierType type = ClassifyRspecifier(rspecifier, &rxfilename, &opts);
  if (type == RspecifierType::kArchiveRspecifier)
    return std::make_unique<ArchiveRandomImpl<Holder>>(rspecifier, rxfilename,
                                                       opts);
  if (type == RspecifierType::kScriptRspecifier)
    return std::make_unique<ScriptRandomImpl<Holder>>(rspecifier, rxfilename,
                                                      opts);
  NNET3_ERR << "Invalid rspecifier '" << rspecifier
            << "' (expected e.g. 'ark:foo.ark', 'scp:foo.scp', "
               "'ark,s,cs:-')";
  return nullptr;  // unreachable
}

}  // namespace table_internal
}  // namespace nnet3

#endif  // NNET3_UTIL_TABLE_RANDOM_IMPL_H_

// Implementations behind util/table-reader.h (include that header, not this
// one). One class per way of reading: archive or scp, sequential or random
// access, plus a read-ahead wrapper for "bg". None of them throws from
// Close(); all report entry errors with the file and the key.
#ifndef NNET3_UTIL_TABLE_READER_IMPL_H_
#define NNET3_UTIL_TABLE_READER_IMPL_H_

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>

#include "base/error.h"
#include "base/log.h"
#include "util/kaldi-io.h"
#include "util/table-common.h"
#include "util/table-specifier.h"

namespace nnet3 {
namespace table_internal {

// Reads one object (header unless the holder has none, then the holder's
// Read, then an optional range)
// and prefixes any UserError with `context`.
template <class Holder>
void ReadObject(std::istream &is, const std::string &context,
                const std::string &range, Holder *holder) {
  try {
    bool binary = HolderHasBinaryHeader<Holder>::value && ReadObjectHeader(is);
    holder->Read(is, binary);
    if (!range.empty()) holder->ExtractRange(range);
  } catch (const UserError &e) {
    RethrowWithContext(e, context);
  }
}

// After a read error on `input`: closes it, and if it was a pipe whose
// command failed, adds that to the message (it is usually the real cause).
[[noreturn]] inline void RethrowAfterClosing(const UserError &e, Input *input) {
  std::string pipe_error;
  if (!input->Close(&pipe_error))
    throw UserError(std::string(e.what()) + " (" + pipe_error + ")", e.where());
  throw e;
}

template <class Holder>
class SequentialImpl {
 public:
  virtual ~SequentialImpl() = default;
  virtual bool Done() const = 0;
  virtual const std::string &Key() const = 0;
  virtual Holder &CurrentHolder() = 0;
  virtual void Next() = 0;
  // Never throws: false with *error set on failure.
  virtual bool Close(std::string *error) = 0;

 protected:
  void CheckNotDone(bool done) const {
    if (done)
      NNET3_INTERNAL_ERR << "SequentialTableReader: Key()/Value()/Next() "
                            "called after Done()";
  }
};

template <class Holder>
class ArchiveSequentialImpl : public SequentialImpl<Holder> {
 public:
  ArchiveSequentialImpl(const std::string &rxfilename, bool permissive)
      : name_(rxfilename), permissive_(permissive) {
    input_.Open(rxfilename);
    ReadEntry();
  }
  bool Done() const override { return done_; }
  const std::string &Key() const override {
    this->CheckNotDone(done_);
    return key_;
  }
  Holder &CurrentHolder() override {
    this->CheckNotDone(done_);
    return holder_;
  }
  void Next() override {
    this->CheckNotDone(done_);
    ReadEntry();
  }
  bool Close(std::string *error) override {
    std::string message;
    if (input_.Close(&message)) return true;
    *error = "file '" + PrintableRxfilename(name_) + "': " + message;
    return false;
  }

 private:
  void ReadEntry() {
    try {
      if (!ReadArchiveKey(input_.Stream(), name_, &key_)) {
        done_ = true;
        holder_.Clear();
        std::string message;
        if (!input_.Close(&message))
          NNET3_ERR << "file '" << PrintableRxfilename(name_)
                    << "': " << message;
        return;
      }
      ReadObject(input_.Stream(), EntryContext(name_, key_), "", &holder_);
    } catch (const UserError &e) {
      done_ = true;
      holder_.Clear();
      if (!permissive_) RethrowAfterClosing(e, &input_);
      NNET3_WARN << e.what()
                 << " (permissive: treating this as the end of the archive)";
      std::string ignored;
      input_.Close(&ignored);
    }
  }

  std::string name_;
  bool permissive_;
  Input input_;
  bool done_ = false;
  std::string key_;
  Holder holder_;
};

template <class Holder>
class ScriptSequentialImpl : public SequentialImpl<Holder> {
 public:
  ScriptSequentialImpl(const std::string &rxfilename, bool permissive)
      : permissive_(permissive) {
    script_.Open(rxfilename);
    Advance();
  }
  bool Done() const override { return done_; }
  const std::string &Key() const override {
    this->CheckNotDone(done_);
    return line_.key;
  }
  Holder &CurrentHolder() override {
    this->CheckNotDone(done_);
    return holder_;
  }
  void Next() override {
    this->CheckNotDone(done_);
    Advance();
  }
  bool Close(std::string *error) override {
    try {
      script_.Close();
    } catch (const UserError &e) {
      *error = e.what();
      return false;
    }
    std::string ignored;  // data errors were reported per entry
    data_.Close(&ignored);
    return true;
  }

 private:
  void Advance() {
    while (true) {
      if (!script_.Next(&line_)) {
        done_ = true;
        holder_.Clear();
        std::string ignored;
        data_.Close(&ignored);
        return;
      }
      if (LoadEntry()) return;
    }
  }

  // Reads the object of line_; false if it was skipped (permissive).
  bool LoadEntry() {
    std::string full = line_.rxfilename;
    if (!line_.range.empty()) full += "[" + line_.range + "]";
    std::string context = EntryContext(script_.Name(), line_.key) + " ('" +
                          full + "', line " +
                          std::to_string(line_.line_number) + ")";
    try {
      try {
        data_.Open(line_.rxfilename);
      } catch (const UserError &e) {
        RethrowWithContext(e, context);
      }
      ReadObject(data_.Stream(), context, line_.range, &holder_);
      // Offsets into one archive reuse the open file; anything else is
      // closed now so that a failing pipe is reported with its key.
      if (ClassifyRxfilename(line_.rxfilename) != InputType::kOffsetFileInput) {
        std::string message;
        if (!data_.Close(&message)) NNET3_ERR << context << ": " << message;
      }
      return true;
    } catch (const UserError &e) {
      holder_.Clear();
      std::string ignored;
      data_.Close(&ignored);
      if (!permissive_) throw;
      NNET3_WARN << e.what() << " (permissive: skipping this entry)";
      return false;
    }
  }

  bool permissive_;
  ScriptFileReader script_;
  Input data_;
  ScriptLine line_;
  bool done_ = false;
  Holder holder_;
};

// "bg": while the caller works on entry n, a thread reads entry n+1 into
// the inner reader; Next() waits for it and swaps it in.
template <class Holder>
class BackgroundSequentialImpl : public SequentialImpl<Holder> {
 public:
  explicit BackgroundSequentialImpl(
      std::unique_ptr<SequentialImpl<Holder>> inner)
      : inner_(std::move(inner)) {
    TakeCurrent();
  }
  ~BackgroundSequentialImpl() override { Join(); }
  bool Done() const override { return done_; }
  const std::string &Key() const override {
    this->CheckNotDone(done_);
    return key_;
  }
  Holder &CurrentHolder() override {
    this->CheckNotDone(done_);
    return holder_;
  }
  void Next() override {
    this->CheckNotDone(done_);
    Join();
    if (error_) {
      done_ = true;
      std::exception_ptr error = error_;
      error_ = nullptr;
      std::rethrow_exception(error);
    }
    TakeCurrent();
  }
  bool Close(std::string *error) override {
    Join();
    return inner_->Close(error);
  }

 private:
  void TakeCurrent() {
    done_ = inner_->Done();
    if (done_) return;
    key_ = inner_->Key();
    holder_.Swap(&inner_->CurrentHolder());
    thread_ = std::thread([this]() {
      try {
        inner_->Next();
      } catch (...) {
        error_ = std::current_exception();
      }
    });
  }
  void Join() {
    if (thread_.joinable()) thread_.join();
  }

  std::unique_ptr<SequentialImpl<Holder>> inner_;
  std::thread thread_;
  std::exception_ptr error_;
  bool done_ = false;
  std::string key_;
  Holder holder_;
};

template <class Holder>
std::unique_ptr<SequentialImpl<Holder>> NewSequentialImpl(
    const std::string &rspecifier) {
  std::string rxfilename;
  RspecifierOptions opts;
  RspecifierType type = ClassifyRspecifier(rspecifier, &rxfilename, &opts);
  std::unique_ptr<SequentialImpl<Holder>> impl;
  if (type == RspecifierType::kArchiveRspecifier)
    impl = std::make_unique<ArchiveSequentialImpl<Holder>>(rxfilename,
                                                           opts.permissive);
  else if (type == RspecifierType::kScriptRspecifier)
    impl = std::make_unique<ScriptSequentialImpl<Holder>>(rxfilename,
                                                          opts.permissive);
  else
    NNET3_ERR << "Invalid rspecifier '" << rspecifier
              << "' (expected e.g. 'ark:foo.ark', 'scp:foo.scp', "
                 "'ark,s,cs:-')";
  if (opts.background)
    impl = std::make_unique<BackgroundSequentialImpl<Holder>>(std::move(impl));
  return impl;
}

}  // namespace table_internal
}  // namespace nnet3

#include "util/table-random-impl.h"

#endif  // NNET3_UTIL_TABLE_READER_IMPL_H_

#include "base/log.h"

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace nnet3 {
namespace {

std::atomic<int> verbose_level{0};
thread_local int current_severity = 0;

// Prints the Kaldi prefix word for the line being formatted: LOG, WARNING,
// ERROR or VLOG[n]. spdlog levels cannot carry n, so LogLine passes the
// severity through a thread-local.
class SeverityFlag : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg &, const std::tm &,
              spdlog::memory_buf_t &dest) override {
    std::string word;
    if (current_severity == static_cast<int>(LogSeverity::kError))
      word = "ERROR";
    else if (current_severity == static_cast<int>(LogSeverity::kWarning))
      word = "WARNING";
    else if (current_severity == 0)
      word = "LOG";
    else
      word = "VLOG[" + std::to_string(current_severity) + "]";
    dest.append(word.data(), word.data() + word.size());
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<SeverityFlag>();
  }
};

std::mutex logger_mutex;
std::shared_ptr<spdlog::logger> logger;
std::string program_name = "nnet3";

// Builds (or rebuilds, after the program name changes) the stderr logger.
std::shared_ptr<spdlog::logger> GetLogger() {
  std::lock_guard<std::mutex> lock(logger_mutex);
  if (!logger) {
    auto sink = std::make_shared<spdlog::sinks::stderr_sink_mt>();
    logger = std::make_shared<spdlog::logger>(program_name, sink);
    auto formatter = std::make_unique<spdlog::pattern_formatter>();
    formatter->add_flag<SeverityFlag>('*').set_pattern(
        std::string("%* (%n[") + NNET3_VERSION + "]:%!():%s:%#) %v");
    logger->set_formatter(std::move(formatter));
    logger->set_level(spdlog::level::trace);
    logger->flush_on(spdlog::level::trace);
    spdlog::set_default_logger(logger);
  }
  return logger;
}

}  // namespace

void SetProgramName(const std::string &name) {
  {
    std::lock_guard<std::mutex> lock(logger_mutex);
    program_name = BaseName(name.c_str());
    logger.reset();
  }
  GetLogger();
}

const std::string &ProgramName() { return program_name; }

void SetVerboseLevel(int level) { verbose_level = level; }
int VerboseLevel() { return verbose_level; }

void LogLine(int severity, const SourceLocation &where,
             const std::string &message) {
  auto log = GetLogger();
  current_severity = severity;
  spdlog::level::level_enum level =
      severity == static_cast<int>(LogSeverity::kError) ? spdlog::level::err
      : severity == static_cast<int>(LogSeverity::kWarning)
          ? spdlog::level::warn
      : severity == 0 ? spdlog::level::info
                      : spdlog::level::debug;
  log->log(spdlog::source_loc{where.file, where.line, where.function}, level,
           "{}", message);
}

}  // namespace nnet3

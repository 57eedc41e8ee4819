#include "matrix/posterior.h"

#include <sstream>
#include <string>

#include "base/error.h"
#include "base/io-funcs.h"
#include "matrix/matrix-io.h"

namespace nnet3 {

namespace {

// Kaldi refuses more frames than this; so do we (corrupted sizes).
constexpr int32_t kMaxPosteriorFrames = 10000000;

void ReadTextPosterior(std::istream &is, Posterior *post) {
  std::string line;
  std::getline(is, line);
  if (is.fail() && !is.eof())
    NNET3_ERR << "Reading posterior: could not read a line";
  if (is.fail() && line.empty())
    NNET3_ERR << "Reading posterior: unexpected end of file";
  std::istringstream line_is(line);
  while (true) {
    line_is >> std::ws;
    if (line_is.peek() == EOF) break;
    std::string bracket;
    line_is >> bracket;
    if (bracket != "[")
      NNET3_ERR << "Reading posterior: expected '[' but found '"
                << matrix_io::Printable(bracket) << "'";
    std::vector<std::pair<int32_t, float>> frame;
    while (true) {
      line_is >> std::ws;
      if (line_is.peek() == ']') {
        line_is.get();
        break;
      }
      if (line_is.peek() == EOF)
        NNET3_ERR << "Reading posterior: frame " << post->size()
                  << " ended without ']'";
      int32_t index;
      line_is >> index;
      if (line_is.fail())
        NNET3_ERR << "Reading posterior: expected an index or ']' in frame "
                  << post->size();
      float weight = matrix_io::ReadFloatWord(line_is, "posterior");
      frame.emplace_back(index, weight);
    }
    post->push_back(std::move(frame));
  }
}

}  // namespace

void WritePosterior(std::ostream &os, bool binary, const Posterior &post) {
  if (binary) {
    WriteBasicType(os, binary, static_cast<int32_t>(post.size()));
    for (const auto &frame : post) {
      WriteBasicType(os, binary, static_cast<int32_t>(frame.size()));
      for (const auto &p : frame) {
        WriteBasicType(os, binary, p.first);
        WriteBasicType(os, binary, p.second);
      }
    }
  } else {
    for (const auto &frame : post) {
      os << "[ ";
      for (const auto &p : frame) os << p.first << ' ' << p.second << ' ';
      os << "] ";
    }
    os << '\n';
  }
  if (os.fail()) NNET3_ERR << "Write failure while writing a posterior";
}

void ReadPosterior(std::istream &is, bool binary, Posterior *post) {
  post->clear();
  if (!binary) {
    ReadTextPosterior(is, post);
    return;
  }
  int32_t num_frames;
  ReadBasicType(is, binary, &num_frames);
  if (num_frames < 0 || num_frames > kMaxPosteriorFrames)
    NNET3_ERR << "Reading posterior: bad number of frames " << num_frames
              << " (corrupted data?)";
  // A frame takes at least 4 bytes of the file (its count).
  post->reserve(CheckCountFits(is, num_frames, 4,
                               "The number of frames of a posterior"));
  for (int32_t t = 0; t < num_frames; t++) {
    int32_t num_pairs;
    ReadBasicType(is, binary, &num_pairs);
    if (num_pairs < 0)
      NNET3_ERR << "Reading posterior: negative number of pairs in frame " << t;
    std::vector<std::pair<int32_t, float>> frame;
    for (int32_t i = 0; i < num_pairs; i++) {
      std::pair<int32_t, float> p;
      ReadBasicType(is, binary, &p.first);
      ReadBasicType(is, binary, &p.second);
      frame.push_back(p);
    }
    post->push_back(std::move(frame));
  }
}

}  // namespace nnet3

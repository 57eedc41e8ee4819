// OpenFst's binary FST files, read with one-line UserErrors: every FST file
// (HCLG.fst, G.fst, L.fst) and every binary lattice starts with OpenFst's
// header, which we parse ourselves so that a file that is not an FST, a
// truncated header or an unexpected arc type is reported with the file's
// name; the body is then read by OpenFst (its own log lines are captured
// into our message, see openfst-log.h).
//
//   fst::FstHeader header;
//   ReadFstHeader(is, "HCLG.fst", &header);    // UserError if not an FST
//   auto fst = ReadVectorFstBody<fst::StdArc>(is, header, "HCLG.fst");
//
// Header layout (little-endian): int32 magic 2125659606 (bytes D6 FD B2
// 7E), the FST type ("vector", "const", ...) and the arc type ("standard",
// "lattice4", "compactlattice44") each as an int32 length and its bytes,
// int32 version, int32 flags (1: input symbols follow, 2: output symbols,
// 4: aligned), uint64 properties, int64 start state, int64 number of
// states, int64 number of arcs.
#ifndef NNET3_FSTEXT_FST_BINARY_IO_H_
#define NNET3_FSTEXT_FST_BINARY_IO_H_

#include <fst/fst.h>
#include <fst/vector-fst.h>

#include <cstdint>
#include <istream>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>

#include "base/error.h"
#include "fstext/openfst-log.h"

namespace nnet3 {

constexpr int32_t kFstMagicNumber = 2125659606;
// The first byte of the magic number as it appears in a file.
constexpr int kFstMagicFirstByte = 0xD6;

// Reads and checks the header. UserError naming `source` when the stream
// does not start with the magic number ("not an OpenFst binary FST"), ends
// inside the header, or holds impossible values (negative counts, a start
// state out of range, type names longer than 256 bytes).
void ReadFstHeader(std::istream &is, const std::string &source,
                   fst::FstHeader *header);

// UserError unless header's FST type is `fst_type` and arc type is
// `arc_type`; `what` names the object expected ("a decoding graph").
void CheckFstHeaderTypes(const fst::FstHeader &header,
                         const std::string &fst_type,
                         const std::string &arc_type, const std::string &what,
                         const std::string &source);

// Runs `read` (an OpenFst Read call returning a pointer) with OpenFst's
// log captured; UserError naming `source` when it returns null or runs
// out of memory (a corrupted count).
template <class T, class ReadFn>
std::unique_ptr<T> ReadWithOpenFst(ReadFn read, const std::string &source) {
  std::string openfst_says;
  std::unique_ptr<T> result;
  bool out_of_memory = false;
  {
    OpenFstLogCapture capture(&openfst_says);
    try {
      result.reset(read());
    } catch (const std::bad_alloc &) {
      out_of_memory = true;
    } catch (const std::length_error &) {
      out_of_memory = true;
    }
  }
  if (out_of_memory)
    NNET3_ERR << "Cannot read the FST in '" << source
              << "': its header asks for more memory than there is "
                 "(corrupted file?)";
  if (!result)
    NNET3_ERR << "Cannot read the FST in '" << source << "' (truncated or "
              << "corrupted?)" << (openfst_says.empty() ? "" : ": ")
              << openfst_says;
  return result;
}

// Reads the body of a VectorFst<Arc> whose header has been read (and must
// be a "vector" FST of Arc's type).
template <class Arc>
std::unique_ptr<fst::VectorFst<Arc>> ReadVectorFstBody(
    std::istream &is, const fst::FstHeader &header, const std::string &source) {
  CheckFstHeaderTypes(header, "vector", Arc::Type(), "a VectorFst", source);
  fst::FstReadOptions opts(source, &header);
  return ReadWithOpenFst<fst::VectorFst<Arc>>(
      [&is, &opts] { return fst::VectorFst<Arc>::Read(is, opts); }, source);
}

}  // namespace nnet3

#endif  // NNET3_FSTEXT_FST_BINARY_IO_H_

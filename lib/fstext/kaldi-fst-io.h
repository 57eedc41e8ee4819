// Reading and writing FSTs the way Kaldi's programs do: decoding graphs
// (HCLG.fst) in any form Kaldi writes them, single VectorFsts, and tables of
// graphs ("fsts-rspecifier": archives or scp files of VectorFst<StdArc>,
// binary or Kaldi's text form).
//
//   std::unique_ptr<fst::Fst<fst::StdArc>> hclg(
//       ReadFstKaldiGeneric("HCLG.fst"));      // const or vector FST
//   fst::VectorFst<fst::StdArc> g;
//   ReadFstKaldi("gunzip -c G.fst.gz |", &g);   // any rxfilename
//   WriteFstKaldi(g, "-");                        // OpenFst binary
//   SequentialTableReader<VectorFstHolder> graphs("ark:HCLG.fsts");
//
// Files are OpenFst's binary format (fst-binary-io.h), with no Kaldi "\0B"
// header; "" means standard input or output, as in OpenFst. In tables a
// binary entry is the OpenFst file itself and a text entry is Kaldi's text
// form (fst-text-io.h). Every failure is a one-line UserError naming the
// file: not an FST, an arc type other than "standard", a truncated body,
// a bad text line.
#ifndef NNET3_FSTEXT_KALDI_FST_IO_H_
#define NNET3_FSTEXT_KALDI_FST_IO_H_

#include <fst/fst.h>
#include <fst/vector-fst.h>

#include <cctype>
#include <istream>
#include <memory>
#include <ostream>
#include <string>
#include <utility>

#include "base/error.h"
#include "fstext/fst-binary-io.h"
#include "fstext/fst-text-io.h"
#include "util/table-reader.h"
#include "util/table-writer.h"

namespace nnet3 {

// The FST in `rxfilename`, as the class its header names ("vector",
// "const", or another that OpenFst has registered). The arc type must be
// "standard". The caller owns the result.
fst::Fst<fst::StdArc> *ReadFstKaldiGeneric(const std::string &rxfilename);

// The FST in `rxfilename` as a VectorFst (a "const" FST is converted). The
// caller owns the result.
fst::VectorFst<fst::StdArc> *ReadFstKaldi(const std::string &rxfilename);
void ReadFstKaldi(const std::string &rxfilename,
                  fst::VectorFst<fst::StdArc> *fst);

// Returns `fst` itself if it is a VectorFst, else a VectorFst copy (and
// deletes `fst`). Takes ownership.
fst::VectorFst<fst::StdArc> *CastOrConvertToVectorFst(
    fst::Fst<fst::StdArc> *fst);

// Writes OpenFst's binary form (a plain file is written atomically), with
// the FST's symbol tables if it has them (and write_symbols).
void WriteFstKaldi(const fst::VectorFst<fst::StdArc> &fst,
                   const std::string &wxfilename, bool write_symbols = true);

// Writes `fst` to a stream: OpenFst's binary form, or Kaldi's text form.
// UserError on a stream failure.
template <class Arc>
void WriteFstKaldi(std::ostream &os, bool binary,
                   const fst::VectorFst<Arc> &fst, bool write_symbols = true) {
  if (binary) {
    std::string openfst_says;
    bool ok;
    {
      OpenFstLogCapture capture(&openfst_says);
      fst::FstWriteOptions opts;
      opts.write_isymbols = opts.write_osymbols = write_symbols;
      ok = fst.Write(os, opts);
    }
    if (!ok) NNET3_ERR << "Error writing an FST: " << openfst_says;
  } else {
    WriteFstText(os, fst, /*acceptor=*/false);
  }
  if (os.fail()) NNET3_ERR << "Write error while writing an FST";
}

// Reads Kaldi's text form: consumes white space through the first
// newline, then lines up to a blank line or the end of the stream.
// UserError quoting the first bad line.
template <class Arc>
void ReadFstKaldiText(std::istream &is, fst::VectorFst<Arc> *fst) {
  while (std::isspace(is.peek()) && is.peek() != '\n') is.get();
  if (is.peek() != '\n')
    NNET3_ERR << "Expected a newline to start a text-form FST";
  is.get();
  FstTextBuilder<Arc> builder(/*acceptor=*/false);
  std::string line;
  while (std::getline(is, line)) {
    std::vector<std::string> columns = FstTextColumns(line);
    if (columns.empty()) break;
    if (!builder.AddLine(columns))
      NNET3_ERR << "Bad line in a text-form FST: '" << line << "'";
  }
  *fst = *builder.Release();
}

// Reads a VectorFst<Arc> from a stream: binary (OpenFst's header, which
// must name a vector FST of Arc's type) or text.
template <class Arc>
void ReadFstKaldi(std::istream &is, bool binary, fst::VectorFst<Arc> *fst) {
  if (!binary) {
    ReadFstKaldiText(is, fst);
    return;
  }
  fst::FstHeader header;
  ReadFstHeader(is, "the stream", &header);
  *fst = *ReadVectorFstBody<Arc>(is, header, "the stream");
}

// The table holder for VectorFst<Arc> (Kaldi's VectorFstTplHolder): no
// "\0B" header; an entry whose first byte is white space is text, any
// other is OpenFst binary. Text is written at the stream's default
// precision (6 digits), as Kaldi's tables write it.
template <class Arc>
class VectorFstTplHolder {
 public:
  using T = fst::VectorFst<Arc>;
  static constexpr bool kBinaryHeader = false;

  static void Write(std::ostream &os, bool binary, const T &t) {
    const std::streamsize precision = os.precision(6);
    WriteFstKaldi(os, binary, t);
    os.precision(precision);
  }
  void Read(std::istream &is, bool /*binary: decided here*/) {
    Clear();
    const int c = is.peek();
    if (c == EOF) NNET3_ERR << "End of file where an FST should start";
    ReadFstKaldi(is, !std::isspace(c), &t_);
  }
  T &Value() { return t_; }
  void Clear() { t_ = T(); }
  void Swap(VectorFstTplHolder *other) { std::swap(t_, other->t_); }
  void ExtractRange(const std::string &range) {
    NNET3_ERR << "A range [" << range << "] was given, but FSTs have none";
  }

 private:
  T t_;
};

using VectorFstHolder = VectorFstTplHolder<fst::StdArc>;
using SequentialFstReader = SequentialTableReader<VectorFstHolder>;
using RandomAccessFstReader = RandomAccessTableReader<VectorFstHolder>;
using FstWriter = TableWriter<VectorFstHolder>;

}  // namespace nnet3

#endif  // NNET3_FSTEXT_KALDI_FST_IO_H_

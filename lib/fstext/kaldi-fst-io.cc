#include "fstext/kaldi-fst-io.h"

#include <fst/const-fst.h>
#include <fst/register.h>

#include "util/kaldi-io.h"

namespace nnet3 {
namespace {

// Kaldi's graphs are vector or const FSTs of standard arcs; register both
// so that Fst<StdArc>::Read finds them however the program is linked.
const fst::FstRegisterer<fst::VectorFst<fst::StdArc>> vector_fst_registerer;
const fst::FstRegisterer<fst::ConstFst<fst::StdArc>> const_fst_registerer;

std::string Printable(const std::string &rxfilename) {
  return PrintableRxfilename(rxfilename);
}

}  // namespace

fst::Fst<fst::StdArc> *ReadFstKaldiGeneric(const std::string &rxfilename) {
  const std::string name = rxfilename.empty() ? "-" : rxfilename;
  Input input(name);
  const std::string source = Printable(name);
  fst::FstHeader header;
  ReadFstHeader(input.Stream(), source, &header);
  if (header.ArcType() != fst::StdArc::Type())
    NNET3_ERR << "'" << source << "' holds an FST with arc type '"
              << header.ArcType() << "', but a graph with arc type '"
              << fst::StdArc::Type() << "' (tropical weights) was expected";
  fst::FstReadOptions opts(source, &header);
  std::istream &is = input.Stream();
  std::unique_ptr<fst::Fst<fst::StdArc>> fst =
      ReadWithOpenFst<fst::Fst<fst::StdArc>>(
          [&is, &opts] { return fst::Fst<fst::StdArc>::Read(is, opts); },
          source);
  input.Close();
  return fst.release();
}

fst::VectorFst<fst::StdArc> *CastOrConvertToVectorFst(
    fst::Fst<fst::StdArc> *fst) {
  if (auto *vector_fst = dynamic_cast<fst::VectorFst<fst::StdArc> *>(fst))
    return vector_fst;
  auto *converted = new fst::VectorFst<fst::StdArc>(*fst);
  delete fst;
  return converted;
}

fst::VectorFst<fst::StdArc> *ReadFstKaldi(const std::string &rxfilename) {
  return CastOrConvertToVectorFst(ReadFstKaldiGeneric(rxfilename));
}

void ReadFstKaldi(const std::string &rxfilename,
                  fst::VectorFst<fst::StdArc> *fst) {
  std::unique_ptr<fst::VectorFst<fst::StdArc>> read(ReadFstKaldi(rxfilename));
  *fst = *read;
}

void WriteFstKaldi(const fst::VectorFst<fst::StdArc> &fst,
                   const std::string &wxfilename, bool write_symbols) {
  const std::string name = wxfilename.empty() ? "-" : wxfilename;
  Output output(name, /*binary=*/true, /*write_header=*/false,
                /*atomic=*/true);
  try {
    WriteFstKaldi(output.Stream(), true, fst, write_symbols);
  } catch (const UserError &e) {
    RethrowWriteError(e, output.Stream(), errno,
                      "Writing '" + PrintableWxfilename(name) + "'");
  }
  output.Close();
}

}  // namespace nnet3

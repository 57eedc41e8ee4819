#include "fstext/minimize-encoded.h"

#include <fst/arc-map.h>
#include <fst/encode.h>
#include <fst/minimize.h>

#include "fstext/openfst-errors.h"

namespace nnet3 {

template <class Arc>
void MinimizeEncoded(fst::VectorFst<Arc> *fst, float delta) {
  fst::ArcMap(fst, fst::QuantizeMapper<Arc>(delta));
  fst::EncodeMapper<Arc> encoder(fst::kEncodeLabels | fst::kEncodeWeights,
                                 fst::ENCODE);
  fst::Encode(fst, &encoder);
  fst::internal::AcceptorMinimize(fst);
  fst::Decode(fst, encoder);
  CheckFstNoError(*fst, "minimizing the encoded FST");
}

template void MinimizeEncoded(fst::VectorFst<fst::StdArc> *fst, float delta);
template void MinimizeEncoded(fst::VectorFst<fst::LogArc> *fst, float delta);

}  // namespace nnet3

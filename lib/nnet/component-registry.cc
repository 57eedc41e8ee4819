#include "nnet/component-registry.h"

#include <algorithm>

#include "base/error.h"

namespace nnet3 {
namespace {

struct Group {
  std::unique_ptr<Component> (*factory)(const std::string &);
  std::vector<std::string> (*types)();
};

// One entry per group of components.
const Group kGroups[] = {
    {NewNonlinearComponentOfType, NonlinearComponentTypes},
    {NewSimpleComponentOfType, SimpleComponentTypes},
    {NewAffineComponentOfType, AffineComponentTypes},
    {NewGeneralComponentOfType, GeneralComponentTypes},
    {NewRandomMaskComponentOfType, RandomMaskComponentTypes},
    {NewRepeatedAffineComponentOfType, RepeatedAffineComponentTypes},
    {NewNgPerElementComponentOfType, NgPerElementComponentTypes},
    {NewCompositeComponentOfType, CompositeComponentTypes},
    {NewAttentionComponentOfType, AttentionComponentTypes},
    {NewLstmComponentOfType, LstmComponentTypes},
    {NewGruComponentOfType, GruComponentTypes},
    {NewBackpropTruncationComponentOfType, BackpropTruncationComponentTypes},
};

}  // namespace

std::unique_ptr<Component> Component::NewComponentOfType(
    const std::string &type) {
  for (const Group &group : kGroups) {
    std::unique_ptr<Component> c = group.factory(type);
    if (c) {
      NNET3_ASSERT(c->Type() == type);
      return c;
    }
  }
  return nullptr;
}

std::vector<std::string> RegisteredComponentTypes() {
  std::vector<std::string> all;
  for (const Group &group : kGroups) {
    std::vector<std::string> types = group.types();
    all.insert(all.end(), types.begin(), types.end());
  }
  std::sort(all.begin(), all.end());
  return all;
}

}  // namespace nnet3

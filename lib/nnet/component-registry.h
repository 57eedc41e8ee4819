// The registry of component types by name (Kaldi's NewComponentOfType):
// each group of components (a file pair like simple-components.{h,cc})
// provides one factory function returning nullptr for names it does not
// know; Component::NewComponentOfType asks each group in turn. A new group
// adds one line to the list in component-registry.cc.
#ifndef NNET3_NNET_COMPONENT_REGISTRY_H_
#define NNET3_NNET_COMPONENT_REGISTRY_H_

#include <memory>
#include <string>
#include <vector>

#include "nnet/component-itf.h"

namespace nnet3 {

// Group factories and their type lists (each defined in its group's .cc
// file): the factory returns nullptr for a type not in its list.
std::unique_ptr<Component> NewNonlinearComponentOfType(const std::string &type);
std::vector<std::string> NonlinearComponentTypes();
std::unique_ptr<Component> NewSimpleComponentOfType(const std::string &type);
std::vector<std::string> SimpleComponentTypes();
std::unique_ptr<Component> NewAffineComponentOfType(const std::string &type);
std::vector<std::string> AffineComponentTypes();
std::unique_ptr<Component> NewGeneralComponentOfType(const std::string &type);
std::vector<std::string> GeneralComponentTypes();
std::unique_ptr<Component> NewRandomMaskComponentOfType(
    const std::string &type);
std::vector<std::string> RandomMaskComponentTypes();
std::unique_ptr<Component> NewRepeatedAffineComponentOfType(
    const std::string &type);
std::vector<std::string> RepeatedAffineComponentTypes();
std::unique_ptr<Component> NewNgPerElementComponentOfType(
    const std::string &type);
std::vector<std::string> NgPerElementComponentTypes();
std::unique_ptr<Component> NewCompositeComponentOfType(const std::string &type);
std::vector<std::string> CompositeComponentTypes();
std::unique_ptr<Component> NewAttentionComponentOfType(const std::string &type);
std::vector<std::string> AttentionComponentTypes();
std::unique_ptr<Component> NewLstmComponentOfType(const std::string &type);
std::vector<std::string> LstmComponentTypes();
std::unique_ptr<Component> NewGruComponentOfType(const std::string &type);
std::vector<std::string> GruComponentTypes();
std::unique_ptr<Component> NewBackpropTruncationComponentOfType(
    const std::string &type);
std::vector<std::string> BackpropTruncationComponentTypes();

// All registered type names, sorted (for tests and error messages).
std::vector<std::string> RegisteredComponentTypes();

}  // namespace nnet3

#endif  // NNET3_NNET_COMPONENT_REGISTRY_H_

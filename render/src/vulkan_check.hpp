// Turning VkResult failures into sim::Error messages at the edges (creation calls); recording
// calls return nothing to check.
#pragma once

#include <vulkan/vulkan.h>

#include <string>

#include "sim/result.hpp"

namespace render {

const char* vk_result_name(VkResult result);

// A Vulkan info struct with its sType set and every other member zero: the usual `{sType}`
// aggregate idiom without -Wmissing-field-initializers.
template <class T>
T vk_init(VkStructureType type) {
  T info{};
  info.sType = type;
  return info;
}

// `call` is the stringified call expression; the message keeps its function name.
inline sim::Error vk_error(const char* call, VkResult result) {
  std::string name(call);
  name = name.substr(0, name.find('('));
  return sim::Error{name + " failed: " + vk_result_name(result)};
}

}  // namespace render

// Returns a sim::Error from the enclosing function when `call` fails.
#define RENDER_VK_TRY(call)                                                    \
  do {                                                                         \
    const VkResult render_vk_result_ = (call);                                 \
    if (render_vk_result_ != VK_SUCCESS) return ::render::vk_error(#call, render_vk_result_); \
  } while (0)

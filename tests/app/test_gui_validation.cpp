// The app tests run with Vulkan's validation layer on (when installed) and fail on any error it
// reports. This checks that the hook really counts errors: an invalid call must be seen.
#include <catch2/catch.hpp>

#include <vulkan/vulkan.h>

#include <QVulkanFunctions>
#include <QVulkanInstance>

#include "app/qt_test_app.hpp"
#include "gui/vulkan_validation.hpp"

TEST_CASE("the validation layer is on in the app tests and its errors are counted", "[app][validation]") {
  QVulkanInstance* vulkan = app_test::vulkan_instance_or_skip("the validation hook test");
  if (!vulkan) return;
  if (!app_test::validation_flag()) {
    WARN("VK_LAYER_KHRONOS_validation is not installed: the app tests run without validation");
    return;
  }
  QVulkanFunctions* f = vulkan->functions();
  uint32_t count = 0;
  REQUIRE(f->vkEnumeratePhysicalDevices(vulkan->vkInstance(), &count, nullptr) == VK_SUCCESS);
  REQUIRE(count > 0);
  count = 1;
  VkPhysicalDevice device = VK_NULL_HANDLE;
  f->vkEnumeratePhysicalDevices(vulkan->vkInstance(), &count, &device);

  const int before = coulomb::gui::vulkan_validation_error_count();
  // Valid: no error.
  VkImageFormatProperties properties{};
  f->vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                              VK_IMAGE_USAGE_SAMPLED_BIT, 0, &properties);
  CHECK(coulomb::gui::vulkan_validation_error_count() == before);
  // Invalid: an image usage of no bits (VUID-vkGetPhysicalDeviceImageFormatProperties-usage-requiredbitmask).
  f->vkGetPhysicalDeviceImageFormatProperties(device, VK_FORMAT_R8G8B8A8_UNORM, VK_IMAGE_TYPE_2D, VK_IMAGE_TILING_OPTIMAL,
                                              0, 0, &properties);
  CHECK(coulomb::gui::vulkan_validation_error_count() == before + 1);
  CHECK(coulomb::gui::vulkan_validation_errors().join('\n').contains(QStringLiteral("usage")));
  // Later tests start from a clean count.
  coulomb::gui::reset_vulkan_validation_errors();
}

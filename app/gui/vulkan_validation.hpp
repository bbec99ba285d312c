// Vulkan validation for the desktop app's QVulkanInstance: turns on VK_LAYER_KHRONOS_validation
// when it is installed and counts the errors it reports (through Qt's debug output filter, which
// Qt 6.4 feeds from VK_EXT_debug_report). The app enables it with $COULOMB_VULKAN_VALIDATION; the
// app tests always do, and fail on any error counted.
#pragma once

#include <QStringList>

class QVulkanInstance;

namespace coulomb::gui {

// Call before instance.create(). Returns false (and changes nothing) when the validation layer
// is not installed. Once created, validation errors are counted and logged to stderr.
bool enable_vulkan_validation(QVulkanInstance& instance);

// Errors reported by the validation layer since the start, or since the last reset.
int vulkan_validation_error_count();
QStringList vulkan_validation_errors();  // the messages (at most the first 50)
void reset_vulkan_validation_errors();

}  // namespace coulomb::gui

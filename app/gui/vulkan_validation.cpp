#include "gui/vulkan_validation.hpp"

#include <vulkan/vulkan.h>

#include <QMutex>
#include <QMutexLocker>
#include <QVulkanInstance>
#include <cstdio>

namespace coulomb::gui {

namespace {

constexpr int kKeptMessages = 50;

struct ValidationLog {
  QMutex mutex;  // the layer may report from the simulation's or the renderer's thread
  int errors = 0;
  QStringList messages;
};

ValidationLog& log() {
  static ValidationLog instance;
  return instance;
}

// Qt's filter signature (qvulkaninstance.h): returning false lets Qt print the message as well.
bool count_errors(VkDebugReportFlagsEXT flags, VkDebugReportObjectTypeEXT, uint64_t, size_t, int32_t,
                  const char* layer_prefix, const char* message) {
  if (!(flags & VK_DEBUG_REPORT_ERROR_BIT_EXT)) return false;
  ValidationLog& l = log();
  QMutexLocker lock(&l.mutex);
  ++l.errors;
  if (l.messages.size() < kKeptMessages)
    l.messages << QStringLiteral("%1: %2").arg(QString::fromUtf8(layer_prefix), QString::fromUtf8(message));
  std::fprintf(stderr, "coulomb: Vulkan validation error: %s\n", message);
  return true;
}

}  // namespace

bool enable_vulkan_validation(QVulkanInstance& instance) {
  const char* layer = "VK_LAYER_KHRONOS_validation";
  if (!instance.supportedLayers().contains(layer)) return false;
  instance.setLayers(instance.layers() << layer);
  instance.installDebugOutputFilter(count_errors);
  return true;
}

int vulkan_validation_error_count() {
  QMutexLocker lock(&log().mutex);
  return log().errors;
}

QStringList vulkan_validation_errors() {
  QMutexLocker lock(&log().mutex);
  return log().messages;
}

void reset_vulkan_validation_errors() {
  QMutexLocker lock(&log().mutex);
  log().errors = 0;
  log().messages.clear();
}

}  // namespace coulomb::gui

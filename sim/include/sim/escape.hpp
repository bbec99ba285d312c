// Messages that quote file content or arguments (issue 19): a control character copied to a
// terminal can move the cursor, recolour or rewrite what the user sees (ESC sequences, CR), so
// every message that quotes such text passes it through escape_control_characters first. C0
// controls (except tab, and newline where the caller keeps lines), DEL and the C1 controls
// (U+0080..U+009F, and a lone byte 0x80..0x9F, which some terminals read as one) become \xNN
// (\u00NN for the encoded C1 characters); a backslash stays as it is; valid UTF-8 passes.
#pragma once

#include <string>
#include <string_view>

namespace sim {

std::string escape_control_characters(std::string_view text, bool keep_newlines = false);

}  // namespace sim

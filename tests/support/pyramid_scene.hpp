// A box pyramid of `rows` rows (rows(rows+1)/2 boxes of 0.5 m, 0.02 m apart in a row, mu 0.5) as
// scene XML, as packaging/bench-scaling.sh writes it: the scaling benchmarks' scene.
#pragma once

#include <cstdio>
#include <string>

namespace test {

inline std::string pyramid_xml(int rows) {
  std::string xml = "<scene name=\"pyramid\" dt=\"0.0083\" gravity=\"0 0 -9.81\">\n"
                    "<material name=\"box\" friction=\"0.5\"/><world material=\"box\"><plane/></world>\n";
  char line[200];
  for (int r = 0; r < rows; ++r)
    for (int i = 0; i < rows - r; ++i) {
      std::snprintf(line, sizeof line,
                    "<body name=\"b%d_%d\" pos=\"%.4f 0 %.4f\" material=\"box\"><box size=\"0.5 0.5 0.5\"/></body>\n", r,
                    i, (i - (rows - r - 1) / 2.0) * 0.52, 0.25 + 0.5 * r);
      xml += line;
    }
  return xml + "</scene>\n";
}

}  // namespace test

#include <cstdio>
#include <vector>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <mapbox/earcut.hpp>
// stdin: rings as lines "x y x y ...", blank-free; prints triangles as index triples
int main() {
  std::vector<std::vector<std::array<double,2>>> poly;
  char buf[1<<20];
  while (fgets(buf, sizeof buf, stdin)) {
    std::vector<std::array<double,2>> ring; char* p = buf; double x, y; int n;
    while (sscanf(p, "%lf %lf%n", &x, &y, &n) == 2) { ring.push_back({x, y}); p += n; }
    if (!ring.empty()) poly.push_back(ring);
  }
  auto idx = mapbox::earcut<uint32_t>(poly);
  for (size_t i = 0; i + 2 < idx.size(); i += 3) printf("%u %u %u\n", idx[i], idx[i+1], idx[i+2]);
}

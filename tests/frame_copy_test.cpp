// copy_frames: every byte arrives, for blocks copied in place and in pieces on the workers with
// streaming stores, whatever the two addresses' alignment and the size's remainder (the
// stores' head and tail), and nothing past the end is touched.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "psfsim/frame_copy.hpp"

namespace psfsim {
namespace {

TEST(FrameCopy, EveryByteArrivesWhateverTheAlignmentAndSize) {
  constexpr std::size_t most = (std::size_t{9} << 20) + 200;
  std::vector<unsigned char> from(most + 64);
  for (std::size_t i = 0; i < from.size(); ++i)
    from[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  std::vector<unsigned char> to(most + 128);
  const std::size_t sizes[] = {
      0, 1, 63, 64, 65, 4095, (std::size_t{4} << 20) - 1, (std::size_t{4} << 20) + 17, most - 64};
  for (const std::size_t bytes : sizes)
    for (const std::size_t from_offset : {0, 3, 16})
      for (const std::size_t to_offset : {0, 5, 32, 63}) {
        std::fill(to.begin(), to.end(), 0xab);
        copy_frames(to.data() + to_offset, from.data() + from_offset, bytes);
        const auto arrived = std::equal(from.begin() + from_offset,
                                        from.begin() + from_offset + bytes, to.begin() + to_offset);
        EXPECT_TRUE(arrived) << bytes << " bytes, offsets " << from_offset << ", " << to_offset;
        const auto untouched = [](unsigned char v) { return v == 0xab; };
        EXPECT_TRUE(std::all_of(to.begin(), to.begin() + to_offset, untouched)) << bytes;
        EXPECT_TRUE(std::all_of(to.begin() + to_offset + bytes, to.end(), untouched)) << bytes;
      }
}

}  // namespace
}  // namespace psfsim

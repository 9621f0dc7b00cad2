#pragma once
// Where each frame's pupil rows lie in the transform's input (field_transform.hpp): the
// pupil kernel writes there, the transform reads there.
namespace psfsim::cuda {

struct PupilRows {
  bool split = false;  // the two passes (allow_split false: the 2D plan, to compare)
  int rows = 0;        // rows per frame: N split, M whole
  int origin = 0;      // the input row of the pupil's first row: 0 split, the offset whole

  static PupilRows choose(int samples, int padded, int offset, bool allow_split) noexcept;
};

}  // namespace psfsim::cuda

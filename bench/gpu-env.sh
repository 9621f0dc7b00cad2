# Sourced by the bench/gpu-*.sh scripts, on the GPU machine, with $build the carried CUDA
# build folder: makes the tree the build was configured in exist (the test program runs
# psfsim and the reference scripts by its absolute paths) as a link to this copy, and puts
# CUDA's libraries first and the carried ones the GPU machine lacks ($build/gpu-libs) last
# on the library path, so that the host's own come before the copies.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$source_dir" ] && [ "$source_dir" != "$PWD" ] && [ ! -e "$source_dir" ]; then
  mkdir -p "$(dirname "$source_dir")" && ln -s "$PWD" "$source_dir"
fi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$PWD/$build/gpu-libs

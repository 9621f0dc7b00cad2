# Sourced by the bench/gpu-*.sh scripts, on the GPU machine, with $build the carried CUDA
# build folder: makes the tree the build was configured in exist (the test program runs
# psfsim and the reference scripts by its absolute paths) as a link to this copy, and puts
# CUDA's libraries first and the carried ones the GPU machine lacks ($build/gpu-libs) last
# on the library path, so that the host's own come before the copies. It also defines the
# helpers the scripts share (below), which write into the caller's $scratch or $out folder.
source_dir=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
if [ -n "$source_dir" ] && [ "$source_dir" != "$PWD" ] && [ ! -e "$source_dir" ]; then
  mkdir -p "$(dirname "$source_dir")" && ln -s "$PWD" "$source_dir"
fi
export LD_LIBRARY_PATH=/usr/local/cuda/lib64${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}:$PWD/$build/gpu-libs

# One PSF to host: the run's table rows for the pupil and the fused stage (median and spread
# over --repeat 3000 calls).
one_psf() {  # EXE N PRECISION
  "$1" run --backend cuda --samples "$2" --precision "$3" --repeat 3000 --seidel 2,1,1 \
    -o "$scratch/one.h5" --force 2>&1 | sed -n '/^stage/,$p' | grep -E "pupil|total" | head -n 2 |
    tr -s ' ' | tr '\n' ' '
}

# The median of a run file's /timings/total over the repeats after the first, in seconds.
median_total() {  # FILE
  "${python:-python3}" -c "import h5py, numpy as np, sys; t = h5py.File(sys.argv[1])['timings/total'][()]; print(np.median(t[1:] if t.size > 1 else t))" "$1"
}

# The CUDA suites and every test with a cuda parameter, plus the gtest patterns EXTRA, of the
# test program EXE into $out/tests.txt: the summary, the failures, and the program's status.
cuda_tests() {  # EXE [EXTRA]
  local rc=0
  "$1" --gtest_filter="*Cuda*:*cuda*${2:+:$2}" --gtest_brief=1 >"$out/tests.txt" 2>&1 || rc=$?
  grep -E "PASSED|FAILED|SKIPPED|tests ran" "$out/tests.txt" | tail -n 8
  [ "$rc" -eq 0 ] ||
    { echo "CUDA tests FAILED (exit $rc)"; grep -E "FAILED|Failure" -A6 "$out/tests.txt" | head -60; }
  return "$rc"
}

# One compute-sanitizer run of `EXE run --backend cuda ARGS...`: a line with its summary, or
# FAILED and the tail of its output, and status 1.
sanitize() {  # TOOL EXE ARGS...
  local tool=$1 exe=$2 sanitizer
  shift 2
  sanitizer=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  if "$sanitizer" --tool "$tool" --error-exitcode 99 "$exe" run --backend cuda "$@" --quiet \
       --force -o "$scratch/san.h5" >"$scratch/san.txt" 2>&1; then
    echo "-- $tool ($*): $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$scratch/san.txt" | tail -1)"
  else
    echo "-- $tool ($*): FAILED"
    tail -n 30 "$scratch/san.txt"
    return 1
  fi
}

# The MFT to host, float32: PSFs/s from the median of /timings/total over the repeats after
# the first of 12 calls of B frames, or FAILED and the run's last line.
mft() {  # EXE N K B
  "$1" run --backend cuda --propagation mft --samples "$2" --crop "$3" --precision single \
    --wisdom none --vary "Z4,-1,1,$4" --seidel 2,1,1 --repeat 12 --quiet --force \
    -o "$scratch/m.h5" 2>"$scratch/m.err" || { echo "FAILED: $(tail -n 1 "$scratch/m.err")"; return; }
  "${python:-python3}" -c "import sys; print(f'{int(sys.argv[1]) / float(sys.argv[2]):.0f} PSFs/s')" "$4" \
    "$(median_total "$scratch/m.h5")"
}

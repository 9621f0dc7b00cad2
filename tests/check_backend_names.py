#!/usr/bin/env python3
"""Outside backends/, cpu/ and cuda/, backends are told apart by what their registry entries
say of them (where they compute, their cost models, their start-up, their process set-up),
never by their names, and no code reaches past backends/ into a backend.

    check_backend_names.py SOURCE_DIR    every C++ file outside backends/, cpu/, cuda/, tests/
    check_backend_names.py --self-test   the rules against lines they must and must not flag

Each C++ file is read with its comments blanked out. In every folder:
  - no comparison (==, !=, compare, starts_with, ends_with, strcmp) has for an operand a
    "cpu" or "cuda" literal, or a name that names one (kCpu, cuda_name(), names::cuda).
In code meant to know no backend (every folder but bench/, whose benchmarks choose a backend
to time, as the tests do):
  - no "cpu" or "cuda" literal at all (a registry lookup by name is the same test), and
  - no #include of a header of cpu/ or cuda/ (psfsim/cpu/..., psfsim/cuda/..., ../cpu/src/...)
    or of the libraries they wrap (CUDA, cuFFT, cuBLAS, FFTW, OpenBLAS's cblas).
Prints file:line and the rule for each finding; exits 1 if there is any.
"""
import os
import re
import sys

SKIPPED = {"backends", "cpu", "cuda", "tests"}
CHOOSING = {"bench"}  # may name a backend to run, never compare one's name
SUFFIXES = (".cpp", ".hpp", ".h", ".cc", ".cxx", ".hh", ".cu", ".cuh", ".in")
NAMES = ("cpu", "cuda")

IDENT = r"(?:[A-Za-z_]\w*\s*(?:::|\.|->)\s*)*[A-Za-z_]\w*"
NAMING = re.compile(r"(?i)cpu|cuda")
STRING = r'"(?:[^"\\\n]|\\.)*"'
OPERAND = rf"(?:{STRING}|{IDENT}(?:\s*\(\s*\))?)"
COMPARED = [
    re.compile(rf"({OPERAND})\s*(?:==|!=)"),
    re.compile(rf"(?:==|!=)\s*({OPERAND})"),
    re.compile(rf"\b(?:compare|starts_with|ends_with|strcmp|strncmp|strcasecmp)\s*\(\s*"
               rf"(?:{OPERAND}\s*,\s*)?({OPERAND})"),
]
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.M)
BACKEND_PATH = re.compile(r"(?:^|/)(?:cpu|cuda)/")
BACKEND_LIBRARY = re.compile(r"(?:^|/)(?:cuda\w*|cufft\w*|cublas\w*|curand\w*|nvrtc\w*|"
                             r"fftw3\w*|cblas\w*|openblas\w*)\.h(?:pp)?$")


def kept(contents):
    """A literal's contents as the comparisons see them: a backend's name as written, any
    other text blanked, so that no word inside a message reads as an operand."""
    return contents if contents.lower() in NAMES else re.sub(r"[^\n]", " ", contents)


def blank_comments(text):
    """The text with every comment replaced by spaces (newlines kept, for line numbers); the
    same with every string literal's text but a backend's name blanked too; and the string
    literals of the code, each as (offset, contents)."""
    out = []
    plain = []
    literals = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            plain.append(out[-1])
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            plain.append(out[-1])
            i = j
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not text[i - 1].isalnum()):
            open_paren = text.find("(", i + 2)
            delimiter = text[i + 2:open_paren]
            j = text.find(")" + delimiter + '"', open_paren)
            j = n if j < 0 else j + len(delimiter) + 2
            contents = text[open_paren + 1:j - len(delimiter) - 2]
            literals.append((i, contents))
            out.append(text[i:open_paren + 1] + kept(contents) + text[j - len(delimiter) - 2:j])
            plain.append(text[i:j])
            i = j
        elif c == "'" and i > 0 and text[i - 1].isdigit():  # a digit separator: 1'000
            out.append(c)
            plain.append(c)
            i += 1
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            if c == '"':
                literals.append((i, text[i + 1:j - 1]))
            out.append(c + kept(text[i + 1:j - 1]) + text[j - 1] if j - i >= 2 else text[i:j])
            plain.append(text[i:j])
            i = j
        else:
            out.append(c)
            plain.append(c)
            i += 1
    return "".join(plain), "".join(out), literals


def names_a_backend(operand):
    operand = operand.strip()
    if operand.startswith('"'):
        return operand[1:-1].lower() in NAMES
    last = re.split(r"::|\.|->", re.sub(r"\(\s*\)$", "", operand))[-1].strip()
    return NAMING.search(last) is not None


def findings(text, knows_no_backend):
    uncommented, code, literals = blank_comments(text)

    def line(offset):
        return code.count("\n", 0, offset) + 1

    found = []
    for pattern in COMPARED:
        for m in pattern.finditer(code):
            if names_a_backend(m.group(1)):
                found.append((line(m.start(1)), "compares a backend's name: " +
                              " ".join(m.group(0).split())))
    if knows_no_backend:
        for offset, contents in literals:
            if contents.lower() in NAMES:
                found.append((line(offset), f'names a backend: "{contents}"'))
        for m in INCLUDE.finditer(uncommented):
            path = m.group(1)
            if BACKEND_PATH.search(path) or BACKEND_LIBRARY.search(path):
                found.append((line(m.start()), f"includes past backends/: {path}"))
    return sorted(set(found))


def sources(root):
    for top in sorted(os.listdir(root)):
        folder = os.path.join(root, top)
        if top.startswith(".") or top in SKIPPED or not os.path.isdir(folder):
            continue
        for here, dirs, files in os.walk(folder):
            # A build folder (its CMakeCache.txt) holds generated and fetched code.
            dirs[:] = [d for d in sorted(dirs) if not d.startswith(".") and
                       not os.path.exists(os.path.join(here, d, "CMakeCache.txt"))]
            if os.path.exists(os.path.join(here, "CMakeCache.txt")):
                dirs[:] = []
                continue
            for f in sorted(files):
                if f.endswith(SUFFIXES):
                    yield top, os.path.join(here, f)


def scan(root):
    problems = 0
    counted = {}
    for top, path in sources(root):
        counted[top] = counted.get(top, 0) + 1
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for number, what in findings(text, top not in CHOOSING):
            print(f"{os.path.relpath(path, root)}:{number}: {what}")
            problems += 1
    # A scan that found no code checked nothing: the folders must be where they were.
    for top in ("lib", "apps"):
        if counted.get(top, 0) < 10:
            print(f"check_backend_names: only {counted.get(top, 0)} C++ files under {top}/ "
                  f"of {root}: not the source tree?")
            return 1
    print(f"check_backend_names: {sum(counted.values())} files, {problems} finding(s)")
    return 1 if problems else 0


FLAGGED = [
    'if (backend == "cpu") return;',
    'if ("cuda" != spec.backend) return;',
    'return entry.name == "CUDA";',
    "return backend().name() == kCpu;",
    "if (name != psfsim::names::cuda) {}",
    "if (cuda_name() == name) {}",
    "if (name.compare(kCudaName) == 0) {}",
    'if (std::strcmp(name, "cpu") == 0) {}',
    'if (name.starts_with("cuda")) {}',
    'const bool gpu = backend !=\n    "cuda";',
    'const char* url = "http://x"; if (b == "cuda") {}',
    'const int n = 1\'000; if (b == "cpu") {}',
]
FLAGGED_UNLESS_CHOOSING = [
    'const BackendEntry* e = registry.find("cuda");',
    'static constexpr const char* kCpu = "cpu";',
    '#include "psfsim/cpu/blas_kernels.hpp"',
    '#include "psfsim/cuda/cuda_backend.hpp"',
    '#include "../../cpu/src/fftw_api.hpp"',
    "#include <cufft.h>",
    "#include <cuda_runtime_api.h>",
    "#include <fftw3.h>",
    "#include <cblas.h>",
]
CLEAN = [
    '// if (backend == "cpu") the old way',
    '/* "cuda" */ int x = 0;',
    '/* a\n   backend == "cpu"\n */ int y = 0;',
    'std::string help = "GPU index for the cuda backend";',
    'const char* s = "a // \\"cpu\\" b";',
    'if (name == "auto") {}',
    "if (entry.site == ComputeSite::host) {}",
    "if (cpu.avx512 == true) {}",
    '#include "psfsim/backend_registry.hpp"',
    '#include "psfsim/builtin_backends.hpp"',
    '#include "cpu_like/x.hpp"',
    "const char c = '\"'; int z = 0;",
    'auto r = R"(no "cpu" == here)"; int w = 0;',
    'std::puts("the cpu == fastest, cuda != here");',
]


def self_test():
    failures = 0
    for snippet in FLAGGED:
        for knows_no_backend in (True, False):
            if not findings(snippet, knows_no_backend):
                print(f"self-test: not flagged ({'strict' if knows_no_backend else 'bench'}): "
                      f"{snippet!r}")
                failures += 1
    for snippet in FLAGGED_UNLESS_CHOOSING:
        if not findings(snippet, True):
            print(f"self-test: not flagged: {snippet!r}")
            failures += 1
        if findings(snippet, False):
            print(f"self-test: flagged in bench/: {snippet!r}: {findings(snippet, False)}")
            failures += 1
    for snippet in CLEAN:
        if found := findings(snippet, True):
            print(f"self-test: flagged, wrongly: {snippet!r}: {found}")
            failures += 1
    if findings('int a = 0;\nint b = 0;\nif (x == "cpu") {}', True)[0][0] != 3:
        print("self-test: a finding's line number is wrong")
        failures += 1
    print(f"check_backend_names self-test: {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) == 2 and sys.argv[1] == "--self-test":
        sys.exit(self_test())
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    sys.exit(scan(sys.argv[1]))

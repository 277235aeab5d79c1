#!/usr/bin/env bash
# Runs the C tests (bindings/c/test_*.c) on the release's aarch64 Rust library, the static
# library the release jar's linux-aarch64 libfairsched_jni.so is linked from, under user-mode
# QEMU: it runs on aarch64, it does not only link. Each test is cross-compiled by
# aarch64-linux-gnu-gcc with ASan and UBSan as bindings/c/run-tests.sh does on the build machine,
# but without leak detection (LeakSanitizer does not work under QEMU; the library allocates
# nothing). A test that calls the testing export fairsched_testing_panic (test_lifecycle.c) is
# left out: the release library has no such export, and run-tests.sh runs it on x86_64.
#
# Needs Debian's qemu-user and gcc-aarch64-linux-gnu, whose glibc for arm64
# (/usr/aarch64-linux-gnu) QEMU loads the tests' shared libraries from, and the Rust target
# aarch64-unknown-linux-gnu. Exits non-zero when any test fails.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)

if ! command -v qemu-aarch64 >/dev/null; then
  echo "aarch64-c-tests.sh: no qemu-aarch64 on the PATH (Debian: apt-get install qemu-user)" >&2
  exit 1
fi
library=$("$repo/scripts/build-native" --target aarch64-unknown-linux-gnu)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

cd "$repo/bindings/c"
tests=$(grep -L fairsched_testing_panic test_*.c || true)
if [ -z "$tests" ]; then
  echo "aarch64-c-tests.sh: every bindings/c/test_*.c calls the testing export" >&2
  exit 1
fi
status=0
for source in $tests; do
  binary=$scratch/${source%.c}
  aarch64-linux-gnu-gcc -std=c11 -Wall -Wextra -Werror \
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g \
    -I../../include "$source" check.c "$library" -lm -ldl -lpthread -o "$binary"
  echo "== $source (aarch64, QEMU)"
  ASAN_OPTIONS=detect_leaks=0 qemu-aarch64 -L /usr/aarch64-linux-gnu "$binary" || status=1
done
echo "left out (they call the testing export): $(grep -l fairsched_testing_panic test_*.c | xargs)"
exit $status

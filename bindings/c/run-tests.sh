#!/usr/bin/env bash
# Builds the static library with its testing export, instrumented by AddressSanitizer
# (scripts/build-native --asan), compiles each test_*.c (one per algorithm, and
# test_lifecycle.c for what every stateful object shares) with the shared checks (check.c)
# against it with ASan and UBSan (any report fails the run, leaks included), and runs them all.
# Exits non-zero when any fails.
set -euo pipefail
cd "$(dirname "$0")"
library=$(../../scripts/build-native --testing --asan)
mkdir -p target
status=0
for source in test_*.c; do
    binary=target/${source%.c}
    "${CC:-cc}" -std=c11 -Wall -Wextra -Werror \
        -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g \
        -DFAIRSCHED_TESTING -I../../include \
        "$source" check.c "$library" -lm -ldl -lpthread -o "$binary"
    echo "== $source"
    ASAN_OPTIONS=detect_leaks=1 "./$binary" || status=1
done
exit $status

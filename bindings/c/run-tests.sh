#!/usr/bin/env bash
# Builds the static library with its testing export, compiles test_cfq.c against it with ASan
# and UBSan (any report fails the run, leaks included), and runs it. Exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")"
library=$(../../scripts/build-native --testing)
mkdir -p target
"${CC:-cc}" -std=c11 -Wall -Wextra -Werror \
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g \
    -DFAIRSCHED_TESTING -I../../include \
    test_cfq.c "$library" -lm -ldl -lpthread -o target/test_cfq
ASAN_OPTIONS=detect_leaks=1 ./target/test_cfq

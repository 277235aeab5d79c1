#!/usr/bin/env bash
# Builds the native half of the binding: the Rust static library (with the testing export, see
# scripts/build-native) and the JNI glue (every src/main/c/*.c), linked into one shared object
# that the jar carries as the resource native/linux-<arch>/libfairsched_jni.so. Maven runs it
# after javac (pom.xml).
#
# Usage: build-native.sh JNI_HEADER_DIR CLASSES_DIR
#   JNI_HEADER_DIR  where `javac -h` wrote dev_fairsched_Native.h and the other JNI headers
#   CLASSES_DIR     the jar's root (target/classes)
# JAVA_HOME, when unset, is found from the `javac` on the PATH.
set -euo pipefail

if [ $# -ne 2 ]; then
  echo "usage: $0 JNI_HEADER_DIR CLASSES_DIR" >&2
  exit 2
fi
header_dir=$1
classes_dir=$2
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

if [ "$(uname -s)" != Linux ]; then
  echo "build-native.sh: only Linux is supported" >&2
  exit 1
fi
java_home=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}
if [ ! -f "$java_home/include/jni.h" ]; then
  echo "build-native.sh: no include/jni.h under $java_home; set JAVA_HOME to a JDK" >&2
  exit 1
fi

# FAIRSCHED_ASAN=1: the library and the glue under AddressSanitizer (run the JVM with
# libasan preloaded, see scripts/test).
sanitize=()
if [ "${FAIRSCHED_ASAN:-0}" = 1 ]; then
  sanitize=(-fsanitize=address -fno-omit-frame-pointer)
  static_lib=$("$repo/scripts/build-native" --testing --asan)
else
  static_lib=$("$repo/scripts/build-native" --testing)
fi
output="$classes_dir/native/linux-$(uname -m)/libfairsched_jni.so"
mkdir -p "$(dirname "$output")"
# --exclude-libs keeps the Rust library's symbols out of the dynamic symbol table (only the JNI
# entry points are exported); --no-undefined turns a missing symbol into a link error instead of
# an UnsatisfiedLinkError at load time; --strip-debug keeps the jar small (symbols stay).
gcc -O2 -fPIC -shared -Wall -Werror -DFAIRSCHED_TESTING "${sanitize[@]}" \
  -I"$java_home/include" -I"$java_home/include/linux" -I"$repo/include" -I"$header_dir" \
  -o "$output" "$here"/src/main/c/*.c "$static_lib" \
  -Wl,--exclude-libs,ALL -Wl,--gc-sections -Wl,--no-undefined -Wl,--strip-debug \
  -lm -ldl -lpthread

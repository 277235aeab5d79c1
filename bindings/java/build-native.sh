#!/usr/bin/env bash
# Builds the native half of the binding: the Rust static library (with the testing export, see
# scripts/build-native) and the JNI glue (every src/main/c/*.c), linked into one shared object
# that the jar carries as the resource native/linux-<arch>/libfairsched_jni.so. Maven runs it
# after javac (pom.xml).
#
# The glue is checked against the Java natives on the way (see src/main/c/glue.h): each glue
# file includes its class's JNI header, so a signature that disagrees does not compile;
# -Wmissing-prototypes rejects an entry point no header declares; and once linked, every entry
# point the headers declare must be a symbol of the shared object (nm), so a native method
# without its C function fails the build, not a call at run time.
#
# Usage: build-native.sh JNI_HEADER_DIR CLASSES_DIR
#   JNI_HEADER_DIR  where `javac -h` wrote dev_fairsched_NativeCfq.h and the other JNI headers
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

# javac -h never deletes the header of a class that is gone: drop those, whose entry points
# nobody declares any more.
for header in "$header_dir"/dev_fairsched_*.h; do
  class=$(basename "$header" .h)
  class=${class#dev_fairsched_}
  if [ ! -f "$here/src/main/java/dev/fairsched/$class.java" ] \
      && [ ! -f "$here/src/test/java/dev/fairsched/$class.java" ]; then
    rm -f "$header"
  fi
done
# NativeTesting is a test source, which Maven compiles after this step: its header is made
# here, from the source and the classes compiled already (the class itself is thrown away).
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$java_home/bin/javac" -h "$header_dir" -d "$scratch" -cp "$classes_dir" -implicit:none \
  "$here/src/test/java/dev/fairsched/NativeTesting.java"

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
gcc -O2 -fPIC -shared -Wall -Wmissing-prototypes -Werror -DFAIRSCHED_TESTING \
  "${sanitize[@]}" \
  -I"$java_home/include" -I"$java_home/include/linux" -I"$repo/include" -I"$header_dir" \
  -o "$output" "$here"/src/main/c/*.c "$static_lib" \
  -Wl,--exclude-libs,ALL -Wl,--gc-sections -Wl,--no-undefined -Wl,--strip-debug \
  -lm -ldl -lpthread

# Every entry point a JNI header declares must be defined and exported, and nothing else.
declared=$(sed -n 's/.*JNICALL \(Java_[A-Za-z0-9_]*\).*/\1/p' "$header_dir"/dev_fairsched_*.h \
  | sort -u)
exported=$(nm -D --defined-only "$output" | awk '$3 ~ /^Java_/ { print $3 }' | sort -u)
missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
if [ -n "$missing" ]; then
  printf 'build-native.sh: declared in Java, not defined in src/main/c:\n%s\n' "$missing" >&2
fi
if [ -n "$extra" ]; then
  printf 'build-native.sh: defined in src/main/c, declared by no Java class:\n%s\n' "$extra" >&2
fi
if [ -n "$missing" ] || [ -n "$extra" ]; then
  rm -f "$output"
  exit 1
fi

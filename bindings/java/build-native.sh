#!/usr/bin/env bash
# Builds the native half of the binding: the Rust static library (scripts/build-native) and the
# JNI glue (every src/main/c/*.c), linked into one shared object per platform that the jar
# carries as the resource native/linux-<arch>/libfairsched_jni.so. Maven runs it after javac
# (pom.xml). Two kinds of build:
#
#   testing  what `mvn test` (and `mvn package`) use: the library with its testing export
#            (fairsched_testing_panic, called through the test class NativeTesting), for the
#            build machine's architecture only, symbols kept; FAIRSCHED_ASAN=1 instruments it
#            and the glue with AddressSanitizer.
#   release  what the release jar carries (`mvn -P release`, scripts/release-java): the library
#            without the testing export, for linux-x86_64 and linux-aarch64 whatever the build
#            machine, each linked by that architecture's gcc (Debian's gcc for the build
#            machine's, gcc-aarch64-linux-gnu or gcc-x86-64-linux-gnu for the other), and
#            stripped of its debug information and symbol table.
#
# The glue is checked against the Java natives on the way (see src/main/c/glue.h): each glue
# file includes its class's JNI header, so a signature that disagrees does not compile;
# -Wmissing-prototypes rejects an entry point no header declares; and once linked, every entry
# point the headers declare must be a symbol of the shared object (nm), and no other, so a
# native method without its C function fails the build, not a call at run time.
#
# Usage: build-native.sh testing|release JNI_HEADER_DIR CLASSES_DIR
#   JNI_HEADER_DIR  where `javac -h` wrote dev_fairsched_NativeCfq.h and the other JNI headers
#   CLASSES_DIR     the jar's root (target/classes); its native/ is replaced
# JAVA_HOME, when unset, is found from the `javac` on the PATH.
set -euo pipefail

if [ $# -ne 3 ] || { [ "$1" != testing ] && [ "$1" != release ]; }; then
  echo "usage: $0 testing|release JNI_HEADER_DIR CLASSES_DIR" >&2
  exit 2
fi
kind=$1
header_dir=$2
classes_dir=$3
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
if [ "$kind" = release ] && [ "${FAIRSCHED_ASAN:-0}" = 1 ]; then
  echo "build-native.sh: FAIRSCHED_ASAN=1 is for the tests' build, a release is never" \
    "instrumented" >&2
  exit 2
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

# Every platform is rebuilt: a library of the other kind, or of a platform this kind does not
# build, must not stay in the jar.
rm -rf "$classes_dir/native"

# link ARCH TOOL_PREFIX LIBRARY [GCC_OPTION...]: links the glue with the static LIBRARY into
# CLASSES_DIR/native/linux-ARCH/libfairsched_jni.so using TOOL_PREFIX's gcc and nm, then checks
# that it exports exactly the entry points the headers declare (the testing build also those of
# NativeTesting, the release build not).
#
# --exclude-libs keeps the Rust library's symbols out of the dynamic symbol table (only the JNI
# entry points are exported); --no-undefined turns a missing symbol into a link error instead of
# an UnsatisfiedLinkError at load time.
link() {
  local arch=$1 prefix=$2 library=$3
  shift 3
  local output="$classes_dir/native/linux-$arch/libfairsched_jni.so"
  mkdir -p "$(dirname "$output")"
  "${prefix}gcc" -O2 -fPIC -shared -Wall -Wmissing-prototypes -Werror "$@" \
    -I"$java_home/include" -I"$java_home/include/linux" -I"$repo/include" -I"$header_dir" \
    -o "$output" "$here"/src/main/c/*.c "$library" \
    -Wl,--exclude-libs,ALL -Wl,--gc-sections -Wl,--no-undefined \
    -lm -ldl -lpthread

  local declared exported missing extra
  declared=$(sed -n 's/.*JNICALL \(Java_[A-Za-z0-9_]*\).*/\1/p' "$header_dir"/dev_fairsched_*.h \
    | sort -u)
  if [ "$kind" = release ]; then
    declared=$(echo "$declared" | sed '/^Java_dev_fairsched_NativeTesting_/d')
  fi
  exported=$("${prefix}nm" -D --defined-only "$output" | awk '{ print $3 }' | sort -u)
  missing=$(comm -23 <(echo "$declared") <(echo "$exported"))
  extra=$(comm -13 <(echo "$declared") <(echo "$exported"))
  if [ -n "$missing" ]; then
    printf 'build-native.sh: %s: declared in Java, not defined in src/main/c:\n%s\n' \
      "$arch" "$missing" >&2
  fi
  if [ -n "$extra" ]; then
    printf 'build-native.sh: %s: exported, but declared by no Java class:\n%s\n' \
      "$arch" "$extra" >&2
  fi
  if [ -n "$missing" ] || [ -n "$extra" ]; then
    rm -f "$output"
    exit 1
  fi
}

if [ "$kind" = testing ]; then
  # NativeTesting is a test source, which Maven compiles after this step: its header is made
  # here, from the source and the classes compiled already (the class itself is thrown away).
  scratch=$(mktemp -d)
  trap 'rm -rf "$scratch"' EXIT
  "$java_home/bin/javac" -h "$header_dir" -d "$scratch" -cp "$classes_dir" -implicit:none \
    "$here/src/test/java/dev/fairsched/NativeTesting.java"
  # FAIRSCHED_ASAN=1: the library and the glue under AddressSanitizer (run the JVM with
  # libasan preloaded, see scripts/test). --strip-debug keeps the library small; its symbols
  # stay, for sanitizer reports and debuggers.
  if [ "${FAIRSCHED_ASAN:-0}" = 1 ]; then
    static_lib=$("$repo/scripts/build-native" --testing --asan)
    sanitize=(-fsanitize=address -fno-omit-frame-pointer)
  else
    static_lib=$("$repo/scripts/build-native" --testing)
    sanitize=()
  fi
  link "$(uname -m)" "" "$static_lib" -DFAIRSCHED_TESTING "${sanitize[@]}" -Wl,--strip-debug
else
  # The platform directories NativeLibrary looks up (os.arch amd64 is x86_64). Built with an
  # explicit --target even for the build machine's architecture, so that the release library
  # (target/TRIPLE/release/) and the testing one (target/release/) never overwrite each other.
  for arch in x86_64 aarch64; do
    if ! command -v "$arch-linux-gnu-gcc" >/dev/null; then
      echo "build-native.sh: no $arch-linux-gnu-gcc on the PATH, needed for the release's" \
        "linux-$arch library (Debian: apt-get install gcc-${arch//_/-}-linux-gnu)" >&2
      exit 1
    fi
    static_lib=$("$repo/scripts/build-native" --target "$arch-unknown-linux-gnu")
    link "$arch" "$arch-linux-gnu-" "$static_lib" -Wl,--strip-all
  done
fi

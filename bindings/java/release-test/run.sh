#!/usr/bin/env bash
# Checks the installed release jar as a user of it gets it: copies this directory's project
# (pom.xml, src/) to a temporary directory outside the repository, where Maven resolves
# dev.fairsched:fairsched:<bindings/java's version> from the local repository by its coordinates
# alone, builds it and runs its Main with the JDK's java (`mvn compile exec:exec`), and compares
# what it prints with the known answers of CFQ and DRF. Then it opens the jar Main's classes came
# from and requires what scripts/release-java promises: the library for linux-x86_64 and
# linux-aarch64 (each of its ELF machine), exporting the same JNI entry points and nothing else,
# without the testing export (its JNI entry point, its name and its panic message), without
# debug information or symbol table; the project's LICENSE in META-INF; and the sources and
# javadoc jars beside it.
#
# Fails when the artifact is not installed, and when the one installed is the tests' build
# (`mvn install` in bindings/java: the testing library, linux-x86_64 only). Install it first:
#   scripts/release-java && bindings/java/release-test/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

fail() {
  printf 'release-test: %s\n' "$@" >&2
  exit 1
}

version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$here/../pom.xml")
[ -n "$version" ] || fail "no project version in bindings/java/pom.xml"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cp -r "$here/pom.xml" "$here/src" "$scratch/"

if ! (cd "$scratch" \
    && mvn -B -q -Dstyle.color=never -Dfairsched.version="$version" compile exec:exec) \
    >"$scratch/maven.log" 2>&1; then
  cat "$scratch/maven.log" >&2
  [ -f "$scratch/target/output" ] && cat "$scratch/target/output" >&2
  fail "the project using dev.fairsched:fairsched:$version did not build or run (above)" \
    "not installed? scripts/release-java installs it"
fi
output=$scratch/target/output

# The first line names the jar; it must be the installed artifact, in a Maven repository.
jar=$(sed -n '1s/^jar //p' "$output")
case $jar in
  */dev/fairsched/fairsched/"$version"/fairsched-"$version".jar) ;;
  *) fail "Main's classes came from '$jar', not from the installed fairsched-$version.jar" ;;
esac
expected='cfq offer [1, 2, 2]
cfq job 1 completion 9.0, gps completion 6.0
drf round 200 tasks, per user {1=91, 2=109}'
if ! diff <(echo "$expected") <(tail -n +2 "$output"); then
  fail "Main printed other answers than expected (diff above: < expected, > printed)"
fi

# The listing is read whole before grep -q looks at it: piped, grep -q stops reading at the first
# match and unzip, still writing, dies of SIGPIPE, which pipefail reports as a failure.
entries=$(unzip -Z1 "$jar")
grep -qxF META-INF/LICENSE <<<"$entries" || fail "$jar does not carry META-INF/LICENSE"

for classifier in sources javadoc; do
  [ -f "${jar%.jar}-$classifier.jar" ] || fail "no ${jar%.jar}-$classifier.jar"
done

libraries=$(grep '\.so$' <<<"$entries" || true)
[ "$libraries" = "native/linux-aarch64/libfairsched_jni.so
native/linux-x86_64/libfairsched_jni.so" ] \
  || fail "$jar must carry the library of linux-aarch64 and of linux-x86_64, and no other;" \
    "it carries:" "$libraries"

# platform, then the ELF machine readelf names for it
for platform in "linux-x86_64 Advanced Micro Devices X86-64" "linux-aarch64 AArch64"; do
  machine=${platform#* }
  platform=${platform%% *}
  library="$scratch/$platform.so"
  unzip -p "$jar" "native/$platform/libfairsched_jni.so" >"$library"
  [ "$(readelf -h "$library" | sed -n 's/^ *Machine: *//p')" = "$machine" ] \
    || fail "$platform: not an ELF shared object for $machine"
  exports=$(readelf -W --dyn-syms "$library" | awk '$5 == "GLOBAL" && $7 != "UND" { print $8 }' \
    | sort)
  grep -q '^Java_dev_fairsched_' <<<"$exports" || fail "$platform: no JNI entry point exported"
  if grep -v '^Java_dev_fairsched_Native[A-Za-z]*_' <<<"$exports"; then
    fail "$platform: exports the symbols above besides the JNI entry points"
  fi
  if grep '^Java_dev_fairsched_NativeTesting_' <<<"$exports"; then
    fail "$platform: the testing build (it exports the test-only entry point above)"
  fi
  if grep -q -a -e fairsched_testing_panic "$library"; then
    fail "$platform: the testing build (the library holds fairsched_testing_panic)"
  fi
  if readelf -W -S "$library" | grep -E '\.debug_|\.symtab'; then
    fail "$platform: not stripped (sections above)"
  fi
  if [ -z "${first_exports+set}" ]; then
    first_exports=$exports
  elif [ "$exports" != "$first_exports" ]; then
    fail "linux-x86_64 and $platform export different entry points"
  fi
done
echo "release-test: dev.fairsched:fairsched:$version from $jar: ok"

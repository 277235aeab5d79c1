package dev.fairsched;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libfairsched_jni} (the JNI glue with the Rust library linked in) from the jar,
 * and refuses a library of another ABI version than this binding's. The resource {@code
 * native/<os>-<arch>/} is copied to a temporary file, since the dynamic linker needs a path,
 * and that file is deleted once loaded (the mapping stays valid). Also the JNI entry points
 * that belong to no object (src/main/c/library_jni.c).
 */
final class NativeLibrary {
    /**
     * The C ABI version ({@code FAIRSCHED_ABI_VERSION}) this binding is written for. The glue
     * checks at compile time that it is the header's, and {@link #load} that it is the
     * library's.
     */
    static final int ABI_VERSION = 3;

    private static boolean loaded;

    private NativeLibrary() {}

    /**
     * Loads the library into this JVM unless already done, then checks its ABI version. Every
     * class with natives calls it from its static initializer.
     *
     * @throws UnsatisfiedLinkError if the jar has no library for this platform, it fails to
     *     load, or it speaks another ABI version than this binding
     */
    static synchronized void load() {
        if (!loaded) {
            extractAndLoad();
            loaded = true;
        }
        requireAbi(abiVersion());
    }

    /**
     * Rejects a library of ABI version {@code library}: its exports may take other arguments
     * than the glue passes, so no call may be made.
     *
     * @throws UnsatisfiedLinkError unless {@code library} is {@link #ABI_VERSION}
     */
    static void requireAbi(int library) {
        if (library != ABI_VERSION) {
            throw new UnsatisfiedLinkError("the fairsched library in libfairsched_jni speaks"
                    + " ABI version " + library + ", but its JNI glue was compiled against"
                    + " fairsched.h of ABI version " + ABI_VERSION + ": rebuild the library"
                    + " and the glue from one checkout (mvn package)");
        }
    }

    /** {@code fairsched_abi_version}: the ABI version the library was built with. */
    static native int abiVersion();

    /** {@code fairsched_status_message} for a status code, known or not. */
    static native String statusMessage(int status);

    private static void extractAndLoad() {
        String resource = "native/" + platform() + "/" + System.mapLibraryName("fairsched_jni");
        try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("no " + resource + " on the classpath: the"
                        + " release jar (scripts/release-java) carries linux-x86_64 and"
                        + " linux-aarch64, a jar of the tests' build (mvn package) only the"
                        + " platform it was built on");
            }
            Path file = Files.createTempFile("fairsched_jni", ".so");
            try {
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                System.load(file.toAbsolutePath().toString());
            } finally {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract " + resource, e);
        }
    }

    /**
     * {@code linux-x86_64} or {@code linux-aarch64} on the platforms fairsched supports: the
     * directory build-native.sh writes to, named after {@code uname -m} (the JVM's {@code
     * os.arch} is {@code amd64} on x86_64 and {@code aarch64} on aarch64).
     */
    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        return os + "-" + (arch.equals("amd64") ? "x86_64" : arch);
    }
}

package dev.fairsched;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;

/**
 * Loads {@code libfairsched_jni} (the JNI glue with the Rust library linked in) from the jar:
 * the resource {@code native/<os>-<arch>/} is copied to a temporary file, since the dynamic
 * linker needs a path, and that file is deleted once loaded (the mapping stays valid).
 */
final class NativeLibrary {
    private static boolean loaded;

    private NativeLibrary() {}

    /**
     * Loads the library into this JVM unless already done; later calls return at once.
     *
     * @throws UnsatisfiedLinkError if the jar has no library for this platform or it fails to
     *     load
     */
    static synchronized void load() {
        if (loaded) {
            return;
        }
        String resource = "native/" + platform() + "/" + System.mapLibraryName("fairsched_jni");
        try (InputStream in = NativeLibrary.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new UnsatisfiedLinkError("no " + resource + " on the classpath: fairsched"
                        + " is built for Linux only (bindings/java/build-native.sh)");
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
        loaded = true;
    }

    /** {@code linux-x86_64} and the like: the directory build-native.sh writes to. */
    private static String platform() {
        String os = System.getProperty("os.name").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch");
        return os + "-" + (arch.equals("amd64") ? "x86_64" : arch);
    }
}

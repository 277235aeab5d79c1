package dev.fairsched;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The constants of include/fairsched.h, for the tests that hold Java's copies against them. */
final class Header {
    /** Set by pom.xml; the default serves a run from bindings/java outside Maven. */
    private static final Path FILE =
            Path.of(System.getProperty("fairsched.header", "../../include/fairsched.h"));

    private Header() {}

    /** The header's text. */
    static String text() {
        try {
            return Files.readString(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Every match of {@code pattern} in the header, in order: its first group (a name) mapped
     * to its second (a decimal number).
     */
    static Map<String, Integer> constants(String pattern) {
        Matcher m = Pattern.compile(pattern).matcher(text());
        Map<String, Integer> constants = new LinkedHashMap<>();
        while (m.find()) {
            constants.put(m.group(1), Integer.valueOf(m.group(2)));
        }
        return constants;
    }
}

package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/** Reading the shared vectors (tests/vectors/README.md): their cases and their numbers. */
final class Json {
    private Json() {}

    /** The cases of a vectors file, which must have some. */
    static JsonArray cases(Path vectors) throws IOException {
        JsonArray cases = JsonParser.parseString(Files.readString(vectors))
                .getAsJsonObject()
                .getAsJsonArray("cases");
        assertFalse(cases.isEmpty(), "no case in " + vectors);
        return cases;
    }

    /** A JSON number, or one of the strings "nan", "inf", "-inf". */
    static double number(JsonElement value) {
        if (!value.getAsJsonPrimitive().isString()) {
            return value.getAsDouble();
        }
        return switch (value.getAsString()) {
            case "nan" -> Double.NaN;
            case "inf" -> Double.POSITIVE_INFINITY;
            case "-inf" -> Double.NEGATIVE_INFINITY;
            default -> throw new IllegalArgumentException("not a number: " + value);
        };
    }

    static Stream<JsonElement> elements(JsonArray array) {
        return StreamSupport.stream(array.spliterator(), false);
    }
}

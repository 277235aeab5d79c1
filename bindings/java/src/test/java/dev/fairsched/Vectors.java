package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.function.Executable;

/**
 * What the runners of the shared vectors (tests/vectors/, format in tests/vectors/README.md)
 * share: reading a file into one dynamic test per case, running a case's steps, and the
 * vectors' numbers, ids, statuses and expected fields.
 */
final class Vectors {
    /** Set by pom.xml; the default serves a run from bindings/java outside Maven. */
    private static final Path DIRECTORY =
            Path.of(System.getProperty("fairsched.vectors", "../../tests/vectors"));

    private Vectors() {}

    /** A case's runner. */
    @FunctionalInterface
    interface Case {
        void run(JsonObject vector) throws Exception;
    }

    /** Runs one step on {@code object} and checks what it expects; a failed call throws. */
    @FunctionalInterface
    interface Step<T> {
        void run(T object, JsonObject step, String context);
    }

    /** One dynamic test per case of the vector file {@code name}, named after the case. */
    static Stream<DynamicTest> cases(String name, Case run) throws IOException {
        Path file = DIRECTORY.resolve(name);
        JsonArray cases = JsonParser.parseString(Files.readString(file))
                .getAsJsonObject()
                .getAsJsonArray("cases");
        assertFalse(cases.isEmpty(), "no case in " + file);
        return elements(cases).map(JsonElement::getAsJsonObject).map(vector -> {
            Executable test = () -> run.run(vector);
            return dynamicTest(vector.get("name").getAsString(), test);
        });
    }

    /**
     * Builds the case's object with {@code open}, which must end with the case's {@code
     * init_status}, then runs every step on it with {@code step}: each must end with its {@code
     * status}, and one that fails must leave the {@code snapshot} of the object as it was.
     */
    static <T extends AutoCloseable> void runSteps(
            JsonObject vector, Supplier<T> open, Function<T, Object> snapshot, Step<T> step)
            throws Exception {
        Status init = status(vector, "init_status");
        if (init != Status.OK) {
            FairschedException e =
                    assertThrows(FairschedException.class, () -> open.get().close(), "init");
            assertEquals(init, e.status(), "init");
            return;
        }
        T object = open.get();
        try {
            JsonArray steps = vector.getAsJsonArray("steps");
            for (int i = 0; i < steps.size(); i++) {
                JsonObject json = steps.get(i).getAsJsonObject();
                String context = "step " + i + " " + json;
                Object before = snapshot.apply(object);
                Status wanted = status(json, "status");
                assertEquals(wanted, outcome(() -> step.run(object, json, context)), context);
                if (wanted != Status.OK) {
                    assertEquals(before, snapshot.apply(object), context + ": changed things");
                }
            }
        } finally {
            object.close(); // not try-with-resources: AutoCloseable.close may throw anything
        }
    }

    /** The status {@code call} ends with: OK, or that of the {@link FairschedException} thrown. */
    static Status outcome(Runnable call) {
        try {
            call.run();
            return Status.OK;
        } catch (FairschedException e) {
            return e.status();
        }
    }

    /**
     * Compares every field {@code object.expect} names (object: a step, or a case without steps)
     * with the field of that name in {@code actual}: numbers bit for bit (counts as doubles),
     * arrays element by element (booleans as booleans), null for an absent optional.
     */
    static void assertFields(JsonObject object, Map<String, Object> actual, String context) {
        for (Map.Entry<String, JsonElement> field : object.getAsJsonObject("expect").entrySet()) {
            String name = context + ": " + field.getKey();
            JsonElement wanted = field.getValue();
            assertTrue(actual.containsKey(field.getKey()), name + " is not a field");
            Object got = actual.get(field.getKey());
            if (wanted.isJsonNull()) {
                assertNull(got, name);
            } else if (got instanceof boolean[] flags) {
                assertArrayEquals(booleans(wanted.getAsJsonArray()), flags, name);
            } else if (wanted.isJsonArray()) {
                assertArrayEquals(numbers(wanted.getAsJsonArray()), doubles(got), name);
            } else if (wanted.getAsJsonPrimitive().isBoolean()) {
                assertEquals(wanted.getAsBoolean(), got, name);
            } else {
                assertNotNull(got, name);
                assertEquals(number(wanted), ((Number) got).doubleValue(), name);
            }
        }
    }

    /** A {@code double[]}, or a {@code long[]} or {@code int[]} of counts, as doubles. */
    private static double[] doubles(Object array) {
        if (array instanceof long[] counts) {
            return Arrays.stream(counts).asDoubleStream().toArray();
        }
        if (array instanceof int[] counts) {
            return Arrays.stream(counts).asDoubleStream().toArray();
        }
        return (double[]) array;
    }

    private static boolean[] booleans(JsonArray values) {
        boolean[] flags = new boolean[values.size()];
        for (int i = 0; i < flags.length; i++) {
            flags[i] = values.get(i).getAsBoolean();
        }
        return flags;
    }

    /** A status by its vector name ({@code "unknown_id"}); {@code OK} when absent. */
    static Status status(JsonObject object, String field) {
        JsonElement name = object.get(field);
        String upper = name == null ? "OK" : name.getAsString().toUpperCase(Locale.ROOT);
        return Status.valueOf(upper);
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

    static double[] numbers(JsonArray values) {
        return elements(values).mapToDouble(Vectors::number).toArray();
    }

    /** Counts that fit an {@code int}. */
    static int[] ints(JsonArray values) {
        return elements(values).mapToInt(JsonElement::getAsInt).toArray();
    }

    /** A u64 id, from a JSON number or a decimal string, as its 64 bits. */
    static long id(JsonElement value) {
        return Long.parseUnsignedLong(value.getAsString());
    }

    static long[] ids(JsonArray values) {
        return elements(values).mapToLong(Vectors::id).toArray();
    }

    static Stream<JsonElement> elements(JsonArray array) {
        return StreamSupport.stream(array.spliterator(), false);
    }
}

package dev.fairsched;

import static dev.fairsched.Json.elements;
import static dev.fairsched.Json.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared PAF vectors, tests/vectors/paf.json (format in tests/vectors/README.md),
 * through the binding, one dynamic test per case: the cases cargo test and go test run too.
 */
class PafVectorsTest {
    private static final Path VECTORS = Path.of(
            System.getProperty("fairsched.paf.vectors", "../../tests/vectors/paf.json"));

    @TestFactory
    Stream<DynamicTest> pafVectors() throws IOException {
        JsonArray cases = Json.cases(VECTORS);
        return elements(cases)
                .map(JsonElement::getAsJsonObject)
                .map(c -> dynamicTest(c.get("name").getAsString(), () -> run(c)));
    }

    private static void run(JsonObject c) {
        JsonElement name = c.get("status");
        Status wanted = Status.valueOf(
                name == null ? "OK" : name.getAsString().toUpperCase(Locale.ROOT));
        Status got;
        try {
            call(c);
            got = Status.OK;
        } catch (FairschedException e) {
            got = e.status();
        }
        assertEquals(wanted, got, c.get("name").getAsString());
    }

    private static void call(JsonObject c) {
        switch (c.get("op").getAsString()) {
            case "allocate" -> {
                try (Paf paf = new Paf(c.get("capacity").getAsLong())) {
                    double[][] curves = elements(c.getAsJsonArray("curves"))
                            .map(e -> numbers(e.getAsJsonArray()))
                            .toArray(double[][]::new);
                    for (int method : new int[] {Paf.LITERAL, Paf.FAST}) {
                        PafAllocation a = paf.allocate(ints(c.getAsJsonArray("weights")), curves,
                                c.get("slots").getAsLong(), number(c.get("alpha")), method);
                        JsonObject e = c.getAsJsonObject("expect");
                        assertArrayEquals(ints(e.getAsJsonArray("fair")), a.fair());
                        assertArrayEquals(ints(e.getAsJsonArray("min")), a.min());
                        assertArrayEquals(ints(e.getAsJsonArray("paf")), a.paf());
                        assertArrayEquals(numbers(e.getAsJsonArray("fair_progress")),
                                a.fairProgress());
                        assertArrayEquals(numbers(e.getAsJsonArray("paf_progress")),
                                a.pafProgress());
                        assertEquals(e.get("slots").getAsLong(), a.slots());
                        assertEquals(e.get("moved").getAsLong(), a.moved());
                        assertEquals(number(e.get("total_fair_progress")), a.totalFairProgress());
                        assertEquals(number(e.get("total_paf_progress")), a.totalPafProgress());
                        assertEquals(number(e.get("largest_loss")), a.largestLoss());
                    }
                }
            }
            case "enforce" -> {
                try (Paf paf = new Paf(c.get("capacity").getAsLong())) {
                    int[] out = new int[c.get("slots").getAsInt()];
                    int given = paf.enforce(ints(c.getAsJsonArray("targets")),
                            ints(c.getAsJsonArray("running")), out);
                    assertArrayEquals(ints(c.getAsJsonArray("expect_jobs")),
                            java.util.Arrays.copyOf(out, given));
                }
            }
            case "ernest_fit" -> {
                double[] a = Paf.ernestFit(ints(c.getAsJsonArray("slots")),
                        numbers(c.getAsJsonArray("runtimes")));
                assertArrayEquals(numbers(c.getAsJsonArray("expect")), a,
                        number(c.get("tolerance")));
            }
            case "ernest_tabulate" -> {
                double[] curve = new double[c.get("points").getAsInt()];
                Paf.ernestTabulate(numbers(c.getAsJsonArray("coefficients")), curve);
                assertArrayEquals(numbers(c.getAsJsonArray("expect")), curve);
            }
            case "curve_check" -> {
                int k = Paf.concaveFrom(numbers(c.getAsJsonArray("points")));
                assertEquals(c.get("expect_concave_from").getAsInt(), k);
            }
            case "concave_envelope" -> {
                double[] envelope = Paf.concaveEnvelope(numbers(c.getAsJsonArray("points")));
                assertArrayEquals(numbers(c.getAsJsonArray("expect")), envelope);
            }
            default -> fail("unknown op " + c.get("op"));
        }
    }

    private static double[] numbers(JsonArray values) {
        return elements(values).mapToDouble(Json::number).toArray();
    }

    private static int[] ints(JsonArray values) {
        return elements(values).mapToInt(JsonElement::getAsInt).toArray();
    }
}

package dev.fairsched;

import static dev.fairsched.Vectors.elements;
import static dev.fairsched.Vectors.ints;
import static dev.fairsched.Vectors.number;
import static dev.fairsched.Vectors.numbers;
import static dev.fairsched.Vectors.outcome;
import static dev.fairsched.Vectors.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of PAF, tests/vectors/paf.json (format in tests/vectors/README.md),
 * through the binding, one dynamic test per case: the cases cargo test and go test run too.
 */
class PafVectorsTest {
    @TestFactory
    Stream<DynamicTest> pafVectors() throws IOException {
        return Vectors.cases("paf.json", PafVectorsTest::run);
    }

    /** Runs a case: it must end with its {@code status}, and on success give what it expects. */
    private static void run(JsonObject c) {
        assertEquals(status(c, "status"), outcome(() -> call(c)), c.get("name").getAsString());
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
                    int given = paf.enforce(ints(c.getAsJsonArray("weights")),
                            ints(c.getAsJsonArray("targets")),
                            ints(c.getAsJsonArray("running")), out);
                    assertArrayEquals(ints(c.getAsJsonArray("expect_jobs")),
                            Arrays.copyOf(out, given));
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
                int k = Paf.curveCheck(numbers(c.getAsJsonArray("points")));
                assertEquals(c.get("expect_concave_from").getAsInt(), k);
            }
            case "concave_envelope" -> {
                double[] envelope = Paf.concaveEnvelope(numbers(c.getAsJsonArray("points")));
                assertArrayEquals(numbers(c.getAsJsonArray("expect")), envelope);
            }
            case "curve_from_tasks" -> {
                double[] durations = numbers(c.getAsJsonArray("durations"));
                int points = c.has("points") ? c.get("points").getAsInt() : durations.length + 1;
                double[] curve = new double[points];
                Arrays.fill(curve, -1);
                double shortest;
                try {
                    shortest = Paf.curveFromTasks(durations, number(c.get("warmup")), curve);
                } catch (FairschedException e) {
                    double[] untouched = new double[points];
                    Arrays.fill(untouched, -1);
                    assertArrayEquals(untouched, curve, "out written");
                    throw e;
                }
                JsonObject e = c.getAsJsonObject("expect");
                assertArrayEquals(numbers(e.getAsJsonArray("points")), curve);
                assertEquals(number(e.get("shortest")), shortest);
            }
            default -> fail("unknown op " + c.get("op"));
        }
    }
}

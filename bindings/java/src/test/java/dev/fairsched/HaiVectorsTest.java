package dev.fairsched;

import static dev.fairsched.Vectors.ints;
import static dev.fairsched.Vectors.number;
import static dev.fairsched.Vectors.numbers;
import static dev.fairsched.Vectors.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.Arrays;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of HAI, tests/vectors/hai.json (format in tests/vectors/README.md),
 * through the binding, one dynamic test per case: the cases cargo test and go test run too.
 */
class HaiVectorsTest {
    @TestFactory
    Stream<DynamicTest> haiVectors() throws IOException {
        return Vectors.cases("hai.json", HaiVectorsTest::run);
    }

    /** Makes the call; checks its outputs, or that it failed as expected writing nothing. */
    private static void run(JsonObject c) {
        String method = c.get("method").getAsString();
        if (method.startsWith("table_from_")) {
            runTable(c, method);
            return;
        }
        int[] caps = ints(c.getAsJsonArray("caps"));
        int n = caps.length;
        int[] given = c.has("cores") ? ints(c.getAsJsonArray("cores")) : new int[n];
        int jctOutLen = c.has("jct_out_len") ? c.get("jct_out_len").getAsInt() : n;
        int[] cores = given.clone();
        double[] untouched = new double[jctOutLen];
        Arrays.fill(untouched, -1.0);
        double[] jct = untouched.clone();
        Hai.Batch batch = new Hai.Batch(c.get("capacity").getAsLong(),
                c.get("theta").getAsLong(), caps, numbers(c.getAsJsonArray("jct")));
        Hai.Summary summary = outcome(c, () -> {
            try (Hai hai = new Hai(c.get("max_jobs").getAsLong())) {
                return switch (method) {
                    case "shortest_job_optimal" -> hai.shortestJobOptimal(batch, cores, jct);
                    case "allocate" -> hai.allocate(batch, cores, jct);
                    case "rebalance" -> hai.rebalance(batch, cores, jct);
                    default -> throw new AssertionError("unknown method " + method);
                };
            }
        }, () -> {
            assertArrayEquals(given, cores, "a failed call wrote its cores");
            assertArrayEquals(untouched, jct, "a failed call wrote JCTs");
        });
        if (summary == null) {
            return;
        }
        JsonObject expect = c.getAsJsonObject("expect");
        assertArrayEquals(ints(expect.getAsJsonArray("cores")), cores, "cores");
        assertArrayEquals(numbers(expect.getAsJsonArray("jct")), jct, "jct");
        assertEquals(new Hai.Summary(number(expect.get("jct_sum_start")),
                number(expect.get("jct_sum")), expect.get("transfers").getAsLong()), summary);
    }

    /**
     * Builds one job's table ({@code table_from_differences}, {@code table_from_samples}); checks
     * it, and a fit's coefficients, or that a failed call wrote no table.
     */
    private static void runTable(JsonObject c, String method) {
        double[] untouched = new double[c.get("table_len").getAsInt()];
        Arrays.fill(untouched, -1.0);
        double[] table = untouched.clone();
        long theta = c.get("theta").getAsLong();
        double[] coefficients = outcome(c, () -> switch (method) {
            case "table_from_differences" -> {
                Hai.tableFromDifferences(theta, c.get("reference").getAsLong(),
                        number(c.get("jct_at_reference")),
                        numbers(c.getAsJsonArray("differences")), table);
                yield new double[0];
            }
            case "table_from_samples" -> Hai.tableFromSamples(theta,
                    ints(c.getAsJsonArray("sample_cores")),
                    numbers(c.getAsJsonArray("sample_jct")), table);
            default -> throw new AssertionError("unknown method " + method);
        }, () -> assertArrayEquals(untouched, table, "a failed call wrote its table"));
        if (coefficients == null) {
            return;
        }
        JsonObject expect = c.getAsJsonObject("expect");
        assertArrayEquals(numbers(expect.getAsJsonArray("table")), table, "table");
        if (expect.has("coefficients")) {
            assertArrayEquals(numbers(expect.getAsJsonArray("coefficients")), coefficients,
                    "coefficients");
        }
    }

    /**
     * Makes a case's call: its result, or null when it failed with the status the case expects,
     * after {@code wroteNothing} checked its outputs.
     */
    private static <T> T outcome(JsonObject c, Supplier<T> call, Runnable wroteNothing) {
        Status wanted = status(c, "status");
        T result;
        try {
            result = call.get();
        } catch (FairschedException e) {
            assertEquals(wanted, e.status(), e.getMessage());
            wroteNothing.run();
            return null;
        }
        if (wanted != Status.OK) {
            fail("expected " + wanted + ", the call succeeded");
        }
        return result;
    }
}

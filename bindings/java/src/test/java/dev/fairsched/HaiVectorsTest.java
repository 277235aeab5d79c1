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
        Status wanted = status(c, "status");
        Hai.Summary summary;
        try (Hai hai = new Hai(c.get("max_jobs").getAsLong())) {
            summary = switch (c.get("method").getAsString()) {
                case "shortest_job_optimal" -> hai.shortestJobOptimal(batch, cores, jct);
                case "allocate" -> hai.allocate(batch, cores, jct);
                case "rebalance" -> hai.rebalance(batch, cores, jct);
                default -> throw new AssertionError("unknown method " + c.get("method"));
            };
        } catch (FairschedException e) {
            assertEquals(wanted, e.status(), e.getMessage());
            assertArrayEquals(given, cores, "a failed call wrote its cores");
            assertArrayEquals(untouched, jct, "a failed call wrote JCTs");
            return;
        }
        if (wanted != Status.OK) {
            fail("expected " + wanted + ", the call succeeded");
        }
        JsonObject expect = c.getAsJsonObject("expect");
        assertArrayEquals(ints(expect.getAsJsonArray("cores")), cores, "cores");
        assertArrayEquals(numbers(expect.getAsJsonArray("jct")), jct, "jct");
        assertEquals(new Hai.Summary(number(expect.get("jct_sum_start")),
                number(expect.get("jct_sum")), expect.get("transfers").getAsLong()), summary);
    }
}

package dev.fairsched;

import static dev.fairsched.Vectors.assertFields;
import static dev.fairsched.Vectors.ints;
import static dev.fairsched.Vectors.numbers;
import static dev.fairsched.Vectors.outcome;
import static dev.fairsched.Vectors.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of DRR and MinFrag, tests/vectors/drr.json (format in
 * tests/vectors/README.md), through the binding, one dynamic test per case: a machine's θ(j),
 * MinFrag heartbeats, one executor scored across machines and reprovisioning. A failed call
 * must leave every output, in-place series included, as it was.
 */
class DrrVectorsTest {
    @TestFactory
    Stream<DynamicTest> drrVectors() throws IOException {
        return Vectors.cases("drr.json", DrrVectorsTest::run);
    }

    /** Runs a case: it must end with its {@code status}, and on success give what it expects. */
    private static void run(JsonObject c) {
        String name = c.get("name").getAsString();
        Status wanted = status(c, "status");
        Map<String, Object> fields = new LinkedHashMap<>();
        assertEquals(wanted, outcome(() -> fields.putAll(call(c, name))), name);
        if (wanted == Status.OK) {
            assertFields(c, fields, name);
        }
    }

    /** Makes the case's call and returns its outputs by their names in the vectors. */
    private static Map<String, Object> call(JsonObject c, String name) {
        switch (c.get("type").getAsString()) {
            case "machine" -> {
                Drr.Remaining machine = Drr.machine(
                        numbers(c.getAsJsonArray("capacity")),
                        numbers(c.getAsJsonArray("available")),
                        c.get("t_run").getAsLong());
                return Map.of("drr", machine.drr(), "trc", machine.trc());
            }
            case "min_frag" -> {
                double[] given = numbers(c.getAsJsonArray("available"));
                double[] available = given.clone();
                int[] steps = ints(c.getAsJsonArray("steps"));
                int[] unwritten = new int[steps.length];
                Arrays.fill(unwritten, -1);
                int[] placements = unwritten.clone();
                Drr.Heartbeat beat;
                try {
                    beat = Drr.minFrag(
                            numbers(c.getAsJsonArray("capacity")),
                            available,
                            c.get("t_run").getAsLong(),
                            numbers(c.getAsJsonArray("demands")),
                            steps,
                            c.get("metric").getAsInt(),
                            placements);
                } catch (FairschedException e) {
                    assertArrayEquals(given, available, name + ": available changed");
                    assertArrayEquals(unwritten, placements, name + ": placements written");
                    throw e;
                }
                return Map.of(
                        "placements", Arrays.copyOf(placements, beat.placed()),
                        "t_run", beat.tRun(),
                        "drr", beat.drr(),
                        "available", available);
            }
            case "score_machines" -> {
                int machines = c.getAsJsonArray("t_runs").size();
                boolean[] unfit = new boolean[machines];
                Arrays.fill(unfit, true);
                double[] unscored = new double[machines];
                Arrays.fill(unscored, Double.NaN);
                boolean[] fits = unfit.clone();
                double[] scores = unscored.clone();
                try {
                    Drr.scoreMachines(
                            numbers(c.getAsJsonArray("capacities")),
                            c.get("kinds").getAsInt(),
                            numbers(c.getAsJsonArray("available")),
                            ints(c.getAsJsonArray("t_runs")),
                            numbers(c.getAsJsonArray("demand")),
                            c.get("metric").getAsInt(),
                            fits,
                            scores);
                } catch (FairschedException e) {
                    assertArrayEquals(unfit, fits, name + ": fits written");
                    assertArrayEquals(unscored, scores, name + ": scores written");
                    throw e;
                }
                return Map.of("fits", fits, "scores", scores);
            }
            case "reprovision" -> {
                double[] given = numbers(c.getAsJsonArray("remaining"));
                double[] remaining = given.clone();
                try {
                    Drr.reprovision(
                            remaining,
                            c.get("kinds").getAsInt(),
                            numbers(c.getAsJsonArray("observed")),
                            numbers(c.getAsJsonArray("predicted")));
                } catch (FairschedException e) {
                    assertArrayEquals(given, remaining, name + ": remaining changed");
                    throw e;
                }
                return Map.of("remaining", remaining);
            }
            default -> {
                return fail("unknown case type " + c.get("type"));
            }
        }
    }
}

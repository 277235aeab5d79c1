package dev.fairsched;

import static dev.fairsched.Vectors.assertFields;
import static dev.fairsched.Vectors.elements;
import static dev.fairsched.Vectors.id;
import static dev.fairsched.Vectors.ids;
import static dev.fairsched.Vectors.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of CFQ, tests/vectors/cfq.json, through the binding, one dynamic test
 * per case: the cases cargo test and go test run too.
 */
class CfqVectorsTest {
    @TestFactory
    Stream<DynamicTest> cfqVectors() throws IOException {
        return Vectors.cases("cfq.json", vector -> Vectors.runSteps(
                vector,
                () -> new Case(new Cfq(vector.get("capacity").getAsLong(),
                        vector.get("slots").getAsLong(), number(vector.get("start_time"))),
                        new CfqProfiler()),
                Case::snapshot,
                CfqVectorsTest::run));
    }

    /** What a case runs on: a scheduler and a profiler. */
    private record Case(Cfq cfq, CfqProfiler profiler) implements AutoCloseable {
        /** What a failed step must leave as it was. */
        List<Object> snapshot() {
            return List.of(cfq.stats(), profiler.snapshot());
        }

        @Override
        public void close() {
            cfq.close();
        }
    }

    /** Runs one step and checks what it expects; a failed call throws its status. */
    private static void run(Case vectorCase, JsonObject step, String context) {
        Cfq cfq = vectorCase.cfq();
        CfqProfiler profiler = vectorCase.profiler();
        String op = step.get("op").getAsString();
        switch (op) {
            case "advance" -> cfq.advance(number(step.get("now")));
            case "reprofile" -> cfq.reprofile(number(step.get("now")), id(step.get("id")),
                    number(step.get("slot_time")));
            case "profiler_observe" -> {
                if (step.has("duration")) {
                    profiler.observe(number(step.get("duration")));
                } else {
                    profiler.observe(Vectors.numbers(step.getAsJsonArray("durations")));
                }
            }
            case "profiler_estimate" -> {
                double estimate = profiler.estimate(id(step.get("tasks")));
                assertEquals(number(step.get("expect")), estimate, context);
            }
            case "set_slots" -> cfq.setSlots(number(step.get("now")), u32(step, "slots"));
            case "arrive" -> cfq.arrive(number(step.get("now")), id(step.get("id")),
                    number(step.get("slot_time")), u32(step, "weight"));
            case "set_pending" -> cfq.setPending(id(step.get("id")), u32(step, "pending"));
            case "set_pending_batch" -> cfq.setPendingBatch(
                    ids(step.getAsJsonArray("ids")), counts(step.getAsJsonArray("pending")));
            case "offer" -> {
                long[] given = cfq.offer(step.get("slots").getAsInt());
                assertArrayEquals(ids(step.getAsJsonArray("expect_ids")), given, context);
            }
            case "peek" -> {
                JsonElement next = step.get("expect_id");
                OptionalLong expected =
                        next.isJsonNull() ? OptionalLong.empty() : OptionalLong.of(id(next));
                assertEquals(expected, cfq.peek(), context);
            }
            case "complete" -> cfq.complete(number(step.get("now")), id(step.get("id")));
            case "remove" -> cfq.remove(number(step.get("now")), id(step.get("id")));
            case "job" -> assertFields(step, fields(cfq.job(id(step.get("id")))), context);
            case "gps_estimate" -> {
                double estimate = cfq.gpsCompletionEstimate(id(step.get("id")));
                assertEquals(number(step.get("expect")), estimate, context);
            }
            case "stats" -> assertFields(step, fields(cfq.stats()), context);
            default -> fail(context + ": unknown op " + op);
        }
    }

    /** A job under the vectors' field names; null for an absent optional. */
    private static Map<String, Object> fields(JobInfo job) {
        Map<String, Object> fields = new HashMap<>();
        fields.put("virtual_finish", job.virtualFinish());
        fields.put("arrival", job.arrival());
        fields.put("slot_time", job.slotTime());
        fields.put("weight", job.weight());
        fields.put("pending_tasks", job.pendingTasks());
        fields.put("backlogged", job.backlogged());
        fields.put("gps_completion", boxed(job.gpsCompletion()));
        fields.put("completion", boxed(job.completion()));
        return fields;
    }

    private static Map<String, Object> fields(Stats stats) {
        return Map.of(
                "now", stats.now(),
                "virtual_time", stats.virtualTime(),
                "slots", stats.slots(),
                "capacity", stats.capacity(),
                "jobs", stats.jobs(),
                "backlogged", stats.backlogged(),
                "gps_active", stats.gpsActive(),
                "rows_in_use", stats.rowsInUse());
    }

    private static Double boxed(OptionalDouble value) {
        return value.isPresent() ? value.getAsDouble() : null;
    }

    private static long u32(JsonObject step, String field) {
        return step.get(field).getAsLong();
    }

    /** Batch counts, for the int[] of {@link Cfq#setPendingBatch}: a larger one fails the case. */
    private static int[] counts(JsonArray values) {
        return elements(values).mapToInt(count -> Math.toIntExact(count.getAsLong())).toArray();
    }
}

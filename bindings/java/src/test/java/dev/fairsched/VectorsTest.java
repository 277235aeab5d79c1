package dev.fairsched;

import static dev.fairsched.Json.elements;
import static dev.fairsched.Json.number;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors, tests/vectors/cfq.json (format in tests/vectors/README.md), through
 * the binding, one dynamic test per case: the cases cargo test and go test run too.
 */
class VectorsTest {
    /** Set by pom.xml; the default serves a run from bindings/java outside Maven. */
    private static final Path VECTORS =
            Path.of(System.getProperty("fairsched.vectors", "../../tests/vectors/cfq.json"));

    @TestFactory
    Stream<DynamicTest> cfqVectors() throws IOException {
        JsonArray cases = Json.cases(VECTORS);
        return elements(cases)
                .map(JsonElement::getAsJsonObject)
                .map(vector -> dynamicTest(vector.get("name").getAsString(), () -> run(vector)));
    }

    /** Builds the scheduler, then runs every step: failed ones must leave the stats alone. */
    private static void run(JsonObject vector) {
        long capacity = vector.get("capacity").getAsLong();
        long slots = vector.get("slots").getAsLong();
        double start = number(vector.get("start_time"));
        Status init = status(vector, "init_status");
        if (init != Status.OK) {
            FairschedException e = assertThrows(FairschedException.class,
                    () -> new Cfq(capacity, slots, start).close(), "init");
            assertEquals(init, e.status(), "init");
            return;
        }
        try (Cfq cfq = new Cfq(capacity, slots, start)) {
            JsonArray steps = vector.getAsJsonArray("steps");
            for (int i = 0; i < steps.size(); i++) {
                JsonObject step = steps.get(i).getAsJsonObject();
                String context = "step " + i + " " + step;
                Stats before = cfq.stats();
                Status wanted = status(step, "status");
                assertEquals(wanted, outcome(() -> run(cfq, step, context)), context);
                if (wanted != Status.OK) {
                    assertEquals(before, cfq.stats(), context + ": a failed call changed things");
                }
            }
        }
    }

    /** Runs one step and checks what it expects; a failed call throws its status. */
    private static void run(Cfq cfq, JsonObject step, String context) {
        String op = step.get("op").getAsString();
        switch (op) {
            case "advance" -> cfq.advance(number(step.get("now")));
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

    private static Status outcome(Runnable call) {
        try {
            call.run();
            return Status.OK;
        } catch (FairschedException e) {
            return e.status();
        }
    }

    /** Compares every field {@code step.expect} names; numbers bit for bit. */
    private static void assertFields(JsonObject step, Map<String, Object> actual, String context) {
        for (Map.Entry<String, JsonElement> field : step.getAsJsonObject("expect").entrySet()) {
            String name = context + ": " + field.getKey();
            JsonElement wanted = field.getValue();
            assertTrue(actual.containsKey(field.getKey()), name + " is not a field");
            Object got = actual.get(field.getKey());
            if (wanted.isJsonNull()) {
                assertNull(got, name);
            } else if (wanted.getAsJsonPrimitive().isBoolean()) {
                assertEquals(wanted.getAsBoolean(), got, name);
            } else {
                assertNotNull(got, name);
                assertEquals(number(wanted), ((Number) got).doubleValue(), name);
            }
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

    /** A status by its vector name ({@code "unknown_id"}); {@code OK} when absent. */
    private static Status status(JsonObject object, String field) {
        JsonElement name = object.get(field);
        String upper = name == null ? "OK" : name.getAsString().toUpperCase(Locale.ROOT);
        return Status.valueOf(upper);
    }


    private static long u32(JsonObject step, String field) {
        return step.get(field).getAsLong();
    }

    /** A u64 id, from a JSON number or a decimal string, as its 64 bits. */
    private static long id(JsonElement value) {
        return Long.parseUnsignedLong(value.getAsString());
    }

    private static long[] ids(JsonArray values) {
        return elements(values).mapToLong(VectorsTest::id).toArray();
    }

    /** Batch counts, for the int[] of {@link Cfq#setPendingBatch}: a larger one fails the case. */
    private static int[] counts(JsonArray values) {
        return elements(values).mapToInt(count -> Math.toIntExact(count.getAsLong())).toArray();
    }
}

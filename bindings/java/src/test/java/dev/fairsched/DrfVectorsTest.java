package dev.fairsched;

import static dev.fairsched.Vectors.assertFields;
import static dev.fairsched.Vectors.elements;
import static dev.fairsched.Vectors.id;
import static dev.fairsched.Vectors.ids;
import static dev.fairsched.Vectors.number;
import static dev.fairsched.Vectors.numbers;
import static dev.fairsched.Vectors.outcome;
import static dev.fairsched.Vectors.status;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import java.io.IOException;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of DRF and QKnobler, tests/vectors/drf.json, through the binding, one
 * dynamic test per case: divisible DRF, QKnobler's allocation and scripts on a DRF queue.
 */
class DrfVectorsTest {
    @TestFactory
    Stream<DynamicTest> drfVectors() throws IOException {
        return Vectors.cases("drf.json", vector -> {
            switch (vector.get("type").getAsString()) {
                case "divisible" -> runAllocation(vector, DrfVectorsTest::divisible);
                case "qknobler" -> runAllocation(vector, DrfVectorsTest::qknobler);
                case "average_demand" -> runAllocation(vector, DrfVectorsTest::averageDemand);
                case "qknobler_choose" -> runAllocation(vector, DrfVectorsTest::choose);
                case "queue" -> Vectors.runSteps(
                        vector,
                        () -> new DrfQueue(
                                vector.get("users").getAsLong(),
                                numbers(vector.getAsJsonArray("capacity"))),
                        queue -> snapshot(queue, addedUsers(vector)),
                        DrfVectorsTest::run);
                default -> fail("unknown case type " + vector.get("type"));
            }
        });
    }

    /** Runs a case over users: its {@code status}, and on success the fields it expects. */
    private static void runAllocation(
            JsonObject vector, Function<JsonObject, Map<String, Object>> allocate) {
        Status wanted = status(vector, "status");
        Map<String, Object> fields = new LinkedHashMap<>();
        assertEquals(wanted, outcome(() -> fields.putAll(allocate.apply(vector))));
        if (wanted == Status.OK) {
            assertFields(vector, fields, vector.get("name").getAsString());
        }
    }

    private static Map<String, Object> divisible(JsonObject vector) {
        Drf.Divisible drf = Drf.divisible(capacity(vector), weights(vector), demands(vector));
        return Map.of("phi", drf.phi(), "tasks", drf.tasks(), "shares", drf.shares());
    }

    private static Map<String, Object> qknobler(JsonObject vector) {
        QKnobler.Allocation allocation = QKnobler.allocate(
                capacity(vector), weights(vector), demands(vector), number(vector.get("rho")));
        QKnobler.Summary summary = allocation.summary();
        return Map.of(
                "fair", allocation.fair(),
                "efficient", allocation.efficient(),
                "whole", allocation.whole(),
                "phi", summary.phi(),
                "theta", summary.theta(),
                "sharing_incentive_rho", summary.sharingIncentiveRho(),
                "efficiency", summary.efficiency(),
                "residual", summary.residual());
    }

    private static Map<String, Object> averageDemand(JsonObject vector) {
        QKnobler.Average average = QKnobler.averageDemand(
                numbers(vector.getAsJsonArray("idle")),
                numbers(vector.getAsJsonArray("running_sum")),
                id(vector.get("running")),
                numbers(vector.getAsJsonArray("pending")));
        return Map.of("average", average.average(), "counted", average.counted());
    }

    private static Map<String, Object> choose(JsonObject vector) {
        Optional<QKnobler.Choice> choice = QKnobler.choose(
                number(vector.get("rho")),
                numbers(vector.getAsJsonArray("cluster")),
                numbers(vector.getAsJsonArray("machine")),
                numbers(vector.getAsJsonArray("idle")),
                numbers(vector.getAsJsonArray("weights")),
                numbers(vector.getAsJsonArray("allocated")),
                numbers(vector.getAsJsonArray("max_shares")),
                numbers(vector.getAsJsonArray("next")));
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("found", choice.isPresent());
        choice.ifPresent(c -> {
            fields.put("user", c.user());
            fields.put("fairness", c.fairness());
        });
        return fields;
    }

    /** Runs one step on the queue and checks what it expects; a failed call throws its status. */
    private static void run(DrfQueue queue, JsonObject step, String context) {
        String op = step.get("op").getAsString();
        switch (op) {
            case "add_user" -> queue.addUser(
                    id(step.get("id")),
                    number(step.get("weight")),
                    numbers(step.getAsJsonArray("demand")));
            case "remove_user" -> queue.removeUser(id(step.get("id")));
            case "set_pending" -> queue.setPending(id(step.get("id")), count(step, "pending"));
            case "tasks_started" -> queue.tasksStarted(id(step.get("id")), count(step, "count"));
            case "tasks_finished" -> queue.tasksFinished(id(step.get("id")), count(step, "count"));
            case "next" -> {
                JsonElement next = step.get("expect_id");
                OptionalLong expected =
                        next.isJsonNull() ? OptionalLong.empty() : OptionalLong.of(id(next));
                assertEquals(expected, queue.next(), context);
            }
            case "user" -> assertFields(step, fields(queue.user(id(step.get("id")))), context);
            case "stats" -> assertFields(step, fields(queue.stats()), context);
            case "allocate_round" -> {
                long[] out = new long[step.get("slots").getAsInt()];
                int started = queue.allocateRound(numbers(step.getAsJsonArray("free")), out);
                assertStarted(step, Arrays.copyOf(out, started), context);
            }
            case "qknobler_round" -> {
                long[] out = new long[step.get("slots").getAsInt()];
                QKnobler.Round round = queue.qknoblerRound(
                        number(step.get("rho")),
                        numbers(step.getAsJsonArray("machine")),
                        numbers(step.getAsJsonArray("idle")),
                        out);
                assertStarted(step, Arrays.copyOf(out, round.started()), context);
                assertEquals(step.get("expect_fairness").getAsInt(), round.fairness(), context);
            }
            default -> fail(context + ": unknown op " + op);
        }
    }

    /** Checks the ids a round wrote: in order ({@code expect_ids}), or counted per user. */
    private static void assertStarted(JsonObject step, long[] started, String context) {
        if (step.has("expect_ids")) {
            assertArrayEquals(ids(step.getAsJsonArray("expect_ids")), started, context);
        }
        if (step.has("expect_counts")) {
            Map<Long, Long> expected = step.getAsJsonObject("expect_counts").entrySet().stream()
                    .collect(Collectors.toMap(
                            e -> Long.parseUnsignedLong(e.getKey()), e -> e.getValue().getAsLong()));
            Map<Long, Long> counted = Arrays.stream(started).boxed()
                    .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
            assertEquals(expected, counted, context);
        }
    }

    /**
     * Everything a failed step could change: the stats and every user the case ever adds (empty
     * while absent), in the order of their ids.
     */
    private static Object snapshot(DrfQueue queue, long[] users) {
        Map<Long, Optional<DrfQueue.UserInfo>> infos = new LinkedHashMap<>();
        for (long user : users) {
            infos.put(user, Optional.ofNullable(userOrNull(queue, user)));
        }
        return Map.of("stats", queue.stats(), "users", infos);
    }

    private static DrfQueue.UserInfo userOrNull(DrfQueue queue, long id) {
        try {
            return queue.user(id);
        } catch (FairschedException e) {
            assertEquals(Status.UNKNOWN_ID, e.status());
            return null;
        }
    }

    /** The ids of every user the case's steps add. */
    private static long[] addedUsers(JsonObject vector) {
        return elements(vector.getAsJsonArray("steps"))
                .map(JsonElement::getAsJsonObject)
                .filter(step -> step.get("op").getAsString().equals("add_user"))
                .mapToLong(step -> id(step.get("id")))
                .distinct()
                .toArray();
    }

    private static Map<String, Object> fields(DrfQueue.UserInfo user) {
        return Map.of(
                "running", user.running(),
                "pending", user.pending(),
                "weight", user.weight(),
                "dominant_share", user.dominantShare(),
                "weighted_share", user.weightedShare(),
                "task_share", user.taskShare());
    }

    private static Map<String, Object> fields(DrfQueue.Stats stats) {
        return Map.of("users", stats.users(), "active", stats.active(), "kinds", stats.kinds());
    }

    private static double[] capacity(JsonObject vector) {
        return numbers(vector.getAsJsonArray("capacity"));
    }

    private static double[] weights(JsonObject vector) {
        return numbers(vector.getAsJsonArray("weights"));
    }

    private static double[] demands(JsonObject vector) {
        return numbers(vector.getAsJsonArray("demands"));
    }

    /** A u64 count, as its 64 bits. */
    private static long count(JsonObject step, String field) {
        return id(step.get(field));
    }
}

package dev.fairsched;

import static dev.fairsched.Vectors.assertFields;
import static dev.fairsched.Vectors.id;
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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the shared vectors of DRR and MinFrag, tests/vectors/drr.json (format in
 * tests/vectors/README.md), through the binding, one dynamic test per case: a machine's θ(j),
 * MinFrag heartbeats, one executor scored across machines, reprovisioning and its trigger, and
 * the steps of a machine's timeline and of the predictor. A failed call must leave every
 * output, in-place series included, as it was, and an object's state too.
 */
class DrrVectorsTest {
    @TestFactory
    Stream<DynamicTest> drrVectors() throws IOException {
        return Vectors.cases("drr.json", DrrVectorsTest::run);
    }

    /** Runs a case: it must end with its {@code status}, and on success give what it expects. */
    private static void run(JsonObject c) throws Exception {
        switch (c.get("type").getAsString()) {
            case "timeline" -> {
                Vectors.runSteps(c, () -> new DrrTimeline(c.get("capacity").getAsLong(),
                                numbers(c.getAsJsonArray("machine")), c.get("horizon").getAsLong()),
                        DrrVectorsTest::timelineState, DrrVectorsTest::timelineStep);
                return;
            }
            case "predictor" -> {
                long[] ids = Vectors.elements(c.getAsJsonArray("steps"))
                        .mapToLong(step -> id(step.getAsJsonObject().get("id"))).toArray();
                Vectors.runSteps(c, () -> new DrrPredictor(c.get("capacity").getAsLong(),
                                c.get("kinds").getAsInt(), c.get("window").getAsLong(),
                                c.get("max_steps").getAsLong()),
                        p -> predictorState(p, ids), (p, step, context) -> predictorStep(
                                p, step, context,
                                c.get("max_steps").getAsInt() * c.get("kinds").getAsInt()));
                return;
            }
            default -> {}
        }
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
            case "reprovision_due" -> {
                double[] elapsed = numbers(c.getAsJsonArray("elapsed"));
                int length = c.has("due_len") ? c.get("due_len").getAsInt() : elapsed.length;
                boolean[] unwritten = new boolean[length];
                Arrays.fill(unwritten, true);
                boolean[] due = unwritten.clone();
                int count;
                try {
                    count = Drr.reprovisionDue(elapsed, numbers(c.getAsJsonArray("expected")),
                            Vectors.number(c.get("rho")), due);
                } catch (FairschedException e) {
                    assertArrayEquals(unwritten, due, name + ": flags written");
                    throw e;
                }
                return Map.of("due", due, "count", count);
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

    /** What a failed timeline call must leave as it was: the stats and the available series. */
    private static Object timelineState(DrrTimeline t) {
        return List.of(t.stats(), Arrays.toString(t.available()));
    }

    /** The stats as the vectors name their fields. */
    private static Map<String, Object> statsFields(DrrTimeline.Stats s) {
        Map<String, Object> fields = new LinkedHashMap<>();
        fields.put("running", s.running());
        fields.put("capacity", s.capacity());
        fields.put("horizon", s.horizon());
        fields.put("t_run", s.tRun());
        fields.put("kinds", s.kinds());
        fields.put("drr", s.drr());
        fields.put("trc", s.trc());
        return fields;
    }

    private static void timelineStep(DrrTimeline t, JsonObject step, String context) {
        switch (step.get("op").getAsString()) {
            case "advance" -> {
                long finished = t.advance(id(step.get("by")));
                assertEquals(step.get("expect_finished").getAsLong(), finished, context);
            }
            case "place" -> {
                long id = t.place(numbers(step.getAsJsonArray("demand")));
                assertEquals(id(step.get("expect_id")), id, context);
            }
            case "release" -> t.release(id(step.get("id")));
            case "reprovision" -> t.reprovision(id(step.get("id")),
                    numbers(step.getAsJsonArray("observed")),
                    numbers(step.getAsJsonArray("predicted")));
            case "heartbeat" -> {
                int[] unwritten = new int[step.get("slots").getAsInt()];
                Arrays.fill(unwritten, -1);
                int[] placements = unwritten.clone();
                DrrTimeline.Heartbeat beat;
                try {
                    beat = t.heartbeat(numbers(step.getAsJsonArray("demands")),
                            ints(step.getAsJsonArray("steps")),
                            ints(step.getAsJsonArray("counts")), step.get("metric").getAsInt(),
                            placements);
                } catch (FairschedException e) {
                    assertArrayEquals(unwritten, placements, context + ": placements written");
                    throw e;
                }
                JsonObject expect = step.getAsJsonObject("expect");
                if (expect.has("first_id")) {
                    assertEquals(id(expect.get("first_id")), beat.firstId(), context);
                }
                JsonObject rest = expect.deepCopy();
                rest.remove("first_id");
                JsonObject wrapped = new JsonObject();
                wrapped.add("expect", rest);
                assertFields(wrapped, Map.of(
                        "placements", Arrays.copyOf(placements, beat.placed()),
                        "t_run", beat.tRun(),
                        "drr", beat.drr()), context);
            }
            case "stats" -> {
                DrrTimeline.Stats stats = t.stats();
                JsonObject expect = step.getAsJsonObject("expect");
                if (expect.has("now")) {
                    assertEquals(id(expect.get("now")), stats.now(), context);
                }
                if (expect.has("next_id")) {
                    assertEquals(id(expect.get("next_id")), stats.nextId(), context);
                }
                JsonObject rest = expect.deepCopy();
                rest.remove("now");
                rest.remove("next_id");
                JsonObject wrapped = new JsonObject();
                wrapped.add("expect", rest);
                assertFields(wrapped, statsFields(stats), context);
            }
            case "available" -> assertArrayEquals(numbers(step.getAsJsonArray("expect")),
                    t.available(), context);
            default -> fail(context + ": unknown timeline op");
        }
    }

    /** What a failed predictor call must leave as it was: the runs of every id of the case. */
    private static Object predictorState(DrrPredictor p, long[] ids) {
        return Arrays.stream(ids).mapToObj(p::runs).toList();
    }

    /** One step; {@code room} is the output's length when the step does not give one. */
    private static void predictorStep(DrrPredictor p, JsonObject step, String context,
            int room) {
        long id = id(step.get("id"));
        switch (step.get("op").getAsString()) {
            case "record" -> p.record(id, numbers(step.getAsJsonArray("run")));
            case "forget" -> p.forget(id);
            case "runs" -> assertEquals(step.get("expect").getAsInt(), p.runs(id), context);
            case "predict" -> {
                double[] unwritten =
                        new double[step.has("room") ? step.get("room").getAsInt() : room];
                Arrays.fill(unwritten, -1);
                double[] series = unwritten.clone();
                DrrPredictor.Prediction prediction;
                try {
                    prediction = p.predict(id, numbers(step.getAsJsonArray("peak")),
                            step.get("peak_steps").getAsLong(), series);
                } catch (FairschedException e) {
                    assertArrayEquals(unwritten, series, context + ": series written");
                    throw e;
                }
                int kinds = step.getAsJsonArray("peak").size();
                assertFields(step, Map.of(
                        "series", Arrays.copyOf(series, prediction.steps() * kinds),
                        "runs", prediction.runs()), context);
            }
            default -> fail(context + ": unknown predictor op");
        }
    }
}

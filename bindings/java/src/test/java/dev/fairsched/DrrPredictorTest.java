package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The predictor through JNI, as bindings/c/test_drr_predictor.c checks it in C: the peak until
 * three runs, then their mean step by step over the runs that lasted, the oldest replaced by a
 * fourth; then every rejection changing nothing and writing nothing.
 */
class DrrPredictorTest {
    private static final double[] PEAK = {2, 5};

    /** The series written for {@code id} (the peak for {@code steps}), and the runs averaged. */
    private static List<Object> predict(DrrPredictor p, long id, long steps) {
        double[] series = new double[8];
        DrrPredictor.Prediction prediction = p.predict(id, PEAK, steps, series);
        return List.of(Arrays.toString(Arrays.copyOf(series, prediction.steps() * 2)),
                prediction.runs());
    }

    private static List<Object> expected(double[] series, int runs) {
        return List.of(Arrays.toString(series), runs);
    }

    @Test
    void meanOfTheLastRuns() {
        try (DrrPredictor p = new DrrPredictor(4, 2, 3, 4)) {
            assertEquals(expected(new double[] {2, 5, 2, 5, 2, 5}, 0), predict(p, 7, 3));
            p.record(7, new double[] {1, 2, 3, 4});
            p.record(7, new double[] {2, 2, 2, 2, 2, 2});
            assertEquals(2, p.runs(7));
            assertEquals(expected(PEAK, 0), predict(p, 7, 1));
            p.record(7, new double[] {3, 5});
            assertEquals(expected(new double[] {2, 3, 2.5, 3, 2, 2}, 3), predict(p, 7, 1));
            p.record(7, new double[] {6, 6, 6, 6});
            assertEquals(expected(new double[] {11.0 / 3, 13.0 / 3, 4, 4, 2, 2}, 3),
                    predict(p, 7, 1));
            p.forget(7);
            assertEquals(0, p.runs(7));
            assertEquals(expected(new double[] {2, 5, 2, 5}, 0), predict(p, 7, 2));
        }
    }

    @Test
    void idsCarryAll64Bits() {
        try (DrrPredictor p = new DrrPredictor(2, 1, 1, 2)) {
            p.record(-1, new double[] {0.5});
            p.record(Long.MIN_VALUE, new double[] {1, 2});
            assertEquals(1, p.runs(-1));
            double[] series = new double[2];
            assertEquals(new DrrPredictor.Prediction(2, 1),
                    p.predict(Long.MIN_VALUE, new double[] {9}, 1, series));
            assertArrayEquals(new double[] {1, 2}, series);
        }
    }

    static Stream<Arguments> rejections() {
        double[] ok = {1, 1};
        return Stream.of(
                rejected(Status.LENGTH_MISMATCH, p -> p.record(5, new double[] {1})),
                rejected(Status.EMPTY, p -> p.record(5, new double[0])),
                rejected(Status.CAPACITY_FULL, p -> p.record(5, new double[8])),
                rejected(Status.NOT_FINITE, p -> p.record(5, new double[] {1, Double.NaN})),
                rejected(Status.NEGATIVE, p -> p.record(5, new double[] {1, -1})),
                rejected(Status.CAPACITY_FULL, p -> p.record(6, ok)),
                rejected(Status.UNKNOWN_ID, p -> p.forget(6)),
                rejected(Status.LENGTH_MISMATCH, p -> p.predict(6, new double[1], 1, new double[6])),
                rejected(Status.NEGATIVE, p -> p.predict(6, new double[] {1, -2}, 1, new double[6])),
                rejected(Status.EMPTY, p -> p.predict(6, ok, 0, new double[6])),
                rejected(Status.CAPACITY_FULL, p -> p.predict(6, ok, 4, new double[6])),
                rejected(Status.LENGTH_MISMATCH, p -> p.predict(5, ok, 1, new double[3])),
                rejected(Status.LENGTH_MISMATCH, p -> p.predict(6, ok, 3, new double[5])));
    }

    private static Arguments rejected(Status status, Consumer<DrrPredictor> call) {
        return arguments(status, call);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rejections")
    void rejectionsChangeNothing(Status status, Consumer<DrrPredictor> call) {
        try (DrrPredictor p = new DrrPredictor(1, 2, 2, 3)) {
            p.record(5, new double[] {1, 2});
            p.record(5, new double[] {3, 4, 5, 6});
            List<Object> before = List.of(p.runs(5), p.runs(6), predict(p, 5, 1));
            FairschedException e = assertThrows(FairschedException.class, () -> call.accept(p));
            assertEquals(status, e.status());
            assertEquals(before, List.of(p.runs(5), p.runs(6), predict(p, 5, 1)));
        }
    }

    @Test
    void aFailedPredictionWritesNothing() {
        try (DrrPredictor p = new DrrPredictor(1, 2, 2, 3)) {
            double[] series = {7, 7, 7};
            assertThrows(FairschedException.class, () -> p.predict(1, PEAK, 2, series));
            assertArrayEquals(new double[] {7, 7, 7}, series);
        }
    }

    @Test
    void configurationErrors() {
        assertEquals(Status.NOT_POSITIVE, failure(() -> new DrrPredictor(0, 2, 3, 4)));
        assertEquals(Status.EMPTY, failure(() -> new DrrPredictor(1, 0, 3, 4)));
        assertEquals(Status.CAPACITY_FULL, failure(() -> new DrrPredictor(1, 9, 3, 4)));
        assertEquals(Status.NOT_POSITIVE, failure(() -> new DrrPredictor(1, 2, 0, 4)));
        assertEquals(Status.OUT_OF_RANGE, failure(() -> new DrrPredictor(1, 2, 17, 4)));
        assertEquals(Status.EMPTY, failure(() -> new DrrPredictor(1, 2, 3, 0)));
        assertEquals(Status.CAPACITY_FULL, failure(() -> new DrrPredictor(1, 2, 3, 257)));
        assertThrows(IllegalArgumentException.class, () -> new DrrPredictor(1, -1, 3, 4));
        assertThrows(IllegalArgumentException.class, () -> new DrrPredictor(1, 2, -3, 4));
    }

    private static Status failure(Runnable call) {
        return assertThrows(FairschedException.class, call::run).status();
    }

    @Test
    void callsAfterCloseThrow() {
        DrrPredictor p = new DrrPredictor(1, 1, 1, 1);
        p.close();
        p.close();
        assertThrows(IllegalStateException.class, () -> p.runs(1));
        assertThrows(IllegalStateException.class, () -> p.record(1, new double[] {1}));
    }
}

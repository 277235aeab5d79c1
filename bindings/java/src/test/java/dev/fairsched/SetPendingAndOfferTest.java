package dev.fairsched;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Cfq#offer(long[], int[], long[], int)}, a round in one native call: the same result as
 * {@link Cfq#setPendingBatch} then {@link Cfq#offer(long[], int)}, and nothing changed, the
 * output included, when the counts are refused ({@link ErrorPathTest} has every invalid
 * input).
 */
class SetPendingAndOfferTest {
    @Test
    void paperExampleInOneCallARound() {
        try (Cfq cfq = new Cfq(8, 3, 0)) {
            long[] out = new long[3];
            cfq.arrive(0, 1, 9, 1);
            cfq.arrive(0, 2, 16, 1);
            assertEquals(3, cfq.offer(new long[] {1, 2}, new int[] {1, 4}, out, 3));
            assertArrayEquals(new long[] {1, 2, 2}, out);
            cfq.arrive(4, 3, 8, 1);
            assertEquals(2, cfq.offer(new long[] {2, 3}, new int[] {2, 2}, out, 2));
            assertArrayEquals(new long[] {3, 3}, Arrays.copyOf(out, 2));
            // No count changes: job 2 still has the two tasks the first offer left it.
            assertEquals(2, cfq.offer(new long[0], new int[0], out, 3));
            assertArrayEquals(new long[] {2, 2}, Arrays.copyOf(out, 2));
            assertEquals(0, cfq.offer(new long[] {2}, new int[] {0}, out, 3));
        }
    }

    /**
     * Random rounds (arrivals, counts, free slots, departures) on two schedulers, one making
     * the two calls, the other the one: every offer and, after each round, the stats and every
     * job agree.
     */
    @Test
    void sameResultAsTheTwoCalls() {
        SplittableRandom random = new SplittableRandom(12);
        try (Cfq two = new Cfq(256, 8, 0); Cfq one = new Cfq(256, 8, 0)) {
            List<Long> active = new ArrayList<>();
            long nextId = 1;
            long[] outTwo = new long[8];
            long[] outOne = new long[8];
            for (int round = 0; round < 2_000; round++) {
                double now = round * 0.25;
                two.advance(now); // reclaims the rows of removed jobs GPS has completed
                one.advance(now);
                if (active.size() < 40 && random.nextInt(3) == 0) {
                    // Slot-times of 0.5 to 4.5 a third of the rounds on 8 slots: GPS keeps up.
                    double slotTime = 0.5 + random.nextDouble() * 4;
                    int weight = 1 + random.nextInt(3);
                    two.arrive(now, nextId, slotTime, weight);
                    one.arrive(now, nextId, slotTime, weight);
                    active.add(nextId++);
                }
                if (!active.isEmpty() && random.nextInt(4) == 0) {
                    long done = active.remove(random.nextInt(active.size()));
                    two.complete(now, done);
                    one.complete(now, done);
                    two.remove(now, done);
                    one.remove(now, done);
                }
                int n = random.nextInt(active.size() + 1); // some of the jobs, in any order
                long[] ids = new long[n];
                int[] pending = new int[n];
                for (int i = 0; i < n; i++) {
                    ids[i] = active.get(random.nextInt(active.size()));
                    pending[i] = random.nextInt(6);
                }
                int free = random.nextInt(9);
                two.setPendingBatch(ids, pending);
                int given = two.offer(outTwo, free);
                assertEquals(given, one.offer(ids, pending, outOne, free), "round " + round);
                assertArrayEquals(Arrays.copyOf(outTwo, given), Arrays.copyOf(outOne, given),
                        "round " + round);
                assertEquals(two.stats(), one.stats(), "round " + round);
                for (long id : active) {
                    assertEquals(two.job(id), one.job(id), "round " + round + ", job " + id);
                }
            }
        }
    }

    @Test
    void refusedCountsWriteNothing() {
        try (Cfq cfq = new Cfq(4, 2, 0)) {
            cfq.arrive(0, 1, 4, 1);
            cfq.setPending(1, 2);
            long[] out = {-7, -7};
            FairschedException e = assertThrows(FairschedException.class,
                    () -> cfq.offer(new long[] {1, 9}, new int[] {1, 1}, out, 2));
            assertEquals(Status.UNKNOWN_ID, e.status());
            assertArrayEquals(new long[] {-7, -7}, out);
            assertEquals(2, cfq.job(1).pendingTasks());
            assertEquals(2, cfq.offer(new long[] {1}, new int[] {3}, out, 2));
            assertArrayEquals(new long[] {1, 1}, out);
            assertEquals(1, cfq.job(1).pendingTasks());
        }
    }
}

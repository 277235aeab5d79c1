package dev.fairsched.spark;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.fairsched.Paf;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;

/**
 * PAF on a real Spark driver, 3 slots, alpha 0.9. Job A (six 1-unit tasks) is elastic: Ernest
 * t(x) = 1 + 0.1/x, so p(1) = 0.909, p(2) = 0.952, p(3) = 0.968. Job B (six 1-unit tasks,
 * arriving at 0.5 while A holds every core) is eager: t(x) = 1/x, p(x) = x. Fair shares of 3
 * slots with demands 3 and 3: 1.5 each, whole slots 2 (A, lower index) and 1. A at 1 keeps
 * 0.909 >= 0.9 * 0.952 = 0.857, so its minimum is 1; A's loss from 2 to 1 (0.043) is below B's
 * gain from 1 to 2 (1): one slot moves, targets A = 1, B = 2. From t = 1 on, each time A's and
 * B's tasks free the 3 cores, enforcement gives A one and B two: launches AAA | (ABB)x3, both
 * jobs done at 4. Spark's FIFO: AAA | AAA | BBB | BBB, A done at 2, B at 4.
 */
class PafExampleTest {
    static final long U = 400;

    private static Recorder run(String master, boolean checkTargets, String... settings)
            throws Exception {
        JavaSparkContext sc = SparkJobs.start(master, "paf-example", settings);
        try {
            Recorder rec = new Recorder();
            sc.sc().addSparkListener(rec);
            SparkJobs.sleepJob(sc, 3, 1, Map.of()); // warm-up: no curve, fair share
            Throwable[] failure = new Throwable[1];
            Thread a = SparkJobs.submit(sc, 6, U,
                    Map.of("test.label", "A", "fairsched.ernest", "1,0,0.1,0"), failure);
            rec.awaitLaunches(3, 10_000);
            Thread.sleep(U / 2);
            Thread b = SparkJobs.submit(sc, 6, U,
                    Map.of("test.label", "B", "fairsched.ernestSamples", "1:1,2:0.5,4:0.25,8:0.125"),
                    failure);
            if (checkTargets) {
                Thread.sleep(U / 4);
                FairschedTaskScheduler f = (FairschedTaskScheduler) sc.sc().taskScheduler();
                assertEquals(List.of(1, 2), new ArrayList<>(f.pafTargets().values()));
            }
            a.join();
            b.join();
            assertNull(failure[0]);
            Thread.sleep(200);
            return rec;
        } finally {
            sc.stop();
        }
    }

    @Test
    void targetsByHand() {
        try (Paf paf = new Paf(4)) {
            double[] a = new double[4];
            double[] b = new double[4];
            Paf.ernestTabulate(new double[] {1, 0, 0.1, 0}, a);
            Paf.ernestTabulate(Paf.ernestFit(new int[] {1, 2, 4, 8},
                    new double[] {1, 0.5, 0.25, 0.125}), b);
            var r = paf.allocate(new int[] {1, 1}, new double[][] {a, b}, 3, 0.9, Paf.FAST);
            assertArrayEquals(new int[] {2, 1}, r.fair());
            assertArrayEquals(new int[] {1, 2}, r.paf());
        }
    }

    @Test
    void jobWithoutCurveKeepsItsFairShare() {
        // A with the elastic curve, B without (Paf.noCurve): B neither gives nor takes, and
        // nothing else could take A's slot: fair shares stay.
        try (PafPolicy p = new PafPolicy(16, 3, 0.9)) {
            p.admit(1, JobProperties.parse(1, props("fairsched.ernest", "1,0,0.1,0")), 1, 6, 0);
            p.admit(2, JobProperties.parse(2, props()), 1, 6, 0);
            assertArrayEquals(new int[] {2, 1}, new int[] {p.jobs.get(0).target,
                    p.jobs.get(1).target});
            // An eager job C joins: fair shares 1, 1, 1. A at 1 is at its minimum (p(0) = 0 <
            // 0.9 p(1)) and the curveless B gives nothing, though C gains 1 a slot: no transfer.
            p.admit(3, JobProperties.parse(3, props("fairsched.ernest", "0,0,1,0")), 1, 6, 0);
            assertArrayEquals(new int[] {1, 1, 1}, new int[] {p.jobs.get(0).target,
                    p.jobs.get(1).target, p.jobs.get(2).target});
        }
    }

    private static java.util.Properties props(String... kv) {
        java.util.Properties p = new java.util.Properties();
        for (int i = 0; i < kv.length; i += 2) {
            p.setProperty(kv[i], kv[i + 1]);
        }
        return p;
    }

    private static List<String> groups(List<String> order) {
        List<String> g = new ArrayList<>();
        for (int i = 0; i + 3 <= order.size(); i += 3) {
            g.add(order.subList(i, i + 3).stream().sorted().reduce("", String::concat));
        }
        return g;
    }

    @Test
    void pafEnforcesTheTargets() throws Exception {
        Recorder rec = run("fairsched:local[3]", true, "spark.fairsched.policy", "paf",
                "spark.fairsched.paf.alpha", "0.9");
        assertEquals(List.of("AAA", "ABB", "ABB", "ABB"), groups(rec.launchOrder()));
        assertEquals(4.0, (rec.end("A") - rec.firstLaunch()) / (double) U, 0.9);
        assertEquals(4.0, (rec.end("B") - rec.firstLaunch()) / (double) U, 0.9);
    }

    @Test
    void sparkFifoDiffers() throws Exception {
        Recorder rec = run("local[3]", false);
        assertEquals(List.of("AAA", "AAA", "BBB", "BBB"), groups(rec.launchOrder()));
        assertEquals(List.of("A", "B"), rec.completionOrder());
    }
}

package example;

import dev.fairsched.Cfq;
import dev.fairsched.DrfQueue;
import dev.fairsched.JobInfo;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * Calls the installed fairsched jar as a user's program would: CFQ on the example of
 * bindings/java/README.md and discrete DRF on the QKnobler paper's Example 1. run.sh compares
 * what it prints with the known answers; the first line names the jar the classes came from.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) {
        System.out.println("jar " + Cfq.class.getProtectionDomain().getCodeSource().getLocation()
                .getPath());

        try (Cfq cfq = new Cfq(1_000, 3, 0.0)) {
            cfq.arrive(0.0, 1, 9.0, 1);
            cfq.arrive(0.0, 2, 16.0, 1);
            cfq.setPendingBatch(new long[] {1, 2}, new int[] {1, 4});
            long[] given = new long[3];
            int n = cfq.offer(given, 3);
            System.out.println("cfq offer " + Arrays.toString(Arrays.copyOf(given, n)));
            cfq.complete(9.0, 1);
            JobInfo job = cfq.job(1);
            System.out.println("cfq job 1 completion " + job.completion().getAsDouble()
                    + ", gps completion " + job.gpsCompletion().getAsDouble());
        }

        double[] capacity = {200, 1000};
        try (DrfQueue queue = new DrfQueue(10, capacity)) {
            queue.addUser(1, 1.0, new double[] {1, 6});
            queue.addUser(2, 1.0, new double[] {1, 2});
            queue.setPending(1, 1000);
            queue.setPending(2, 1000);
            long[] started = new long[300];
            int n = queue.allocateRound(capacity, started);
            Map<Long, Integer> tasks = new TreeMap<>();
            for (int i = 0; i < n; i++) {
                tasks.merge(started[i], 1, Integer::sum);
            }
            System.out.println("drf round " + n + " tasks, per user " + tasks);
        }
    }
}

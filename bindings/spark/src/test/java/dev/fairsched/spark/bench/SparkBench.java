package dev.fairsched.spark.bench;

import dev.fairsched.spark.FairschedTaskScheduler;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/**
 * One local Spark, one workload, four schedulers in the same run: Spark's FIFO, Spark's FAIR
 * (one pool per job, so jobs share fairly), fairsched CFQ and fairsched PAF. Jobs are drawn from
 * the Google 2011 sub-trace (task count and each task's duration, scaled to milliseconds, wide
 * jobs cut to --max-tasks tasks, long tasks to --max-task-ms), arrive as a Poisson stream at
 * --load, and are submitted from threads; each task sleeps its duration. Prints the mean and p95
 * job response time, the ordering hook's time per resourceOffers round and the native calls per
 * round (all rounds, and those with a free core, which the policy orders). Each job gives CFQ
 * its exact slot-time ({@code fairsched.slotTime}) unless {@code --no-slot-time}: then CFQ's
 * naive profiler estimates it.
 *
 * <pre>mvn -q test-compile exec:exec@bench [-Dbench.args="--jobs 60 --cores 4 ..."]</pre>
 */
public final class SparkBench {
    record Job(int tasks, long[] taskMillis, long arrivalMillis) {
        double slotSeconds() {
            return Arrays.stream(taskMillis).sum() / 1000.0;
        }
        double meanTaskSeconds() {
            return slotSeconds() / tasks;
        }
    }

    public static void main(String[] args) throws Exception {
        String trace = System.getenv().getOrDefault("FAIRSCHED_TRACE",
                "../../../shared/traces/google2011-hawk-subtrace/GOOG_subtrace.tr");
        int jobs = 60, cores = 4, maxTasks = 16, seed = 1;
        double load = 0.9, msPerTraceSecond = 0.25;
        long maxTaskMs = 1500;
        boolean slotTimes = true;
        for (int i = 0; i < args.length; i += 2) {
            switch (args[i]) {
                case "--no-slot-time" -> {
                    slotTimes = false;
                    i--; // no value
                }
                case "--trace" -> trace = args[i + 1];
                case "--jobs" -> jobs = Integer.parseInt(args[i + 1]);
                case "--cores" -> cores = Integer.parseInt(args[i + 1]);
                case "--max-tasks" -> maxTasks = Integer.parseInt(args[i + 1]);
                case "--max-task-ms" -> maxTaskMs = Long.parseLong(args[i + 1]);
                case "--ms-per-trace-second" -> msPerTraceSecond = Double.parseDouble(args[i + 1]);
                case "--load" -> load = Double.parseDouble(args[i + 1]);
                case "--seed" -> seed = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        List<String> lines = Files.readAllLines(Path.of(trace));
        Random rnd = new Random(seed);
        List<Job> workload = new ArrayList<>();
        double totalWork = 0;
        long[][] durations = new long[jobs][];
        for (int j = 0; j < jobs; j++) {
            String[] f = lines.get(rnd.nextInt(lines.size())).trim().split("\\s+");
            int n = Math.min(Integer.parseInt(f[1]), maxTasks);
            durations[j] = new long[n];
            for (int k = 0; k < n; k++) {
                durations[j][k] = Math.max(5, Math.min(maxTaskMs,
                        Math.round(Double.parseDouble(f[3 + k]) * msPerTraceSecond)));
                totalWork += durations[j][k];
            }
        }
        double meanGap = totalWork / jobs / (cores * load);
        long t = 0;
        for (int j = 0; j < jobs; j++) {
            workload.add(new Job(durations[j].length, durations[j], t));
            t += Math.round(-Math.log(1 - rnd.nextDouble()) * meanGap);
        }
        System.out.printf(Locale.ROOT, "%d jobs from %s (seed %d), %d cores, load %.2f, %d tasks, "
                + "%.1f s of work, arrivals over %.1f s, %s%n", jobs, trace, seed, cores, load,
                workload.stream().mapToInt(Job::tasks).sum(), totalWork / 1000, t / 1000.0,
                slotTimes ? "slot-times given" : "no slot-time (CFQ profiles)");
        System.out.printf("%-6s %10s %10s %10s %8s %8s %12s %12s %12s%n", "policy", "mean (s)",
                "p95 (s)", "makespan", "rounds", "ordered", "hook us/rnd", "native/rnd",
                "native/ord");
        for (String policy : new String[] {"fifo", "fair", "cfq", "paf"}) {
            run(policy, cores, workload, slotTimes);
        }
    }

    private static void run(String policy, int cores, List<Job> workload, boolean slotTimes)
            throws Exception {
        SparkConf conf = new SparkConf().setAppName("bench-" + policy)
                .setMaster("fairsched:local[" + cores + "]")
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1");
        switch (policy) {
            case "fifo" -> conf.set("spark.fairsched.policy", "spark")
                    .set("spark.scheduler.mode", "FIFO");
            case "fair" -> conf.set("spark.fairsched.policy", "spark")
                    .set("spark.scheduler.mode", "FAIR");
            default -> conf.set("spark.fairsched.policy", policy);
        }
        JavaSparkContext sc = new JavaSparkContext(conf);
        sc.sc().setLogLevel("WARN");
        try {
            // Warm-up. Pool threads inherit the submitting thread's properties: set or clear.
            sc.setLocalProperty("fairsched.slotTime", slotTimes ? "0.01" : null);
            for (int w = 0; w < 3; w++) {
                sc.parallelize(Arrays.asList(1, 2, 3, 4), cores).foreach(x -> Thread.sleep(2));
            }
            FairschedTaskScheduler sched = (FairschedTaskScheduler) sc.sc().taskScheduler();
            FairschedTaskScheduler.Stats before = sched.stats();
            ExecutorService pool = Executors.newCachedThreadPool();
            long start = System.nanoTime();
            List<Future<Double>> responses = new ArrayList<>();
            for (int j = 0; j < workload.size(); j++) {
                Job job = workload.get(j);
                int id = j;
                long wait = job.arrivalMillis() - (System.nanoTime() - start) / 1_000_000;
                if (wait > 0) {
                    Thread.sleep(wait);
                }
                responses.add(pool.submit(() -> {
                    long t0 = System.nanoTime();
                    sc.setLocalProperty("spark.scheduler.pool", "job" + id);
                    sc.setLocalProperty("fairsched.slotTime",
                            slotTimes ? Double.toString(job.slotSeconds()) : null);
                    // Ernest for a job of n tasks of mean d: t(x) = d + n d / x (waves of tasks).
                    double d = job.meanTaskSeconds();
                    sc.setLocalProperty("fairsched.ernest", d + ",0," + (job.tasks() * d) + ",0");
                    List<Integer> idx = new ArrayList<>();
                    for (int k = 0; k < job.tasks(); k++) {
                        idx.add(k);
                    }
                    long[] ms = job.taskMillis();
                    sc.parallelize(idx, job.tasks()).foreach(k -> Thread.sleep(ms[k]));
                    return (System.nanoTime() - t0) / 1e9;
                }));
            }
            double[] r = new double[responses.size()];
            for (int i = 0; i < r.length; i++) {
                r[i] = responses.get(i).get();
            }
            double makespan = (System.nanoTime() - start) / 1e9;
            pool.shutdown();
            pool.awaitTermination(1, TimeUnit.MINUTES);
            FairschedTaskScheduler.Stats after = sched.stats();
            long rounds = after.rounds() - before.rounds();
            long ordered = after.policyRounds() - before.policyRounds();
            long calls = after.nativeCalls() - before.nativeCalls();
            double hook = (after.hookNanos() - before.hookNanos()) / 1e3 / Math.max(1, rounds);
            Arrays.sort(r);
            double mean = Arrays.stream(r).average().orElse(0);
            double p95 = r[(int) Math.ceil(0.95 * r.length) - 1];
            System.out.printf(Locale.ROOT,
                    "%-6s %10.3f %10.3f %10.2f %8d %8d %12.2f %12.2f %12.2f%n", policy, mean, p95,
                    makespan, rounds, ordered, hook, calls / (double) Math.max(1, rounds),
                    calls / (double) Math.max(1, ordered));
        } finally {
            sc.stop();
        }
    }
}

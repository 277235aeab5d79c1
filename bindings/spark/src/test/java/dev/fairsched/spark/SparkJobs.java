package dev.fairsched.spark;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaSparkContext;

/** Starts real SparkContexts and submits jobs of sleeping tasks from threads. */
final class SparkJobs {
    private SparkJobs() {}

    static JavaSparkContext start(String master, String app, String... settings) {
        SparkConf conf = new SparkConf().setMaster(master).setAppName(app)
                .set("spark.ui.enabled", "false")
                .set("spark.driver.host", "127.0.0.1")
                .set("spark.driver.bindAddress", "127.0.0.1");
        for (int i = 0; i < settings.length; i += 2) {
            conf.set(settings[i], settings[i + 1]);
        }
        return new JavaSparkContext(conf);
    }

    /** Runs a job of {@code tasks} tasks sleeping {@code millis} each, with job properties. */
    static void sleepJob(JavaSparkContext sc, int tasks, long millis, Map<String, String> props) {
        sleepJob(sc, same(tasks, millis), props);
    }

    /** Runs a job whose task {@code k} sleeps {@code millis[k]}, with job properties. */
    static void sleepJob(JavaSparkContext sc, long[] millis, Map<String, String> props) {
        for (Map.Entry<String, String> e : props.entrySet()) {
            sc.setLocalProperty(e.getKey(), e.getValue());
        }
        List<Integer> data = new ArrayList<>();
        for (int i = 0; i < millis.length; i++) {
            data.add(i);
        }
        sc.parallelize(data, millis.length).foreach(k -> Thread.sleep(millis[k]));
    }

    /** The same job in a new thread; its failure, if any, is kept in {@code failure[0]}. */
    static Thread submit(JavaSparkContext sc, int tasks, long millis, Map<String, String> props,
            Throwable[] failure) {
        return submit(sc, same(tasks, millis), props, failure);
    }

    /** The same job in a new thread; its failure, if any, is kept in {@code failure[0]}. */
    static Thread submit(JavaSparkContext sc, long[] millis, Map<String, String> props,
            Throwable[] failure) {
        Thread t = new Thread(() -> {
            try {
                sleepJob(sc, millis, props);
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        return t;
    }

    private static long[] same(int tasks, long millis) {
        long[] all = new long[tasks];
        Arrays.fill(all, millis);
        return all;
    }
}

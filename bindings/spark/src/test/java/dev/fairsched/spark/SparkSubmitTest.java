package dev.fairsched.spark;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scheduler chosen through {@code spark-submit --master ... --conf ...}: Spark's own
 * {@code org.apache.spark.deploy.SparkSubmit} (what {@code bin/spark-submit} runs) in a child
 * JVM on this module's test class path, submitting {@link SubmitApp}. No Spark distribution is
 * installed here, only the Maven artifacts, so the launcher script itself is not run; the class
 * it starts is.
 */
class SparkSubmitTest {
    @TempDir
    Path dir;

    /** Runs SparkSubmit with {@code args}; returns its exit code and output. */
    private Result submit(String... args) throws IOException, InterruptedException {
        // The primary resource spark-submit requires: an empty jar (the application's classes
        // are on the class path already).
        Path jar = dir.resolve("app.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), new Manifest())) {
            // nothing inside
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(Arrays.asList(System.getProperty("spark.jvm.options", "").trim().split("\\s+")));
        command.add("-cp");
        command.add(System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        command.add("org.apache.spark.deploy.SparkSubmit");
        command.addAll(List.of("--conf", "spark.ui.enabled=false",
                "--conf", "spark.driver.host=127.0.0.1",
                "--conf", "spark.driver.bindAddress=127.0.0.1"));
        command.addAll(Arrays.asList(args));
        command.addAll(List.of("--class", SubmitApp.class.getName(), jar.toString()));
        command.removeIf(String::isEmpty);
        File log = dir.resolve("submit.log").toFile();
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log).start();
        if (!process.waitFor(120, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("spark-submit did not finish in 120 s");
        }
        return new Result(process.exitValue(),
                Files.readString(log.toPath(), StandardCharsets.UTF_8));
    }

    private record Result(int exit, String output) {}

    @Test
    void submitWithConfChoosesTheScheduler() throws Exception {
        Result cfq = submit("--master", "local-fairsched[2]",
                "--conf", "spark.fairsched.policy=cfq");
        assertEquals(0, cfq.exit(), cfq.output());
        assertTrue(cfq.output().contains("submitted: FairschedTaskScheduler cfq"), cfq.output());

        Result paf = submit("--master", "local-fairsched[2]",
                "--conf", "spark.fairsched.policy=paf");
        assertEquals(0, paf.exit(), paf.output());
        assertTrue(paf.output().contains("submitted: FairschedTaskScheduler paf"), paf.output());
    }

    @Test
    void badConfFailsTheSubmission() throws Exception {
        Result bad = submit("--master", "local-fairsched[2]",
                "--conf", "spark.fairsched.policy=drf");
        assertNotEquals(0, bad.exit(), bad.output());
        assertTrue(bad.output().contains("spark.fairsched.policy='drf' is not a policy"),
                bad.output());
    }
}

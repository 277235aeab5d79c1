package dev.fairsched.spark;

import java.util.Properties;

/**
 * A job's {@code fairsched.*} properties (set with {@code sc.setLocalProperty} before the job's
 * action), parsed and validated before anything is handed to the core.
 *
 * <ul>
 *   <li>{@code fairsched.slotTime}: the job's work on one slot, in seconds, finite and above 0
 *       (CFQ; without it, CFQ's profiler estimates the slot-time);
 *   <li>{@code fairsched.weight}: a positive integer (CFQ and PAF; otherwise the weight of the
 *       job's Spark pool under {@code spark.scheduler.mode=FAIR}, otherwise 1);
 *   <li>{@code fairsched.ernest}: {@code "a0,a1,a2,a3"}, Ernest's run time model, each finite and
 *       at least 0 (PAF);
 *   <li>{@code fairsched.ernestSamples}: {@code "slots:runtime,..."}, samples fitted with
 *       {@code Paf.ernestFit} (PAF; at most one of the two).
 * </ul>
 */
record JobProperties(Double slotTime, Integer weight, double[] ernest, int[] sampleSlots,
        double[] sampleRuntimes) {
    static final String SLOT_TIME = "fairsched.slotTime";
    static final String WEIGHT = "fairsched.weight";
    static final String ERNEST = "fairsched.ernest";
    static final String SAMPLES = "fairsched.ernestSamples";

    /** @throws IllegalArgumentException naming the job, the property and the value */
    static JobProperties parse(int jobId, Properties p) {
        if (p == null) {
            return new JobProperties(null, null, null, null, null);
        }
        Double slotTime = null;
        String s = p.getProperty(SLOT_TIME);
        if (s != null) {
            double v = number(jobId, SLOT_TIME, s.trim(), s);
            if (!(v > 0) || Double.isInfinite(v)) {
                throw bad(jobId, SLOT_TIME, s, "a slot-time must be finite and above 0 seconds");
            }
            slotTime = v;
        }
        Integer weight = null;
        String w = p.getProperty(WEIGHT);
        if (w != null) {
            try {
                weight = Integer.parseInt(w.trim());
            } catch (NumberFormatException e) {
                throw bad(jobId, WEIGHT, w, "not an integer");
            }
            if (weight < 1) {
                throw bad(jobId, WEIGHT, w, "a weight must be at least 1");
            }
        }
        double[] ernest = null;
        String e = p.getProperty(ERNEST);
        if (e != null) {
            String[] parts = e.split(",", -1);
            if (parts.length != 4) {
                throw bad(jobId, ERNEST, e, "expected 4 coefficients a0,a1,a2,a3");
            }
            ernest = new double[4];
            for (int i = 0; i < 4; i++) {
                ernest[i] = number(jobId, ERNEST, parts[i].trim(), e);
                if (!(ernest[i] >= 0) || Double.isInfinite(ernest[i])) {
                    throw bad(jobId, ERNEST, e, "coefficients must be finite and at least 0");
                }
            }
        }
        int[] slots = null;
        double[] runtimes = null;
        String m = p.getProperty(SAMPLES);
        if (m != null) {
            if (ernest != null) {
                throw bad(jobId, SAMPLES, m, "give " + ERNEST + " or " + SAMPLES + ", not both");
            }
            String[] parts = m.split(",", -1);
            slots = new int[parts.length];
            runtimes = new double[parts.length];
            for (int i = 0; i < parts.length; i++) {
                String[] sr = parts[i].split(":", -1);
                if (sr.length != 2) {
                    throw bad(jobId, SAMPLES, m, "expected slots:runtime pairs");
                }
                try {
                    slots[i] = Integer.parseInt(sr[0].trim());
                } catch (NumberFormatException x) {
                    throw bad(jobId, SAMPLES, m, "'" + sr[0] + "' is not a slot count");
                }
                if (slots[i] < 1) {
                    throw bad(jobId, SAMPLES, m, "slot counts must be at least 1");
                }
                runtimes[i] = number(jobId, SAMPLES, sr[1].trim(), m);
                if (!(runtimes[i] > 0) || Double.isInfinite(runtimes[i])) {
                    throw bad(jobId, SAMPLES, m, "run times must be finite and above 0");
                }
            }
        }
        return new JobProperties(slotTime, weight, ernest, slots, runtimes);
    }

    boolean hasCurve() {
        return ernest != null || sampleSlots != null;
    }

    private static double number(int jobId, String key, String s, String whole) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException e) {
            throw bad(jobId, key, whole, "'" + s + "' is not a number");
        }
    }

    private static IllegalArgumentException bad(int jobId, String key, String value, String why) {
        return new IllegalArgumentException("fairsched: job " + jobId + ": " + key + "='" + value
                + "': " + why);
    }
}

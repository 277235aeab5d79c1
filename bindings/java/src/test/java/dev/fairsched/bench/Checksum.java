package dev.fairsched.bench;

import java.util.Map;

/**
 * FNV-1a over 64-bit words, as bench/tests/bindings.rs computes it: from {@code
 * 0xcbf29ce484222325}, each word {@code v} makes {@code h = (h ^ v) * 0x100000001b3} (wrapping);
 * a double enters as its IEEE-754 bits, a count or id as an unsigned integer. {@link #PINNED}
 * holds the values the Rust workloads give, by criterion id.
 */
final class Checksum {
    /**
     * What the Rust workloads give (bench/tests/bindings.rs pins the same values, so {@code
     * cargo test -p fairsched-bench --test bindings} checks the Rust side).
     */
    static final Map<String, Long> PINNED = Map.ofEntries(
            Map.entry("cfq_batch_10k/1", 0x3a11_8567_9d3e_d4e1L),
            Map.entry("cfq_batch_10k/16", 0x3eae_5cc3_5c42_ba91L),
            Map.entry("cfq_batch_10k/256", 0x122c_1b98_ce90_daa7L),
            Map.entry("drf_next_user/queue/10000", 0x1fb4_4726_9073_5a75L),
            Map.entry("drf_round/queue/10000", 0x969c_ed82_8caa_48a7L),
            Map.entry("qknobler_allocate/m4/10", 0x2bcb_3137_55f6_7d6eL),
            Map.entry("qknobler_allocate/m4/1000", 0xc4f9_23f8_934d_ab3dL),
            Map.entry("paf_allocate_200_jobs_8000_slots/fast", 0xd8e6_612e_c434_cbceL),
            Map.entry("ernest_fit/10_samples", 0xe24e_a343_4fa9_5126L),
            Map.entry("hai_allocate/heaps/n=50,C=200", 0x9d6e_44ca_4af2_caefL),
            Map.entry("drr_heartbeat/min_frag/Drr", 0xe992_3146_054e_9079L),
            Map.entry("drr_timeline/heartbeat", 0x087a_bcff_2a46_b391L));

    private long h = 0xcbf2_9ce4_8422_2325L;

    /** Folds in one 64-bit word (a {@code uint64_t} carried bit for bit). */
    Checksum word(long v) {
        h = (h ^ v) * 0x100_0000_01b3L;
        return this;
    }

    /** Folds in an unsigned 32-bit count. */
    Checksum count(int v) {
        return word(Integer.toUnsignedLong(v));
    }

    /** Folds in a double's bits. */
    Checksum real(double x) {
        return word(Double.doubleToRawLongBits(x));
    }

    long value() {
        return h;
    }
}

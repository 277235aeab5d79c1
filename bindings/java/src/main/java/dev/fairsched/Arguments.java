package dev.fairsched;

/**
 * Checks of arguments that the C types or signatures cannot express, made before any native
 * call.
 */
final class Arguments {
    private static final long MAX_U32 = 0xFFFF_FFFFL;

    private Arguments() {}

    /**
     * Returns {@code value}, rejecting one C cannot take as a {@code uint32_t}.
     *
     * @throws IllegalArgumentException if {@code value} is outside {@code [0, 2^32)}
     */
    static long requireU32(long value, String name) {
        if (value < 0 || value > MAX_U32) {
            throw new IllegalArgumentException(name + " must be in [0, 2^32), got " + value);
        }
        return value;
    }

    /**
     * Returns {@code value}, rejecting a negative count.
     *
     * @throws IllegalArgumentException if {@code value} is negative
     */
    static int requireNonNegative(int value, String name) {
        if (value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + value);
        }
        return value;
    }

    /**
     * Rejects lengths {@code a} and {@code b} that differ, for arrays a C export takes with one
     * length for both (or derives one's length from another's): they fail as the library fails
     * parallel arrays of different lengths.
     *
     * @throws FairschedException {@link Status#LENGTH_MISMATCH} if {@code a != b}
     */
    static void requireSameLength(long a, long b) {
        if (a != b) {
            FairschedException.check(Status.LENGTH_MISMATCH.code());
        }
    }

    /**
     * Rejects a negative element of {@code values}, counts that C takes as {@code uint32_t}s.
     *
     * @throws NullPointerException if {@code values} is null
     * @throws IllegalArgumentException if an element is negative
     */
    static void requireNonNegative(int[] values, String name) {
        for (int i = 0; i < values.length; i++) {
            if (values[i] < 0) {
                throw new IllegalArgumentException(
                        name + "[" + i + "] must not be negative, got " + values[i]);
            }
        }
    }
}

package io.distlock.bench.result;

import io.distlock.bench.core.Role;
import java.time.Duration;

/**
 * Locks on names used once each: what the store still holds for those names right after their release, and
 * after the lease time plus a grace period.
 *
 * @param contender the contender's display name
 * @param role what it stands for
 * @param names distinct names locked and released once each
 * @param seconds how long locking them took
 * @param afterRelease entries left right after the last release (-1 if not counted)
 * @param afterGrace entries left after {@code waited} (-1 if not counted)
 * @param waited how long after the last release the second count was taken
 * @param failure why the run failed, or null
 */
public record NamesOnceResult(String contender, Role role, int names, double seconds, long afterRelease,
                              long afterGrace, Duration waited, String failure) {

    /** A run that failed before counting. */
    public static NamesOnceResult failed(String contender, Role role, int names, String failure) {
        return new NamesOnceResult(contender, role, names, 0, -1, -1, Duration.ZERO, failure);
    }

    /** A copy with the count after the grace period. */
    public NamesOnceResult withAfterGrace(long count, Duration waited) {
        return new NamesOnceResult(contender, role, names, seconds, afterRelease, count, waited, failure);
    }
}

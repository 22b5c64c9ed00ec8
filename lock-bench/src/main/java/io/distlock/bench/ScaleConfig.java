package io.distlock.bench;

import java.time.Duration;
import java.util.List;

/**
 * Settings of the counted, at-round-trip-time and growth measurements (issue #33), apart from the classic
 * no-delay scenarios of {@link BenchConfig}.
 *
 * @param costRuns metered runs per contender and cost loop (0 skips counted costs)
 * @param costDuration duration of each metered run
 * @param costDelays proxy delays each way at which the counted costs run once more, each its own report section
 *        (empty: counted without delay only)
 * @param delays proxy delays each way for the at-round-trip-time runs (empty skips them)
 * @param waiters client counts of the waiters curve (empty skips it)
 * @param waitersDuration duration of each waiters point
 * @param waitersHold how long each waiter holds the lock once it has it
 * @param namesOnce sizes of the names-used-once curve: distinct names locked once each (empty skips it)
 * @param namesGrace grace period added to the lease time before the second count of what names used once left
 * @param heldCurve held-lease counts of the held-leases curve (empty skips it)
 */
public record ScaleConfig(int costRuns, Duration costDuration, List<Duration> costDelays, List<Duration> delays,
                          List<Integer> waiters, Duration waitersDuration, Duration waitersHold,
                          List<Integer> namesOnce, Duration namesGrace,
                          List<Integer> heldCurve) {

    /** Nothing beyond the classic scenarios. */
    public static ScaleConfig off() {
        return new ScaleConfig(0, Duration.ofSeconds(1), List.of(), List.of(), List.of(), Duration.ofSeconds(2),
                Duration.ofMillis(2), List.of(), Duration.ofSeconds(5), List.of());
    }

    /** The lease time distlock and the other libraries use by default (names used once are counted after it). */
    public static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);
}

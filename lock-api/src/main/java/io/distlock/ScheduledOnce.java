package io.distlock;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a task at a fixed rate on exactly one of the services that schedule it, once per period: every service
 * starts one with the same lock name and period, and each period the first to fire runs the task with
 * {@link DistributedLock#tryRun(Duration, LeaseTask)} while the others skip it. Periods are aligned on the wall clock
 * (multiples of the period since the epoch), so services started at different times fire for the same periods;
 * the lock stays taken for {@code minHeld} (by default half the period), so a service whose timer or clock is up to
 * that much late skips the period too. Built only on {@code tryRun}; one daemon thread per schedule.
 */
public final class ScheduledOnce implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(ScheduledOnce.class.getName());

    private final DistributedLock lock;
    private final long periodMillis;
    private final Duration minHeld;
    private final LeaseTask<?> task;
    private final ScheduledThreadPoolExecutor timer;
    private final AtomicLong ran = new AtomicLong();
    private final AtomicLong skipped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    private ScheduledOnce(DistributedLock lock, Duration period, Duration minHeld, LeaseTask<?> task) {
        this.lock = lock;
        this.periodMillis = period.toMillis();
        this.minHeld = minHeld;
        this.task = task;
        this.timer = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-scheduled-" + lock.name());
            t.setDaemon(true);
            return t;
        });
        timer.setRemoveOnCancelPolicy(true);
        timer.setExecuteExistingDelayedTasksAfterShutdownPolicy(false); // close(): the pending period never fires
    }

    /** As {@link #atFixedRate(DistributedLock, Duration, Duration, LeaseTask)} with {@code minHeld} half the period. */
    public static ScheduledOnce atFixedRate(DistributedLock lock, Duration period, LeaseTask<?> task) {
        Arguments.requirePositive(period, "period");
        return atFixedRate(lock, period, period.dividedBy(2), task);
    }

    /**
     * Starts running {@code task} once per {@code period} on whichever service fires first, from the next period
     * boundary on.
     *
     * @param minHeld how long the lock stays taken after each run began; must be shorter than the period (else the
     *        next period would be skipped too) and longer than the timers' and clocks' spread across the services
     * @throws IllegalArgumentException if {@code period} is under a millisecond or {@code minHeld} is negative or
     *         not shorter than {@code period}
     */
    public static ScheduledOnce atFixedRate(DistributedLock lock, Duration period, Duration minHeld,
            LeaseTask<?> task) {
        Objects.requireNonNull(lock, "lock must not be null");
        Arguments.requirePositive(period, "period");
        Arguments.requireNonNegative(minHeld, "minHeld");
        Objects.requireNonNull(task, "task must not be null");
        if (minHeld.compareTo(period) >= 0) {
            throw new IllegalArgumentException("minHeld (" + minHeld + ") must be shorter than period (" + period
                    + "), or the next period would be skipped as well");
        }
        ScheduledOnce schedule = new ScheduledOnce(lock, period, minHeld, task);
        schedule.scheduleNext();
        return schedule;
    }

    /** Periods in which this service ran the task. */
    public long ran() {
        return ran.get();
    }

    /** Periods in which another service held the lock, so this one skipped. */
    public long skipped() {
        return skipped.get();
    }

    /** Periods whose attempt or task failed (logged): the store was unavailable, the task threw, the lease was lost. */
    public long failed() {
        return failed.get();
    }

    /** Stops firing; a task running now finishes and releases as usual. Idempotent. */
    @Override
    public void close() {
        timer.shutdown();
    }

    private void scheduleNext() {
        long now = System.currentTimeMillis();
        long next = (now / periodMillis + 1) * periodMillis;
        try {
            timer.schedule(this::fire, next - now, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // closed: no further periods
        }
    }

    private void fire() {
        try {
            boolean didRun = lock.tryRun(minHeld, lease -> {
                task.run(lease);
                return Boolean.TRUE;
            }).isPresent();
            (didRun ? ran : skipped).incrementAndGet();
        } catch (Exception e) {
            failed.incrementAndGet();
            LOG.log(Level.WARNING, "scheduled task on lock " + Arguments.quoted(lock.name()) + " failed", e);
        } catch (Error e) {
            failed.incrementAndGet();
            LOG.log(Level.ERROR, "scheduled task on lock " + Arguments.quoted(lock.name()) + " failed", e);
            throw e;
        }
        scheduleNext();
    }

    @Override
    public String toString() {
        return "ScheduledOnce[" + lock.name() + ", every " + periodMillis + " ms, ran " + ran + ", skipped " + skipped
                + ", failed " + failed + "]";
    }
}

package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.spi.Backoff;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Removes the lock or permit an acquire may have taken when its reply never came back (a socket timeout, a connection
 * cut, a virtual thread interrupted inside Redis I/O). The caller was told the store is unavailable, yet the script may
 * have run and left the key (or the semaphore member) for a whole lease. The owner value is known, so a background
 * compare-and-delete (the release script: it also wakes waiters) takes it back. It retries failures with a capped
 * backoff until the lease would have run out anyway, and after an answer of "nothing there" checks once more a timeout
 * later, in case the lost request was still on its way to the server.
 */
final class OrphanReaper {

    private static final System.Logger LOG = System.getLogger(OrphanReaper.class.getName());
    private static final long FIRST_RETRY_MS = 50;
    private static final long MAX_RETRY_MS = 1000;

    private final UnifiedJedis client;
    private final LockCalls calls;
    private final String store;
    private final Duration recheckAfter;
    private final ScheduledExecutorService scheduler;

    OrphanReaper(UnifiedJedis client, LockCalls calls, String store, Duration recheckAfter,
            ScheduledExecutorService scheduler) {
        this.client = client;
        this.calls = calls;
        this.store = store;
        this.recheckAfter = recheckAfter;
        this.scheduler = scheduler;
    }

    /** Deletes lock {@code name} in the background if it holds {@code value}; gives up after {@code leaseTime}. */
    void reap(String name, String value, Duration leaseTime) {
        reap("lock "
                + Arguments.quoted(name), () -> (Long) RedisScripts.RELEASE.run(client, calls.release(name, value)),
                leaseTime);
    }

    /**
     * Runs {@code takeBack} (a compare-and-delete answering 1 if it removed the orphan) in the background until it
     * succeeds, gives up after {@code leaseTime}; {@code what} names the orphan in log lines.
     */
    void reap(String what, LongSupplier takeBack, Duration leaseTime) {
        long deadline = System.nanoTime() + leaseTime.toNanos();
        schedule(new Task(what, takeBack, deadline), 0);
    }

    private void schedule(Task task, long delayMs) {
        try {
            scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "redis store {0} is closing: {1} of a lost acquire reply is left to expire",
                    store, task.what);
        }
    }

    /** One lock or permit to take back. */
    private final class Task implements Runnable {
        private final String what;
        private final LongSupplier takeBack;
        private final long deadline;
        private int failures;
        private boolean rechecked;

        Task(String what, LongSupplier takeBack, long deadline) {
            this.what = what;
            this.takeBack = takeBack;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            if (System.nanoTime() - deadline >= 0) {
                return; // the lease has run out: the key is gone by itself
            }
            long deleted;
            try {
                deleted = takeBack.getAsLong();
            } catch (JedisException | IllegalStateException e) {
                LOG.log(Level.DEBUG, "redis store {0}: taking back {1} after a lost acquire reply failed, "
                        + "retrying: {2}", store, what, e.toString());
                schedule(this, Backoff.exponential(FIRST_RETRY_MS, MAX_RETRY_MS, failures++));
                return;
            }
            if (deleted == 1) {
                LOG.log(Level.DEBUG, "redis store {0}: took back {1} whose acquire reply was lost", store, what);
            } else if (!rechecked) {
                rechecked = true;
                schedule(this, recheckAfter.toMillis());
            }
        }
    }
}

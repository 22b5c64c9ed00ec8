package io.distlock.redis;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Removes the lock an acquire may have taken when its reply never came back (a socket timeout, a connection cut,
 * a virtual thread interrupted inside Redis I/O). The caller was told the store is unavailable, yet the script may
 * have run and left the key for a whole lease. The owner value is known, so a background compare-and-delete (the
 * release script: it also wakes waiters) takes it back. It retries failures with a capped backoff until the lease
 * would have run out anyway, and after an answer of "nothing there" checks once more a timeout later, in case the
 * lost request was still on its way to the server.
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
        long deadline = System.nanoTime() + leaseTime.toNanos();
        schedule(new Task(name, value, deadline), 0);
    }

    private void schedule(Task task, long delayMs) {
        try {
            scheduler.schedule(task, delayMs, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException e) {
            LOG.log(Level.DEBUG, "redis store {0} is closing: lock ''{1}'' of a lost acquire reply is left to expire",
                    store, task.name);
        }
    }

    /** One lock to take back. */
    private final class Task implements Runnable {
        private final String name;
        private final String value;
        private final long deadline;
        private long retryMs = FIRST_RETRY_MS;
        private boolean rechecked;

        Task(String name, String value, long deadline) {
            this.name = name;
            this.value = value;
            this.deadline = deadline;
        }

        @Override
        public void run() {
            if (System.nanoTime() - deadline >= 0) {
                return; // the lease has run out: the key is gone by itself
            }
            long deleted;
            try {
                deleted = (Long) RedisScripts.RELEASE.run(client, calls.release(name, value));
            } catch (JedisException | IllegalStateException e) {
                LOG.log(Level.DEBUG, "redis store {0}: taking back lock ''{1}'' after a lost acquire reply failed, "
                        + "retrying: {2}", store, name, e.toString());
                schedule(this, retryMs);
                retryMs = Math.min(MAX_RETRY_MS, retryMs * 2);
                return;
            }
            if (deleted == 1) {
                LOG.log(Level.DEBUG, "redis store {0}: took back lock ''{1}'' whose acquire reply was lost", store,
                        name);
            } else if (!rechecked) {
                rechecked = true;
                schedule(this, recheckAfter.toMillis());
            }
        }
    }
}

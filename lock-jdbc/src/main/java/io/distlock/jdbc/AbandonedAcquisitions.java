package io.distlock.jdbc;

import io.distlock.Arguments;
import io.distlock.spi.Backoff;
import java.time.Duration;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Frees rows (locks or permits) that an acquire may have taken although its caller never learned so: the statement
 * reached the database, then the reply was lost (socket timeout, broken connection, an interrupt inside the driver's
 * I/O). The attempt's owner token is known, so a compare-and-delete on it is run in the background, retried with
 * backoff until the database answers or the lease would have run out anyway. Without this the orphan row would block
 * every other client for a whole lease time.
 */
final class AbandonedAcquisitions implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AbandonedAcquisitions.class.getName());
    private static final long FIRST_RETRY_MILLIS = 50;
    private static final long MAX_RETRY_MILLIS = 2000;

    /** Frees {@code name} if {@code token} holds it; returns whether it did; throws if the database did not answer. */
    @FunctionalInterface
    interface Freeing {
        boolean free(String name, String token);
    }

    private final Freeing freeing;
    private final String store;
    private final ScheduledThreadPoolExecutor executor;

    AbandonedAcquisitions(Freeing freeing, String redactedStore) {
        this.freeing = freeing;
        this.store = redactedStore;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-jdbc-abandoned");
            t.setDaemon(true);
            return t;
        });
        executor.setKeepAliveTime(10, TimeUnit.SECONDS);
        executor.allowCoreThreadTimeOut(true);
        executor.setRemoveOnCancelPolicy(true);
    }

    /** Schedules freeing {@code name} from {@code token}, an attempt of {@code leaseTime} whose answer was lost. */
    void abandon(String name, String token, Duration leaseTime) {
        abandon(name, token, leaseTime, freeing);
    }

    /** As {@link #abandon(String, String, Duration)}, freed by {@code how} (a permit rather than a lock row). */
    void abandon(String name, String token, Duration leaseTime, Freeing how) {
        long giveUpAt = System.nanoTime() + leaseTime.toNanos();
        schedule(new Cleanup(name, token, giveUpAt, how), 0);
    }

    private void schedule(Cleanup cleanup, long delayMillis) {
        if (!executor.isShutdown()) {
            try {
                executor.schedule(cleanup, delayMillis, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.RejectedExecutionException e) {
                // closed meanwhile: the row frees itself when its lease ends
            }
        }
    }

    /** Stops cleaning; rows not freed yet free themselves when their lease ends by the database clock. */
    @Override
    public void close() {
        executor.shutdownNow();
    }

    private final class Cleanup implements Runnable {
        private final String name;
        private final String token;
        private final long giveUpAt;
        private final Freeing how;
        private int failures;

        Cleanup(String name, String token, long giveUpAt, Freeing how) {
            this.name = name;
            this.token = token;
            this.giveUpAt = giveUpAt;
            this.how = how;
        }

        @Override
        public void run() {
            try {
                if (how.free(name, token)) {
                    LOG.fine(() -> "freed " + Arguments.quoted(name) + " in store " + store
                            + ", taken by an acquire whose answer was"
                            + " lost");
                }
            } catch (RuntimeException e) {
                if (System.nanoTime() - giveUpAt < 0 && !executor.isShutdown()) {
                    schedule(this, Backoff.exponential(FIRST_RETRY_MILLIS, MAX_RETRY_MILLIS, failures++));
                } else {
                    LOG.log(Level.FINE, "gave up freeing " + Arguments.quoted(name) + " in store " + store
                            + "; its lease has run out by now", e);
                }
            }
        }
    }
}

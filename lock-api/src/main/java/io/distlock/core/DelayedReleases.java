package io.distlock.core;

import java.lang.System.Logger.Level;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Deletes session-bound locks whose release was delayed by {@link io.distlock.Lease#releaseAfter}, on one daemon
 * thread per store started on first use. Pending releases are dropped when the store closes: closing ends the
 * session, which frees those locks anyway.
 */
final class DelayedReleases {

    private static final System.Logger LOG = System.getLogger(DelayedReleases.class.getName());

    private final Predicate<Hold> releaseInStore;
    private final String storeName;
    private volatile ScheduledThreadPoolExecutor executor;
    private volatile boolean shutdown;

    /** @param releaseInStore the store's compare-and-delete of a hold (a lock or a permit); false if it was gone */
    DelayedReleases(Predicate<Hold> releaseInStore, String storeName) {
        this.releaseInStore = releaseInStore;
        this.storeName = storeName;
    }

    /** Releases {@code hold} in the store after {@code delayNanos}. */
    void releaseLater(Hold hold, long delayNanos) {
        try {
            executor().schedule(() -> release(hold), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            // the store is closing: its session ends and frees the lock
        }
    }

    private void release(Hold hold) {
        try {
            if (!releaseInStore.test(hold)) {
                LOG.log(Level.DEBUG, "delayed release of {0} in {1}: the store no longer had it", hold.grant,
                        storeName);
            }
        } catch (RuntimeException e) {
            // the session still holds it; it ends with the session at the latest
            LOG.log(Level.WARNING, "delayed release of " + hold.grant + " in " + storeName + " failed", e);
        }
    }

    private ScheduledThreadPoolExecutor executor() {
        ScheduledThreadPoolExecutor e = executor;
        if (e != null) {
            return e;
        }
        synchronized (this) { // no blocking call inside: only creates the executor once
            if (executor == null) {
                ScheduledThreadPoolExecutor created = new ScheduledThreadPoolExecutor(1, r -> {
                    Thread t = new Thread(r, "distlock-release-after-" + storeName);
                    t.setDaemon(true);
                    return t;
                });
                created.setRemoveOnCancelPolicy(true);
                if (shutdown) {
                    created.shutdown();
                }
                executor = created;
            }
            return executor;
        }
    }

    /** Drops pending releases and stops the thread. */
    void shutdown() {
        synchronized (this) {
            shutdown = true;
            if (executor != null) {
                executor.shutdownNow();
            }
        }
    }
}

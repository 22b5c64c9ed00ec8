package io.distlock.core;

import java.lang.System.Logger.Level;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;

/**
 * Releases the locks and permits whose release {@link io.distlock.Lease#releaseAfter} delayed, when their time has
 * passed, on one daemon thread per store started on first use. It is the store's ordinary release (compare-and-delete
 * on the owner token, then the backend wakes waiters as any release does), so a waiter refused while the lease was
 * long gets it then, rather than when the expiry it was told of would have come; a release that finds the lock gone
 * (expired, or taken by another client after it expired) is quiet, since the caller was told long ago that it was
 * released. Closing the store drops what is pending, never releasing before its time: on time-bound stores the
 * store expiry set by releaseAfter frees those locks, on session-bound ones the session's end does.
 */
final class DelayedReleases {

    private static final System.Logger LOG = System.getLogger(DelayedReleases.class.getName());
    /** How long {@link #shutdown} waits for a release already under way, so the backend is not closed under it. */
    private static final long RUNNING_RELEASE_WAIT_SECONDS = 5;

    private final Predicate<Hold> releaseInStore;
    private final String storeName;
    /** Scheduled and not finished; a release leaves when it is done, or when close drops it before it started. */
    private final Set<Pending> pending = ConcurrentHashMap.newKeySet();
    /** Starts its thread with the first release scheduled. */
    private final ScheduledThreadPoolExecutor executor;

    /** @param releaseInStore the store's compare-and-delete of a hold (a lock or a permit); false if it was gone */
    DelayedReleases(Predicate<Hold> releaseInStore, String storeName) {
        this.releaseInStore = releaseInStore;
        this.storeName = storeName;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "distlock-release-after-" + storeName);
            t.setDaemon(true);
            return t;
        });
        executor.setRemoveOnCancelPolicy(true);
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    /** Releases {@code hold} in the store after {@code delayNanos} (at once if it is not positive). */
    void releaseLater(Hold hold, long delayNanos) {
        Pending release = new Pending(hold);
        pending.add(release);
        try {
            executor.schedule(release, Math.max(0, delayNanos), TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closing) {
            pending.remove(release); // the store is closing: the store expiry or the session's end frees it
        }
    }

    /** One scheduled release; it runs at most once, and not at all once close claimed it. */
    private final class Pending implements Runnable {
        final Hold hold;
        final AtomicBoolean claimed = new AtomicBoolean();

        Pending(Hold hold) {
            this.hold = hold;
        }

        @Override
        public void run() {
            if (claimed.compareAndSet(false, true)) {
                try {
                    release(hold);
                } finally {
                    pending.remove(this);
                }
            }
        }
    }

    private void release(Hold hold) {
        try {
            if (!releaseInStore.test(hold)) {
                LOG.log(Level.DEBUG, "delayed release of {0} in {1}: the store no longer had it", hold.grant,
                        storeName);
            }
        } catch (RuntimeException e) {
            // still held in the store: it frees at the store expiry, or with the session at the latest
            LOG.log(Level.WARNING, "delayed release of " + hold.grant + " in " + storeName + " failed", e);
        }
    }

    /** Releases scheduled and not yet finished (for tests: none may be left behind). */
    int pending() {
        return pending.size();
    }

    /**
     * Drops pending releases (they are not due yet: releasing them now would end a hold before its time) and waits a
     * few seconds for one already under way, so it is not cut off by the backend closing; then the thread ends.
     */
    void shutdown() {
        executor.shutdown(); // cancels the queued ones not due yet; later schedules are refused (and leave no entry)
        int dropped = 0;
        for (Pending release : pending) { // claimed here, or by a release already due or under way
            if (release.claimed.compareAndSet(false, true)) {
                pending.remove(release);
                dropped++;
            }
        }
        if (dropped > 0) {
            LOG.log(Level.DEBUG, "{0} delayed release(s) of {1} left to the store expiry or session end at close",
                    dropped, storeName);
        }
        try {
            if (!executor.awaitTermination(RUNNING_RELEASE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.log(Level.WARNING, "a delayed release in {0} was still running at close", storeName);
            }
        } catch (InterruptedException interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}

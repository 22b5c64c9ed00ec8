package io.distlock.redis;

/**
 * How many clients stood in a name's waiter queue when an attempt of this client was refused, and how much less
 * often that lets the client run its own timers: its waiter's safety re-check and its release subscription's ping. A
 * release wakes the queue's head alone, so those timers are all that one more waiting client adds; run
 * {@link #spread} times less often (the queue's length over {@link #AT_FULL_PACE}), the clients of one queue together
 * run about as many of them per second however many they are. Issue #33: at once a second each, 64 clients waiting
 * on one name added 1.7 requests to every acquisition. The spread is at most {@link #MAX_SPREAD}, which bounds what
 * a lost wake-up or a silently dead subscription costs the client it happens to.
 */
final class QueueCrowd {

    /** Clients of one queue that keep their timers at the full pace; each further one spreads them out. */
    static final int AT_FULL_PACE = 4;
    /** The most a crowd spreads a client's timers. */
    static final int MAX_SPREAD = 8;

    /** What the store's latest refusal saw: the clients queued, and until when (nanoTime) its place lives. */
    private record Seen(int queued, long untilNanos) {
    }

    /** The clients queued at the calling thread's latest refusal, for the re-check that follows it. */
    private final ThreadLocal<Integer> seenByThread = ThreadLocal.withInitial(() -> 0);
    private volatile Seen latest = new Seen(0, System.nanoTime());

    /**
     * An attempt of the calling thread was refused while {@code queued} clients stood in the name's waiter queue (0
     * when unknown), and queued this client there for at most {@code placeNanos}.
     */
    void refused(int queued, long placeNanos) {
        seenByThread.set(queued);
        latest = new Seen(queued, System.nanoTime() + placeNanos);
    }

    /** The spread of the calling thread's latest refusal: how much longer than alone its waiter may sleep. */
    int ofThisThread() {
        return spread(seenByThread.get());
    }

    /**
     * The spread of the store's latest refusal while its place in the queue lives, else 1: how much less often than
     * alone the store may ping its release subscription (one subscription serves every waiter of the store).
     */
    int ofStore() {
        Seen seen = latest;
        return seen.untilNanos() - System.nanoTime() > 0 ? spread(seen.queued()) : 1;
    }

    /** How many times less often a client of a queue of {@code queued} clients runs its timers: 1 to the maximum. */
    static int spread(int queued) {
        return Math.max(1, Math.min(MAX_SPREAD, queued / AT_FULL_PACE));
    }
}

package io.distlock.spi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-process wake-ups for waiters of a lock name: a backend calls {@link #signal(String)} when it learns that a
 * lock was released (its own release, a pub/sub message); waiters blocked in {@link Ticket#await(long)} return
 * at once. A signal sent between a waiter's failed attempt and its wait is not lost: a ticket taken before the
 * attempt sees it. Uses {@link ReentrantLock}, so virtual threads do not pin while they wait.
 */
public final class ReleaseSignals {

    /** Stripes of {@link #signalled}: names share one by hash, so a mark rarely sees another name's signal. */
    private static final int STRIPES = 64;
    /** Longs between two stripes (a cache line), so signals of different stripes do not contend. */
    private static final int SPACING = 8;

    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();
    /** Signals sent so far per stripe of names, for {@link #mark} and {@link #ticketSince}. */
    private final AtomicLongArray signalled = new AtomicLongArray(STRIPES * SPACING);

    /** Registers interest in {@code name}; take it before the attempt that may fail, close it when done. */
    public Ticket ticket(String name) {
        // merge, not compute: on a name nobody waits for it puts the new channel without a placeholder node
        Channel channel = channels.merge(name, new Channel(), ReleaseSignals::join);
        return new Ticket(name, channel, channel.generation);
    }

    /**
     * A mark of the signals of {@code name} sent so far, for an attempt made before its ticket: take the mark before
     * the attempt, and if it fails, the ticket with {@link #ticketSince}. Costs a read: an attempt that succeeds
     * registers nothing.
     */
    public long mark(String name) {
        return signalled.get(stripe(name));
    }

    /**
     * As {@link #ticket}, for a caller that took {@code mark} before its attempt: if a signal of {@code name} (or of a
     * name of the same stripe) was sent since, the ticket's first {@link Ticket#await} returns at once, so a release
     * between the attempt and the ticket is not slept through.
     */
    public Ticket ticketSince(String name, long mark) {
        Ticket ticket = ticket(name);
        // the channel is in the map before the count is read; a signal counts before it looks the channel up: either
        // this sees the signal's count, or the signal sees the channel and moves its generation past the ticket's
        VarHandle.fullFence();
        if (signalled.get(stripe(name)) != mark) {
            ticket.seen--;
        }
        return ticket;
    }

    /** Wakes every waiter of {@code name} in this process. Cheap when nobody waits. */
    public void signal(String name) {
        signalled.getAndIncrement(stripe(name));
        VarHandle.fullFence(); // counted before the channel is looked up (see ticketSince)
        Channel channel = channels.get(name);
        if (channel != null) {
            channel.bump();
        }
    }

    /** Wakes every waiter of every name (used when a connection is re-established and messages may be lost). */
    public void signalAll() {
        for (int i = 0; i < STRIPES; i++) {
            signalled.getAndIncrement(i * SPACING);
        }
        VarHandle.fullFence();
        channels.values().forEach(Channel::bump);
    }

    private static int stripe(String name) {
        int h = name.hashCode();
        return ((h ^ (h >>> 16)) & (STRIPES - 1)) * SPACING;
    }

    /** Whether anyone in this process waits for {@code name}. */
    public boolean hasWaiters(String name) {
        return channels.containsKey(name);
    }

    private static Channel join(Channel existing, Channel unused) {
        existing.users++;
        return existing;
    }

    private void leave(String name) {
        channels.compute(name, (k, c) -> c == null || --c.users == 0 ? null : c);
    }

    /** One waiter's interest in one name. */
    public final class Ticket implements AutoCloseable {
        private final String name;
        private final Channel channel;
        private long seen;
        private boolean closed;

        private Ticket(String name, Channel channel, long seen) {
            this.name = name;
            this.channel = channel;
            this.seen = seen;
        }

        /**
         * Waits up to {@code nanos} for a signal sent since this ticket was taken or last awaited.
         *
         * @return true if signalled, false on timeout
         */
        public boolean await(long nanos) throws InterruptedException {
            long now = channel.awaitChange(seen, nanos);
            boolean signalled = now != seen;
            seen = now;
            return signalled;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                leave(name);
            }
        }
    }

    /**
     * The signals of one name: a generation that each signal moves on, and the lock and condition waiters block on,
     * made only when one has to wait (most acquisitions take a ticket and never wait). A signal moves the generation
     * before it looks for waits, and a waiter makes the waits before it reads the generation, so either the signal
     * wakes the waiter or the waiter sees the signal.
     */
    private static final class Channel {
        private static final VarHandle GENERATION;
        private static final VarHandle WAITS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                GENERATION = lookup.findVarHandle(Channel.class, "generation", long.class);
                WAITS = lookup.findVarHandle(Channel.class, "waits", Waits.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Through {@link #GENERATION}. */
        private volatile long generation;
        /** Through {@link #WAITS}; null until the first waiter. */
        private volatile Waits waits;
        private int users = 1; // the ticket that made it; guarded by the map's atomic updates of the channel's key

        void bump() {
            GENERATION.getAndAdd(this, 1L);
            Waits w = waits;
            if (w != null) {
                w.lock.lock();
                try {
                    w.changed.signalAll();
                } finally {
                    w.lock.unlock();
                }
            }
        }

        long awaitChange(long seen, long nanos) throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted before waiting for a release signal");
            }
            if (generation != seen || nanos <= 0) {
                return generation;
            }
            Waits w = waits();
            w.lock.lockInterruptibly();
            try {
                long left = nanos;
                while (generation == seen && left > 0) {
                    left = w.changed.awaitNanos(left);
                }
                return generation;
            } finally {
                w.lock.unlock();
            }
        }

        private Waits waits() {
            Waits w = waits;
            if (w == null) {
                Waits made = new Waits();
                w = WAITS.compareAndSet(this, null, made) ? made : waits;
            }
            return w;
        }
    }

    /** The lock and condition of a channel's waiters (a {@link ReentrantLock}, so virtual threads do not pin). */
    private static final class Waits {
        final ReentrantLock lock = new ReentrantLock();
        final Condition changed = lock.newCondition();
    }
}

package io.distlock.spi;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * In-process wake-ups for waiters of a lock name: a backend calls {@link #signal(String)} when it learns that a
 * lock was released (its own release, a pub/sub message); waiters blocked in {@link Ticket#await(long)} return
 * at once. A signal sent between a waiter's failed attempt and its wait is not lost: a ticket taken before the
 * attempt sees it. Uses {@link ReentrantLock}, so virtual threads do not pin while they wait.
 */
public final class ReleaseSignals {

    private final ConcurrentHashMap<String, Channel> channels = new ConcurrentHashMap<>();

    /** Registers interest in {@code name}; take it before the attempt that may fail, close it when done. */
    public Ticket ticket(String name) {
        Channel channel = channels.compute(name, (k, c) -> {
            Channel ch = c == null ? new Channel() : c;
            ch.users++;
            return ch;
        });
        return new Ticket(name, channel, channel.generation());
    }

    /** Wakes every waiter of {@code name} in this process. Cheap when nobody waits. */
    public void signal(String name) {
        Channel channel = channels.get(name);
        if (channel != null) {
            channel.bump();
        }
    }

    /** Wakes every waiter of every name (used when a connection is re-established and messages may be lost). */
    public void signalAll() {
        channels.values().forEach(Channel::bump);
    }

    /** Whether anyone in this process waits for {@code name}. */
    public boolean hasWaiters(String name) {
        return channels.containsKey(name);
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

    private static final class Channel {
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition changed = lock.newCondition();
        private long generation;
        private int users; // guarded by ConcurrentHashMap.compute on the channel's key

        long generation() {
            lock.lock();
            try {
                return generation;
            } finally {
                lock.unlock();
            }
        }

        void bump() {
            lock.lock();
            try {
                generation++;
                changed.signalAll();
            } finally {
                lock.unlock();
            }
        }

        long awaitChange(long seen, long nanos) throws InterruptedException {
            lock.lockInterruptibly();
            try {
                long left = nanos;
                while (generation == seen && left > 0) {
                    left = changed.awaitNanos(left);
                }
                return generation;
            } finally {
                lock.unlock();
            }
        }
    }

    /** Nanoseconds in a millisecond, for backends converting TTLs. */
    public static long millisToNanos(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }
}

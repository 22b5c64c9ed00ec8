package io.distlock.core;

import io.distlock.Arguments;
import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.LockException;
import io.distlock.LockLostException;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.InterruptFlag;
import java.lang.System.Logger.Level;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link Leadership} every store shares, built only on the lock API: one daemon thread acquires the lock
 * (blocking, so a freed lock is won at once), tells the listener, waits until the lease is lost or the campaign is
 * closed, ends the term (on a step-down the listener is told before the lease is released, so two leaders never
 * act at once), and campaigns again. Only short critical sections are guarded (no blocking call holds
 * the monitor), so it suits virtual threads; {@link #close()} interrupts the thread only while it waits to acquire,
 * never inside the listener.
 */
public final class CampaignLoop implements Leadership {

    private static final System.Logger LOG = System.getLogger(CampaignLoop.class.getName());
    private static final long BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private enum Phase { CAMPAIGNING, LEADING, OTHER }

    private final DistributedLock lock;
    private final LeadershipListener listener;
    private final ReentrantLock guard = new ReentrantLock();
    private final Condition changed = guard.newCondition();
    private final Thread thread;
    private boolean closed;
    private Phase phase = Phase.OTHER;
    private volatile Lease term;
    private boolean termLost;

    private CampaignLoop(DistributedLock lock, LeadershipListener listener) {
        this.lock = lock;
        this.listener = listener;
        this.thread = new Thread(this::campaign, "distlock-leadership-" + lock.name());
        thread.setDaemon(true);
    }

    /** Starts campaigning for {@code lock} at once; the listener hears each term. */
    public static Leadership start(DistributedLock lock, LeadershipListener listener) {
        Objects.requireNonNull(lock, "lock must not be null");
        Objects.requireNonNull(listener, "listener must not be null");
        CampaignLoop loop = new CampaignLoop(lock, listener);
        loop.thread.start();
        return loop;
    }

    @Override
    public String name() {
        return lock.name();
    }

    @Override
    public boolean isLeader() {
        Lease current = term;
        return current != null && current.isValid();
    }

    @Override
    public Optional<Lease> lease() {
        return Optional.ofNullable(term);
    }

    @Override
    public void close() {
        guard.lock();
        try {
            if (!closed) {
                closed = true;
                if (phase == Phase.CAMPAIGNING) {
                    thread.interrupt();
                }
                changed.signalAll();
            }
        } finally {
            guard.unlock();
        }
        if (Thread.currentThread() != thread) {
            InterruptFlag.uninterruptibly(() -> {
                thread.join();
                return null;
            });
        }
    }

    private void campaign() {
        try {
            while (enter(Phase.CAMPAIGNING)) {
                Lease won;
                try {
                    won = lock.acquire();
                } catch (InterruptedException e) {
                    continue; // close() interrupts only while campaigning; the loop condition sees closed
                } catch (StoreUnavailableException e) {
                    LOG.log(Level.DEBUG, "leadership {0}: store unavailable, campaigning again",
                            Arguments.quoted(name()));
                    backOff();
                    continue;
                }
                if (!enter(Phase.LEADING)) {
                    releaseQuietly(won); // closed while the acquisition returned: never elected
                    return;
                }
                serve(won);
            }
        } catch (IllegalStateException storeClosed) {
            LOG.log(Level.DEBUG, "leadership {0} stops: {1}", Arguments.quoted(name()), storeClosed.getMessage());
        } catch (LockException refused) {
            // the store answered the lock with a refusal asking again cannot change (an exhausted fence, a key of
            // another type): campaigning on would repeat it forever
            LOG.log(Level.ERROR, "leadership " + Arguments.quoted(name())
                    + " stopped campaigning: the store refused its lock: "
                    + refused.getMessage(), refused);
        } catch (RuntimeException | Error e) {
            LOG.log(Level.ERROR, "leadership " + Arguments.quoted(name()) + " stopped campaigning unexpectedly", e);
        } finally {
            guard.lock();
            try {
                phase = Phase.OTHER;
            } finally {
                guard.unlock();
            }
        }
    }

    /** Moves to {@code next} unless closed; clears an interrupt close() may have sent while campaigning. */
    private boolean enter(Phase next) {
        guard.lock();
        try {
            Thread.interrupted();
            if (closed) {
                return false;
            }
            phase = next;
            termLost = false;
            return true;
        } finally {
            guard.unlock();
        }
    }

    /**
     * One term: elected, hold until lost or closed, step down, revoked. A term lost on its way (the store dropped the
     * grant before the core registered it) is never elected: it is released and the campaign goes on after a pause.
     */
    private void serve(Lease won) {
        if (!won.isValid()) {
            releaseQuietly(won);
            LOG.log(Level.DEBUG, "leadership {0}: term {1} lost on its way, campaigning again",
                    Arguments.quoted(name()), won.fencingToken());
            backOff(); // a store that drops every grant would otherwise be asked again at once, forever
            return;
        }
        won.onLost(e -> {
            guard.lock();
            try {
                termLost = true;
                changed.signalAll();
            } finally {
                guard.unlock();
            }
        });
        term = won;
        try {
            listener.elected(won);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "leadership listener of " + Arguments.quoted(name()) + " threw in elected", e);
        }
        boolean lost; // waits until the term is lost (true) or the campaign closed (false)
        guard.lock();
        try {
            while (!closed && !termLost) {
                changed.awaitUninterruptibly();
            }
            phase = Phase.OTHER;
            lost = termLost;
        } finally {
            guard.unlock();
        }
        term = null;
        if (lost) {
            releaseQuietly(won); // frees the local gate; the store lock is gone already
            revoked(won);
        } else {
            revoked(won); // stepping down: the leader stops before the next one can start
            releaseQuietly(won);
        }
    }

    private void revoked(Lease won) {
        try {
            listener.revoked(won);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "leadership listener of " + Arguments.quoted(name()) + " threw in revoked", e);
        }
    }

    /** Waits before campaigning again after an outage or a term lost on its way; close() ends the wait. */
    private void backOff() {
        guard.lock();
        try {
            long left = BACKOFF_NANOS;
            while (!closed && left > 0) {
                left = changed.awaitNanos(left);
            }
        } catch (InterruptedException e) {
            // close() interrupted the wait; the loop condition sees closed
        } finally {
            guard.unlock();
        }
    }

    private void releaseQuietly(Lease lease) {
        try {
            lease.release();
        } catch (LockLostException e) {
            LOG.log(Level.DEBUG, "leadership {0}: term {1} had been lost", Arguments.quoted(name()),
                    lease.fencingToken());
        } catch (RuntimeException e) {
            // the store could not be told: the lease frees itself when its time (or session) runs out
            LOG.log(Level.WARNING, "leadership " + Arguments.quoted(name()) + " could not release its term", e);
        }
    }

    @Override
    public String toString() {
        return "Leadership[" + name() + (isLeader() ? ", leader, term " + term.fencingToken() : "") + "]";
    }
}

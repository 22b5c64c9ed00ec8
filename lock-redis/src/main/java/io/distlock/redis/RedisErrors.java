package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
import java.time.Duration;
import java.util.function.Supplier;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisException;

/**
 * Turns Jedis failures into distlock's exceptions: anything that means "the store did not answer, or answered that
 * it cannot serve now" ({@code LOADING}, {@code READONLY}, {@code MASTERDOWN}, {@code CLUSTERDOWN}, ...) becomes a
 * {@link StoreUnavailableException} naming the store by its redacted URI; nothing here is ever mistaken for "the
 * lock is held".
 */
final class RedisErrors {

    private RedisErrors() {
    }

    /** Runs {@code call}, translating Jedis failures for store {@code store} (a redacted URI). */
    static <T> T call(String store, String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            throw translate(store, what, e);
        }
    }

    /**
     * {@link #call} for a call that must reach the store whatever interrupts arrive while it runs (a release); see
     * {@link #retryUninterruptibly}.
     */
    static <T> T callUninterruptibly(String store, String what, Duration poolWait, Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            return retryUninterruptibly(store, what, e, poolWait, call);
        }
    }

    /**
     * The answer of a call that must reach the store (a release) and whose try failed with {@code failure}, as
     * {@link #againAfterInterruptedPoolWait}; a failure is translated. Callers on the hot path try the call themselves
     * first, so a release that succeeds builds no message and no lambda.
     */
    static <T> T retryUninterruptibly(String store, String what, JedisException failure, Duration poolWait,
            Supplier<T> call) {
        try {
            return againAfterInterruptedPoolWait(failure, poolWait, call);
        } catch (JedisException e) {
            throw translate(store, what, e);
        }
    }

    /**
     * The answer of a call whose try failed with {@code failure}, for a call the core runs without the caller's
     * interrupt flag (a release, a hand-over, a renewal, a single try): a wait for a pooled connection that an
     * interrupt ended sent nothing, so the call is tried again, and the flag is set again afterwards, as
     * {@code Lock.lock()} does (DEFECTS S88, S91). The tries stop once {@code poolWait} (the pool's own wait, the
     * timeout) has passed since the first was interrupted, so interrupts that keep coming end the call within about
     * two pool waits after the first, with {@link NoPooledConnection} (S92). Any other failure is rethrown as it is.
     */
    static <T> T againAfterInterruptedPoolWait(JedisException failure, Duration poolWait, Supplier<T> call) {
        if (!isPoolWaitInterrupted(failure)) {
            throw failure;
        }
        long boundNanos = saturatedNanos(poolWait);
        long start = System.nanoTime();
        int interrupts = 1;
        try {
            while (System.nanoTime() - start < boundNanos) {
                Thread.interrupted(); // clear it for the next wait; set again at the end
                try {
                    return call.get();
                } catch (JedisException e) {
                    if (!isPoolWaitInterrupted(e)) {
                        throw e;
                    }
                    interrupts++;
                }
            }
            throw new NoPooledConnection("no connection of its pool came within its wait of " + poolWait + ": "
                    + interrupts + " waits in a row were interrupted", failure);
        } finally {
            Thread.currentThread().interrupt(); // the first wait took the flag
        }
    }

    /** Whether the pool gave up waiting for a connection because the thread was interrupted: nothing was sent. */
    static boolean isPoolWaitInterrupted(JedisException e) {
        return e.getCause() instanceof InterruptedException && e.getMessage() != null
                && e.getMessage().startsWith("Could not get a resource from the pool");
    }

    /**
     * Whether {@code e} says that nothing was sent because no pooled connection came: an interrupted wait, or the
     * tries of {@link #againAfterInterruptedPoolWait} ran out (an acquire then needs no take-back).
     */
    static boolean sentNothing(JedisException e) {
        return e instanceof NoPooledConnection || isPoolWaitInterrupted(e);
    }

    /**
     * Whether an acquire that failed with {@code e} may have run its script, so its owner value goes to the orphan
     * reaper. A client that re-sends after a lost reply ({@code resends}: Jedis's Cluster client) raises only its
     * last try's failure: a re-send interrupted in the pool's wait hides an earlier try that ran (DEFECTS S99).
     */
    static boolean mayHaveRun(JedisException e, boolean resends) {
        return !(e instanceof JedisDataException) && (resends || !sentNothing(e));
    }

    /**
     * Every wait for a pooled connection of a call that must not give up on an interrupt was interrupted, for as long
     * as the pool's wait: nothing was sent. Reported as the store not serving, as a pool wait that ran out is.
     */
    static final class NoPooledConnection extends JedisException {
        private static final long serialVersionUID = 1L;

        NoPooledConnection(String message, JedisException last) {
            super(message, last);
        }
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }

    /**
     * The distlock exception for a Jedis failure. A wait for a pooled connection that an interrupt ended (commons-pool
     * cleared the flag) is an interrupt, not an outage: a {@link LockException} caused by the
     * {@link InterruptedException}, the flag set again, for the calls that cannot throw it (DEFECTS S100).
     */
    static LockException translate(String store, String what, JedisException e) {
        if (isPoolWaitInterrupted(e)) {
            Thread.currentThread().interrupt();
            return new LockException("interrupted while waiting for a connection of the pool of redis store " + store
                    + " (" + what + ")", e.getCause());
        }
        if (e instanceof JedisAccessControlException) {
            return new StoreUnavailableException("redis store " + store + " refused to " + what
                    + ": authentication failed (check user and password)", e);
        }
        if (e instanceof JedisDataException && !isUnavailableReply(e.getMessage())) {
            return new LockException("redis store " + store + " rejected " + what + ": " + e.getMessage(), e);
        }
        String reason = e instanceof JedisConnectionException ? "cannot be reached" : "cannot serve";
        return new StoreUnavailableException("redis store " + store + " " + reason + " (" + what + "): "
                + describe(e), e);
    }

    /**
     * The exception for a semaphore whose limit key, on the store or node {@code where}, holds no limit (a value no
     * grant writes, such as an operator's): the limit its holders stated is unknown, and granting by the caller's
     * limit could let in more holders than theirs, so nothing is granted. The key's value is not shown.
     */
    static LockException limitKeyHoldsNoLimit(String where, String semaphore, String key) {
        return new LockException(where + ": the limit key " + Arguments.quoted(key) + " of semaphore '" + semaphore
                + "' holds no limit (every grant writes a whole number of permits from 1 to the store's maximum), so"
                + " the limit its holders stated is unknown and no permit is granted while it does; delete the key to"
                + " let the next grant record its limit");
    }

    private static boolean isUnavailableReply(String message) {
        if (message == null) {
            return false;
        }
        return message.startsWith("LOADING") || message.startsWith("READONLY") || message.startsWith("MASTERDOWN")
                || message.startsWith("CLUSTERDOWN") || message.startsWith("TRYAGAIN") || message.startsWith("BUSY")
                || message.startsWith("NOREPLICAS") || message.startsWith("MOVED") || message.startsWith("ASK")
                || message.startsWith("NOAUTH") || message.startsWith("WRONGPASS");
    }

    private static String describe(Throwable e) {
        StringBuilder b = new StringBuilder(String.valueOf(e.getMessage()));
        Throwable cause = e.getCause();
        if (cause != null && cause != e && cause.getMessage() != null) {
            b.append(" (").append(cause.getClass().getSimpleName()).append(": ").append(cause.getMessage()).append(')');
        }
        return b.toString();
    }
}

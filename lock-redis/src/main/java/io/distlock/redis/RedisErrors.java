package io.distlock.redis;

import io.distlock.Arguments;
import io.distlock.LockException;
import io.distlock.StoreUnavailableException;
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
    static <T> T callUninterruptibly(String store, String what, Supplier<T> call) {
        try {
            return call.get();
        } catch (JedisException e) {
            return retryUninterruptibly(store, what, e, call);
        }
    }

    /**
     * The answer of a call that must reach the store (a release) and whose try failed with {@code failure}: a wait for
     * a pooled connection that an interrupt ended sent nothing, so the call is tried again (each wait bounded by the
     * pool's wait, the timeout), and the flag is set again afterwards, as {@code Lock.lock()} does (DEFECTS S88); any
     * other failure is translated. Callers on the hot path try the call themselves first, so a release that succeeds
     * builds no message and no lambda.
     */
    static <T> T retryUninterruptibly(String store, String what, JedisException failure, Supplier<T> call) {
        JedisException last = failure;
        boolean interrupted = false;
        try {
            while (isPoolWaitInterrupted(last)) {
                Thread.interrupted(); // clear it for the next wait; set again at the end
                interrupted = true;
                try {
                    return call.get();
                } catch (JedisException e) {
                    last = e;
                }
            }
            throw translate(store, what, last);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Whether the pool gave up waiting for a connection because the thread was interrupted: nothing was sent. */
    private static boolean isPoolWaitInterrupted(JedisException e) {
        return e.getCause() instanceof InterruptedException && e.getMessage() != null
                && e.getMessage().startsWith("Could not get a resource from the pool");
    }

    /** The distlock exception for a Jedis failure. */
    static LockException translate(String store, String what, JedisException e) {
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

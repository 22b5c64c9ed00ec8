package io.distlock.tck;

import io.distlock.LockStore;

/**
 * An operator's or a cleanup job's hand on the fencing state a store keeps for a name, for the rules of §19: it
 * deletes that state (as a {@code DEL}, {@code DELETE} or {@code TRUNCATE} would) or overwrites it with a value the
 * store never writes, behind every client's back. Supplied by a backend's kit subclass that knows where its store
 * keeps the state; the kit deletes only while no client holds the name, and overwrites also under a holder.
 *
 * <p>A store's test that can restore its server from an older copy of its data also gives a
 * {@link #restorableStore()} (§19.6).
 *
 * <p>Each method answers whether it did anything: {@code false} means the store keeps no such state, or its type
 * cannot hold that value (a {@code BIGINT NOT NULL} column holds no text and no NULL), and the kit skips that case.
 */
public interface FenceStateTampering {

    /** A value a store never writes as fencing state; the backend writes it in the form its type takes. */
    enum ForeignValue {
        /** Zero: below every token. */
        ZERO,
        /** A negative number. */
        NEGATIVE,
        /** A token far ahead of every token granted so far, that the store's own arithmetic can still grow. */
        FAR_AHEAD,
        /** The largest value the state's type holds ({@link Long#MAX_VALUE} for a 64-bit integer). */
        LARGEST,
        /** A number no 64-bit integer holds ({@code 1e19}), where the type takes text. */
        OUT_OF_RANGE,
        /** Text that is no number ({@code abc}), where the type takes text. */
        NOT_A_NUMBER,
        /** A number that is not finite ({@code nan}), where the type takes it. */
        NOT_FINITE,
        /** Nothing: an empty string or SQL {@code NULL}, where the type allows it. */
        EMPTY
    }

    /** Deletes the fencing state of lock {@code name}; false if the store keeps none that can be deleted. */
    boolean forgetLock(String name) throws Exception;

    /** Overwrites the fencing state of lock {@code name} with {@code value}; false if it cannot hold that value. */
    boolean overwriteLock(String name, ForeignValue value) throws Exception;

    /**
     * Deletes the fencing state of semaphore {@code name}; false (the default) if the store keeps none apart from
     * its permits.
     */
    default boolean forgetSemaphore(String name) throws Exception {
        return false;
    }

    /** Overwrites the fencing state of semaphore {@code name}; false (the default) if there is none or it cannot. */
    default boolean overwriteSemaphore(String name, ForeignValue value) throws Exception {
        return false;
    }

    /**
     * A server of the test's own, started now, whose data can be copied and later put back (§19.6), or null (the
     * default) if the store's test cannot restore its store from an older copy. The kit closes it.
     */
    default RestorableStore restorableStore() throws Exception {
        return null;
    }

    /**
     * A store on a server of the test's own that can be restored from an older copy of its data, as an operator
     * restores a backup or a server comes back having lost its last writes.
     */
    interface RestorableStore extends AutoCloseable {

        /** A new client of the server (the kit closes it). */
        LockStore client();

        /** Copies the server's data as it is now. */
        void backUp() throws Exception;

        /**
         * Stops the server, puts back the copy {@link #backUp()} made and starts it again on the same address;
         * clients opened before need not work afterwards.
         */
        void restoreOlderCopy() throws Exception;
    }
}

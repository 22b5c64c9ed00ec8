package io.distlock;

/**
 * The store could not be reached or did not answer in time. Never used to mean "someone else holds the lock":
 * a caller that sees it does not know whether the lock is free.
 */
public class StoreUnavailableException extends LockException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message naming the store (with any password removed). */
    public StoreUnavailableException(String message) {
        super(message);
    }

    /** An exception with a message naming the store (with any password removed) and the client's error. */
    public StoreUnavailableException(String message, Throwable cause) {
        super(message, cause);
    }
}

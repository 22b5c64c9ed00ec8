package io.distlock;

/** The base of every exception distlock throws about locks and stores. Unchecked, unlike Curator's. */
public class LockException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with a message. */
    public LockException(String message) {
        super(message);
    }

    /** An exception with a message and its cause. */
    public LockException(String message, Throwable cause) {
        super(message, cause);
    }
}

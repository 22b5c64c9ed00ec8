package io.distlock;

/**
 * A lease was lost while held: its time ran out without renewal, its session ended, it was removed behind its
 * back, or its store was closed. Work done under it may have overlapped with the next holder's; the fencing token
 * is what lets a resource tell.
 */
public class LockLostException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String lockName;
    private final long fencingToken;

    /** A loss of the lease on {@code lockName} that carried {@code fencingToken}, with the reason. */
    public LockLostException(String lockName, long fencingToken, String reason) {
        this("lock", lockName, fencingToken, reason);
    }

    private LockLostException(String what, String name, long fencingToken, String reason) {
        super("lease on " + what + " " + Arguments.quoted(name) + " (fencing token " + fencingToken + ") was lost: "
                + reason);
        this.lockName = name;
        this.fencingToken = fencingToken;
    }

    /**
     * A loss of a permit of the semaphore {@code semaphoreName} that carried {@code fencingToken}, with the reason;
     * {@link #lockName()} is the semaphore's name.
     */
    public static LockLostException ofPermit(String semaphoreName, long fencingToken, String reason) {
        return new LockLostException("semaphore", semaphoreName, fencingToken, reason);
    }

    /** The name of the lock (of the semaphore, for a permit) whose lease was lost. */
    public String lockName() {
        return lockName;
    }

    /** The fencing token the lost lease carried. */
    public long fencingToken() {
        return fencingToken;
    }
}

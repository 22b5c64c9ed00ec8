package io.distlock;

/**
 * A write carrying a fencing token was refused because a higher token had already been seen for the same resource:
 * the writer's lease ended (it was paused or cut off) and a newer holder has written since. The work must not be
 * retried with the same token; the writer's view of the resource is out of date.
 */
public class StaleFenceException extends LockException {
    private static final long serialVersionUID = 1L;

    private final String resource;
    private final long fencingToken;
    private final long recordedToken;

    /** A refusal of {@code fencingToken} for {@code resource}, where {@code recordedToken} was already seen. */
    public StaleFenceException(String resource, long fencingToken, long recordedToken) {
        super("stale fencing token " + fencingToken + " for resource " + Arguments.quoted(resource) + ": token "
                + recordedToken
                + " was already recorded, so a newer holder has written since");
        this.resource = resource;
        this.fencingToken = fencingToken;
        this.recordedToken = recordedToken;
    }

    /** The resource the write was meant for. */
    public String resource() {
        return resource;
    }

    /** The refused (stale) token the writer carried. */
    public long fencingToken() {
        return fencingToken;
    }

    /** The higher token already recorded for the resource. */
    public long recordedToken() {
        return recordedToken;
    }
}

package io.distlock;

/**
 * Told when a {@link Leadership} campaign wins and when that term ends. Both run on the campaign's distlock
 * thread, one after the other and never at the same time; a term's {@code revoked} always follows its
 * {@code elected}. While {@code elected} runs the term is already held, and stepping down waits for it to return.
 */
public interface LeadershipListener {

    /**
     * This campaigner became the leader; {@code term.fencingToken()} is the term number, strictly increasing across
     * leaders. Pass it to the resources the leader writes to, so a resource can refuse a leader whose term ended.
     * An exception thrown here is logged; the term goes on.
     */
    void elected(Lease term);

    /**
     * The term ended: its lease was lost (expired, session lost, store closed), or the leader steps down with
     * {@link Leadership#close()}. Stop acting as leader. On a step-down this runs before the term's lease is
     * released, so the next leader is elected only after it returns; on a loss it runs after the loss (another
     * leader may already be elected: the fencing token is what protects resources then). Unless closed, the
     * campaigner campaigns again afterwards.
     */
    void revoked(Lease term);
}

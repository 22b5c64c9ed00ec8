package io.distlock.chaos;

/** A replicated store whose primary can be killed so a replica takes over (Redis Sentinel, Redis Cluster). */
interface FailoverTarget extends StoreTarget {

    /**
     * Kills (SIGKILL) the primary serving {@code lockName}, waits until a replica has been promoted, then starts the
     * killed node again as a replica of the new primary and waits until it is in sync.
     *
     * @return a short description of what happened, for the report's note
     */
    String failover(String lockName) throws Exception;
}

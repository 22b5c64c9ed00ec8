package io.distlock;

/** How a store ends a lease whose holder went away. */
public enum LeaseModel {
    /** By time: the store forgets the lease when its lease time runs out without renewal (Redis, SQL, mem). */
    TIME,
    /** By session: the lease lives as long as the client's session with the store (ZooKeeper). */
    SESSION
}

package io.distlock.tck;

/**
 * An operator's hand on the record a store keeps of one name's holder, for the rules of §20: it spoils that record
 * while the name is held, as a hand-made change would (a Redis key turned into a hash, a SQL row given a value no
 * grant writes, a ZooKeeper node given odd data), so that the store can no longer read it as a holder's. Supplied by
 * a backend's kit subclass that knows where its store keeps the record. The spoiled name may be lost; every other
 * name must not be.
 *
 * <p>Each method answers whether it did anything: {@code false} means the store keeps no such record an operator
 * could spoil, and the kit skips that case.
 */
public interface SpoiledNameState {

    /** Spoils the record of lock {@code name}'s holder, while it is held; false if the store keeps none. */
    boolean spoilLock(String name) throws Exception;

    /**
     * Spoils the record of semaphore {@code name}'s holders (a permit is held); false (the default) if the store
     * keeps none.
     */
    default boolean spoilSemaphore(String name) throws Exception {
        return false;
    }
}

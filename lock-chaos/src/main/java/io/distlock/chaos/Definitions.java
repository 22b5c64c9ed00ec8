package io.distlock.chaos;

/** The definitions printed under the report's table, so the numbers can be read without the code. */
final class Definitions {

    private Definitions() {
    }

    static final String TEXT = """

            ## How to read this report

            Each run starts its own server, then worker JVMs that loop: acquire the lock (wait at most twice the \
            lease), do a **fenced read** of a shared register (a file updated under an OS file lock; it refuses a \
            token lower than the highest it has seen), pause 40 ms (the service's work, where a SIGSTOP lands), \
            do a **fenced write** of the value plus one, release. Workers do not check `isValid()` before writing, \
            on purpose: a real service can be paused between that check and its write; only fencing makes that safe.

            - **acquired ok / fail / unknown**: acquisitions that returned a lease / that timed out because the lock \
            was busy / that raised `StoreUnavailableException` (the client cannot know the outcome).
            - **silent overlaps**: pairs of holds (acquisition to release) by different workers at the same time where \
            neither holder was ever told its lease was lost. Mutual exclusion broken without a signal. Must be 0 \
            except where the store is *unsafe by design* for the scenario.
            - **told overlaps**: overlapping holds where the earlier holder was told (lost-lease listener, or \
            `LockLostException` at release): a paused holder outlived its lease, exactly Kleppmann's case. Expected \
            under client pause, server faults and long network freezes; harmless when the resource checks tokens.
            - **lost updates**: accepted writes that overwrote an update they had not read. Must be 0.
            - **fence rejections**: reads and writes the register refused because a higher token had been seen: \
            stale holders stopped by fencing.
            - **stale writes accepted**: writes issued after a higher token had been granted to another worker and \
            still accepted. Must be 0 everywhere fencing is used.
            - **recovery**: time from the end of the last fault to the next successful acquisition.

            **Unsafe by design**: Redis without persistence and without `restartGuard=true` forgets every lock when \
            it restarts, so a second holder can acquire while the first still works (the design brief's "delayed \
            restart" is the guard). Fencing still holds because the fencing counter is re-seeded from the server \
            clock. Asynchronous replication (Sentinel/Cluster failover) has the same hole; it is not run here.
            """;
}

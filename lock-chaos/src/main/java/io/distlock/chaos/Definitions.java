package io.distlock.chaos;

/** The definitions printed under the report's table, so the numbers can be read without the code. */
final class Definitions {

    private Definitions() {
    }

    static final String TEXT = """

            ## How to read this report

            Each run starts its own server, then worker JVMs that loop: acquire the lock (wait at most twice the \
            lease), do a **fenced read** of a shared register (a file updated under an OS file lock; it refuses a \
            token lower than the highest it has seen), hold the lock for a random time (5 ms to half the lease, half \
            of the holds drawn uniformly, half log-uniformly; in half of the holds the worker calls `extend()` at a \
            random moment), do a **fenced write** of the value plus one, release, and think for 0-30 ms. Workers do \
            not check `isValid()` before writing, on purpose: a real service can be paused between that check and \
            its write; only fencing makes that safe. Each fault is injected after a random delay of up to one lease, \
            so it lands anywhere in the cycle; client faults hit the worker holding the lock at that moment, if any.

            - **faults (mid-hold)**: faults injected, and how many of them started while a worker held the lock.
            - **acquired ok / fail / unknown**: acquisitions that returned a lease / that timed out because the lock \
            was busy / that raised `StoreUnavailableException` (the client cannot know the outcome).
            - **silent overlaps**: pairs of holds (acquisition to release) by different workers at the same time where \
            neither holder was ever told its lease was lost. Mutual exclusion broken without a signal. Must be 0 \
            except where the store is *unsafe by design* for the scenario.
            - **told overlaps**: overlapping holds where the earlier holder was told (lost-lease listener, \
            `extend()` returning false, or `LockLostException` at release): a paused holder outlived its lease, \
            exactly Kleppmann's case. Harmless when the resource checks tokens.
            - **lost updates**: accepted writes that overwrote an update they had not read. Must be 0.
            - **fence rejections**: reads and writes the register refused because a higher token had been seen: \
            stale holders stopped by fencing (and, after a token was re-issued, new holders refused too).
            - **stale writes accepted**: writes issued after a higher token had been granted to another worker and \
            still accepted. Must be 0.
            - **fencing tokens re-issued**: acquisitions granted a token that an earlier acquisition of the same lock \
            had already been granted (workers never re-enter). Must be 0 on every store and scenario: a resource \
            that trusts tokens cannot tell two holders with one token apart.
            - **recovery**: time from the end of the last fault to the next successful acquisition.
            - **bars**: `met`; `expected: unsafe by design` when the scenario is documented unsafe for the store and \
            its overlaps showed (silent, or told only at release; every other column still 0); `MISSED` otherwise.

            **Redis persistence modes** (server crash and restart): the server is killed with SIGKILL and started \
            again from its own directory 0.1-1 s later. *none*: starts empty. *RDB* (`save 1 1`): loads the last \
            snapshot, up to about a second old. *AOF everysec*: a SIGKILL alone loses nothing (the writes are in \
            the page cache), so the files are rolled back to a copy taken 0-1 s before the kill, which is what a \
            machine crash can lose in this mode. *AOF always*: fsync before every reply, nothing acknowledged is lost.

            **Unsafe by design**: Redis restarted without the latest lock keys (no persistence, RDB, or AOF everysec) \
            and without `restartGuard=true` lets a second holder acquire while the first still works (the design \
            brief's "delayed restart" is the guard). Asynchronous replication has the same hole: the Sentinel and \
            Cluster failovers are unsafe by design for overlaps too. In every row fencing tokens must never repeat, \
            and no stale write or lost update may get through.

            **Failovers**: Sentinel kills the master and waits for the Sentinels to promote its replica; Cluster \
            kills the master serving the lock's slot and waits for its replica to take over; the killed node comes \
            back as a replica. The ZooKeeper leader partition closes every proxy between the leader and the two \
            other members (their quorum and election traffic goes through proxies) for the session timeout plus \
            2 s. **Wrong wall clock**: a worker is replaced by one whose JVM runs under libfaketime (hours or a day \
            off, monotonic clock true); nothing may change.

            **Server restored from an older copy of its data** (ZooKeeper): the server's data directory is copied \
            while it runs, the workload goes on for a lease and a half, then the server is killed and started again \
            from the copy, which lacks every grant made since (an operator restoring a backup). Clients that saw a \
            later transaction are refused until they start a new session. Tokens must still grow.

            **Fail-back to an old master** (Redis master and replica without Sentinel, restart guard on, clients \
            through a front port re-pointed at each promotion): the master is demoted towards a master it never \
            reaches (it keeps its data), its replica is promoted and serves for a lease and a half; as soon as a \
            worker is granted the lock there, the old master is promoted again with the older history it kept, the \
            clients are sent to it and the replica is killed; it starts again empty as the old master's replica. The \
            old master's run_id is the one its guard marker names; its master_replid is \
            new. No second holder may get the lock there while the last holder on the replica may still run. \
            Under Sentinel (`redis-sentinel-failback-guard`): the master is paused (SIGSTOP) until the Sentinels \
            have promoted its replica; then the replica is killed and the old master resumed, and the Sentinels make \
            it a replica of the dead master and promote it again with the older history it kept. Their promotion \
            takes seconds, so the last holder on the replica has mostly finished by then: in two short runs (2 \
            faults each) neither the guarded nor an unguarded client saw an overlap.

            **Lock row deleted between holders**: "an operator" deletes the lock's row while nobody holds it \
            (released or expired by the database clock); the next holder inserts it again.
            """;
}

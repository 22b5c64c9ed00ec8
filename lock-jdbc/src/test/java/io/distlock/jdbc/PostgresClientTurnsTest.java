package io.distlock.jdbc;

import io.distlock.LockStore;
import io.distlock.tck.check.ClientTurns;
import io.distlock.tck.check.ClientTurnsExpectations;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Two clients of the machine's PostgreSQL (a table of their own) contend for one lock: after the bounded local
 * hand-overs of one client the other really gets its turn, though its waiter only polls or is woken meanwhile.
 */
@ExtendWith(Databases.class)
class PostgresClientTurnsTest {

    private static final String URI =
            Databases.withOptions(Databases.postgres(), "distlock.table=" + Databases.uniqueTable("turns_pg"));

    @Test
    void twoClientsWithThreeThreadsEachTakeTurnsOnOneLock() throws Exception {
        try (LockStore a = LockStore.open(URI); LockStore b = LockStore.open(URI)) {
            ClientTurns turns = ClientTurns.run(List.of(a, b), "turns-" + UUID.randomUUID(), 3, 400, 0, 120);
            ClientTurnsExpectations.assertBothClientsGetTurns(turns);
        }
    }
}

package io.distlock.tck;

import io.distlock.LockStore;
import io.distlock.tck.check.ClientTurns;
import io.distlock.tck.check.ClientTurnsExpectations;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Two mem: clients of one space contend for one lock: the threads of one client hand the lock over among themselves
 * at most a bounded number of times in a row, and then the other client really gets its turn. Holders keep the lock
 * a little while, so six threads spinning on two cores do not starve the other client's woken thread of CPU.
 */
class MemClientTurnsTest {

    @Test
    void twoClientsWithThreeThreadsEachTakeTurnsOnOneLock() throws Exception {
        String space = "mem:turns-" + UUID.randomUUID();
        try (LockStore a = LockStore.open(space); LockStore b = LockStore.open(space)) {
            ClientTurns turns = ClientTurns.run(List.of(a, b), "turns", 3, 400, TimeUnit.MICROSECONDS.toNanos(200),
                    120);
            ClientTurnsExpectations.assertBothClientsGetTurns(turns);
        }
    }
}

package io.distlock.redis;

import io.distlock.LockStore;
import io.distlock.tck.check.ClientTurns;
import io.distlock.tck.check.ClientTurnsExpectations;
import io.distlock.tck.fixture.StoreServers;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two clients of the Redis the kit's fixture finds contend for one lock: after the bounded local hand-overs of one
 * client the other really gets its turn, though its waiter is woken by a published message while the first client's
 * next thread is already at hand.
 */
class RedisClientTurnsTest {

    @Test
    void twoClientsWithThreeThreadsEachTakeTurnsOnOneLock() throws Exception {
        String name = "turns-" + UUID.randomUUID();
        try (LockStore a = LockStore.open(StoreServers.redis());
                LockStore b = LockStore.open(StoreServers.redis())) {
            ClientTurns turns = ClientTurns.run(List.of(a, b), name, 3, 400, 0, 120);
            ClientTurnsExpectations.assertBothClientsGetTurns(turns);
        }
    }
}

package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.tck.fixture.WaitingClients;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * On the machine's MariaDB, N stores (each its own URL spelling, so they share nothing in-process, as N services)
 * wait on one name and hold it 20 ms each in turn, at the default {@code pollMaxMillis} (250 ms), as lock-bench's
 * waiters curve does: what the stores send per acquisition to wait, counted on the wire, must not grow with the stores
 * that wait, as it does not with Curator's predecessor watch on ZooKeeper. With 16 stores each waits about 15 holds
 * for its turn, past {@code pollMaxMillis}: a queued waiter's safety poll then stretches to twice its last wait for a
 * turn (at most one wait in the queue, 5 s), so turns that keep coming round cost no polls. The row sweep (one
 * statement a second per store while it grants: {@link RowSweeper}) grows with the stores, not with waiting, and is
 * counted apart; so do HikariCP's checks of a pooled connection idle for 500 ms before it lends it (pings, not
 * statements: not counted, as in lock-bench's server requests), since a store's connection idles while it waits.
 * Waiters that only poll try more often the longer they wait, and the releasing client takes the lock straight back.
 */
@ExtendWith(Databases.class)
class MariaDbWaitersCostTest {

    private static final Duration HOLD = Duration.ofMillis(20);
    private static final Duration WITHIN = Duration.ofSeconds(60);

    @Test
    void statementsPerAcquisitionDoNotGrowWithWaitingStores() throws Exception {
        Cost four = cost(4);
        Cost sixteen = cost(16);
        System.out.println("MariaDbWaitersCostTest: " + four + "; " + sixteen);
        assertThat(sixteen.perAcquisition())
                .as("statements per acquisition but the row sweep with 16 waiting stores (%s) against 4 (%s)",
                        sixteen, four)
                // a poll every pollMaxMillis made it 1.3-1.5x (4.1-4.7 against 3.1); a herd (every release waking
                // every store) makes it grow with the stores, 3x and more
                .isLessThanOrEqualTo(four.perAcquisition() * 1.1 + 0.1);
    }

    /**
     * What was counted in the measured window: acquisitions, every statement the stores sent but the row sweep's,
     * those that name a turn lock, and the row sweep's.
     */
    private record Cost(int stores, long acquisitions, long requests, long turns, long sweeps) {
        double perAcquisition() {
            return requests / (double) acquisitions;
        }

        @Override
        public String toString() {
            return String.format(java.util.Locale.ROOT, "%d stores: %.2f requests per acquisition (%.2f of them"
                    + " name a turn lock; and %.2f of the row sweep) over %d acquisitions", stores, perAcquisition(),
                    turns / (double) acquisitions, sweeps / (double) acquisitions, acquisitions);
        }
    }

    private static Cost cost(int n) throws Exception {
        String table = Databases.uniqueTable("waiters");
        String uri = Databases.withOptions(Databases.mariadb(), "distlock.table=" + table);
        String name = "waiters:" + n;
        try (RequestCountingProxy all = RequestCountingProxy.statements(uri);
                RequestCountingProxy turnCount = new RequestCountingProxy(all.route(uri), "_LOCK(");
                RequestCountingProxy sweepCount = new RequestCountingProxy(turnCount.route(all.route(uri)),
                        "SELECT name, CASE WHEN")) {
            String routed = sweepCount.route(turnCount.route(all.route(uri)));
            try (WaitingClients clients = WaitingClients.start(n,
                    i -> LockStore.open(routed + "&connectionAttributes=waiter:" + i), name, HOLD)) {
                clients.awaitAcquisitions(3L * n, WITHIN); // three rounds: each store has waited for its turn
                long a0 = clients.acquisitions();
                long r0 = all.requests();
                long l0 = turnCount.requests();
                long s0 = sweepCount.requests();
                clients.awaitAcquisitions(a0 + 10L * n, WITHIN);
                long sweeps = sweepCount.requests() - s0;
                Cost cost = new Cost(n, clients.acquisitions() - a0, all.requests() - r0 - sweeps,
                        turnCount.requests() - l0, sweeps);
                clients.stop(WITHIN);
                return cost;
            }
        }
    }
}

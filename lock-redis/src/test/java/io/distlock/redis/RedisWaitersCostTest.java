package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import io.distlock.tck.fixture.WaitingClients;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * On a server of its own (so its command counts are this test's alone), N stores (N services: they share nothing
 * in-process) wait on one name and hold it 20 ms each in turn, the releasing client asking again at once: the
 * requests they send per acquisition must not grow with the number of waiting clients (issue #33). A release wakes
 * one client already; what grew was each client's own timers, once a second whatever the queue it stood in: the
 * ping of its release subscription and its waiter's safety re-check.
 */
class RedisWaitersCostTest {

    private static final Duration HOLD = Duration.ofMillis(20);
    private static final Duration WITHIN = Duration.ofSeconds(120);
    /** What a store sends outside its scripts while it waits: the subscription's commands, and pings. */
    private static final List<String> REQUESTS = List.of("evalsha", "eval", "subscribe", "unsubscribe", "psubscribe",
            "punsubscribe", "ping");

    @RegisterExtension
    static final OwnRedisServer server = new OwnRedisServer();

    @Test
    void requestsPerAcquisitionDoNotGrowWithWaitingClients() throws Exception {
        Cost few = cost(4);
        Cost many = cost(64);
        System.out.println("RedisWaitersCostTest: " + few + "; " + many);
        assertThat(many.perAcquisition())
                .as("requests per acquisition with %d waiting clients (%s) against %d (%s)", many.clients, many,
                        few.clients, few)
                .isLessThanOrEqualTo(few.perAcquisition() * 1.25);
    }

    /** What was counted in the measured window: acquisitions, and each request the stores sent. */
    private record Cost(int clients, long acquisitions, Map<String, Long> requests, long nanos) {
        double perAcquisition() {
            return requests.values().stream().mapToLong(Long::longValue).sum() / (double) acquisitions;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%d clients: %.2f requests per acquisition over %d acquisitions"
                    + " (%.0f/s): %s", clients, perAcquisition(), acquisitions, acquisitions * 1e9 / nanos, requests);
        }
    }

    private static Cost cost(int n) throws Exception {
        try (RedisProbe probe = new RedisProbe(server.port());
                WaitingClients clients = WaitingClients.start(n, i -> LockStore.open(server.uri("timeout=5s")),
                        "waiters:" + n, HOLD)) {
            // every client has been refused and waits in the queue by then
            clients.awaitAcquisitions(2L * n, WITHIN);
            long a0 = clients.acquisitions();
            Map<String, Long> r0 = requests(probe);
            long t0 = System.nanoTime();
            clients.awaitAcquisitions(a0 + Math.max(100, 3L * n), WITHIN);
            Map<String, Long> sent = requests(probe);
            long nanos = System.nanoTime() - t0;
            long acquired = clients.acquisitions() - a0;
            sent.replaceAll((command, calls) -> calls - r0.get(command));
            sent.values().removeIf(calls -> calls == 0);
            clients.stop(WITHIN);
            return new Cost(n, acquired, sent, nanos);
        }
    }

    /**
     * Calls so far of each command a store sends on its own while it waits and hands off ({@code INFO
     * commandstats}): its scripts, and its release subscription's commands. The server counts the commands a script
     * calls inside it too; those are not requests, so only the script's {@code EVALSHA} (or {@code EVAL}) counts.
     */
    private static Map<String, Long> requests(RedisProbe probe) {
        Map<String, Long> calls = new TreeMap<>();
        for (String command : REQUESTS) {
            calls.put(command, probe.calls(command));
        }
        return calls;
    }
}

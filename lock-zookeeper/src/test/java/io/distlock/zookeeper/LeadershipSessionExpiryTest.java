package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Leadership;
import io.distlock.LeadershipListener;
import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.tck.fixture.BackendStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LeadershipListener}'s contract when the leader's ZooKeeper session ends on the server: the old leader is
 * told revoked, the other campaigner is elected with a higher term, the old leader's campaign goes on, and each
 * campaign hears elected and revoked in turn. The other may be elected before the old leader hears of its loss (its
 * client learns of the ended session only on its next contact, about 0.2 s here): the contract allows that, and the
 * fencing token is what protects resources then.
 */
class LeadershipSessionExpiryTest {

    private static final Duration SESSION = Duration.ofSeconds(4);
    private static final Duration CONNECTION = Duration.ofSeconds(4);
    private static final Duration PROMPTLY = Duration.ofSeconds(10);

    private TestingServer server;
    private final List<LockStore> stores = new ArrayList<>();

    @BeforeEach
    void startServer() throws Exception {
        server = TestServers.server();
    }

    @AfterEach
    void stopAll() throws Exception {
        stores.forEach(LockStore::close);
        server.close();
    }

    private LockStore open() {
        LockStore store = BackendStores.open(
                TestServers.uri(server.getConnectString(), "leaders", SESSION, CONNECTION));
        stores.add(store);
        return store;
    }

    /** Records "LABEL elected N" / "LABEL revoked N", and any term elected already invalid. */
    private record Log(String label, BlockingQueue<String> events, List<String> invalid) implements LeadershipListener {

        @Override
        public void elected(Lease term) {
            if (!term.isValid()) {
                invalid.add(label + " elected " + term);
            }
            events.add(label + " elected " + term.fencingToken());
        }

        @Override
        public void revoked(Lease term) {
            events.add(label + " revoked " + term.fencingToken());
        }
    }

    @Test
    void anExpiredSessionRevokesTheLeaderElectsTheOtherAndTheOldCampaignGoesOn() throws Exception {
        LockStore first = open();
        LockStore second = open();
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        List<String> invalid = new CopyOnWriteArrayList<>();
        List<String> seen = new ArrayList<>();
        try (Leadership a = first.leadership("x", new Log("a", events, invalid))) {
            String elected = next(events, seen);
            assertThat(elected).startsWith("a elected ");
            long term = token(elected);
            try (Leadership b = second.leadership("x", new Log("b", events, invalid))) {
                Sessions.expire(TestServers.backend(first).curator(), server.getConnectString());
                List<String> two = List.of(next(events, seen), next(events, seen));
                assertThat(two).as("both, in either order: the loss may be heard after the new term")
                        .containsExactlyInAnyOrder("a revoked " + term, two.stream()
                                .filter(e -> e.startsWith("b elected ")).findFirst().orElse("b elected ?"));
                long bTerm = token(two.stream().filter(e -> e.startsWith("b elected ")).findFirst().orElseThrow());
                assertThat(bTerm).isGreaterThan(term);
                assertThat(a.isLeader()).isFalse();
            }
            assertThat(next(events, seen)).as("b steps down").startsWith("b revoked ");
            String again = next(events, seen);
            assertThat(again).as("a's campaign went on after its session ended").startsWith("a elected ");
            assertThat(a.isLeader()).isTrue();
        }
        assertThat(next(events, seen)).startsWith("a revoked ");
        assertThat(invalid).as("terms elected already invalid, in " + seen).isEmpty();
    }

    private static String next(BlockingQueue<String> events, List<String> seen) throws InterruptedException {
        String e = events.poll(SESSION.plus(CONNECTION).plus(PROMPTLY).toMillis(), TimeUnit.MILLISECONDS);
        assertThat(e).as("a listener call after " + seen).isNotNull();
        seen.add(e);
        return e;
    }

    private static long token(String event) {
        return Long.parseLong(event.substring(event.lastIndexOf(' ') + 1));
    }
}

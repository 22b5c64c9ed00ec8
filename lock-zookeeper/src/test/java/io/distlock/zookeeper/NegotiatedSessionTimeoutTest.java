package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * The server clamps the session timeout a client asks for to its {@code minSessionTimeout}..{@code maxSessionTimeout};
 * the store must report the timeout the server agreed (what a session-bound lease lasts after its holder went
 * silent), and warn once that it differs from the URI's.
 */
class NegotiatedSessionTimeoutTest {

    @Test
    void theStoreReportsTheSessionTimeoutTheServerAgreedAndWarnsOnce() throws Exception {
        InstanceSpec spec = new InstanceSpec(null, TestServers.uniquePort(), TestServers.uniquePort(),
                TestServers.uniquePort(), true, -1, TestServers.TICK_MS, 0, Map.of("maxSessionTimeout", "3000"));
        Logger logger = Logger.getLogger(ZooKeeperBackend.class.getName());
        List<LogRecord> warnings = new CopyOnWriteArrayList<>();
        Handler handler = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                    warnings.add(record);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        logger.addHandler(handler);
        try (TestingServer server = new TestingServer(spec, true);
                LockStore store = LockStore.open("zookeeper://" + server.getConnectString()
                        + "/negotiated?sessionTimeout=60s&connectionTimeout=2s")) {
            assertThat(store.sessionTimeout()).as("the session timeout of a store that asked for 60 s of a server "
                    + "whose maxSessionTimeout is 3 s").contains(Duration.ofSeconds(3));
            store.lock("negotiated").acquire().release();
            assertThat(store.sessionTimeout()).contains(Duration.ofSeconds(3));
            assertThat(warnings).as("warnings").hasSize(1);
            assertThat(warnings.get(0).getMessage()).contains("PT3S", "PT1M");
        } finally {
            logger.removeHandler(handler);
        }
    }
}

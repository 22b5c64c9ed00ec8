package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.FreePorts;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ZooKeeperUriTest {

    private static ZooKeeperUri parse(String uri) {
        return ZooKeeperUri.parse(StoreUri.parse(uri));
    }

    @Test
    void singleHostWithDefaults() {
        ZooKeeperUri uri = parse("zookeeper://localhost");
        assertThat(uri.connectString()).isEqualTo("localhost:2181");
        assertThat(uri.chroot()).isNull();
        assertThat(uri.user()).isNull();
        assertThat(uri.sessionTimeout()).isEqualTo(ZooKeeperUri.DEFAULT_SESSION_TIMEOUT);
        assertThat(uri.connectionTimeout()).isEqualTo(ZooKeeperUri.DEFAULT_CONNECTION_TIMEOUT);
    }

    @Test
    void ensembleChrootCredentialsAndOptions() {
        ZooKeeperUri uri = parse("zk://app:p%40ss@h1:2181,h2:2182,h3/services/locks/"
                + "?sessionTimeout=15s&connectionTimeout=2500");
        assertThat(uri.connectString()).isEqualTo("h1:2181,h2:2182,h3:2181");
        assertThat(uri.chroot()).isEqualTo("services/locks");
        assertThat(uri.user()).isEqualTo("app");
        assertThat(uri.password()).isEqualTo("p@ss");
        assertThat(uri.sessionTimeout()).isEqualTo(Duration.ofSeconds(15));
        assertThat(uri.connectionTimeout()).isEqualTo(Duration.ofMillis(2500));
    }

    @Test
    void durationsTakeUnitsAndIso8601() {
        assertThat(parse("zookeeper://h?sessionTimeout=500ms").sessionTimeout()).isEqualTo(Duration.ofMillis(500));
        assertThat(parse("zookeeper://h?sessionTimeout=1m").sessionTimeout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(parse("zookeeper://h?sessionTimeout=PT7S").sessionTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void passwordsNeverShow() {
        ZooKeeperUri uri = parse("zookeeper://app:hunter2@h1:2181/x");
        assertThat(uri.toString()).doesNotContain("hunter2").contains("***");
        assertThatThrownBy(() -> parse("zookeeper://app:hunter2@h1:99999/x"))
                .hasMessageNotContaining("hunter2").hasMessageContaining("99999");
        assertThatThrownBy(() -> parse("zookeeper://app:hunter2@h1?sessionTmeout=3s"))
                .hasMessageNotContaining("hunter2").hasMessageContaining("sessionTmeout");
    }

    @Test
    void passwordsWithAtSignsAndSlashesNeverShowEither() {
        ZooKeeperUri uri = parse("zookeeper://app:hu@nt/er2@h1:2181/x?sessionTimeout=5s");
        assertThat(uri.password()).isEqualTo("hu@nt/er2");
        assertThat(uri.connectString()).isEqualTo("h1:2181");
        assertThat(uri.chroot()).isEqualTo("x");
        assertThat(uri.toString()).isEqualTo("zookeeper://app:***@h1:2181/x?sessionTimeout=5s");
        assertThatThrownBy(() -> parse("zookeeper://app:hu@nt/er2@h1:2181/x?sessionTimeout=never"))
                .hasMessageNotContaining("nt/er2").hasMessageNotContaining("hu@");
    }

    @Test
    void badUrisAreRefusedWithTheProblemNamed() {
        assertThatThrownBy(() -> parse("zookeeper:h1:2181")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zookeeper://host:2181");
        assertThatThrownBy(() -> parse("zookeeper:///chroot")).hasMessageContaining("no host");
        assertThatThrownBy(() -> parse("zookeeper://h1,,h2")).hasMessageContaining("empty host");
        assertThatThrownBy(() -> parse("zookeeper://h1/a/../b")).hasMessageContaining("chroot");
        assertThatThrownBy(() -> parse("zookeeper://h1?sessionTimeout=soon")).hasMessageContaining("not a duration");
        assertThatThrownBy(() -> parse("zookeeper://h1?sessionTimeout=0")).hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> parse("zookeeper://user@h1")).hasMessageContaining("user:password");
        assertThatThrownBy(() -> parse("zookeeper://user:@h1")).hasMessageContaining("must not be empty");
    }

    @Test
    void bothSchemesOpenThroughTheServiceLoaderAndReportAnAbsentServer() {
        int port = FreePorts.next();
        for (String scheme : new String[] {"zookeeper", "zk"}) {
            assertThatThrownBy(() -> LockStore.open(scheme + "://app:hunter2@127.0.0.1:" + port
                    + "?connectionTimeout=1s"))
                    .isInstanceOf(StoreUnavailableException.class)
                    .hasMessageContaining("127.0.0.1:" + port)
                    .hasMessageNotContaining("hunter2");
        }
    }
}

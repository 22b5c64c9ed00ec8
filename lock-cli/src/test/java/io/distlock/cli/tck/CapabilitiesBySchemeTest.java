package io.distlock.cli.tck;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.spi.LeaseModel;
import io.distlock.tck.StoreCapabilities;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The kit's view of a store follows from its URI's scheme. */
class CapabilitiesBySchemeTest {

    @Test
    void zooKeeperIsSessionBoundWithTheUrisTimeout() {
        StoreCapabilities c = CapabilitiesByScheme.forUri("zookeeper://127.0.0.1:2181?sessionTimeout=4s", null);
        assertThat(c.leaseModel()).isEqualTo(LeaseModel.SESSION);
        assertThat(c.sessionTimeout()).isEqualTo(Duration.ofSeconds(4));
        assertThat(CapabilitiesByScheme.forUri("zk://h:1", null).sessionTimeout()).isEqualTo(Duration.ofSeconds(30));
        assertThat(CapabilitiesByScheme.forUri("zk://h:1", Duration.ofSeconds(6)).sessionTimeout())
                .isEqualTo(Duration.ofSeconds(6));
    }

    @Test
    void memIsSingleJvmAndOthersAreTimeBound() {
        assertThat(CapabilitiesByScheme.forUri("mem:x", null).separateJvmClients()).isFalse();
        StoreCapabilities redis = CapabilitiesByScheme.forUri("redis://127.0.0.1:6379", null);
        assertThat(redis.leaseModel()).isEqualTo(LeaseModel.TIME);
        assertThat(redis.separateJvmClients()).isTrue();
        assertThat(CapabilitiesByScheme.forUri("jdbc:mariadb://h/test", null).leaseModel()).isEqualTo(LeaseModel.TIME);
    }
}

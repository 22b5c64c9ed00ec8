package io.distlock.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockStore;
import io.distlock.StoreUnavailableException;
import io.distlock.tck.fixture.BackendStores;
import io.distlock.tck.fixture.TestCertificates;
import io.distlock.tck.fixture.TestCertificates.ServerCertificate;
import io.distlock.tck.fixture.ZooKeeperServer;
import java.nio.file.Path;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * TLS against real servers (the kit's {@link ZooKeeperServer} in JVMs of their own, serving TLS through Netty) with
 * certificates the test makes ({@link TestCertificates}): a server that asks for a client certificate, and one whose
 * certificate names another host. The store connects only when the server's certificate chains to its trust store
 * and names the host; a refusal is a {@link StoreUnavailableException} that shows no password.
 */
class ZooKeeperTlsTest {

    @TempDir
    static Path directory;
    private static TestCertificates certificates;
    private static TestCertificates otherCa;
    private static ServerCertificate clientCertificate;
    @AutoClose
    private static ZooKeeperServer server;
    @AutoClose
    private static ZooKeeperServer wrongHost;

    @BeforeAll
    static void start() {
        certificates = TestCertificates.create(directory.resolve("ca"));
        otherCa = TestCertificates.create(directory.resolve("other-ca"));
        clientCertificate = certificates.server("client");
        server = ZooKeeperServer.startWithTls(certificates.server("zk").keyStore(), certificates.trustStore(),
                certificates.password(), true);
        wrongHost = ZooKeeperServer.startWithTls(certificates.wrongHost("zk-wrong-host").keyStore(),
                certificates.trustStore(), certificates.password(), false);
    }

    private static String uri(int port, TestCertificates trust, ServerCertificate client) {
        return "zookeeper://127.0.0.1:" + port + "/tls?sessionTimeout=4s&connectionTimeout=3s&tls=true&trustStore="
                + trust.trustStore() + "&trustStorePassword=" + trust.password()
                + (client == null ? "" : "&keyStore=" + client.keyStore() + "&keyStorePassword="
                + certificates.password());
    }

    @Test
    void locksWorkOverTlsWithATrustedServerAndAClientCertificate() throws Exception {
        try (LockStore store = BackendStores.open(uri(server.securePort(), certificates, clientCertificate));
                Lease lease = store.lock("over tls").acquire()) {
            assertThat(lease.fencingToken()).isPositive();
            assertThat(TestServers.backend(store).curator().getZookeeperClient().getZooKeeper().getClientConfig()
                    .getBoolean("zookeeper.client.secure")).as("the client's connection is secure").isTrue();
        }
    }

    @Test
    void aPlainClientGetsNothingFromTheTlsPort() {
        assertThatThrownBy(() -> BackendStores.open("zookeeper://127.0.0.1:" + server.securePort()
                + "/tls?sessionTimeout=4s&connectionTimeout=3s").close())
                .isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void aServerCertificateThatNoTrustedAuthoritySignedIsRefused() {
        String uri = uri(server.securePort(), otherCa, clientCertificate);
        assertThatThrownBy(() -> BackendStores.open(uri).close()).isInstanceOf(StoreUnavailableException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(otherCa.password(),
                        certificates.password()));
    }

    @Test
    void aServerCertificateForAnotherHostIsRefused() {
        String uri = uri(wrongHost.securePort(), certificates, null);
        assertThatThrownBy(() -> BackendStores.open(uri).close()).isInstanceOf(StoreUnavailableException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain(certificates.password()));
    }

    @Test
    void aServerThatAsksForAClientCertificateRefusesAClientWithout() {
        String uri = uri(server.securePort(), certificates, null);
        assertThatThrownBy(() -> BackendStores.open(uri).close()).isInstanceOf(StoreUnavailableException.class);
    }

    @Test
    void badTlsOptionsAreRefusedNamingTheOptionNeverThePassword() {
        assertThatThrownBy(() -> BackendStores.open("zookeeper://127.0.0.1:1/x?tls=true&trustStore="
                + directory.resolve("missing.p12") + "&trustStorePassword=s3cret-value"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("trustStore")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret-value"));
        assertThatThrownBy(() -> BackendStores.open("zookeeper://127.0.0.1:1/x?trustStore="
                + certificates.trustStore())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("needs tls=true");
    }
}

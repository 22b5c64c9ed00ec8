package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.PostgresServer;
import io.distlock.tck.fixture.TestCertificates;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PostgreSQL over TLS: the store passes the URL's {@code sslmode} and {@code sslrootcert} to the driver, so with
 * {@code sslmode=verify-full} it locks through a test-started server ({@code ssl=on}, a certificate the test makes)
 * whose certificate chains to the root certificate and names the host, and fails to open otherwise.
 */
class PostgresTlsTest {

    @TempDir
    static Path directory;
    private static TestCertificates certificates;
    private static TestCertificates otherCa;
    private static PostgresServer server;
    private static PostgresServer wrongHost;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(PostgresServer.available(), "skipped: no PostgreSQL server binaries to start");
        certificates = TestCertificates.create(directory.resolve("ca"));
        otherCa = TestCertificates.create(directory.resolve("other-ca"));
        TestCertificates.ServerCertificate good = certificates.server("postgres");
        server = PostgresServer.startWithTls(good.certificatePem(), good.privateKeyPem());
        TestCertificates.ServerCertificate wrong = certificates.wrongHost("postgres-wrong-host");
        wrongHost = PostgresServer.startWithTls(wrong.certificatePem(), wrong.privateKeyPem());
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
        if (wrongHost != null) {
            wrongHost.close();
        }
    }

    private static String verifyFull(PostgresServer target, TestCertificates trust) {
        return target.url() + "&sslmode=verify-full&sslrootcert=" + trust.caPem()
                + "&distlock.connectTimeoutMillis=3000";
    }

    @Test
    void locksOverTlsWhenTheCertificateChainsToTheRootAndNamesTheHost() throws Exception {
        try (LockStore store = LockStore.open(verifyFull(server, certificates));
                Lease lease = store.lock("over tls").acquire()) {
            assertThat(lease.fencingToken()).isPositive();
        }
        try (Connection c = DriverManager.getConnection(verifyFull(server, certificates)
                .replace("&distlock.connectTimeoutMillis=3000", ""));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")) {
            assertThat(rs.next() && rs.getBoolean(1)).as("the connection is encrypted").isTrue();
        }
    }

    @Test
    void aServerCertificateThatNoTrustedAuthoritySignedIsRefused() {
        assertThatThrownBy(() -> LockStore.open(verifyFull(server, otherCa)).close())
                .isInstanceOf(LockException.class);
    }

    @Test
    void aServerCertificateForAnotherHostIsRefused() {
        assertThatThrownBy(() -> LockStore.open(verifyFull(wrongHost, certificates)).close())
                .isInstanceOf(LockException.class);
    }
}

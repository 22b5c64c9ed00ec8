package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockStore;
import io.distlock.tck.fixture.MariaDbServer;
import io.distlock.tck.fixture.TestCertificates;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MariaDB over TLS, with both drivers the SQL store takes: the store passes the URL's TLS settings to the driver, so
 * with the modes that check the chain and the host name (Connector/J {@code VERIFY_IDENTITY}, the MariaDB client's
 * {@code verify-full}) it locks through a test-started server ({@code --ssl-cert}, a certificate the test makes) and
 * fails to open when the trust anchors did not sign the server's certificate or the certificate names another host
 * (one server: the test swaps its certificate and reloads it with {@code FLUSH SSL}). The trust store password in
 * the URL never shows in the store's name. Tagged {@code slow}: its set-up (a dozen {@code keytool} runs and a server
 * of its own) took 45-90 s on the shared build machine; run it with
 * {@code -Dsurefire.excludedGroups= -Dtest=MariaDbTlsTest}.
 */
@Tag("slow")
class MariaDbTlsTest {

    @TempDir
    static Path directory;
    private static TestCertificates certificates;
    private static TestCertificates.ServerCertificate good;
    private static TestCertificates.ServerCertificate wrongHost;
    /** Where the server reads its certificate and key: the good ones, or others for a while. */
    private static Path liveCertificate;
    private static Path liveKey;
    /** A trust store and PEM holding only a certificate that did not sign the server's: the chain check fails. */
    private static Path otherTrustStore;
    private static Path otherTrustPem;
    private static MariaDbServer server;

    @BeforeAll
    static void start() throws Exception {
        Assumptions.assumeTrue(MariaDbServer.available(), "skipped: no MariaDB server binaries to start");
        certificates = TestCertificates.create(directory.resolve("ca"));
        good = certificates.server("mariadb");
        wrongHost = certificates.wrongHost("mariadb-wrong-host");
        otherTrustPem = wrongHost.certificatePem(); // a leaf the test CA signed, not the server certificate's issuer
        otherTrustStore = trustStoreOf(otherTrustPem, directory.resolve("other-trust.p12"));
        liveCertificate = directory.resolve("live-cert.pem");
        liveKey = directory.resolve("live-key.pem");
        serve(good);
        server = MariaDbServer.startWithTls(liveCertificate, liveKey);
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    /** Puts {@code certificate} where the server reads it; a running server reads it again with FLUSH SSL. */
    private static void serve(TestCertificates.ServerCertificate certificate) throws Exception {
        Files.copy(certificate.certificatePem(), liveCertificate, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(certificate.privateKeyPem(), liveKey, StandardCopyOption.REPLACE_EXISTING);
        if (server != null) {
            try (Connection c = DriverManager.getConnection(server.url()); Statement s = c.createStatement()) {
                s.execute("FLUSH SSL");
            }
        }
    }

    private static Path trustStoreOf(Path pem, Path file) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        try (InputStream in = Files.newInputStream(pem)) {
            store.setCertificateEntry("other", CertificateFactory.getInstance("X.509").generateCertificate(in));
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, certificates.password().toCharArray());
        }
        return file;
    }

    /** Connector/J, checking chain and host name against {@code trust}'s PKCS12 trust store. */
    private static String connectorJ(Path trustStore) {
        return server.url() + "&sslMode=VERIFY_IDENTITY&trustCertificateKeyStoreUrl=file:" + trustStore
                + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=" + certificates.password()
                + "&distlock.connectTimeoutMillis=3000";
    }

    /** The MariaDB client, checking chain and host name against {@code trust}'s CA certificate. */
    private static String mariaDbClient(Path trustPem) {
        return "jdbc:mariadb://127.0.0.1:" + server.port() + "/test?user=root&sslMode=verify-full&serverSslCert="
                + trustPem + "&distlock.connectTimeoutMillis=3000";
    }

    @Test
    void locksOverTlsWithConnectorJWhenTheCertificateChainsToTheRootAndNamesTheHost() throws Exception {
        String url = connectorJ(certificates.trustStore());
        try (LockStore store = LockStore.open(url); Lease lease = store.lock("over tls").acquire()) {
            assertThat(lease.fencingToken()).isPositive();
            assertThat(store.toString()).doesNotContain(certificates.password());
        }
        assertThat(cipherOf(url)).as("the connection's TLS cipher").isNotBlank();
    }

    @Test
    void locksOverTlsWithTheMariaDbClient() throws Exception {
        String url = mariaDbClient(certificates.caPem());
        try (LockStore store = LockStore.open(url); Lease lease = store.lock("over tls, mariadb client").acquire()) {
            assertThat(lease.fencingToken()).isPositive();
        }
        assertThat(cipherOf(url)).as("the connection's TLS cipher").isNotBlank();
    }

    @Test
    void aServerCertificateThatNoTrustedAuthoritySignedIsRefused() {
        assertRefusedForTls(connectorJ(otherTrustStore));
        assertRefusedForTls(mariaDbClient(otherTrustPem));
    }

    @Test
    void aServerCertificateForAnotherHostIsRefused() throws Exception {
        serve(wrongHost);
        try {
            assertRefusedForTls(connectorJ(certificates.trustStore()));
            assertRefusedForTls(mariaDbClient(certificates.caPem()));
        } finally {
            serve(good);
        }
    }

    /** Opening the store on {@code url} fails with a {@link LockException} caused by the TLS check. */
    private static void assertRefusedForTls(String url) {
        assertThatThrownBy(() -> LockStore.open(url).close()).isInstanceOf(LockException.class)
                .satisfies(e -> assertThat(causes(e)).as("why the open failed")
                        .containsPattern("(?i)certificat|pkix|ssl|tls"));
    }

    private static String causes(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            all.append(t).append(" / ");
        }
        return all.toString();
    }

    /** The TLS cipher of a plain JDBC connection to {@code url} (empty if it is not encrypted). */
    private static String cipherOf(String url) throws Exception {
        try (Connection c = DriverManager.getConnection(url.replace("&distlock.connectTimeoutMillis=3000", ""));
                Statement s = c.createStatement();
                ResultSet rs = s.executeQuery("SHOW SESSION STATUS LIKE 'Ssl_cipher'")) {
            return rs.next() ? rs.getString(2) : "";
        }
    }
}

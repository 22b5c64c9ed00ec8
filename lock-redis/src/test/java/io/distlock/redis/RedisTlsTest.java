package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fixture.FreePorts;
import io.distlock.tck.fixture.TestCertificates;
import io.distlock.tck.fixture.TestCertificates.ServerCertificate;
import io.distlock.tck.process.JvmProcess;
import io.distlock.tck.process.LockClientMain;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code rediss://} against test-started redis-servers serving TLS ({@code --tls-port}) with certificates the test
 * makes ({@link TestCertificates}). The client trusts what its JVM trusts, so each client is a JVM of the test's own
 * ({@link LockClientMain}) whose default trust store is the test CA's (or another CA's): the store opens and locks
 * when the server's certificate chains to it and names the host, and fails to open otherwise.
 */
class RedisTlsTest {

    private static final Duration OPEN = Duration.ofSeconds(60);

    @TempDir
    static Path directory;
    private static TestCertificates certificates;
    private static TestCertificates otherCa;
    @AutoClose
    private static RedisServer server;
    private static int tlsPort;
    @AutoClose
    private static RedisServer wrongHost;
    private static int wrongHostTlsPort;

    @BeforeAll
    static void start() {
        certificates = TestCertificates.create(directory.resolve("ca"));
        otherCa = TestCertificates.create(directory.resolve("other-ca"));
        tlsPort = FreePorts.next();
        server = RedisServer.start(tlsArgs(tlsPort, certificates.server("redis")));
        wrongHostTlsPort = FreePorts.next();
        wrongHost = RedisServer.start(tlsArgs(wrongHostTlsPort, certificates.wrongHost("redis-wrong-host")));
    }

    private static String[] tlsArgs(int port, ServerCertificate certificate) {
        return new String[] {"--tls-port", Integer.toString(port), "--tls-cert-file",
                certificate.certificatePem().toString(), "--tls-key-file", certificate.privateKeyPem().toString(),
                "--tls-ca-cert-file", certificates.caPem().toString(), "--tls-auth-clients", "no"};
    }

    /** What a client JVM trusting {@code trust}'s CA says after opening {@code rediss://127.0.0.1:port}. */
    private static String firstAnswer(int port, TestCertificates trust, String commands) {
        try (JvmProcess client = JvmProcess.builder("redis-tls-client", LockClientMain.class)
                .jvmOptions("-Xmx128m", "-XX:TieredStopAtLevel=1",
                        "-Djavax.net.ssl.trustStore=" + trust.jksTrustStore(), "-Djavax.net.ssl.trustStoreType=JKS")
                .args("tls").storeUri("rediss://127.0.0.1:" + port + "?timeout=3s").start()) {
            Optional<String> first = client.nextLine(OPEN);
            if (first.isEmpty() || !first.get().equals("READY") || commands.isEmpty()) {
                return first.orElse("no answer: " + client.transcript());
            }
            client.send(commands);
            return client.nextLine(OPEN).orElse("no answer: " + client.transcript());
        }
    }

    @Test
    void aLockOverTlsWhenTheServerCertificateChainsToTheTrustStoreAndNamesTheHost() {
        assertThat(firstAnswer(tlsPort, certificates, "acquire over%20tls 5000 true")).startsWith("ACQUIRED");
    }

    @Test
    void aServerCertificateThatNoTrustedAuthoritySignedIsRefused() {
        assertThat(firstAnswer(tlsPort, otherCa, "")).startsWith("ERROR").doesNotContain(otherCa.password());
    }

    @Test
    void aServerCertificateForAnotherHostIsRefused() {
        assertThat(firstAnswer(wrongHostTlsPort, certificates, "")).startsWith("ERROR");
    }
}

package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.LockStore;
import io.distlock.tck.fixture.FreePorts;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Opening a store whose URL carries secrets (a password with URI delimiters in its user info, any driver's
 * secret-bearing parameter) and failing to connect: neither the exception nor any of its causes shows a secret,
 * including the drivers' own messages that quote the URL.
 */
class SecretsInUrlsTest {

    private static final String LEFT = "Xq7v";
    private static final String RIGHT = "Zr9w";

    static Stream<String> uris() {
        int closed = FreePorts.next(); // nothing listens there
        List<String> uris = new ArrayList<>();
        for (String special : List.of("@", "/", "?", "#", "%", ":")) {
            String secret = LEFT + special + RIGHT;
            for (String db : List.of("mysql", "mariadb", "postgresql")) {
                uris.add("jdbc:" + db + "://app:" + secret + "@127.0.0.1:" + closed + "/app");
            }
            uris.add("jdbc:h2:tcp://127.0.0.1:" + closed + "/mem:x;USER=sa;PASSWORD=" + secret);
        }
        for (String special : List.of("#", "@")) {
            String secret = LEFT + special + RIGHT;
            uris.add("jdbc:postgresql://127.0.0.1:" + closed + "/app?user=app&password=" + secret);
            uris.add("jdbc:postgresql://127.0.0.1:" + closed + "/app?user=app&sslpassword=" + secret);
            uris.add("jdbc:mysql://127.0.0.1:" + closed + "/app?user=app&trustCertificateKeyStorePassword=" + secret);
            uris.add("jdbc:mysql://127.0.0.1:" + closed + "/app?clientCertificateKeyStorePassword=" + secret);
            uris.add("jdbc:mariadb://127.0.0.1:" + closed + "/app?keyStorePassword=" + secret);
        }
        return uris.stream().map(u -> u + (u.contains("?") ? "&" : "?") + "distlock.connectTimeoutMillis=250");
    }

    @ParameterizedTest
    @MethodSource("uris")
    void aFailedOpenNeverShowsASecret(String uri) {
        Throwable failure = catchThrowable(() -> LockStore.open(uri).close());
        assertThat(failure).isNotNull();
        for (Throwable t = failure; t != null; t = t.getCause()) {
            assertThat(String.valueOf(t.getMessage())).as("message of %s", t.getClass().getName())
                    .doesNotContain(LEFT).doesNotContain(RIGHT);
            assertThat(t.toString()).doesNotContain(LEFT).doesNotContain(RIGHT);
        }
    }
}

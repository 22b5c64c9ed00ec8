package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No form of a store URI that may be shown (its {@code toString()}, {@link StoreUri#redacted()}, the message of
 * an exception raised while reading it) contains a secret: not a password with URI delimiters in it, raw or
 * escaped, and not the value of any secret-bearing parameter a driver knows.
 */
class StoreUriRedactionTest {

    /** Two halves around the special character, so a leak of either half is caught. */
    private static final String LEFT = "Xq7v";
    private static final String RIGHT = "Zr9w";

    @ParameterizedTest
    @ValueSource(strings = {"@", "/", "?", "#", "%", ":", "%40", "%2F", "%3F", "%23", "%25", "%3A", "+", "&", "="})
    void aPasswordInUserInfoNeverShows(String special) {
        String password = LEFT + special + RIGHT;
        for (String uri : List.of(
                "redis://:" + password + "@host:6379/0?timeout=2s",
                "redis://alice:" + password + "@host:6379",
                "zookeeper://bob:" + password + "@h1:2181,h2:2181/chroot?sessionTimeout=5s",
                "redis-sentinel://:" + password + "@s1:26379,s2:26379/mymaster",
                "jdbc:mysql://app:" + password + "@db:3306/app?useSSL=false")) {
            assertHidden(uri);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"password", "PASSWORD", "pwd", "pass", "secret", "sslpassword", "sslPassword",
        "trustStorePassword", "keyStorePassword", "clientCertificateKeyStorePassword",
        "trustCertificateKeyStorePassword", "sentinelPassword", "clientSecret", "authToken", "passwd",
        "serverSslKeyStorePassword", "requirepass"})
    void aSecretParameterNeverShows(String name) {
        for (String special : List.of("", "#", "/", "?", "@", ":", "%", "%40")) {
            String secret = LEFT + special + RIGHT;
            for (String uri : List.of(
                    "jdbc:postgresql://db:5432/app?user=app&" + name + "=" + secret + "&ApplicationName=x",
                    "jdbc:mysql://db/app?" + name + "=" + secret,
                    "jdbc:h2:tcp://db:9092/mem:x;" + name + "=" + secret + ";DB_CLOSE_DELAY=-1",
                    "redis://host:6379?" + name + "=" + secret + "&timeout=2s")) {
                assertHidden(uri);
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"user", "ApplicationName", "keyPrefix", "timeout"})
    void ordinaryParametersStayReadable(String name) {
        String uri = "jdbc:postgresql://db:5432/app?" + name + "=visible1&password=x";
        assertThat(StoreUri.redact(uri)).contains(name + "=visible1").doesNotContain("password=x");
    }

    /**
     * An {@code @} inside a secret parameter's value is not the end of a user info: hiding from the port to it hid the
     * host's port, the database and the user too ({@code jdbc:mariadb://127.0.0.1:***}).
     */
    @ParameterizedTest
    @ValueSource(strings = {"password", "sslpassword", "PASSWORD"})
    void anAtInASecretParameterKeepsHostPortDatabaseAndUserReadable(String name) {
        String secret = LEFT + "@" + RIGHT;
        assertThat(StoreUri.redact("jdbc:mariadb://127.0.0.1:3306/test?user=root&" + name + "=" + secret))
                .isEqualTo("jdbc:mariadb://127.0.0.1:3306/test?user=root&" + name + "=***");
        assertThat(StoreUri.redact("jdbc:postgresql://db:5432/app?" + name + "=" + secret + "&user=app"))
                .isEqualTo("jdbc:postgresql://db:5432/app?" + name + "=***&user=app");
        assertThat(StoreUri.redact("jdbc:h2:tcp://db:9092/mem:x;USER=sa;" + name + "=" + secret))
                .isEqualTo("jdbc:h2:tcp://db:9092/mem:x;USER=sa;" + name + "=***");
        assertThat(StoreUri.redact("jdbc:mysql://app:" + secret + "@db:3306/app?" + name + "=" + secret))
                .as("with a user info as well").isEqualTo("jdbc:mysql://app:***@db:3306/app?" + name + "=***");
    }

    private static void assertHidden(String uri) {
        StoreUri parsed = null;
        Throwable failure = catchThrowable(() -> StoreUri.parse(uri));
        if (failure == null) {
            parsed = StoreUri.parse(uri);
            assertThat(parsed.toString()).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
            assertThat(parsed.redacted()).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
            Throwable authority = catchThrowable(parsed::authority);
            if (authority == null) {
                assertThat(parsed.authority().toString()).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
            } else {
                assertThat(authority.getMessage()).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
            }
        } else {
            assertThat(failure.getMessage()).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
        }
        assertThat(StoreUri.redact(uri)).as(uri).doesNotContain(LEFT).doesNotContain(RIGHT);
    }
}

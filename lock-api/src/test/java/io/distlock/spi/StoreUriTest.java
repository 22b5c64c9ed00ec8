package io.distlock.spi;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** StoreUri: scheme, parameters and redaction of passwords. */
class StoreUriTest {

    @Test
    void splitsSchemeRestAndParameters() {
        StoreUri uri = StoreUri.parse("redis://localhost:6379/2?keyPrefix=app%3A&timeout=2s");
        assertThat(uri.scheme()).isEqualTo("redis");
        assertThat(uri.withoutQuery()).isEqualTo("//localhost:6379/2");
        assertThat(uri.params()).containsEntry("keyPrefix", "app:").containsEntry("timeout", "2s");
        assertThat(uri.param("missing", "d")).isEqualTo("d");
    }

    @Test
    void jdbcUrisKeepTheirSubScheme() {
        StoreUri uri = StoreUri.parse("jdbc:postgresql://db/app?user=x&password=y");
        assertThat(uri.scheme()).isEqualTo("jdbc");
        assertThat(uri.schemeSpecificPart()).startsWith("postgresql://");
    }

    @Test
    void redactsUserInfoPasswordsAndPasswordParameters() {
        assertThat(StoreUri.redact("redis://alice:s3cret@host:6379/0")).isEqualTo("redis://alice:***@host:6379/0");
        assertThat(StoreUri.redact("redis://:s3cret@host:6379")).isEqualTo("redis://:***@host:6379");
        assertThat(StoreUri.redact("jdbc:mysql://h/db?user=root&password=s3cret&x=1"))
                .isEqualTo("jdbc:mysql://h/db?user=root&password=***&x=1");
        assertThat(StoreUri.redact("zookeeper://bob:pw@h1:2181,h2:2181/chroot"))
                .isEqualTo("zookeeper://bob:***@h1:2181,h2:2181/chroot");
        assertThat(StoreUri.parse("redis://a:b@h:1").toString()).doesNotContain(":b@");
        assertThat(StoreUri.redact("redis://host:6379")).isEqualTo("redis://host:6379");
        assertThat(StoreUri.redact("redis://bob:p@ss@word@host:6379/1")).isEqualTo("redis://bob:***@host:6379/1");
    }
}

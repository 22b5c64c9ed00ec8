package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.LockStore;
import io.distlock.spi.StoreUri;
import org.junit.jupiter.api.Test;

/** Parsing of {@code jdbc:} store URIs: distlock options are taken out, everything else reaches the driver. */
class JdbcSettingsTest {

    private static JdbcSettings parse(String uri) {
        return JdbcSettings.parse(StoreUri.parse(uri));
    }

    @Test
    void distlockOptionsAreStrippedAndTheRestReachesTheDriver() {
        JdbcSettings s = parse("jdbc:mysql://db:3306/app?user=app&distlock.table=locks&useSSL=false"
                + "&distlock.poolSize=3&distlock.createTable=false&distlock.connectTimeoutMillis=1500"
                + "&distlock.socketTimeoutMillis=4000&distlock.pollMaxMillis=100");
        assertThat(s.driverUrl()).isEqualTo("jdbc:mysql://db:3306/app?user=app&useSSL=false");
        assertThat(s.subProtocol()).isEqualTo("mysql");
        assertThat(s.table()).isEqualTo("locks");
        assertThat(s.poolSize()).isEqualTo(3);
        assertThat(s.createTable()).isFalse();
        assertThat(s.connectTimeoutMillis()).isEqualTo(1500);
        assertThat(s.socketTimeoutMillis()).isEqualTo(4000);
        assertThat(s.pollMaxMillis()).isEqualTo(100);
    }

    @Test
    void defaultsApplyAndAUrlOfOnlyOptionsLosesItsQuery() {
        JdbcSettings s = parse("jdbc:postgresql://db/app?distlock.table=ops.locks");
        assertThat(s.driverUrl()).isEqualTo("jdbc:postgresql://db/app");
        assertThat(s.table()).isEqualTo("ops.locks");
        JdbcSettings d = parse("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1");
        assertThat(d.driverUrl()).isEqualTo("jdbc:h2:mem:x;DB_CLOSE_DELAY=-1");
        assertThat(d.table()).isEqualTo(JdbcSettings.DEFAULT_TABLE);
        assertThat(d.createTable()).isTrue();
        assertThat(d.poolSize()).isEqualTo(8);
        assertThat(d.connectTimeoutMillis()).isEqualTo(3000);
        assertThat(d.pollMinMillis()).isEqualTo(2);
        assertThat(d.pollMaxMillis()).isEqualTo(250);
    }

    @Test
    void theFirstPollPauseIsSetAndMayNotExceedTheLongest() {
        JdbcSettings s = parse("jdbc:h2:mem:x?distlock.pollMinMillis=1s");
        assertThat(s.pollMinMillis()).isEqualTo(1000);
        assertThat(s.pollMaxMillis()).as("the default longest pause rises to the first").isEqualTo(1000);
        assertThatThrownBy(() -> parse("jdbc:h2:mem:x?distlock.pollMinMillis=500&distlock.pollMaxMillis=100"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("distlock.pollMinMillis (500 ms) is more than distlock.pollMaxMillis (100 ms)");
    }

    @Test
    void badOptionsAreRefusedByName() {
        assertThatThrownBy(() -> parse("jdbc:mysql://db/app?distlock.tabel=x"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distlock.tabel")
                .hasMessageContaining("distlock.table");
        assertThatThrownBy(() -> parse("jdbc:mysql://db/app?distlock.table=locks;drop"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distlock.table");
        assertThatThrownBy(() -> parse("jdbc:mysql://db/app?distlock.poolSize=many"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("distlock.poolSize");
        assertThatThrownBy(() -> parse("jdbc:mysql://db/app?distlock.poolSize=0"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 1 and");
        assertThatThrownBy(() -> parse("jdbc:mysql://db/app?distlock.createTable=yes"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("true or false");
        assertThatThrownBy(() -> parse("jdbc:"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("names no database");
    }

    @Test
    void unsupportedDatabasesAndBadDriverSettingsAreRefusedBeforeConnecting() {
        assertThatThrownBy(() -> LockStore.open("jdbc:oracle:thin:@db:1521/app"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("jdbc:oracle:")
                .hasMessageContaining("jdbc:postgresql:");
        assertThatThrownBy(() -> LockStore.open("jdbc:mysql://db/app?useAffectedRows=false"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("useAffectedRows");
        assertThatThrownBy(() -> LockStore.open("jdbc:h2:mem:x?MODE=MySQL"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("after ';'");
    }

    @Test
    void h2ClientSocketsTimeOutAfterTheSocketTimeoutUnlessTheUrlSetsItsOwn() {
        JdbcSettings s = parse("jdbc:h2:tcp://db:9092/mem:x;DB_CLOSE_DELAY=-1?distlock.socketTimeoutMillis=4s");
        assertThat(new H2Dialect("t").driverProperties(s)).containsExactlyEntriesOf(
                java.util.Map.of(H2Dialect.NETWORK_TIMEOUT, "4000"));
        JdbcSettings own = parse("jdbc:h2:tcp://db:9092/mem:x;network_timeout=9000?distlock.socketTimeoutMillis=4s");
        assertThat(new H2Dialect("t").driverProperties(own)).as("H2 refuses a setting given twice").isEmpty();
    }

    @Test
    void messagesNeverShowThePassword() {
        JdbcSettings s = parse("jdbc:postgresql://db/app?user=app&password=s3cret&distlock.poolSize=oops".replace(
                "&distlock.poolSize=oops", ""));
        assertThat(s.toString()).doesNotContain("s3cret");
        assertThat(s.redacted()).doesNotContain("s3cret").contains("password=***");
        assertThatThrownBy(() -> parse("jdbc:postgresql://db/app?user=app&password=s3cret&distlock.poolSize=oops"))
                .hasMessageNotContaining("s3cret");
    }
}

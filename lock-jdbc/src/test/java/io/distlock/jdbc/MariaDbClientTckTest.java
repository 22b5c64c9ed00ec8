package io.distlock.jdbc;

import io.distlock.tck.RefusedSetting;
import io.distlock.tck.fixture.FreePorts;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The whole kit against the machine's MariaDB through the MariaDB client ({@code jdbc:mariadb:}). Tagged slow: the
 * same SQL runs through Connector/J in {@link MariaDbTckTest} by default; run it with
 * {@code ./mvnw -pl lock-jdbc verify -Dsurefire.excludedGroups= -Dtest=MariaDbClientTckTest}.
 */
@Tag("slow")
class MariaDbClientTckTest extends SqlStoreUriTck {

    private static final String URI =
            Databases.withOptions(Databases.mariadb(), "distlock.table=" + Databases.uniqueTable("tck_mc"));

    MariaDbClientTckTest() {
        super(URI, table -> Databases.withOptions(Databases.mariadb(), "distlock.table=" + table));
    }

    @Override
    protected String unreachableStoreUri() {
        return "jdbc:mariadb://127.0.0.1:" + FreePorts.next() + "/test?user=root";
    }

    /** The password in the user info, as {@code password=} and in the MariaDB client's key store password. */
    @Override
    public List<String> urisWithSecret(String secret) {
        return List.of(URI.replaceFirst("//", "//root:" + java.util.regex.Matcher.quoteReplacement(secret) + "@"),
                URI + "&password=" + secret, URI + "&keyStorePassword=" + secret);
    }

    /** {@code useAffectedRows=false} in every spelling and position the driver takes (§22). */
    @Override
    public List<RefusedSetting> refusedSettings() {
        return AffectedRowsSpellings.mariadbClient(URI);
    }
}

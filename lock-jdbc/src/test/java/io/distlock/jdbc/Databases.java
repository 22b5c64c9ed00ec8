package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import io.distlock.tck.fixture.StoreServers;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where the test databases are: MariaDB and PostgreSQL as the kit's fixture finds them ({@code DISTLOCK_MYSQL_URI} /
 * {@code DISTLOCK_POSTGRES_URI}, Testcontainers, this machine's servers, or a MariaDB started from its binaries: see
 * {@link StoreServers}), and a table name unique to each test class run so
 * concurrent runs never see each other's rows. As a JUnit extension ({@code @ExtendWith(Databases.class)}) it drops
 * the tables this JVM's tests created on the shared servers after each test class.
 */
final class Databases implements AfterAllCallback {

    private static final List<String> CREATED = new ArrayList<>();

    /** MariaDB (or MySQL) through Connector/J. */
    static String mysql() {
        return StoreServers.mysql();
    }

    /** The same MariaDB through the MariaDB client. */
    static String mariadb() {
        return mysql().replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
    }

    /** PostgreSQL. */
    static String postgres() {
        return StoreServers.postgres();
    }

    /** A table name unique to this run, prefixed with {@code what}. */
    static String uniqueTable(String what) {
        return ("dl_" + what + "_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }

    /** {@code uri} with distlock options appended ({@code "distlock.table=x&..."}); its table is dropped later. */
    static String withOptions(String uri, String options) {
        // a generous connect timeout: the shared servers answer slowly while the machine is busy with other builds
        String all = options.contains("distlock.connectTimeoutMillis") ? options
                : options + "&distlock.connectTimeoutMillis=10000";
        String full = uri + (uri.contains("?") ? "&" : "?") + all;
        if (!uri.startsWith("jdbc:h2:")) {
            synchronized (CREATED) {
                CREATED.add(full);
            }
        }
        return full;
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        List<String> uris;
        synchronized (CREATED) {
            uris = new ArrayList<>(CREATED);
            CREATED.clear();
        }
        for (String uri : uris) {
            JdbcSettings settings = JdbcSettings.parse(StoreUri.parse(uri));
            try (Connection c = DriverManager.getConnection(settings.driverUrl()); Statement st = c.createStatement()) {
                st.execute("DROP TABLE IF EXISTS " + settings.table());
                st.execute("DROP TABLE IF EXISTS " + settings.table() + "_permits"); // semaphores, if any ran
            }
        }
    }
}

package io.distlock.chaos;

import io.distlock.jdbc.SqlFence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.UUID;

/**
 * The database a SQL-fence run writes to, with tables of the run's own: a fence table ({@link SqlFence}) and a
 * counter table of one row. It is the run's own server when the lock store is that database (its crash and pause
 * then hit the writes too), else the shared server on its usual port; the tables are dropped when the run ends.
 */
final class FenceDatabase implements AutoCloseable {

    /** Which database: PostgreSQL or MariaDB. */
    enum Kind {
        POSTGRESQL("postgresql", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres", "&connectTimeout=3"
                + "&socketTimeout=60"),
        MARIADB("mariadb", "jdbc:mysql://127.0.0.1:3306/test?user=root", "&connectTimeout=3000&socketTimeout=60000");

        private final String label;
        private final String sharedUrl;
        private final String timeouts;

        Kind(String label, String sharedUrl, String timeouts) {
            this.label = label;
            this.sharedUrl = sharedUrl;
            this.timeouts = timeouts;
        }

        boolean isTarget(StoreTarget target) {
            return this == POSTGRESQL ? target instanceof PostgresTarget : target instanceof MariaDbTarget;
        }
    }

    private final String label;
    private final String url;
    private final String suffix = UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    private final String fenceTable = "chaos_fence_" + suffix;
    private final String counterTable = "chaos_counter_" + suffix;

    /** The tables, created on the run's own server if {@code target} is one of this kind, else on the shared one. */
    FenceDatabase(Kind kind, StoreTarget target) throws SQLException {
        boolean own = kind.isTarget(target);
        String base = own ? ((SqlTarget) target).operatorJdbcUrl() : kind.sharedUrl;
        this.url = base + kind.timeouts;
        this.label = kind.label + (own ? " (the run's own server)" : " (shared, 127.0.0.1:" + (kind == Kind.POSTGRESQL
                ? 5432 : 3306) + ")");
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            SqlFence.table(fenceTable).createTableIfMissing(c);
            st.execute("CREATE TABLE " + counterTable + " (id INT PRIMARY KEY, v BIGINT NOT NULL)");
            st.execute("INSERT INTO " + counterTable + " VALUES (1, 0)");
        }
    }

    /** Where the writes go, for the report. */
    String label() {
        return label;
    }

    /** The worker's arguments after the common ones: JDBC URL, fence table, counter table, resource. */
    java.util.List<String> workerArgs() {
        return java.util.List.of(url, fenceTable, counterTable, "counter:1");
    }

    /** The counter's value now. */
    long counter() throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT v FROM " + counterTable + " WHERE id = 1")) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Drops the run's tables. */
    @Override
    public void close() {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + counterTable);
            st.execute("DROP TABLE IF EXISTS " + fenceTable);
        } catch (SQLException e) {
            throw new IllegalStateException("could not drop the run's tables " + counterTable + " and " + fenceTable,
                    e);
        }
    }
}

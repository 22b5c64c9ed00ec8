package io.distlock.cli.demo;

import io.distlock.StaleFenceException;
import io.distlock.jdbc.SqlFence;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The fencing scenario's shared data: two rows of one SQL table that the services write. The plain record is an
 * ordinary last-write-wins {@code UPDATE}; the fenced record is written in a transaction that first calls
 * {@link SqlFence#advance} with the writer's fencing token, so a write carrying a token lower than one already seen
 * is refused and rolled back.
 */
public final class SqlRecords {

    static final String PLAIN = "plain";
    static final String FENCED = "fenced";

    private final String url;
    private final String table;
    private final SqlFence fence;

    /** The records in {@code table} (and its fences in {@code table_fences}) of the database at {@code url}. */
    public SqlRecords(String url, String table) {
        this.url = url;
        this.table = table;
        this.fence = SqlFence.table(table + "_fences");
    }

    /** The records' table (its fences are in {@code <table>_fences}). */
    public String table() {
        return table;
    }

    /** Creates both tables, with the two records empty. */
    public void create() {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            fence.createTableIfMissing(c);
            st.execute("CREATE TABLE " + table
                    + " (id VARCHAR(16) NOT NULL PRIMARY KEY, content VARCHAR(255) NOT NULL)");
            st.execute("INSERT INTO " + table + " (id, content) VALUES ('" + PLAIN + "', ''), ('" + FENCED + "', '')");
        } catch (SQLException e) {
            throw new DemoFailure("could not create the demo's tables " + table + " and " + fence.tableName(), e);
        }
    }

    /** Drops both tables. */
    public void drop() {
        try (Connection c = DriverManager.getConnection(url); Statement st = c.createStatement()) {
            st.execute("DROP TABLE IF EXISTS " + table);
            st.execute("DROP TABLE IF EXISTS " + fence.tableName());
        } catch (SQLException e) {
            throw new DemoFailure("could not drop the demo's tables " + table + " and " + fence.tableName(), e);
        }
    }

    /** Writes the plain record, whatever the token: {@code accepted}. */
    public String writePlain(String value) {
        try (Connection c = DriverManager.getConnection(url)) {
            update(c, PLAIN, value);
            return "accepted";
        } catch (SQLException e) {
            throw new DemoFailure("could not write the plain record", e);
        }
    }

    /**
     * Writes the fenced record in one transaction that starts with {@code SqlFence.advance(c, resource, token)}:
     * {@code accepted}, or {@code REFUSED (...)} when a higher token has already written.
     */
    public String writeFenced(String resource, long token, String value) {
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            try {
                fence.advance(c, resource, token);
                update(c, FENCED, value);
                c.commit();
                return "accepted";
            } catch (StaleFenceException e) {
                c.rollback();
                return "REFUSED (token " + e.fencingToken() + " < " + e.recordedToken() + ", already recorded)";
            } catch (SQLException | RuntimeException e) {
                c.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new DemoFailure("could not write the fenced record", e);
        }
    }

    /** The value of a record ({@code plain} or {@code fenced}). */
    public String value(String record) {
        try (Connection c = DriverManager.getConnection(url);
                PreparedStatement ps = c.prepareStatement("SELECT content FROM " + table + " WHERE id = ?")) {
            ps.setString(1, record);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getString(1) : "";
            }
        } catch (SQLException e) {
            throw new DemoFailure("could not read the " + record + " record", e);
        }
    }

    private void update(Connection c, String record, String value) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE " + table + " SET content = ? WHERE id = ?")) {
            ps.setString(1, value);
            ps.setString(2, record);
            ps.executeUpdate();
        }
    }
}

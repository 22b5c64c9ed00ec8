package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * A {@code jdbc:} store URI split into the URL the driver sees and the distlock options ({@code distlock.*} query
 * parameters), which are stripped from the URL because drivers reject parameters they do not know.
 *
 * @param driverUrl the JDBC URL without distlock options (may hold credentials: never log it)
 * @param redacted the whole store URI without passwords, for messages
 * @param subProtocol the part after {@code jdbc:} up to the next colon, lower case ({@code mysql}, {@code h2}, ...)
 * @param table the lock table, validated as a plain or schema-qualified SQL identifier
 * @param createTable whether the table may be created when missing
 * @param poolSize the most connections the store's pool opens
 * <p>Option values use the toolkit of {@link StoreUri}: the {@code *Millis} options take a bare number of
 * milliseconds or any duration ({@code 3s}, {@code PT3S}); unknown {@code distlock.*} options are refused with the
 * list of known ones.
 *
 * @param connectTimeoutMillis how long to wait for a connection before reporting the store unavailable
 * @param socketTimeoutMillis how long a statement may wait for the server's answer
 * @param pollMinMillis the first pause after a failed acquire attempt; the pauses double from it
 * @param pollMaxMillis the longest pause between two acquire attempts while waiting for a lock held elsewhere; on
 *     MariaDB a waiter queued for its turn ({@code MariaDbTurns}) pauses up to twice its store's last wait for a turn
 *     if that is longer, at most 5 s (or half {@code socketTimeoutMillis}): what a turn holder that hangs costs it
 * @param turns whether waiting stores on MariaDB take turns through the server's named locks, on connections of
 *     their own outside the pool ({@code MariaDbTurns}); false: they only poll
 */
record JdbcSettings(String driverUrl, String redacted, String subProtocol, String table, boolean createTable,
        int poolSize, long connectTimeoutMillis, long socketTimeoutMillis, long pollMinMillis, long pollMaxMillis, boolean turns) {

    static final String PREFIX = "distlock.";
    static final String TABLE = "distlock.table";
    static final String CREATE_TABLE = "distlock.createTable";
    static final String POOL_SIZE = "distlock.poolSize";
    static final String CONNECT_TIMEOUT = "distlock.connectTimeoutMillis";
    static final String SOCKET_TIMEOUT = "distlock.socketTimeoutMillis";
    static final String POLL_MIN = "distlock.pollMinMillis";
    static final String POLL_MAX = "distlock.pollMaxMillis";
    static final String TURNS = "distlock.turns";
    static final Set<String> OPTIONS = new TreeSet<>(List.of(TABLE, CREATE_TABLE, POOL_SIZE, CONNECT_TIMEOUT,
            SOCKET_TIMEOUT, POLL_MIN, POLL_MAX, TURNS));

    /** The default lock table. */
    static final String DEFAULT_TABLE = "distlock_locks";

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}");
    private static final Pattern SUB_PROTOCOL = Pattern.compile("([a-z0-9]+):.*", Pattern.DOTALL);

    /**
     * Parses a {@code jdbc:} store URI.
     *
     * @throws IllegalArgumentException naming the problem: unknown option, bad value, bad table name
     */
    static JdbcSettings parse(StoreUri uri) {
        String redacted = uri.redacted();
        String rest = uri.schemeSpecificPart();
        var m = SUB_PROTOCOL.matcher(rest.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("store uri " + redacted + " names no database; expected for example "
                    + "jdbc:mysql://host:3306/db, jdbc:postgresql://host/db or jdbc:h2:mem:locks");
        }
        uri.requireKnownOptions(PREFIX, OPTIONS);
        String table = uri.param(TABLE, DEFAULT_TABLE);
        requireTableName(table, redacted);
        long pollMin = millis(uri, POLL_MIN, 2, 1, 60_000);
        long pollMax = millis(uri, POLL_MAX, Math.max(250, pollMin), 1, 60_000);
        if (pollMin > pollMax) {
            throw new IllegalArgumentException(POLL_MIN + " (" + pollMin + " ms) is more than " + POLL_MAX + " ("
                    + pollMax + " ms) in " + redacted);
        }
        return new JdbcSettings(driverUrl(uri), redacted, m.group(1), table,
                uri.booleanOption(CREATE_TABLE, true),
                uri.intOption(POOL_SIZE, 8, 1, 1000),
                millis(uri, CONNECT_TIMEOUT, 3000, 250, 600_000),
                millis(uri, SOCKET_TIMEOUT, 10_000, 1000, 3_600_000),
                pollMin, pollMax, uri.booleanOption(TURNS, true));
    }

    /** A {@code *Millis} option, written as a bare number of milliseconds or any duration ({@code 3s}). */
    private static long millis(StoreUri uri, String key, long fallback, long min, long max) {
        return uri.durationOption(key, Duration.ofMillis(fallback), Duration.ofMillis(min), Duration.ofMillis(max))
                .toMillis();
    }

    /** The URI without its {@code distlock.*} query parameters, which drivers would refuse. */
    private static String driverUrl(StoreUri uri) {
        String query = uri.query();
        if (query.isEmpty()) {
            return uri.raw();
        }
        List<String> kept = new ArrayList<>();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            if (!pair.isEmpty() && !StoreUri.decode(eq < 0 ? pair : pair.substring(0, eq)).startsWith(PREFIX)) {
                kept.add(pair);
            }
        }
        String base = "jdbc:" + uri.withoutQuery();
        return kept.isEmpty() ? base : base + "?" + String.join("&", kept);
    }

    private static void requireTableName(String table, String redacted) {
        String[] parts = table.split("\\.", -1);
        boolean ok = parts.length <= 2;
        for (String part : parts) {
            ok &= IDENTIFIER.matcher(part).matches();
        }
        if (!ok) {
            throw new IllegalArgumentException(TABLE + " '" + table + "' in " + redacted
                    + " is not a plain table name: use letters, digits and '_' (at most 63), optionally schema.table");
        }
    }

    /** Whether the driver URL sets the driver property {@code name} (case-insensitive), and to what, else null. */
    String urlProperty(String name) {
        for (Map.Entry<String, String> e : StoreUri.parse(driverUrl).params().entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }

    /** Whether the driver URL has a query ({@code ?...}). */
    boolean hasQuery() {
        return !StoreUri.parse(driverUrl).query().isEmpty();
    }

    /** Never shows credentials. */
    @Override
    public String toString() {
        return "JdbcSettings[" + redacted + "]";
    }
}

package io.distlock.jdbc;

import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * @param connectTimeoutMillis how long to wait for a connection before reporting the store unavailable
 * @param socketTimeoutMillis how long a statement may wait for the server's answer
 * @param pollMaxMillis the longest pause between two acquire attempts while waiting for a lock held elsewhere
 */
record JdbcSettings(String driverUrl, String redacted, String subProtocol, String table, boolean createTable,
        int poolSize, long connectTimeoutMillis, long socketTimeoutMillis, long pollMaxMillis) {

    static final String PREFIX = "distlock.";
    static final String TABLE = "distlock.table";
    static final String CREATE_TABLE = "distlock.createTable";
    static final String POOL_SIZE = "distlock.poolSize";
    static final String CONNECT_TIMEOUT = "distlock.connectTimeoutMillis";
    static final String SOCKET_TIMEOUT = "distlock.socketTimeoutMillis";
    static final String POLL_MAX = "distlock.pollMaxMillis";
    static final Set<String> OPTIONS =
            new TreeSet<>(List.of(TABLE, CREATE_TABLE, POOL_SIZE, CONNECT_TIMEOUT, SOCKET_TIMEOUT, POLL_MAX));

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
        String subProtocol = m.group(1);
        Map<String, String> options = new LinkedHashMap<>();
        String driverUrl = "jdbc:" + stripOptions(rest, options, redacted);
        for (String key : options.keySet()) {
            if (!OPTIONS.contains(key)) {
                throw new IllegalArgumentException("unknown option '" + key + "' in " + redacted
                        + "; distlock options are " + OPTIONS);
            }
        }
        String table = options.getOrDefault(TABLE, DEFAULT_TABLE);
        requireTableName(table, redacted);
        return new JdbcSettings(driverUrl, redacted, subProtocol, table,
                bool(options, CREATE_TABLE, true, redacted),
                (int) number(options, POOL_SIZE, 8, 1, 1000, redacted),
                number(options, CONNECT_TIMEOUT, 3000, 250, 600_000, redacted),
                number(options, SOCKET_TIMEOUT, 10_000, 1000, 3_600_000, redacted),
                number(options, POLL_MAX, 250, 1, 60_000, redacted));
    }

    /** Removes {@code distlock.*} parameters from the query of {@code rest}, putting them (decoded) in options. */
    private static String stripOptions(String rest, Map<String, String> options, String redacted) {
        int q = rest.indexOf('?');
        if (q < 0) {
            return rest;
        }
        List<String> kept = new ArrayList<>();
        for (String pair : rest.substring(q + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int eq = pair.indexOf('=');
            String key = decode(eq < 0 ? pair : pair.substring(0, eq));
            if (key.startsWith(PREFIX)) {
                if (eq < 0) {
                    throw new IllegalArgumentException("option '" + key + "' has no value in " + redacted);
                }
                options.put(key, decode(pair.substring(eq + 1)));
            } else {
                kept.add(pair);
            }
        }
        return kept.isEmpty() ? rest.substring(0, q) : rest.substring(0, q + 1) + String.join("&", kept);
    }

    private static String decode(String s) {
        return java.net.URLDecoder.decode(s, java.nio.charset.StandardCharsets.UTF_8);
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

    private static boolean bool(Map<String, String> options, String key, boolean fallback, String redacted) {
        String v = options.get(key);
        if (v == null) {
            return fallback;
        }
        if (v.equalsIgnoreCase("true") || v.equalsIgnoreCase("false")) {
            return Boolean.parseBoolean(v);
        }
        throw new IllegalArgumentException(key + " must be true or false, got '" + v + "' in " + redacted);
    }

    private static long number(Map<String, String> options, String key, long fallback, long min, long max,
            String redacted) {
        String v = options.get(key);
        if (v == null) {
            return fallback;
        }
        long n;
        try {
            n = Long.parseLong(v.strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(key + " must be a whole number, got '" + v + "' in " + redacted, e);
        }
        if (n < min || n > max) {
            throw new IllegalArgumentException(key + " must be between " + min + " and " + max + ", got " + n
                    + " in " + redacted);
        }
        return n;
    }

    /** Whether the driver URL sets the driver property {@code name} (case-insensitive), and to what, else null. */
    String urlProperty(String name) {
        int q = driverUrl.indexOf('?');
        if (q < 0) {
            return null;
        }
        for (String pair : driverUrl.substring(q + 1).split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equalsIgnoreCase(name)) {
                return eq < 0 ? "" : decode(pair.substring(eq + 1));
            }
        }
        return null;
    }

    /** Never shows credentials. */
    @Override
    public String toString() {
        return "JdbcSettings[" + redacted + "]";
    }
}

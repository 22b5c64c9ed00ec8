package io.distlock.jdbc;

import java.util.Locale;
import java.util.UUID;

/**
 * Where the shared test databases are: MariaDB and PostgreSQL on this machine (overridable with
 * {@code DISTLOCK_MYSQL_URI} / {@code DISTLOCK_POSTGRES_URI}), and a table name unique to each test class run so
 * concurrent runs never see each other's rows.
 */
final class Databases {

    private Databases() {
    }

    /** MariaDB (or MySQL) through Connector/J. */
    static String mysql() {
        return env("DISTLOCK_MYSQL_URI", "jdbc:mysql://127.0.0.1:3306/test?user=root");
    }

    /** The same MariaDB through the MariaDB client. */
    static String mariadb() {
        return mysql().replaceFirst("^jdbc:mysql:", "jdbc:mariadb:");
    }

    /** PostgreSQL. */
    static String postgres() {
        return env("DISTLOCK_POSTGRES_URI", "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
    }

    /** A table name unique to this run, prefixed with {@code what}. */
    static String uniqueTable(String what) {
        return ("dl_" + what + "_" + UUID.randomUUID().toString().substring(0, 8)).toLowerCase(Locale.ROOT);
    }

    /** {@code uri} with distlock options appended ({@code "distlock.table=x&..."}). */
    static String withOptions(String uri, String options) {
        return uri + (uri.contains("?") ? "&" : "?") + options;
    }

    private static String env(String name, String fallback) {
        String v = System.getenv(name);
        return v == null || v.isBlank() ? fallback : v;
    }
}

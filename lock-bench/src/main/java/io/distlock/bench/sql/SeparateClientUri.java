package io.distlock.bench.sql;

import java.util.Locale;

/**
 * A spelling of a {@code jdbc:} store URI per client that opens the same database and table but shares nothing with
 * the other clients of this JVM, as if each ran in its own process: the jdbc store shares release signals (and on
 * PostgreSQL its notice id) among the stores of one JVM whose driver URL and table are equal, so N clients on one
 * URL would wake each other in-process, which N services cannot. The added driver parameter only labels the
 * connection ({@code ApplicationName} on PostgreSQL, a connection attribute on MariaDB).
 */
public final class SeparateClientUri {

    private SeparateClientUri() {
    }

    /** {@code uri} spelled for client {@code client}; a URI of another database is returned as it is. */
    public static String of(String uri, int client) {
        String lower = uri.toLowerCase(Locale.ROOT);
        String parameter;
        if (lower.startsWith("jdbc:postgresql:")) {
            parameter = "ApplicationName=distlock-bench-client-" + client;
        } else if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
            parameter = "connectionAttributes=bench_client:" + client;
        } else {
            return uri;
        }
        return uri + (uri.indexOf('?') < 0 ? "?" : "&") + parameter;
    }
}

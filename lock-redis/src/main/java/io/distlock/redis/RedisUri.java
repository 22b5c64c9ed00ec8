package io.distlock.redis;

import io.distlock.spi.StoreUri;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import redis.clients.jedis.HostAndPort;

/**
 * A Redis store URI taken apart: scheme, optional user and password, one or more {@code host:port} pairs, the path
 * (database number or Sentinel master name) and the options, read with {@link StoreUri}'s toolkit (so a password may
 * hold raw {@code @ / ? # % :}). The password is kept out of {@link #toString()}.
 *
 * @param scheme the scheme in lower case
 * @param user the user name, or null
 * @param password the password, or null (never log it)
 * @param hosts the hosts, at least one
 * @param path the part after the hosts without its leading slash, or an empty string
 * @param options the query options
 * @param redacted the URI without its password, for messages
 */
record RedisUri(String scheme, String user, String password, List<HostAndPort> hosts, String path,
        RedisOptions options, String redacted) {

    /** The default Redis port. */
    static final int DEFAULT_PORT = 6379;

    /**
     * Parses a {@code redis}-family URI.
     *
     * @throws IllegalArgumentException naming what is wrong (without the password)
     */
    static RedisUri parse(StoreUri uri) {
        String redacted = uri.redacted();
        StoreUri.Authority authority = uri.authority();
        if (authority.user() != null && authority.password() == null) { // a lone part before '@' may be a password
            throw new IllegalArgumentException("a " + uri.scheme() + ":// store uri has user info without a colon"
                    + " before '@'; write " + uri.scheme() + "://user:password@host or " + uri.scheme()
                    + "://:password@host");
        }
        List<HostAndPort> hosts = new ArrayList<>();
        for (StoreUri.Host host : authority.hosts()) {
            hosts.add(new HostAndPort(host.host(), host.portOr(DEFAULT_PORT)));
        }
        return new RedisUri(uri.scheme().toLowerCase(Locale.ROOT), authority.user(), authority.password(),
                List.copyOf(hosts), authority.path(), RedisOptions.parse(uri), redacted);
    }

    /** The database number from the path ({@code redis://host/2}), 0 when absent. */
    int database() {
        if (path.isEmpty()) {
            return 0;
        }
        try {
            int db = Integer.parseInt(path);
            if (db < 0) {
                throw new NumberFormatException();
            }
            return db;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' has '/" + path
                    + "' where a database number (0, 1, ...) is expected");
        }
    }

    /** The only host, or an error if the URI lists several. */
    HostAndPort singleHost() {
        if (hosts.size() != 1) {
            throw new IllegalArgumentException("redis store uri '" + redacted + "' lists " + hosts.size()
                    + " hosts; " + scheme + ":// takes one (use redis-cluster://, redis-sentinel:// or redlock:// "
                    + "for several)");
        }
        return hosts.get(0);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return redacted;
    }
}
